"""A history that names one pupil in every table, for the privacy tests (services, the
operator's command line, every backend)."""

from __future__ import annotations

from bot.services.games import GameService
from bot.services.invitations import InvitationService
from bot.services.leaderboard import LeaderboardService
from bot.services.results import ResultsService
from engine.regnekrig import ANSWER_CHOICE
from storage import Player
from tests.bot.clock import FakeClock
from tests.bot.services.conftest import ALICE, BOB
from tests.bot.services.results_support import (
    GUILD,
    auto_game,
    finish_a_round,
    people,
    regn_game,
    start,
)

ZELDA = 777_000_000_000_000_123  # a snowflake-sized id, unlike any other number stored
NAME = "Zelda Ørnebu"


async def a_full_history(
    games: GameService,
    invitations: InvitationService,
    results: ResultsService,
    leaderboards: LeaderboardService,
    clock: FakeClock,
) -> dict[str, int]:
    """Zelda in every table: games (finished and answered), results with answers and ratings,
    a challenge she hosts, a lobby she joined as its host's chosen partner, a departed mark,
    an accommodation, a practice note."""
    zelda = Player(seat=0, side=0, display_name=NAME, user_id=ZELDA)
    alice = Player(seat=1, side=1, display_name="Alice", user_id=ALICE)
    played = await regn_game(games, clock, [zelda, alice], seed=3)  # rated: regn mode
    answered = await start(games, [zelda, alice], mode="regn", channel_id=11)
    game = games.live(answered)
    clock.advance(3)
    await games.choose(answered, ZELDA, game.state.window, ANSWER_CHOICE, text="1")
    await games.choose(
        answered, ALICE, game.state.window, ANSWER_CHOICE, text="1"
    )  # both answered: revealed
    await finish_a_round(games, clock, answered)
    await games.stop(answered, ZELDA)  # RULES §1.5: a forfeit, recorded
    others = await auto_game(games, clock, people(ALICE, BOB), seed=4, channel_id=12)
    for game_id in (played, answered, others):
        assert await results.record(game_id) is not None
    clock.advance(30)
    await invitations.challenge(
        guild_id=GUILD,
        channel_id=10,
        host_id=ZELDA,
        invited=[BOB],
        options={"game": "regnekrig"},
        names={ZELDA: NAME, BOB: "Bob"},
    )
    lobby = await invitations.lobby(
        guild_id=GUILD, channel_id=13, host_id=ALICE, options={}, host_name="Alice"
    )
    await invitations.join(lobby.id, ZELDA, NAME)
    await invitations.choose_partner(lobby.id, ALICE, ZELDA)  # her id in its options
    await leaderboards.members_left(GUILD, [ZELDA])
    # a teacher's (the same storage as the games', seen as the whole backend it is)
    await leaderboards.storage.set_accommodation(GUILD, ZELDA, 200, clock.now_ms())
    # RULES §2.6: a rounded answer of hers, refused and typed again (the count only)
    await leaderboards.storage.add_practice_note(answered, GUILD, ZELDA, "not_exact")
    return {"played": played, "answered": answered, "others": others, "lobby": lobby.id}
