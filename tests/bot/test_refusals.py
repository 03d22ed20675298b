"""Every refusal gets a short private message in the user's language, in time,
and changes nothing (the stored events are compared before and after). A deleted board is
posted again; a missing permission is named."""

from __future__ import annotations

from typing import Any

import pytest

from bot.custom_ids import Verb, build
from classroom.i18n import t
from engine.regnekrig import TARGET, part_of
from tests.bot.e2e import (
    ANSWER_FIELD,
    Table,
    assert_all_answered,
    assert_quiet,
    assert_refused,
    best_answer,
    cards,
    final_controls,
    private_reply,
    ref_of,
    seed_deals,
)
from tests.fakediscord.state import CREATE_PUBLIC_THREADS, EMBED_LINKS, SEND_MESSAGES


@pytest.fixture
async def duel(table: Table, monkeypatch: pytest.MonkeyPatch) -> int:
    """Alice (nb) against Bob (sv), regnekrig level 3: the game waits for both answers."""
    seed_deals(monkeypatch, 2)
    return await table.challenge_game("alice", ["bob"], game="regnekrig", level=3)


async def test_non_participants_are_told_in_their_language(
    table: Table, duel: int, no_errors: Any
) -> None:
    gid = duel
    before = await table.events(gid)
    window = table.state(gid).window
    carol = await table.open_answer("carol", gid)  # en-US
    await assert_refused(table.fake, carol, "error.not_a_player", "en")
    assert carol.modal is None
    teacher = await table.open_answer("teacher", gid)  # no
    await assert_refused(table.fake, teacher, "error.not_a_player", "nb")
    assert await table.events(gid) == before and table.state(gid).window == window
    assert table.board(gid).history == []  # the board was not touched
    assert_all_answered(table.fake)


async def test_stale_modal_after_the_round_timed_out(
    table: Table, duel: int, no_errors: Any
) -> None:
    """Bob opens the answer modal, the answer time runs out before he sends it: his late
    answer is refused as from a round that is over and does not count for the next one."""
    gid = duel
    opened = await table.open_answer("bob", gid)
    text = best_answer(table.state(gid), 1)
    table.clock.advance(60)
    await table.bot.scheduler.run_due()
    await table.settle()
    assert table.state(gid).window > int(opened.custom_id.split(":")[3])  # type: ignore[union-attr]
    before = await table.events(gid)
    late = await table.driver.submit_modal("bob", opened, {ANSWER_FIELD: text})
    await assert_refused(table.fake, late, "error.round_over", "sv")
    assert await table.events(gid) == before
    assert_all_answered(table.fake)


async def test_stale_button_on_an_old_copy_of_the_board(
    table: Table, monkeypatch: pytest.MonkeyPatch, no_errors: Any
) -> None:
    """A Flip button from an earlier window (a client that has not seen the edit yet) is
    answered with "that round is over" and turns no cards."""
    seed_deals(monkeypatch, 3)
    gid = await table.challenge_game("alice", ["carol"], game="intervallkrig")
    board = table.board(gid)
    old = build(Verb.FLIP, gid, table.state(gid).window)
    await table.flip("alice", gid)
    old_copy = await table.fake.post_message(components=board.history[-1]["components"])
    before = await table.events(gid)
    stale = await table.driver.click("carol", old_copy, old, locale="en-GB")
    await assert_refused(table.fake, stale, "error.round_over", "en")
    assert await table.events(gid) == before
    assert_all_answered(table.fake)


async def test_wrong_side_names_no_target(
    table: Table, monkeypatch: pytest.MonkeyPatch, no_errors: Any
) -> None:
    """Level 5: only the naming side picks the target; the other side is told whose turn it
    is, and the select changes nothing."""
    seed_deals(monkeypatch, 2)
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=5)
    state = table.state(gid)
    assert state.phase is TARGET
    other = table.players_of(gid, 1 - part_of(state).namer)[0]
    lang = {"alice": "nb", "bob": "sv"}[other.username]
    before = await table.events(gid)
    wrong = await table.target(other, gid, 7)
    await assert_refused(table.fake, wrong, "engine.not_your_turn", lang)
    assert await table.events(gid) == before and part_of(table.state(gid)).target is None
    assert_all_answered(table.fake)


