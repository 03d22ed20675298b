"""Every press is answered, also one made on a board that has moved on since (DESIGN.md:
"always answer an interaction"; "non-participants and stale presses get an ephemeral,
localised explanation").

When two presses leave at the same moment (a double click, two pupils pressing Flip), the
first moves the board on before Discord delivers the second, and Discord delivers it with the
message as it is *now*: the pressed button is no longer on it. discord.py hands a press to a
`DynamicItem` only when its custom_id is on the interaction's message, and drops it in
silence otherwise; the pupil would see "This interaction failed". The bot answers such a press
itself, with the explanation any stale press gets."""

from __future__ import annotations

from typing import Any

import pytest

from bot.custom_ids import Verb, build
from tests.bot.e2e import Table, assert_refused, seed_deals
from tests.bot.test_records_e2e import reply_of

PUPILS = [("no", "nb"), ("sv-SE", "sv"), ("en-US", "en"), ("de", "nn")]


@pytest.mark.parametrize(("locale", "lang"), PUPILS)
async def test_a_second_flip_made_on_the_board_before_the_first_is_answered(
    table: Table, locale: str, lang: str, monkeypatch: pytest.MonkeyPatch, no_errors: Any
) -> None:
    seed_deals(monkeypatch, 3)
    if lang == "nn":  # nynorsk is the teacher's choice for the class (Discord has none)
        chosen = await table.driver.slash("teacher", "mattekrig admin settings", language="nn")
        await reply_of(table.fake, chosen)
    gid, _ = await table.start_computer("alice", game="intervallkrig", locale=locale)
    await table.settle()
    board = table.board(gid)
    pressed = board.snapshot()  # the board as alice saw it when she pressed twice
    flip = build(Verb.FLIP, gid, table.state(gid).window)
    first = await table.driver.click("alice", board, flip, locale=locale)
    assert first.answered and not first.rejected
    assert flip not in table.board(gid).custom_ids()  # the board moved on
    second = await table.driver.click("alice", board, flip, locale=locale, seen=pressed)
    await assert_refused(table.fake, second, "error.round_over", lang)
    await table.settle()
