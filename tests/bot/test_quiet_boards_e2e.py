"""Quiet boards, through Discord (the real bot on the project's fake Discord): a class channel
hears from a game only when it matters. A turn ping is never sent in a game against the
computer, and reaches a player at most once a minute."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from typing import Any

import pytest

from bot.custom_ids import Verb, build
from bot.pings import PING_EVERY_MS
from classroom.i18n import LANGS, t
from engine.game import rounds_finished
from engine.regnekrig import ANSWER
from tests.bot.e2e import (
    Decider,
    Table,
    assert_refused,
    private_reply,
    seed_deals,
    speak,
    strong_vs_weak,
)
from tests.bot.test_pictures_follow_e2e import picture_now
from tests.fakediscord.ratelimits import EDIT
from tests.fakediscord.state import FakeMessage

PRESS_S = 2.0  # a fast pair: a decision every two seconds


def pings(table: Table, gid: int) -> list[FakeMessage]:
    """The game's turn pings: the messages in its channel that mention someone (a board
    mentions nobody, a private reply is not in the channel)."""
    channel = table.board(gid).channel_id
    return [
        m
        for m in table.fake.world.channel_messages(channel)
        if not m.ephemeral and m.content and "<@" in m.content
    ]


async def test_no_ping_in_a_game_against_the_computer(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pupil playing the computer is at the board: the computer naming a target, the
    answer time running out, or the pupil's turn to name a target coming round posts
    nothing in the class channel. (A round the answer time ends is ended by the bot, not
    by the pupil's press: that is where a ping was sent.)"""
    seed_deals(monkeypatch, 5)
    gid, _ = await table.start_computer("alice", game="regnekrig", level=5, answer_seconds=30)
    decide = strong_vs_weak(3)
    clock = table.clock
    for n in range(60):
        state = table.state(gid)
        if state.is_over or state.round > 8:
            break
        if state.phase is ANSWER and state.round % 2 == 0:  # time runs out
            clock.advance(table.game(gid).settings.answer_seconds + 1)
            await table.bot.scheduler.run_due()
        else:
            for press in await table.step(gid, decide, player=n):
                assert press.answered and not press.rejected, press
                clock.advance(PRESS_S)
        await table.settle()
    assert table.state(gid).round > 6 or table.state(gid).is_over
    assert pings(table, gid) == []


async def test_a_player_is_pinged_at_most_once_a_minute(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Level 5: the pupils take turns to name the target, and each turn to name one was a
    public message. A fast pair (a press every two seconds) sees its turns on the board; a
    player is pinged again only once a minute has passed since their last ping. Each ping is
    timed when the bot decided it (its own clock), not when the test saw it: a ping decided
    at the first press of a step is seen after the step's later presses moved the clock."""
    seed_deals(monkeypatch, 5)
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=5)
    await table.settle()
    began = table.bot.clock.now_ms()
    pinged_at: dict[int, list[int]] = {}
    seen = 0
    decide = strong_vs_weak(3)
    for n in range(120):
        state = table.state(gid)
        if state.is_over or state.round > 12:
            break
        for press in await table.step(gid, decide, player=n):
            assert press.answered and not press.rejected, press
            table.clock.advance(PRESS_S)
        await table.settle()
        for message in pings(table, gid)[seen:]:
            for user in (table.user("alice"), table.user("bob")):
                if f"<@{user.id}>" in message.content:
                    sent = table.bot.boards.pings.pinged_at(user.id)
                    assert sent is not None
                    pinged_at.setdefault(user.id, []).append(sent)
        seen = len(pings(table, gid))
    assert table.state(gid).round > 8 or table.state(gid).is_over
    assert pinged_at, "the first namer is pinged"
    for times in pinged_at.values():
        assert all(b - a >= PING_EVERY_MS for a, b in itertools.pairwise(times))
    minutes = (table.bot.clock.now_ms() - began) // PING_EVERY_MS
    assert seen <= 2 * (1 + minutes)  # each of the two: once, then once a minute at most


ROUNDS = 6


async def play_answer_rounds(table: Table, gid: int, decide: Decider | None = None) -> int:
    """Two pupils answering (by default as at level 3): until ROUNDS rounds are done;
    returns how many."""
    decide = decide or strong_vs_weak(3)
    for n in range(ROUNDS * 10):
        state = table.state(gid)
        if state.is_over or rounds_finished(state) >= ROUNDS:
            break
        for press in await table.step(gid, decide, player=n):
            assert press.answered and not press.rejected, press
            table.clock.advance(PRESS_S)
            await table.settle()
    return rounds_finished(table.state(gid))


