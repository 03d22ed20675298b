"""Fair games through Discord (the real bot on the project's fake Discord), in nb, sv and en:
a stop is a forfeit that counts, an abandoned game counts for nobody, a rematch and a teams
lobby wait for the players, auto mode is never timed, private replies are quiet, one board
language, and turn pings."""

from __future__ import annotations

from typing import Any

import pytest

from bot.custom_ids import Verb, build
from classroom.i18n import t
from engine.game import rounds_finished
from engine.regnekrig import ANSWER
from engine.state import Phase, Termination
from tests.bot.e2e import (
    Table,
    best_answer,
    private_texts,
    ref_of,
    strong_vs_weak,
)
from tests.bot.test_records_e2e import reply_of, text_of

# (the pupil who loses by stopping, her Discord locale, our language for it)
STOPPERS = [("alice", "no", "nb"), ("bob", "sv-SE", "sv"), ("carol", "en-US", "en")]
PUPILS = [("alice", "no"), ("bob", "sv-SE"), ("carol", "en-US")]
PING = "målverdien for runde"  # the Norwegian ping to name the target
WINNER = {"alice": "bob", "bob": "carol", "carol": "alice"}


async def play_a_round(table: Table, gid: int) -> None:
    """Answer (best) or flip until the first round is finished (RULES §1.5: a stop before it
    cancels the game instead)."""
    for n in range(40):
        if rounds_finished(table.state(gid)) >= 1:
            return
        for press in await table.step(gid, lambda t_, g, s: best_answer(t_.state(g), s), player=n):
            assert press.answered and not press.rejected
    raise AssertionError("the first round did not finish")


@pytest.mark.parametrize(("stopper", "locale", "lang"), STOPPERS)
async def test_a_stopped_game_is_a_loss_for_the_stopper_in_stats_and_leaderboard(
    table: Table, stopper: str, locale: str, lang: str, no_errors: Any
) -> None:
    """RULES §1.5: "a side that stops a game gives it up: the game ends at once, reason
    `forfeit`; with two sides the other side wins" — so at 42–6 the loser cannot erase it."""
    winner = WINNER[stopper]
    gid = await table.challenge_game(winner, [stopper], game="regnekrig", level=1)
    await play_a_round(table, gid)
    stop = await table.driver.slash(stopper, "mattekrig stop", locale=locale)
    assert stop.original is not None and stop.original.ephemeral
    assert stop.original.content == t("reply.forfeited", lang)
    await table.settle()
    outcome = table.state(gid).outcome
    assert outcome is not None and outcome.reason is Termination.FORFEIT
    stopper_name = table.user(stopper).global_name
    gave_up = t("over.reason.forfeit", "nb", name=stopper_name)  # the server's language
    await table.fake.wait_until(
        lambda: gave_up in table.board(gid).embeds[0]["description"], what="the forfeit shown"
    )
    await table.bot.results.drain()
    result = await table.bot.storage.load_result(gid)
    assert result is not None and result.reason == "forfeit" and result.rated
    stats = await reply_of(table.fake, await table.driver.slash(stopper, "mattekrig stats"))
    assert t("stats.games.value", lang, games=1, wins=0, draws=0, losses=1) in text_of(stats)
    won = await reply_of(table.fake, await table.driver.slash(winner, "mattekrig stats"))
    assert "**1**" in text_of(won) and (await table.bot.storage.load_result(gid)) is not None
    board_reply = await reply_of(
        table.fake, await table.driver.slash(stopper, "mattekrig leaderboard")
    )
    shown = text_of(board_reply)
    winner_name = table.user(winner).global_name or winner
    assert winner_name in shown and shown.index(winner_name) < shown.index(stopper_name or "")