async def test_double_submit_counts_once(table: Table, duel: int, no_errors: Any) -> None:
    """Alice opens the modal twice (double click) and sends both: the second is refused."""
    gid = duel
    first = await table.open_answer("alice", gid)
    second = await table.open_answer("alice", gid)
    assert first.modal is not None and second.modal is not None
    text = best_answer(table.state(gid), 0)
    sent = await table.driver.submit_modal("alice", first, {ANSWER_FIELD: text})
    await assert_quiet(table.fake, sent)
    before = await table.events(gid)
    again = await table.driver.submit_modal("alice", second, {ANSWER_FIELD: "1"})
    await assert_refused(table.fake, again, "engine.already_decided", "nb")
    assert await table.events(gid) == before
    press = await table.open_answer("alice", gid)
    await assert_refused(table.fake, press, "engine.already_decided", "nb")
    assert_all_answered(table.fake)


@pytest.mark.parametrize(
    ("text", "key", "values"),
    [
        ("3 +", "answer.rejected.malformed", {}),
        ("abc", "answer.rejected.unknown_symbol", {"symbol": "abc"}),  # the word, whole
        ("(((1)", "answer.rejected.malformed", {}),
    ],
)
async def test_unreadable_answers_are_refused_with_the_reason(
    table: Table, duel: int, text: str, key: str, values: dict[str, str], no_errors: Any
) -> None:
    """An answer the judge cannot read is refused with its reason; the pupil may try again."""
    gid = duel
    before = await table.events(gid)
    _, sent = await table.answer("alice", gid, text)
    assert sent is not None
    await assert_refused(table.fake, sent, key, "nb", **values)
    assert await table.events(gid) == before
    assert 0 in table.state(gid).pending
    _, retry = await table.answer("alice", gid, best_answer(table.state(gid), 0))
    assert retry is not None and retry.answered
    assert 0 not in table.state(gid).pending
    assert_all_answered(table.fake)


async def test_an_illegal_answer_is_told_why_it_counts_as_no_value(
    table: Table, duel: int, no_errors: Any
) -> None:
    """RULES §2.2: a readable but illegal answer counts as *no value*; the pupil is told
    privately which rule it broke (here: multiplying at the division level), with the
    calculation they typed (§2.6), its minus signs the true ones."""
    gid = duel
    a, b = cards(table.state(gid), 1)
    product = f"{a}*{b}" if b >= 0 else f"{a}*({b})"
    _, sent = await table.answer("bob", gid, f"{product}={a * b}")
    assert sent is not None and sent.answered
    typed = product.replace("*", " · ").replace("-", "\u2212")
    expected = t(
        "answer.rejected.operator_not_allowed", "sv", expression=typed, operator="·", level=3
    )
    reply = await private_reply(table.fake, sent)
    assert reply.startswith(expected), reply
    assert t("answer.counts_as_no_value", "sv") in reply
    assert 1 not in table.state(gid).pending  # accepted, as the rules say
    assert_all_answered(table.fake)


async def test_finished_game_buttons_say_it_is_over(
    table: Table, duel: int, no_errors: Any
) -> None:
    """`/mattekrig stop` by a player ends the game; an Answer button still on someone's
    screen is answered with "this game is over"."""
    gid = duel
    board = table.board(gid)
    answer = build(Verb.ANSWER, gid, table.state(gid).window)
    snapshot = board.components
    stop = await table.driver.slash("bob", "mattekrig stop")
    assert stop.answered and stop.original is not None
    assert stop.original.ephemeral and stop.original.content == t("reply.cancelled", "sv")
    await table.settle()
    assert table.board(gid).custom_ids() == final_controls(table, gid)
    assert (await table.stored(gid)).status == "stopped"
    old_copy = await table.fake.post_message(components=snapshot)
    late = await table.driver.click("alice", old_copy, answer)
    await assert_refused(table.fake, late, "error.game_over", "nb")
    nobody = await table.driver.slash("carol", "mattekrig stop")
    await assert_refused(table.fake, nobody, "error.no_game", "en")
    assert_all_answered(table.fake)


async def test_stop_by_someone_else_is_refused(table: Table, duel: int, no_errors: Any) -> None:
    before = await table.events(duel)
    carol = await table.driver.slash("carol", "mattekrig stop")
    await assert_refused(table.fake, carol, "error.stop_not_allowed", "en")
    assert (await table.stored(duel)).status == "live" and await table.events(duel) == before
    # RULES §1.5: a stop is a player giving up; a teacher ends a game with no result instead.
    teacher = await table.driver.slash("teacher", "mattekrig stop")
    await assert_refused(table.fake, teacher, "error.stop_not_allowed", "nb")
    ended = await table.driver.slash("teacher", "mattekrig admin end")
    assert ended.answered and (await table.stored(duel)).status == "stopped"
    assert ended.original is not None and ended.original.ephemeral
    assert ended.original.content == t("admin.end.done", "nb", game=duel)
    await table.settle()
    assert t("over.reason.ended", "nb") in table.board(duel).embeds[0]["description"]
    assert await table.bot.results.record(duel) is None  # no result
    assert_all_answered(table.fake)


