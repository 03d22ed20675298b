"""The board shows the table as a picture, its text kept as the alternative; every
edit replaces the picture (one file on the message, never a pile); where the bot may not
attach files the board is text only and the game's starter is told once."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from bot.render.pictures.scene import Scene, scene
from classroom.i18n import t
from engine.view import View
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


async def test_each_state_of_a_board_is_built_into_a_scene_once(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board's scene (what its picture shows) is built once per state: the press's answer
    asks whether the picture it keeps is still true, the refresh that follows draws it, and
    both read the one scene (it was built up to three times per refresh: to compare, to
    draw, to remember). Counted, not timed."""
    built: list[View] = []

    def counted(seen: View, names: dict[int, str], lang: str) -> Scene:
        built.append(seen)
        return scene(seen, names, lang)

    for module in [m for name, m in sys.modules.items() if name.split(".")[0] == "bot"]:
        if getattr(module, "scene", None) is scene:  # wherever the builder is reached
            monkeypatch.setattr(module, "scene", counted)
    seed_deals(monkeypatch, 1)
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    await table.settle()
    presses = 0
    for _ in range(4):
        if table.state(gid).is_over:
            break
        await table.flip("alice", gid)
        await table.settle()
        presses += 1
    assert presses and [a.filename for a in table.board(gid).attachments] == [PICTURE]
    views = [v for i, v in enumerate(built) if v not in built[:i]]
    assert len(built) == len(views), f"{len(built)} scenes built for {len(views)} states"
