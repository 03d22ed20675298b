"""A server setting turns the board's pictures off (text only) and on again, through
`/mattekrig admin settings pictures:…`. Off, no picture is drawn at all: every board edit or
new board carries no file and its embed no image; on again, the picture comes back."""

from __future__ import annotations

from typing import Any

import pytest

from bot.render.pictures import Picture
from classroom.i18n import t
from engine.view import View
from tests.bot.e2e import Table, seed_deals
from tests.bot.test_pictures_follow_e2e import answer_of, picture_follows
from tests.fakediscord.state import FakeMessage


def text_only(message: FakeMessage) -> bool:
    return not message.attachments and all(not e.get("image") for e in message.embeds)


async def set_pictures(table: Table, on: bool, locale: str, lang: str) -> None:
    """The manager's command, answered privately in their language with the setting shown."""
    changed = await table.driver.slash(
        "teacher", "mattekrig admin settings", locale=locale, pictures=on, language=lang
    )
    assert changed.answered and changed.original is not None and changed.original.ephemeral
    shown = str(changed.original.embeds)
    assert t("admin.settings.saved", lang) in shown
    assert t(f"admin.settings.pictures.{'on' if on else 'off'}", lang) in shown
    assert (await table.bot.admin.settings(table.fake.guild.id)).pictures is on


@pytest.mark.parametrize(("locale", "lang"), [("no", "nb"), ("sv-SE", "sv"), ("en-US", "en")])
async def test_a_manager_turns_pictures_off_and_on_again(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch, locale: str, lang: str
) -> None:
    seed_deals(monkeypatch, 7)
    drawn: list[View] = []
    drawer = table.bot.boards.drawer
    draw = drawer.draw

    async def counted(seen: View, names: dict[int, str], lang: str) -> Picture | None:
        drawn.append(seen)
        return await draw(seen, names, lang)

    monkeypatch.setattr(drawer, "draw", counted)
    gid, _ = await table.start_computer("alice", game="intervallkrig", locale=locale)
    await picture_follows(table, gid)

    await set_pictures(table, False, locale, lang)
    before, mark = len(drawn), len(table.fake.requests)
    press = await table.flip("alice", gid, locale=locale)
    assert press.answered and press.response_type == 7 and not press.rejected
    answer = answer_of(table, press)
    assert answer.files == [] and answer.json["data"]["attachments"] == []
    await table.settle()
    assert text_only(table.board(gid))  # the earlier picture is gone too
    assert t("game.intervallkrig.name", lang) in table.board(gid).embeds[0]["title"]
    # A new board while off: posted and kept as text.
    other = table.fake.world.add_channel("matte-2")
    second, _ = await table.start_computer("carol", game="intervallkrig", channel=other)
    await table.settle()
    assert text_only(table.board(second))
    assert all(not r.files for r in table.fake.requests[mark:])  # no file sent while off
    assert len(drawn) == before  # no picture drawn at all while off

    await set_pictures(table, True, locale, lang)
    press = await table.flip("alice", gid, locale=locale)
    assert press.answered and not press.rejected
    await picture_follows(table, gid)
    image = table.board(gid).embeds[0].get("image") or {}
    assert str(image.get("url", "")).endswith("table.png")
