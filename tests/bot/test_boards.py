"""The board publisher (bot/boards.py) keeps what it needs for each game's board (its lock, its
last text, its picture, the window last pinged, when a stale press last redrew it) only while
the game runs: a while after the game is over, none of it is held any longer, whatever
happened to the board. The bot runs for months; what it remembers per game must end with the
game."""

from __future__ import annotations

from typing import Any

import pytest

from bot.boards import BoardPublisher
from bot.custom_ids import Verb, build
from bot.services.admin import GuildSettings
from tests.bot.e2e import Table, assert_refused, seed_deals


def games_held(boards: BoardPublisher) -> set[int]:
    """Every game id the publisher holds anything for, in any of its maps or sets, its own
    or its notes of what the boards show."""
    held: set[int] = set()
    parts = [boards, boards.shown_seqs]
    for value in (value for part in parts for value in vars(part).values()):
        if isinstance(value, dict | set):
            held.update(key for key in value if isinstance(key, int))
    return held


async def test_a_boards_state_is_let_go_after_its_game_ends(
    table: Table, monkeypatch: pytest.MonkeyPatch, no_errors: Any
) -> None:
    seed_deals(monkeypatch, 3)
    boards = table.bot.boards
    boards.forget_after_s = 0.05
    gid = await table.challenge_game("alice", ["carol"], game="intervallkrig")
    board = table.board(gid)
    old = build(Verb.FLIP, gid, table.state(gid).window)
    await table.flip("alice", gid)
    # A press on an old copy of the board is refused as stale, and the board is looked at
    # again (at most every few seconds: the publisher notes when).
    old_copy = await table.fake.post_message(components=board.history[-1]["components"])
    stale = await table.driver.click("carol", old_copy, old, locale="en-GB")
    await assert_refused(table.fake, stale, "error.round_over", "en")
    await table.settle()
    assert gid in games_held(boards)

    await table.driver.slash("alice", "mattekrig stop")
    await table.fake.wait_until(
        lambda: gid not in games_held(boards), timeout=5.0, what="the board's state let go"
    )


async def test_a_ping_as_the_bot_stops_is_dropped_without_a_traceback(
    table: Table, no_errors: Any
) -> None:
    """A game started just as the bot stops: its board is posted, and the ping that follows
    meets the closed connection ("Session is closed"). The game is in storage, and the next
    start draws its board again; the ping is not an error for the press that started it."""
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=5)
    boards, game = table.bot.boards, table.game(gid)
    await table.harness.stop()
    boards._board(gid).pinged = None  # as when the ping had not been sent yet

    async def settings(guild_id: int) -> GuildSettings:  # storage is closed too by now
        return GuildSettings(guild_id)

    boards.pings.settings = settings
    await boards.ping(game, None)