async def test_deleted_board_is_posted_again(table: Table, duel: int, no_errors: Any) -> None:
    """A teacher deletes the board; the next change (here the answer timer) posts a new one,
    whose buttons work."""
    gid = duel
    old = table.board(gid)
    await table.fake.delete_message(old)
    table.clock.advance(60)
    await table.bot.scheduler.run_due()
    await table.settle()
    new = table.board(gid)
    assert new.id != old.id and not new.deleted and new.embeds
    assert (await table.stored(gid)).message_id == new.id
    await table.answer("alice", gid, best_answer(table.state(gid), 0))
    assert 0 not in table.state(gid).pending
    assert_all_answered(table.fake, allow=(("PATCH", 404),))  # the edit that found it gone


async def test_answer_sent_after_the_board_was_deleted(
    table: Table, duel: int, no_errors: Any
) -> None:
    """Alice has the modal open when the board is deleted: her answer still counts, she is
    told so, and a new board is posted."""
    gid = duel
    opened = await table.open_answer("alice", gid)
    old = table.board(gid)
    await table.fake.delete_message(old)
    text = best_answer(table.state(gid), 0)
    sent = await table.driver.submit_modal("alice", opened, {ANSWER_FIELD: text})
    # The bot first tries to edit the board it was sent from (Discord: 404 Unknown Message).
    await table.fake.wait_until(lambda: sent.answered, timeout=3.0)
    assert sent.original is not None and sent.original.ephemeral
    assert sent.original.content == t("reply.board_reposted", "nb")
    assert sent.answer_latency is not None and sent.answer_latency < 3.0
    await table.settle()
    assert 0 not in table.state(gid).pending
    new = table.board(gid)
    assert new.id != old.id and not new.deleted
    assert (await table.stored(gid)).message_id == new.id


@pytest.mark.parametrize(
    ("removed", "name"), [(EMBED_LINKS, "Embed Links"), (SEND_MESSAGES, "Send Messages")]
)
async def test_missing_permission_is_named(
    table: Table, removed: int, name: str, no_errors: Any
) -> None:
    """The start command checks the bot's permissions in the channel first and names the one
    that is missing; no game or invitation is created."""
    world = table.fake.world
    for role in world.guild.roles.values():
        role.permissions &= ~removed
    start = await table.driver.slash(
        "carol", "mattekrig start", game="regnekrig", computer="easy", thread=False
    )
    await assert_refused(table.fake, start, "error.missing_permission", "en", permission=name)
    assert table.bot.games.games == {}
    assert await table.bot.storage.open_invitations() == []
    assert_all_answered(table.fake)


async def test_board_post_forbidden_when_a_challenge_is_accepted(
    table: Table, no_errors: Any
) -> None:
    """Discord refuses the board (the bot lost Send Messages after the challenge was sent):
    the pupil is told which permission is missing, and the channel is not left blocked by a
    game without a board."""
    _, message = await table.challenge("alice", ["carol"], game="regnekrig", thread=False)
    table.fake.faults.missing_permissions("POST /channels/{channel_id}/messages", times=5)
    accept = await table.driver.click(
        "carol", message, build(Verb.ACCEPT, ref_of(message, Verb.ACCEPT))
    )
    await assert_refused(
        table.fake, accept, "error.missing_permission", "en", permission="Send Messages"
    )
    await table.settle()
    assert table.bot.games.in_channel(table.fake.channel.id) is None


async def test_thread_needs_no_extra_permission_to_fall_back(table: Table, no_errors: Any) -> None:
    """Without Create Public Threads, `thread:true` plays in the channel instead."""
    for role in table.fake.world.guild.roles.values():
        role.permissions &= ~CREATE_PUBLIC_THREADS
    gid, start = await table.start_computer("alice", game="regnekrig", thread=True)
    assert table.game(gid).record.thread_id is None
    assert start.original is not None and start.original.id == table.board(gid).id
    assert_all_answered(table.fake)


async def test_rematch_by_a_spectator_is_refused(table: Table, duel: int, no_errors: Any) -> None:
    await table.driver.slash("alice", "mattekrig stop")
    await table.settle()
    press = await table.driver.click("carol", table.board(duel), build(Verb.REMATCH, duel))
    await assert_refused(table.fake, press, "error.not_a_player", "en")
    assert len(table.bot.games.games) == 0
    assert_all_answered(table.fake)