async def test_a_new_picture_only_when_the_table_changes(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A picture is a new upload and a new look for the class: it changes when what it shows
    changes (cards turned, a round's result), not for a tick such as "has answered ✓", which
    the text carries. Level 3, two pupils answering, the next cards dealt as a round ends:
    the first answer edits the text only, the second edits the text and then the picture
    of the round's result. Six rounds were 22 edits and 10 pictures; now 18 and 6."""
    seed_deals(monkeypatch, 4)
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=3)
    await table.settle()
    edits_before, uploads_before = len(table.board(gid).history), len(_uploads(table))
    rounds = await play_answer_rounds(table, gid)
    edits = len(table.board(gid).history) - edits_before
    uploads = len(_uploads(table)) - uploads_before
    assert rounds == ROUNDS
    assert uploads == rounds  # the round's result (and the next cards) only
    assert edits == 3 * rounds  # the tick, the round's text, its picture


def _uploads(table: Table) -> list[Any]:
    return [r for r in table.fake.requests if r.files]


@pytest.mark.parametrize("lang", LANGS)
async def test_admin_end_in_a_class_channel_finds_the_games_in_its_threads(
    table: Table, lang: str, no_errors: Any
) -> None:
    """A class channel's games run in threads of their own: `admin end` typed in the
    channel ends the one game running in its threads, and where several run, names them
    for the teacher to choose (RULES §1.5: an ended game counts for nobody)."""
    await speak(table, lang)
    first, _ = await table.start_computer("alice", game="intervallkrig", thread=True)
    second, _ = await table.start_computer("bob", game="intervallkrig", thread=True)
    assert table.game(first).record.thread_id is not None
    which = await table.driver.slash("teacher", "mattekrig admin end")
    games = f"#{first}, #{second}"
    await assert_refused(table.fake, which, "error.which_game", lang, games=games)
    thread = table.fake.world.channels[table.board(second).channel_id]
    stopped = await table.driver.slash("bob", "mattekrig stop", channel=thread)
    assert stopped.answered and table.game(second).is_finished
    ended = await table.driver.slash("teacher", "mattekrig admin end")
    assert ended.original is not None and ended.original.ephemeral
    assert ended.original.content == t("admin.end.done", lang, game=first)
    assert (await table.stored(first)).status == "stopped"


UPDATE_MESSAGE = 7  # the press's own answer is the board's new text


async def test_a_fast_pair_in_its_thread_stays_within_discords_edit_limit(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord lets a bot edit messages in one channel five times in five seconds (the fake
    models the bucket; its clock stands still but where the test moves it). A pair playing
    a round every two seconds in its thread: every press is answered at once with its own
    update of the board (within Discord's 3 s, in the fake's time), no request meets a 429,
    and the pictures fold into one per round, the last showing the table as it is."""
    seed_deals(monkeypatch, 4)
    fake = table.fake
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=3, thread=True)
    assert table.game(gid).record.thread_id is not None
    await table.settle()
    fake.clock.freeze()
    fake.rate_limits.enable()
    uploads_before = len(_uploads(table))
    decide = strong_vs_weak(3)
    presses = []
    for n in range(ROUNDS * 10):
        state = table.state(gid)
        if state.is_over or rounds_finished(state) >= ROUNDS:
            break
        presses.extend(await table.step(gid, decide, player=n))
        await table.settle()  # each picture is shown before the next round: none folded away
        fake.clock.advance(2.0)  # the next round, two seconds on
        table.clock.advance(2.0)
    await table.settle()
    rounds = rounds_finished(table.state(gid))
    assert rounds == ROUNDS
    decisions = [p for p in presses if p.modal is None]
    assert len(decisions) == 2 * rounds
    for press in presses:
        assert press.answered and not press.rejected, press
        assert press.answer_latency is not None and press.answer_latency <= 3.0
    assert all(p.response_type == UPDATE_MESSAGE for p in decisions)
    assert [str(r) for r in fake.requests if r.status == 429] == []
    # Headroom under the bucket: at most three edits through the channel in any five
    # seconds (one new picture per round; one at every step would use all five allowed).
    edits = [r.at for r in fake.requests if (r.method, r.route) == EDIT]
    assert edits and max(sum(a <= b < a + 5 for b in edits) for a in edits) <= 3
    assert len(_uploads(table)) - uploads_before <= rounds
    (picture,) = table.board(gid).attachments
    assert picture.description == picture_now(table, gid).alt  # the last state wins


@pytest.mark.parametrize("lang", LANGS)
async def test_the_best_moves_a_pupil_missed_are_in_their_own_summary(
    table: Table, lang: str, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board is the class's: it shows a round's result and the winner's play, and the
    best move a losing pupil missed is told to that pupil alone, in "My summary" (RULES
    §2.5: the best move is the value nearest the target)."""
    seed_deals(monkeypatch, 6)
    await speak(table, lang)
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=6)
    await play_answer_rounds(table, gid, strong_vs_weak(5, weak_side=1))
    missed = _rounds_missed(await table.events(gid), side=1)
    assert missed, "the weak side missed a best move"
    await table.driver.slash("bob", "mattekrig stop")
    await table.settle()
    summary_id = build(Verb.SUMMARY, gid)
    press = await table.driver.click("bob", table.board(gid), summary_id)
    text = await private_reply(table.fake, press)
    heading = t("summary.best_missed", lang, moves="")
    (line,) = [x for x in text.splitlines() if x.startswith(heading)]
    shown = [int(r) for r in re.findall(r"(\d+): ", line.removeprefix(heading))]
    assert shown == missed[-3:]  # the last three, for a phone
    theirs = await table.driver.click("alice", table.board(gid), summary_id)
    assert heading not in await private_reply(table.fake, theirs)  # Alice played best


def _rounds_missed(events: list[tuple[int, Any, list[Any]]], side: int) -> list[int]:
    """The rounds in which `side` answered a value farther from the target than the best."""
    rounds, round_, target = [], 0, None
    for _, _, shown in events:
        for event in shown:
            if event.get("type") == "round_start":
                round_, target = event["round"], event.get("target")
            elif event.get("type") == "value" and event["side"] == side and target is not None:
                if event["value"] is None or event["best_value"] is None:
                    continue
                value, best = Fraction(event["value"]), Fraction(event["best_value"])
                if abs(value - target) > abs(best - target):
                    rounds.append(round_)
    return rounds
