"""The school owner's pack (docs/for-schools*.md: en, nb, nn, sv) says the same in every
language and what the code does: the same sections, the retention settings with the defaults
the bot really uses, the commands that answer a parent under the names Discord shows in that
language, and the path for pupils under Discord's age limit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import RETENTION
from bot.ops.cli import COMMANDS, parser
from classroom.i18n import t
from table.keep import DEFAULT_KEEP_DAYS
from tests.ops_support import ROOT

PACKS = {
    path.name.split(".")[1] if path.name.count(".") == 2 else "en": path
    for path in sorted((ROOT / "docs").glob("for-schools*.md"))
}


def sections(path: Path) -> list[str]:
    return re.findall(r"^## (.+)$", path.read_text(encoding="utf-8"), flags=re.M)


def test_every_language_has_the_whole_pack() -> None:
    assert {"en", "nb", "nn", "sv"} <= set(PACKS)
    english = sections(PACKS["en"])
    for part in ("DPIA", "data processing agreement", "letter to parents", "Who can see what"):
        assert any(part in title for title in english), part
    for lang, path in PACKS.items():
        assert len(sections(path)) == len(english), lang
        text = path.read_text(encoding="utf-8")
        for other in PACKS.values():  # each links every other language
            assert other == path or f"]({other.name})" in text, (lang, other.name)


@pytest.mark.parametrize("lang", ["en", "nb", "nn", "sv"])
def test_the_pack_states_the_retention_the_bot_uses(lang: str) -> None:
    text = PACKS[lang].read_text(encoding="utf-8")
    for name, default in RETENTION.items():
        (row,) = [line for line in text.splitlines() if line.startswith(f"| `{name}` |")]
        assert re.search(rf"\| {default} ", row), (lang, row)


CLASS_VERBS = ("class-export", "class-forget", "class-delete")


@pytest.mark.parametrize("lang", ["en", "nb", "nn", "sv"])
def test_the_pack_names_the_commands_that_answer_a_parent(lang: str) -> None:
    text = PACKS[lang].read_text(encoding="utf-8")
    for key in ("cmd.my_data.name", "cmd.forget_me.name"):
        assert f"/mattekrig {t(key, lang)}" in text, (lang, key)
    operator = re.findall(r"`(mattekrig privacy [^`]+)`", text)
    assert {words.split()[2] for words in operator} == {
        "export", "forget", "forget-guild",  # the bot's
        "class-list", "class-export", "class-forget", "class-delete",  # a school server's class
    }  # fmt: skip
    # Every teacher of a school server may have a class 7B: the pack names whose, every time.
    named = [words for words in operator if words.split()[2] in CLASS_VERBS]
    assert named and all("--teacher " in words for words in named)
    for words in operator:  # each one the command line really takes (ids filled in)
        args = [w if not w.isupper() else "123" for w in words.split()[1:]]
        parser().parse_args(args if len(args) > 2 else [*args, "123"])
    assert "privacy" in COMMANDS


@pytest.mark.parametrize("lang", ["en", "nb", "nn", "sv"])
def test_the_pack_gives_younger_classes_a_way_without_discord(lang: str) -> None:
    text = PACKS[lang].read_text(encoding="utf-8")
    assert re.search(r"\*\*[^*]*\b13\b[^*]*\*\*", text)  # Discord's age limit, in bold
    assert "`mattekrig class`" in text and "`mattekrig play`" in text


@pytest.mark.parametrize("lang", ["en", "nb", "nn", "sv"])
def test_the_pack_states_how_long_a_class_lesson_is_kept(lang: str) -> None:
    """PRIVACY.md and the pack: a class lesson's nicknames, answers and results are kept for
    the retention the lesson really uses, and the pack says where and how to delete them."""
    text = PACKS[lang].read_text(encoding="utf-8")
    (row,) = [line for line in text.splitlines() if line.startswith("| `LESSON_KEEP_DAYS` |")]
    assert re.search(rf"\| {DEFAULT_KEEP_DAYS} ", row), (lang, row)
    assert "lessons.db" in text and "--keep-days N" in row and "`0`" in row
