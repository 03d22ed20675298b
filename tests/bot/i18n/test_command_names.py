"""Every command, option and choice text obeys Discord's limits in every language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.translator import CHOICE_NAME_MAX, DESCRIPTION_MAX, is_valid_name
from classroom.i18n import LANGS, catalogue

COMMANDS = ("start", "stop", "rules", "help", "leaderboard", "stats")
START_OPTIONS = (
    "game",
    "level",
    "opponent",
    "opponent2",
    "opponent3",
    "computer",
    "teams",
    "deck",
    "mode",
    "minutes",
    "war_size",
    "war_rule",
    "answer_seconds",
    "thread",
)
CHOICES = {
    "game": ("regnekrig", "intervallkrig", "satsing"),
    "level": tuple(str(n) for n in range(1, 8)),
    "computer": ("easy", "medium", "hard"),
    "deck": ("heltall", "fortegn", "vanlig"),
    "mode": ("regn", "auto"),
    "war_rule": ("closest_to_zero", "highest"),
}
NAME_KEY = re.compile(r"(group|cmd|opt)\..+\.name")
DESC_KEY = re.compile(r"(group|cmd|opt)\..+\.desc")


@pytest.mark.parametrize("lang", LANGS)
def test_names_follow_discords_rule(lang: str) -> None:
    texts = catalogue(lang)
    names = {k: v for k, v in texts.items() if NAME_KEY.fullmatch(k)}
    assert names
    assert {k: v for k, v in names.items() if not is_valid_name(v)} == {}


@pytest.mark.parametrize("lang", LANGS)
def test_descriptions_and_choices_fit(lang: str) -> None:
    for key, text in catalogue(lang).items():
        if DESC_KEY.fullmatch(key):
            assert 1 <= len(text) <= DESCRIPTION_MAX, (lang, key, len(text))
        if key.startswith("choice."):
            assert 1 <= len(text) <= CHOICE_NAME_MAX, (lang, key, len(text))


def test_the_commands_and_options_are_all_there() -> None:
    english = catalogue("en")
    for part in ("name", "desc"):
        assert f"group.mattekrig.{part}" in english
        for command in COMMANDS:
            assert f"cmd.{command}.{part}" in english
        for option in START_OPTIONS:
            assert f"opt.{option}.{part}" in english
    for option, values in CHOICES.items():
        for value in values:
            assert f"choice.{option}.{value}" in english
    # the English names are the names in the code
    assert [english[f"opt.{o}.name"] for o in START_OPTIONS] == list(START_OPTIONS)
    assert [english[f"cmd.{c}.name"] for c in COMMANDS] == list(COMMANDS)


@pytest.mark.parametrize("lang", LANGS)
def test_names_are_unique_where_discord_needs_them(lang: str) -> None:
    texts = catalogue(lang)
    options = [texts[f"opt.{o}.name"] for o in START_OPTIONS]
    assert len(set(options)) == len(options)
    commands = [texts[f"cmd.{c}.name"] for c in COMMANDS]
    assert len(set(commands)) == len(commands)
    for option, values in CHOICES.items():
        labels = [texts[f"choice.{option}.{v}"] for v in values]
        assert len(set(labels)) == len(labels), option


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("start", True),
        ("nivå", True),
        ("war_size", True),
        ("motståndare2", True),
        ("a-b", True),
        ("", False),
        ("Start", False),
        ("two words", False),
        ("x" * 33, False),
        ("x" * 32, True),
        ("svar?", False),
    ],
)
def test_is_valid_name(text: str, valid: bool) -> None:
    assert is_valid_name(text) is valid


DOC_ROW = re.compile(r"^\| `([^`]+)` \| `([^`]+)` \| `([^`]+)` \|", re.MULTILINE)


def test_the_docs_name_each_command_and_option_as_discord_shows_it() -> None:
    """docs/commands.md gives every command and option in English, Norwegian and Swedish:
    each row must be a name the bot has (the docs once said `public_leaderboard` for the
    option `public_board`)."""
    doc = (Path(__file__).resolve().parents[3] / "docs" / "commands.md").read_text("utf-8")
    en, nb, sv = catalogue("en"), catalogue("nb"), catalogue("sv")
    names = {(en[k], nb[k], sv[k]) for k in en if NAME_KEY.fullmatch(k)}
    rows = [
        tuple(cell.split()[-1] for cell in row)  # a command row: the command's own name
        for row in DOC_ROW.findall(doc)
    ]
    assert len(rows) > 60
    assert [row for row in rows if row not in names] == []
