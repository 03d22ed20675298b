"""The start path: the board is the start command's own answer, its message id is
taken from the callback response (no GET of the original response), the whole start is one
write transaction, and a press that arrives before the board's id is stored edits that
board instead of posting a second one."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

from bot.custom_ids import Verb, build
from tests.bot.e2e import Table


async def test_the_board_is_the_answer_and_no_get_follows(table: Table, no_errors: Any) -> None:
    before = table.bot.storage.write_batches
    gid, start = await table.start_computer("alice", game="regnekrig", level=1)
    assert start.response_type == 4  # CHANNEL_MESSAGE_WITH_SOURCE: the board itself
    assert start.original is not None and start.original.id == table.game(gid).record.message_id
    assert (
        table.fake.requests_to("GET /webhooks/{webhook_id}/{webhook_token}/messages/@original")
        == []
    )
    stored = await table.stored(gid)
    for _ in range(200):  # the id is in memory first; its write follows
        if stored.message_id is not None:
            break
        await asyncio.sleep(0.01)
        stored = await table.stored(gid)
    assert stored.message_id == start.original.id and stored.next_seq >= 1
    # one transaction for game, deal and deadlines; one for the board's message id
    assert table.bot.storage.write_batches - before == 2


async def test_a_press_before_the_board_id_is_stored_edits_that_board(
    table: Table, no_errors: Any
) -> None:
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    await table.settle()  # the start's picture is on the board before the id is dropped
    board = table.board(gid)
    game = table.game(gid)
    game.record = replace(game.record, message_id=None)  # as if the id were not stored yet
    messages = len(table.fake.messages_in())
    press = await table.driver.click("alice", board, build(Verb.FLIP, gid, game.state.window))
    await table.settle()
    assert press.answered and press.response_type == 7  # UPDATE_MESSAGE: the pressed board
    assert len(table.fake.messages_in()) == messages  # no second board
    assert table.fake.message(board.id).edited_at is not None


async def test_a_start_that_waited_in_line_defers_then_shows_the_board(
    table: Table, no_errors: Any
) -> None:
    """Every interaction is answered within Discord's 3 s, at any load. A start whose interaction is
    already more than a second old when its work begins is deferred first, and the board
    arrives as the edit of that deferred answer (and is the game's board)."""
    before = set(table.bot.games.games)
    start = await table.driver.slash(
        "alice", "mattekrig start", game="intervallkrig", computer="easy", thread=False, age=1.5
    )
    gid = await table.new_game(before)
    await table.settle()
    assert start.response_type == 5  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    assert start.original is not None and not start.original.loading
    assert start.original.id == table.game(gid).record.message_id
    assert start.original.custom_ids()[0].startswith("mk:flip:")
