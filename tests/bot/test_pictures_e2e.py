"""The board shows the table as a picture, its text kept as the alternative; every
edit replaces the picture (one file on the message, never a pile); where the bot may not
attach files the board is text only and the game's starter is told once."""

from __future__ import annotations

from typing import Any

import pytest

from classroom.i18n import t
from tests.bot.e2e import Table, seed_deals
from tests.fakediscord.state import ATTACH_FILES

PICTURE = "table.png"


def _board_files(table: Table) -> list[list[str]]:
    """The files of every request that wrote a board (posts, edits, interaction updates)."""
    return [r.files for r in table.fake.requests if r.files]


async def test_the_board_carries_one_picture_that_every_change_replaces(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_deals(monkeypatch, 1)
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    await table.settle()
    for _ in range(4):
        if table.state(gid).is_over:
            break
        pressed = await table.flip("alice", gid)
        assert pressed.answered and not pressed.rejected
        await table.settle()
        board = table.board(gid)
        assert [a.filename for a in board.attachments] == [PICTURE]
        assert board.attachments[0].description  # the round in words, for screen readers
        assert board.attachments[0].data.startswith(b"\x89PNG")
        image = board.embeds[0].get("image") or {}
        assert str(image.get("url", "")).endswith(PICTURE)
    written = _board_files(table)
    assert written and all(files == [PICTURE] for files in written)


async def test_without_attach_files_the_board_is_text_and_the_starter_is_told_once(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = table.fake.world.guilds[table.fake.channel.guild_id]
    for role in guild.roles.values():
        role.permissions &= ~ATTACH_FILES
    seed_deals(monkeypatch, 1)
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    await table.settle()
    for _ in range(3):
        if table.state(gid).is_over:
            break
        await table.flip("alice", gid)
        await table.settle()
    board = table.board(gid)
    assert board.attachments == [] and not board.embeds[0].get("image")
    assert _board_files(table) == []
    alice = table.user("alice")
    notice = t("board.pictures_off", "nb", player=f"<@{alice.id}>")
    told = [
        r
        for r in table.fake.requests_to("/channels/{channel_id}/messages", "POST")
        if isinstance(r.body, dict) and r.body.get("content") == notice
    ]
    assert len(told) == 1
    assert [int(u) for u in told[0].body["allowed_mentions"]["users"]] == [alice.id]
