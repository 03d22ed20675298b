"""Stop the bot mid-round and start it again on the same database. The board that the
old process posted keeps working (its buttons are `DynamicItem`s parsed from the custom_id),
nothing already accepted is lost, and the stored deadlines still fire."""

from __future__ import annotations

from typing import Any

import pytest

from bot.custom_ids import Verb, build
from bot.services.invitations import COOLDOWN_MS
from classroom.i18n import t
from classroom.text.cards import number_text
from engine.intervallkrig import BET
from engine.regnekrig import ANSWER, TARGET, part_of
from tests.bot.e2e import (
    ANSWER_FIELD,
    Table,
    assert_all_answered,
    assert_quiet,
    assert_refused,
    best_answer,
    cards,
    ref_of,
    seed_deals,
)


def wrong_answer(table: Table, gid: int, side: int) -> str:
    """A readable answer that no legal expression gives: it counts as *no value*."""
    a, b = cards(table.state(gid), side)
    return str(a + b + 1)


async def restart(table: Table) -> None:
    old = table.bot
    await table.harness.restart()
    assert table.bot is not old and old.is_closed()


async def test_restart_after_an_answer(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice has answered, Bob has the modal open; the bot restarts. Bob's open modal and the
    old board's Answer button both still work, and Alice's answer counts."""
    seed_deals(monkeypatch, 2)
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=3)
    board = table.board(gid)
    window = table.state(gid).window
    alice_text = best_answer(table.state(gid), 0)
    await table.answer("alice", gid, alice_text)
    opened = await table.open_answer("bob", gid)  # Bob is still typing when the bot goes down
    assert opened.modal is not None
    before = await table.events(gid)

    await restart(table)
    assert await table.events(gid) == before
    state = table.state(gid)
    assert state.window == window and state.pending == (1,)  # Alice's answer is still in
    assert table.game(gid).record.message_id == board.id

    # Alice presses again on the old board: the new process knows she has decided.
    again = await table.driver.click("alice", board, build(Verb.ANSWER, gid, window))
    await assert_refused(table.fake, again, "engine.already_decided", "nb")

    bob_text = best_answer(state, 1)
    sent = await table.driver.submit_modal("bob", opened, {ANSWER_FIELD: bob_text})
    assert sent.answered and sent.response_type == 7
    await assert_quiet(table.fake, sent)
    await table.settle()
    after = await table.events(gid)
    assert after[: len(before)] == before and len(after) == len(before) + 1
    shown = {e["side"]: e for e in after[-1][2] if e["type"] == "value"}
    assert set(shown) == {0, 1}  # both answers revealed together, Alice's from before
    assert shown[0]["value"] is not None and shown[1]["value"] is not None
    assert shown[0]["expr"].replace(" ", "") != "" and "reason" not in shown[0]
    assert table.state(gid).window > window
    assert table.fake.message(board.id).edited_at is not None
    assert table.board(gid).id == board.id  # the same message, edited
    assert_all_answered(table.fake)


async def test_restart_during_a_bet_window(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Satsing: Alice has bet, the bot restarts; Bob's hint and his No-bet on the old board
    work, and Alice's bet is carried out when the bets are revealed."""
    seed_deals(monkeypatch, 5)
    gid = await table.challenge_game("alice", ["bob"], game="satsing")
    board = table.board(gid)
    window = table.state(gid).window
    bet = await table.bet("alice", gid, 1)
    assert bet.answered
    before = await table.events(gid)

    await restart(table)
    state = table.state(gid)
    assert state.phase is BET and state.pending == (1,) and state.window == window
    assert await table.events(gid) == before

    hint = await table.driver.click("bob", board, build(Verb.HINT, gid, window), locale="sv-SE")
    assert hint.answered and hint.original is not None and hint.original.ephemeral
    assert t("hint.title", "sv") in hint.original.content
    double = await table.driver.click("alice", board, build(Verb.BET, gid, window, "0"))
    await assert_refused(table.fake, double, "engine.already_decided", "nb")
    assert await table.events(gid) == before

    passed = await table.driver.click("bob", board, build(Verb.PASS, gid, window))
    assert passed.answered and passed.response_type == 7
    await table.settle()
    revealed = [e for e in (await table.events(gid))[-1][2]]
    assert any(e["type"] == "bet" and e["side"] == 0 for e in revealed), revealed
    assert any(e["type"] == "swap" and e["side"] == 0 for e in revealed), revealed
    assert any(e["type"] == "pass" and e["side"] == 1 for e in revealed), revealed
    assert_all_answered(table.fake)


async def test_restart_during_a_war(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both sides answer wrongly, so both have no value: war. The bot restarts in the middle
    of the war; the war's cards are still on the table and the winner takes the whole pot."""
    seed_deals(monkeypatch, 7)
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=1, war_size=3)
    await table.answer("alice", gid, wrong_answer(table, gid, 0))
    await table.answer("bob", gid, wrong_answer(table, gid, 1))
    state = table.state(gid)
    declared = [e for e in (await table.events(gid))[-1][2] if e["type"] == "war"]
    assert declared and declared[0]["sides"] == [0, 1]
    assert state.phase is ANSWER and state.pending == (0, 1)
    pot = state.table_count
    assert pot == 4 + 2 * (3 + 2)  # the round's 2 + 2, then 3 face down and 2 up each
    description = table.board(gid).embeds[0]["description"]
    assert t("result.war.war", "nb", names="@").split("@")[0] in description
    before = await table.events(gid)
    counts = state.counts

    await restart(table)
    restored = table.state(gid)
    assert restored.table_count == pot and restored.counts == counts
    assert restored.up == state.up and restored.pending == (0, 1)
    assert await table.events(gid) == before

    await table.answer("alice", gid, best_answer(restored, 0))
    await table.answer("bob", gid, best_answer(restored, 1))
    await table.settle()
    last = (await table.events(gid))[-1][2]
    won = [e for e in last if e["type"] == "round_won"]
    assert len(won) == 1 and won[0]["cards"] == pot, last  # the whole pot, war cards included
    assert sum(table.state(gid).counts) + table.state(gid).table_count == 52
    assert_all_answered(table.fake)


async def test_timers_fire_after_restart(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer time and the game's time limit are stored deadlines: after a restart the new
    process fires them (a random target, then no value for both, then time up)."""
    seed_deals(monkeypatch, 2)
    gid = await table.challenge_game(
        "alice", ["bob"], game="regnekrig", level=5, answer_seconds=30, minutes=2
    )
    board = table.board(gid)
    assert table.state(gid).phase is TARGET
    before = await table.events(gid)

    await restart(table)
    assert table.game(gid).answer_due_ms is not None
    assert table.game(gid).time_limit_due_ms is not None
    clock = table.clock
    clock.advance(30)
    await table.bot.scheduler.run_due()
    await table.settle()
    state = table.state(gid)
    drawn = part_of(state).target
    assert state.phase is ANSWER and drawn is not None  # drawn at random
    after = await table.events(gid)
    assert after[: len(before)] == before and after[-1][1]["type"] == "timeout"
    assert table.board(gid).id == board.id
    target = t("board.target", "nb", target=number_text(drawn))
    assert target in table.fake.message(board.id).embeds[0]["description"]

    await restart(table)
    clock.advance(30)
    await table.bot.scheduler.run_due()
    await table.settle()
    timeouts = [e for e in (await table.events(gid)) if e[1]["type"] == "timeout"]
    assert len(timeouts) == 3  # the target, then both answers

    await restart(table)
    clock.advance(60)
    await table.bot.scheduler.run_due()
    await table.settle()
    assert table.state(gid).time_up
    assert any(e[1]["type"] == "time_up" for e in await table.events(gid))
    assert_all_answered(table.fake)


async def test_flip_autoplay_and_target_buttons_after_restart(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every kind of board control posted by the old process works in the new one: Flip,
    Autoplay (whose stored pace timer resumes), and the target select."""
    seed_deals(monkeypatch, 3)
    gid = await table.challenge_game("alice", ["carol"], game="intervallkrig")
    board = table.board(gid)
    await restart(table)
    seq = table.state(gid).seq
    flip = await table.driver.click("carol", board, build(Verb.FLIP, gid, table.state(gid).window))
    assert flip.answered and flip.response_type == 7 and table.state(gid).seq > seq
    auto = await table.driver.click("alice", board, build(Verb.AUTO, gid, table.state(gid).window))
    assert auto.answered and table.game(gid).autoplay
    await restart(table)
    assert table.game(gid).autoplay  # restored from the stored pace timer
    seq = table.state(gid).seq
    table.clock.advance(3)
    await table.bot.scheduler.run_due()
    await table.settle()
    assert table.state(gid).seq > seq or table.state(gid).is_over
    await table.driver.slash("alice", "mattekrig stop")

    seed_deals(monkeypatch, 2)
    # The challenge cooldown is stored, so it outlives the restarts above: wait it out.
    table.clock.advance(COOLDOWN_MS / 1000)
    other = await table.challenge_game("alice", ["bob"], game="regnekrig", level=6)
    board = table.board(other)
    namer = table.players_of(other, part_of(table.state(other)).namer)[0]
    await restart(table)
    named = await table.driver.select(
        namer, board, build(Verb.TARGET, other, table.state(other).window, "lo"), ["-3"]
    )
    assert named.answered and named.response_type == 7
    assert part_of(table.state(other)).target == -3 and table.state(other).phase is ANSWER
    assert_all_answered(table.fake)


async def test_challenge_and_lobby_buttons_after_restart(table: Table, no_errors: Any) -> None:
    """A challenge and a lobby sent before a restart can still be accepted and joined."""
    _, challenge = await table.challenge("alice", ["bob"], game="regnekrig")
    lobby_start = await table.driver.slash(
        "carol", "mattekrig start", game="satsing", thread=False, channel=_second_channel(table)
    )
    lobby = lobby_start.original
    assert lobby is not None
    await restart(table)
    before = set(table.bot.games.games)
    accept = await table.driver.click(
        "bob", challenge, build(Verb.ACCEPT, ref_of(challenge, Verb.ACCEPT))
    )
    assert accept.answered and accept.response_type == 7
    gid = await table.new_game(before)
    assert table.game(gid).record.channel_id == table.fake.channel.id
    lobby_ref = ref_of(lobby, Verb.JOIN)
    joined = await table.driver.click("teacher", lobby, build(Verb.JOIN, lobby_ref))
    assert joined.answered and joined.response_type == 7
    invitation = await table.bot.storage.load_invitation(lobby_ref)
    assert table.user("teacher").id in invitation.user_ids("joined")
    assert_all_answered(table.fake)


def _second_channel(table: Table) -> Any:
    world = table.fake.world
    existing = [c for c in world.channels.values() if c.name == "matte-2"]
    return existing[0] if existing else world.add_channel("matte-2")
