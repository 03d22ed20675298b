"""Shared builders for the results, ratings, board, stats and privacy service tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bot.services.admin import AdminService
from bot.services.deadlines import GameDeadlines
from bot.services.games import GameService
from bot.services.leaderboard import LeaderboardService
from bot.services.privacy import PrivacyService
from bot.services.results import ResultsService
from classroom.settings import GameSettings, settings_from_options
from engine.actions import FLIP_CHOICE
from engine.game import awaited, rounds_finished
from engine.regnekrig import ANSWER_CHOICE
from storage import Player, Storage
from tests.bot.clock import FakeClock

GUILD = 1


@pytest.fixture(name="results")
def results_fixture(storage: Storage, clock: FakeClock) -> ResultsService:
    return ResultsService(storage, clock)


@pytest.fixture(name="leaderboards")
def boards_fixture(storage: Storage, clock: FakeClock) -> LeaderboardService:
    return LeaderboardService(storage, clock)


@pytest.fixture(name="admin")
def admin_fixture(storage: Storage, clock: FakeClock, results: ResultsService) -> AdminService:
    return AdminService(storage, clock, results)


@pytest.fixture(name="privacy")
def privacy_fixture(storage: Storage, clock: FakeClock, results: ResultsService) -> PrivacyService:
    return PrivacyService(storage, clock, results)


def people(*user_ids: int, teams: bool = False) -> list[Player]:
    """Seats in order; with ``teams`` seats 0 and 2 play seats 1 and 3 (RULES §1.2)."""
    return [
        Player(seat=i, side=i % 2 if teams else i, display_name=f"P{uid}", user_id=uid)
        for i, uid in enumerate(user_ids)
    ]


async def start(
    games: GameService,
    players: Sequence[Player],
    *,
    seed: int = 1,
    channel_id: int = 10,
    settings: GameSettings | None = None,
    **options: Any,
) -> int:
    if settings is None:
        options = {"game": "regnekrig", "level": 1, "mode": "auto", **options}
        options.setdefault("sides", len({p.side for p in players}))
        settings = settings_from_options(**options)
    update = await games.start(
        guild_id=GUILD, channel_id=channel_id, settings=settings, players=players, seed=seed
    )
    return update.game.id


async def play_out(games: GameService, clock: FakeClock, game_id: int, user_id: int) -> None:
    """Flip (auto mode) until the game is over, one second per flip."""
    game = games.live(game_id)
    while not game.is_finished:
        clock.advance(1)
        await games.choose(game_id, user_id, None, FLIP_CHOICE)


async def auto_game(
    games: GameService, clock: FakeClock, players: Sequence[Player], **options: Any
) -> int:
    game_id = await start(games, players, **options)
    first = next(p.user_id for p in players if p.user_id is not None)
    await play_out(games, clock, game_id, first)
    return game_id


async def finish_a_round(games: GameService, clock: FakeClock, game_id: int) -> None:
    """Play until the first round is finished (RULES §1.5: a stop before that cancels the
    game), every side answering its cards' sum (level 1) or flipping."""
    game = games.live(game_id)
    while rounds_finished(game.state) == 0 and not game.is_finished:
        clock.advance(1)
        deciding = awaited(game.state)
        if not deciding:
            side = game.state.live_sides[0]
            flipper = next(p.user_id for p in game.players_of(side) if p.user_id is not None)
            await games.choose(game_id, flipper, None, FLIP_CHOICE)
            continue
        for side in deciding:
            a, b = game.state.up[side]
            player = next(p.user_id for p in game.players_of(side) if p.user_id is not None)
            await games.choose(
                game_id, player, game.state.window, ANSWER_CHOICE, text=str(a.value + b.value)
            )


async def regn_game(
    games: GameService,
    clock: FakeClock,
    players: Sequence[Player],
    *,
    rounds: int = 3,
    **options: Any,
) -> int:
    """A rated game (regn mode, where skill decides): level 1 with a
    one-minute time limit, every side answering its true sum; after ``rounds`` rounds the time
    runs out, the round in play is finished and the game ends by the rules (RULES §1.5)."""
    options = {"mode": "regn", "minutes": 1, **options}
    game_id = await start(games, players, **options)
    game = games.live(game_id)
    deadlines = GameDeadlines(games, games.storage, clock)
    by_side = {p.side: p.user_id for p in players if p.user_id is not None}
    answered = 0
    while not game.is_finished:
        state = game.state
        if answered == rounds * len(by_side):
            clock.advance(61)
            await deadlines.fire_due()
            answered += 1
            continue
        if not state.pending:
            clock.advance(1)
            await games.choose(game_id, next(iter(by_side.values())) or 0, None, FLIP_CHOICE)
            continue
        side = state.pending[0]
        a, b = state.up[side][-2:]
        clock.advance(2)
        await games.choose(
            game_id, by_side[side] or 0, state.window, ANSWER_CHOICE, text=str(a.value + b.value)
        )
        answered += 1
    return game_id
