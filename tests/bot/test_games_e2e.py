"""A full game of each game to its end, driven only through slash commands, buttons,
selects and modals against the fake Discord.

The tests read the bot's game state only as a pupil's eyes (the cards on the board, to type a
correct answer); every action is a Discord interaction. Deals are seeded so each game is short
and the same on every run (`seed_deals`).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.custom_ids import Verb, build
from bot.render.display_names import side_names
from classroom.i18n import t
from engine.intervallkrig import BET
from engine.regnekrig import ANSWER, part_of
from tests.bot.e2e import (
    Table,
    assert_all_answered,
    assert_game_over,
    assert_quiet,
    best_answer,
    seed_deals,
    strong_vs_weak,
)

# A deal per level whose game ends in few rounds with `strong_vs_weak` (measured; any deal
# ends, these keep CI fast).
LEVEL_SEEDS = {1: 7, 3: 2, 5: 2, 7: 11}


def ended_by(table: Table, gid: int) -> str:
    """Why the game ended (RULES §1.5), as the board names it; the game must be over."""
    outcome = table.state(gid).outcome
    assert outcome is not None, "the game is not over"
    return outcome.reason.value


@pytest.mark.parametrize("level", [1, 3, 5, 7])
async def test_regnekrig_to_the_end_in_regn_mode(
    table: Table, level: int, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice challenges Bob, Bob accepts; both answer every round in the modal (levels 5 and 7:
    the naming side picks the target in the select) until one side holds all the cards."""
    seed_deals(monkeypatch, LEVEL_SEEDS[level])
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=level)
    board_id = table.board(gid).id

    # The first answer, looked at closely: the modal shows the side's own cards, the private
    # reply confirms, and the board (the same message) shows that Alice has answered.
    if level >= 5:
        namer = table.players_of(gid, part_of(table.state(gid)).namer)[0]
        named = await table.target(namer, gid, 4)
        assert named.answered and named.response_type == 7  # the board itself was edited
        assert part_of(table.state(gid)).target == 4
    assert table.state(gid).phase is ANSWER
    a, b = (c.value for c in table.state(gid).up[0])
    opened, sent = await table.answer("alice", gid, best_answer(table.state(gid), 0))
    assert opened.modal is not None and sent is not None
    description = opened.modal.components[0].get("description", "")
    assert all(str(abs(v)) in description for v in (a, b)), description
    assert sent.response_type == 7  # the board, edited by the submit's own response
    await assert_quiet(table.fake, sent)
    assert 0 not in table.state(gid).pending

    presses = await table.play(gid, strong_vs_weak(level))
    state = await assert_game_over(table, gid, "nb", "all_cards")
    assert sorted(state.counts) == [0, 52]
    assert table.board(gid).id == board_id  # one board, edited in place, never re-posted
    if level >= 5:
        assert any(p.payload["data"].get("values") for p in presses)  # targets from the select
    assert_all_answered(table.fake)