@pytest.mark.parametrize(("host", "locale", "lang"), STOPPERS)
async def test_a_rematch_waits_for_acceptance(
    table: Table, host: str, locale: str, lang: str, no_errors: Any
) -> None:
    """A rematch is a new challenge to the same players: nobody is conscripted."""
    other = WINNER[host]
    gid = await table.challenge_game(host, [other], game="intervallkrig", mode="auto")
    await table.play(gid, strong_vs_weak(weak_side=1))
    await table.settle()
    before = set(table.bot.games.games)
    press = await table.driver.click(
        host, table.board(gid), build(Verb.REMATCH, gid), locale=locale
    )
    assert press.answered and not press.rejected
    await table.settle()
    assert set(table.bot.games.games) == before  # no game yet: a challenge
    challenge = press.original
    assert challenge is not None and not challenge.ephemeral
    invitation = ref_of(challenge, Verb.ACCEPT)
    accepted = await table.driver.click(other, challenge, build(Verb.ACCEPT, invitation))
    assert accepted.answered and not accepted.rejected
    new = await table.new_game(before)
    assert new != gid and {p.user_id for p in table.game(new).players} == {
        table.user(host).id,
        table.user(other).id,
    }


async def test_the_challenger_cannot_accept_her_own_challenge(table: Table, no_errors: Any) -> None:
    _, message = await table.challenge("alice", ["bob"], game="regnekrig")
    own = await table.driver.click(
        "alice", message, build(Verb.ACCEPT, ref_of(message, Verb.ACCEPT))
    )
    assert own.original is not None and own.original.content == t("error.accept_own", "nb")


@pytest.mark.parametrize(("host", "locale", "lang"), STOPPERS)
async def test_a_three_player_teams_lobby_cannot_start(
    table: Table, host: str, locale: str, lang: str, no_errors: Any
) -> None:
    """RULES §1.2: teams are two against two — a teams lobby never starts a free-for-all."""
    start = await table.driver.slash(
        host, "mattekrig start", locale=locale, game="regnekrig", teams=True, thread=False
    )
    lobby = start.original
    assert lobby is not None
    invitation = ref_of(lobby, Verb.JOIN)
    for who in [u for u in ("alice", "bob", "carol") if u != host][:2]:
        joined = await table.driver.click(who, lobby, build(Verb.JOIN, invitation))
        assert joined.answered and not joined.rejected
    before = set(table.bot.games.games)
    begin = await table.driver.click(host, lobby, build(Verb.BEGIN, invitation), locale=locale)
    assert begin.original is not None and begin.original.ephemeral
    assert begin.original.content == t("error.teams_need_four", lang)
    await table.settle()
    assert set(table.bot.games.games) == before


@pytest.mark.parametrize("lang", ["nb", "sv", "en"])
async def test_an_abandoned_game_is_no_draw_and_in_no_record(
    table: Table, lang: str, no_errors: Any
) -> None:
    """RULES §1.5: "the bot ends a game as `abandoned` (no winner, counted for nobody) when
    every human side has let its last three decisions run out of time"."""
    if lang != "nb":
        await table.bot.admin.update_settings(table.fake.guild.id, manager=True, language=lang)
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=1)
    clock = table.clock
    for _ in range(12):
        if table.state(gid).is_over:
            break
        if table.state(gid).phase is Phase.FLIP:
            await table.flip("alice", gid)
            continue
        clock.advance(table.game(gid).settings.answer_seconds + 1)
        await table.bot.scheduler.run_due()
        await table.settle()
    outcome = table.state(gid).outcome
    assert outcome is not None and outcome.reason is Termination.ABANDONED
    assert outcome.winner is None
    await table.settle()
    text = table.board(gid).embeds[0]["description"]
    assert t("over.reason.no_answers", lang, count=3) in text and t("over.draw", lang) not in text
    await table.bot.results.drain()
    assert (await table.stored(gid)).status == "abandoned"
    assert await table.bot.storage.load_result(gid) is None
    assert await table.bot.results.record_pending() == []
    stats = await reply_of(table.fake, await table.driver.slash("alice", "mattekrig stats"))
    assert t("stats.nothing", "nb") in text_of(stats)


