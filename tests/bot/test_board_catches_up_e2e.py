"""A board that Discord would not take for a while catches up (bot/boards.py): the pupil
whose press counted was told "the board will catch up", so the next press on that board is
the moment to make it true, not a minute of back-off later."""

from __future__ import annotations

from typing import Any

import pytest

from classroom.i18n import t
from tests.bot.e2e import Table, assert_refused, private_reply, seed_deals
from tests.bot.test_survive import CALLBACK, EDIT, assert_becomes_true

AN_HOUR_S = 3600.0  # the back-off after the first retry: the test never waits for it


async def test_a_press_on_a_board_left_behind_by_429s_brings_it_up_to_date(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """429 on five tries in a row for the press's answer, then for the first edit through
    the channel: the press counted and its pupil was told so. The next press on the board
    (still showing the round before) is refused as that round is over, and the board is
    redrawn at once, so the press after it is taken."""
    seed_deals(monkeypatch, 5)
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    await table.settle()
    table.bot.boards.retry_delays_s = (0.05, AN_HOUR_S)
    answer = table.fake.faults.rate_limit(CALLBACK, retry_after=0.01, times=5)
    edit = table.fake.faults.rate_limit(EDIT, retry_after=0.01, times=5)
    seq = table.state(gid).seq
    press = await table.flip("alice", gid)
    assert await private_reply(table.fake, press) == t("reply.counted", "nb")
    assert table.state(gid).seq > seq
    await table.fake.wait_until(lambda: answer.exhausted and edit.exhausted, what="the 429s")
    await table.settle()
    assert table.bot.boards.retrying(gid)  # behind, and the next try is an hour away
    shown = table.board(gid)
    stale = next(c for c in shown.custom_ids() if c.startswith("mk:flip:"))
    again = await table.driver.click("alice", shown, stale)
    await assert_refused(table.fake, again, "error.round_over", "nb")
    await assert_becomes_true(table, gid)
    taken = await table.flip("alice", gid)
    assert taken.answered and taken.response_type == 7  # the board itself, updated
