"""Nynorsk on Discord. Norwegian schools may only use learning resources that come in both
written standards, but Discord has one Norwegian locale (``no``, bokmål) and none for nynorsk:
a class reads nynorsk because its teacher chose it in `/mattekrig admin settings language`.
Then the class's Norwegian-speaking pupils read nynorsk everywhere (boards, private replies,
refusals), while a pupil whose Discord is in Swedish or English keeps their own language."""

from __future__ import annotations

from typing import Any

import pytest

from bot.render.board import game_title
from classroom.i18n import t
from engine.regnekrig import REGNEKRIG
from tests.bot.e2e import Table, assert_refused, seed_deals
from tests.bot.test_records_e2e import reply_of, text_of


async def _choose_nynorsk(table: Table) -> str:
    saved = await table.driver.slash("teacher", "mattekrig admin settings", language="nn")
    return text_of(await reply_of(table.fake, saved))


async def test_the_teacher_chooses_nynorsk_and_the_settings_say_so(
    table: Table, no_errors: Any
) -> None:
    shown = await _choose_nynorsk(table)
    assert t("admin.settings.saved", "nn") == "✅ Lagra."
    assert t("admin.settings.saved", "nn") in shown  # the teacher's Discord is Norwegian
    assert t("choice.language.nn", "nn") == "Norsk nynorsk" and "Norsk nynorsk" in shown
    assert (await table.bot.admin.settings(table.fake.guild.id)).language == "nn"


@pytest.mark.parametrize(
    ("user", "locale", "lang"),
    [
        ("alice", "no", "nn"),
        ("bob", "sv-SE", "sv"),
        ("carol", "en-US", "en"),
        ("carol", "de", "nn"),
    ],
)
async def test_a_nynorsk_class_reads_nynorsk_unless_its_discord_says_otherwise(
    table: Table, user: str, locale: str, lang: str, no_errors: Any
) -> None:
    await _choose_nynorsk(table)
    stats = await table.driver.slash(user, "mattekrig stats", locale=locale)
    assert t("stats.nothing", lang) in text_of(await reply_of(table.fake, stats))
    helped = await table.driver.slash(user, "mattekrig help", locale=locale)
    assert t("help.title", lang) in text_of(await reply_of(table.fake, helped))
    assert t("help.heading.flow", "nn") == "Slik går eit spel"


async def test_a_nynorsk_board_and_its_refusals(
    table: Table, monkeypatch: pytest.MonkeyPatch, no_errors: Any
) -> None:
    seed_deals(monkeypatch, 1)
    await _choose_nynorsk(table)
    gid, _ = await table.start_computer("alice", game="regnekrig", level=5)
    board = table.board(gid)
    assert board.embeds[0]["title"] == game_title(REGNEKRIG, 5, "nn")
    assert "Reknekrig" in board.embeds[0]["title"]
    assert t("board.game_number", "nn", id=gid) in board.embeds[0]["footer"]["text"]
    # A classmate's press on a board that is not hers goes through the error ladder, which
    # has no settings of its own to read: it still answers in the class's nynorsk.
    table.fake.world.add_user("dave", locale="no")
    stranger = await table.target("dave", gid, 5)
    await assert_refused(table.fake, stranger, "error.not_a_player", "nn")
    assert t("error.not_a_player", "nn") != t("error.not_a_player", "nb")