async def test_intervallkrig_to_the_end(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Intervallkrig needs no decisions: the players press Flip (either of them), then switch
    on Autoplay, which turns the cards on the scheduler's clock until the game ends."""
    seed_deals(monkeypatch, 3)
    gid = await table.challenge_game("alice", ["carol"], game="intervallkrig")
    assert table.board(gid).custom_ids() == [
        build(Verb.FLIP, gid, table.state(gid).window),
        build(Verb.AUTO, gid, table.state(gid).window),
    ]
    for who in ("alice", "carol", "alice"):
        seq = table.state(gid).seq
        press = await table.flip(who, gid)
        assert press.answered and press.response_type == 7
        assert table.state(gid).seq > seq  # the cards were turned

    press = await table.autoplay("carol", gid)
    assert press.answered and table.game(gid).autoplay
    bot = table.bot
    for _ in range(2_000):
        if table.state(gid).is_over:
            break
        table.clock.advance(3)
        await bot.scheduler.run_due()
    await assert_game_over(table, gid, "nb", ended_by(table, gid))
    assert_all_answered(table.fake)


async def test_satsing_with_bets_to_the_end(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Satsing: every round both sides decide at once (bet and swap left/right, or no bet);
    the hint shows the chances privately. Bets and swaps are stored and shown."""
    seed_deals(monkeypatch, 5)
    gid = await table.challenge_game("alice", ["bob"], game="satsing")
    assert table.state(gid).phase is BET
    window = table.state(gid).window
    assert table.board(gid).custom_ids() == [
        build(Verb.BET, gid, window, "0"),
        build(Verb.BET, gid, window, "1"),
        build(Verb.PASS, gid, window),
        build(Verb.HINT, gid, window),
    ]
    hint = await table.hint("alice", gid)
    assert hint.answered and hint.original is not None and hint.original.ephemeral
    assert t("hint.title", "nb") in hint.original.content
    bet = await table.bet("alice", gid, 0)
    assert bet.answered and bet.response_type == 7
    await assert_quiet(table.fake, bet)  # the board's ✓ is the acknowledgement
    passed = await table.bet("bob", gid, None, locale="sv-SE")
    await assert_quiet(table.fake, passed)

    rng = random.Random(5)

    def decide(table: Table, gid: int, side: int) -> Any:
        return rng.choice([0, 1, None, None])

    await table.play(gid, decide)
    state = await assert_game_over(table, gid, "nb", ended_by(table, gid))
    assert state.is_over
    kinds = {e["type"] for _, _, events in await table.events(gid) for e in events}
    assert {"bet", "swap", "pass"} <= kinds
    assert_all_answered(table.fake)


async def test_two_against_two(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Four players, teams: Alice and Carol against Bob and Dave. Each challenged player
    accepts; either member of a team answers for it, and the first answer counts."""
    seed_deals(monkeypatch, 7)
    dave = table.fake.world.add_user("dave", locale="no")
    gid = await table.challenge_game(
        "alice", ["bob", "carol", dave.username], game="regnekrig", level=1, teams=True
    )
    game = table.game(gid)
    assert game.state.config.sides == 2
    assert {p.display_name for p in game.players_of(0)} == {"Alice", "Carol"}
    assert {p.display_name for p in game.players_of(1)} == {"Bob", "Dave"}
    names = side_names(game, "nb")
    fields = [f["name"] for f in table.board(gid).embeds[0]["fields"]]
    assert any(names[0] in f for f in fields) and any(names[1] in f for f in fields)

    # Carol answers for her team; Alice (same side) is then told it is decided.
    await table.answer("carol", gid, best_answer(table.state(gid), 0))
    again = await table.open_answer("alice", gid)
    from tests.bot.e2e import assert_refused

    await assert_refused(table.fake, again, "engine.already_decided", "nb")

    await table.play(gid, strong_vs_weak(1))
    await assert_game_over(table, gid, "nb", "all_cards")
    users = {e.user_id for e in (await table.stored(gid)).events if e.user_id is not None}
    assert users == {table.user(n).id for n in ("alice", "bob", "carol", "dave")}
    assert_all_answered(table.fake)


async def test_against_the_computer_with_rematch(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/mattekrig start computer:medium` starts at once; the computer names its targets and
    answers on its own, the pupil only sees buttons when it is her turn. After the end,
    Rematch starts the same game again on a new board."""
    seed_deals(monkeypatch, 1)
    gid, start = await table.start_computer("alice", game="regnekrig", level=5, computer="medium")
    assert start.original is not None and start.original.id == table.board(gid).id
    assert start.original.embeds and not start.original.ephemeral
    game = table.game(gid)
    assert game.computer_sides() == {1}
    await table.play(gid, strong_vs_weak(weak_side=-1))
    await assert_game_over(table, gid, "nb", ended_by(table, gid))
    stored = await table.stored(gid)
    assert any(e.user_id is None and e.action["type"] == "target" for e in stored.events)

    before = set(table.bot.games.games)
    rematch = await table.driver.click("alice", table.board(gid), build(Verb.REMATCH, gid))
    assert rematch.answered and not rematch.rejected
    new = await table.new_game(before)
    assert new != gid and table.board(new).id != table.board(gid).id
    assert table.game(new).record.channel_id == table.fake.channel.id
    assert table.game(new).settings == table.game(gid).settings
    assert_all_answered(table.fake)


async def test_timed_game_ends_on_time(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`minutes:1`: when the time runs out mid-round, the board says this round is the last;
    once it is decided the side with the most cards wins (RULES §1.5)."""
    seed_deals(monkeypatch, 4)
    gid, _ = await table.start_computer(
        "carol", game="regnekrig", level=3, computer="easy", minutes=1, locale="en-US"
    )
    board = table.board(gid)
    assert "<t:" in board.embeds[0]["description"]  # the countdown to the end
    for _ in range(3):  # a few rounds, then time runs out while Carol thinks
        await table.answer("carol", gid, best_answer(table.state(gid), 0), locale="en-US")
    assert table.state(gid).phase is ANSWER
    table.clock.advance(60)
    await table.bot.scheduler.run_due()
    await table.settle()
    assert table.state(gid).time_up and not table.state(gid).is_over
    assert t("board.time_up", "nb") in table.board(gid).embeds[0]["description"]  # the server's

    await table.play(gid, strong_vs_weak(weak_side=-1))
    state = await assert_game_over(table, gid, "nb", "time_up")
    counts = state.counts
    if counts[0] == counts[1]:
        assert state.outcome is not None and state.outcome.winner is None
    else:
        assert state.outcome is not None
        assert state.outcome.winner == max(range(2), key=lambda s: counts[s])
    assert state.round <= 6
    assert_all_answered(table.fake)