@pytest.mark.parametrize(
    ("user", "locale"), [("alice", "no"), ("bob", "sv-SE"), ("carol", "en-US")]
)
async def test_auto_mode_left_alone_for_ten_answer_times_changes_nothing(
    table: Table, user: str, locale: str, no_errors: Any
) -> None:
    """In auto mode the engine decides; nothing is timed and nobody is
    shown thinking, so a game nobody flips stays exactly as it was."""
    gid, _ = await table.start_computer(
        user,
        locale=locale,
        game="regnekrig",
        level=5,
        mode="auto",
        computer="easy",
        answer_seconds=30,
    )
    await table.settle()
    events = await table.events(gid)
    board = table.board(gid).embeds[0]
    timers = await table.bot.storage.timers_for(gid)
    assert all(timer.kind != "answer" for timer in timers)
    clock = table.clock
    for _ in range(10):
        clock.advance(31)  # ten answer times: far below the 10-minute idle end
        await table.bot.scheduler.run_due()
    await table.settle()
    assert await table.events(gid) == events
    assert table.board(gid).embeds[0]["description"] == board["description"]
    for lang in ("nb", "sv", "en"):
        assert t("board.status.thinking", lang) not in str(table.board(gid).embeds)


@pytest.mark.parametrize(
    ("user", "locale"), [("alice", "no"), ("bob", "sv-SE"), ("carol", "en-US")]
)
async def test_a_level_1_game_against_the_computer_leaves_at_most_three_private_messages(
    table: Table, user: str, locale: str, no_errors: Any
) -> None:
    """The board's ✓ acknowledges an answer; nothing piles up."""
    gid, _ = await table.start_computer(user, locale=locale, game="regnekrig", level=1)
    await table.play(gid, strong_vs_weak(weak_side=1))
    await table.settle()
    me = table.user(user).id
    private = [
        text
        for interaction in table.fake.world.interactions.values()
        if interaction.user.id == me
        for text in private_texts(interaction)
    ]
    assert len(private) <= 3, private


async def test_a_swedish_pupil_in_a_norwegian_server_gets_a_norwegian_game(
    table: Table, no_errors: Any
) -> None:
    """Every public message of the game is in the server's language."""
    gid = await table.challenge_game("bob", ["alice"], game="regnekrig", level=5)

    def decide(table: Table, gid: int, side: int) -> Any:
        state = table.state(gid)
        return best_answer(state, side) if state.phase is ANSWER else 3

    for n in range(6):
        await table.step(gid, decide, player=n)
    await table.driver.slash("bob", "mattekrig stop", locale="sv-SE")
    await table.settle()
    public = [m for m in table.fake.world.messages.values() if not m.ephemeral and m.embeds]
    assert public
    for message in public:
        text = text_of(message)
        assert "Omgång" not in text and "Räknekrig" not in text and "Spel #" not in text
    assert t("game.regnekrig.name", "nb") in text_of(table.board(gid))


def pinged(table: Table, gid: int) -> list[Any]:
    """The channel's ping messages (the Norwegian "choose the target" turn ping)."""
    channel = table.board(gid).channel_id
    return [m for m in table.fake.world.channel_messages(channel) if PING in m.content]


async def test_the_namer_is_pinged_once_and_pings_can_be_turned_off(
    table: Table, no_errors: Any
) -> None:
    """A ping only where the game waits for one player (naming the target),
    mentioning only them, once per decision; a server setting turns pings off."""
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=5)
    await table.settle()
    alice = table.user("alice")
    pings = [m for m in pinged(table, gid) if PING in m.content]
    assert len(pings) == 1 and f"<@{alice.id}>" in pings[0].content
    sent = [r for r in table.fake.requests if r.json and r.json.get("content") == pings[0].content]
    assert sent and [int(u) for u in sent[0].json["allowed_mentions"]["users"]] == [alice.id]
    await table.bot.boards.refresh(table.game(gid))
    await table.settle()
    again = [m for m in pinged(table, gid) if PING in m.content]
    assert len(again) == 1  # one ping per decision
    await table.driver.slash("alice", "mattekrig stop")
    await table.settle()
    await table.bot.admin.update_settings(table.fake.guild.id, manager=True, pings=False)
    table.clock.advance(30)  # past the challenge cooldown
    quiet = await table.challenge_game("alice", ["bob"], game="regnekrig", level=5)
    await table.settle()
    later = [m for m in pinged(table, quiet) if PING in m.content]
    assert len(later) == 1  # only the first game's ping
