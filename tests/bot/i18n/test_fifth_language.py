"""A language is its catalogues plus one line (`classroom.i18n.languages.LANGUAGES`): a fifth
one, Danish here, added from catalogues in a temporary folder with its line, reaches the
words, the browser's language switch and Accept-Language, the Discord board and the slash
commands' translations, with no product Python file changed.

The issue's requirement: "a toy fifth language in the tests touches no product Python file".
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from discord import Locale
from discord.app_commands import (
    TranslationContext,
    TranslationContextLocation,
    TranslationContextTypes,
    locale_str,
)

from bot.translator import MattekrigTranslator
from classroom.i18n import LANGS, LANGUAGES, Language, catalogue, lang_of, pick_locale, t
from engine.config import GameConfig
from engine.game import new_game
from table.lang import page_lang
from table.page import lang_switch
from tests.bot.render.support import live, render_board

# What the Danish catalogues say in Danish here; every other key is as English says it.
DANISH = {
    "choice.language.da": "Dansk",
    "board.round": "**Runde {round}**",
    "board.prompt.flip": "Tryk på **Vend** for at vende kortene.",
    "cmd.start.desc": "Start et spil: udfordr klassekammerater eller spil mod computeren",
}


@pytest.fixture
def danish(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Danish: every catalogue area English has, in a folder of its own, and its one line."""
    for entry in resources.files("classroom.i18n.catalogues").iterdir():
        if entry.name == "en.json" or entry.name.endswith(".en.json"):
            words = json.loads(entry.read_text("utf-8"))
            if entry.name == "en.json":
                words["choice.language.da"] = DANISH["choice.language.da"]
            words.update({k: v for k, v in DANISH.items() if k in words})
            name = entry.name.removesuffix("en.json") + "da.json"
            (tmp_path / name).write_text(json.dumps(words, ensure_ascii=False), "utf-8")
    monkeypatch.setitem(LANGUAGES, "da", Language("da", discord="da", folder=tmp_path))
    yield "da"
    catalogue.cache_clear()  # its catalogue goes with it


def test_the_language_is_one_of_the_languages_and_speaks_its_catalogues(danish: str) -> None:
    assert danish in LANGS and LANGS[-1] == danish
    assert t("board.round", danish, round=3) == "**Runde 3**"
    assert t("board.pot", danish, cards="4") == t("board.pot", "en", cards="4")  # not translated
    assert lang_of("da-DK") == danish and pick_locale("da", "no") == danish


def test_the_browser_offers_it_and_reads_it_from_the_browser(danish: str) -> None:
    switch = lang_switch("en", "/", {})
    assert 'name="lang" value="da" lang="da"' in switch and ">Dansk</button>" in switch
    assert page_lang("da", None) == danish
    assert page_lang(None, "da-DK, en;q=0.5") == danish


def test_the_discord_board_is_in_it(danish: str) -> None:
    state, _ = new_game(GameConfig("intervallkrig"), 3)
    board = render_board(live(state.config, state, []), danish, 0)
    assert "**Runde 1**" in (board.embed.description or "")


async def test_the_slash_commands_are_translated_into_it(danish: str) -> None:
    context: TranslationContextTypes = TranslationContext(TranslationContextLocation.other, None)
    string = locale_str(t("cmd.start.desc", "en"), key="cmd.start.desc")
    translator = MattekrigTranslator()
    await translator.load()
    assert await translator.translate(string, Locale.danish, context) == DANISH["cmd.start.desc"]
    assert await translator.translate(string, Locale.german, context) is None
