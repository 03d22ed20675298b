"""Quiet boards, through Discord (the real bot on the project's fake Discord): a class channel
hears from a game only when it matters. A turn ping is never sent in a game against the
computer, and reaches a player at most once a minute."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from bot.boards import PING_EVERY_MS
from engine.state import Phase
from tests.bot.e2e import Table, seed_deals, strong_vs_weak
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
    clock: Any = table.bot.clock
    for n in range(60):
        state = table.state(gid)
        if state.is_over or state.round > 8:
            break
        if state.phase is Phase.ANSWER and state.round % 2 == 0:  # time runs out
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
    player is pinged again only once a minute has passed since their last ping."""
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
            table.bot.clock.advance(PRESS_S)  # type: ignore[attr-defined]
        await table.settle()
        now = table.bot.clock.now_ms()
        for message in pings(table, gid)[seen:]:
            for user in (table.user("alice"), table.user("bob")):
                if f"<@{user.id}>" in message.content:
                    pinged_at.setdefault(user.id, []).append(now)
        seen = len(pings(table, gid))
    assert table.state(gid).round > 8 or table.state(gid).is_over
    assert pinged_at, "the first namer is pinged"
    for times in pinged_at.values():
        assert all(b - a >= PING_EVERY_MS for a, b in itertools.pairwise(times))
    minutes = (table.bot.clock.now_ms() - began) // PING_EVERY_MS
    assert seen <= 2 * (1 + minutes)  # each of the two: once, then once a minute at most
