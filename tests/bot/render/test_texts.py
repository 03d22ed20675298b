"""`/mattekrig rules` and `/mattekrig help`: complete, localised, and within one message."""

from __future__ import annotations

import discord
import pytest

from bot.render.texts import help_text, rules_text
from tests.bot.render.support import LANGS
from tests.fakediscord.message_checks import check_embeds
from tests.fakediscord.problems import Problems

GAMES = ("regnekrig", "intervallkrig", "satsing", None)


def fits_one_message(embeds: list[discord.Embed]) -> None:
    problems = Problems()
    check_embeds([e.to_dict() for e in embeds], problems, ("embeds",))
    assert problems.errors == {}
    assert sum(len(e) for e in embeds) <= 6000


def all_text(embeds: list[discord.Embed]) -> str:
    parts: list[str] = []
    for e in embeds:
        parts += [e.title or "", e.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in e.fields]
    return "\n".join(parts)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_rules_fit_in_one_message(game: str | None, lang: str) -> None:
    fits_one_message(rules_text(game, lang))


@pytest.mark.parametrize("lang", LANGS)
def test_regnekrig_rules_have_all_levels_and_the_worked_example(lang: str) -> None:
    text = all_text(rules_text("regnekrig", lang))
    for n in range(1, 8):
        assert f"**{n} · " in text
    assert "3 − (−2) = **5**" in text and "3² + (−2) = 9 − 2 = **7**" in text
    assert "−15" in text and "15" in text


def test_the_rules_use_the_glossary_words() -> None:
    nb = all_text(rules_text("regnekrig", "nb"))
    sv = all_text(rules_text("regnekrig", "sv"))
    assert "målverdi" in nb and "ingen verdi" in nb and "Krig" in nb and "samlehaug" in nb
    assert "Räknekrig" in sv and "målvärde" in sv and "inget värde" in sv and "samlingshög" in sv
    assert "Ultrasmart" in sv and "Elit" in sv
    iv = all_text(rules_text("intervallkrig", "nb"))
    assert "innenfor" in iv and "nærmest null" in iv and "2 og −3" in iv
    sk = all_text(rules_text("satsing", "sv"))
    assert "Intervallkrig med satsning" in sk and "satsa" in sk and "samlingshög" in sk


def test_intervallkrig_example_and_endgame() -> None:
    text = all_text(rules_text("intervallkrig", "en"))
    assert "2 and −3" in text and "third card is 1" in text and "**inside** ✓" in text
    assert "**exactly three**" in text and "**two or one**" in text


def test_unknown_game_gives_the_overview() -> None:
    overview = rules_text("poker", "en")
    assert overview[0].title == rules_text(None, "en")[0].title
    assert len(overview[0].fields) == 3


@pytest.mark.parametrize("lang", LANGS)
def test_help_fits_and_lists_the_localised_commands(lang: str) -> None:
    embeds = help_text(lang)
    fits_one_message(embeds)
    text = all_text(embeds)
    expected = {"nb": "/mattekrig stopp", "sv": "/mattekrig stoppa", "en": "/mattekrig stop"}[lang]
    assert expected in text
    assert text.count("/mattekrig ") >= 6


@pytest.mark.parametrize(
    ("lang", "unrated"),
    [
        ("nb", "flytter ingen rating"),
        ("sv", "flyttar ingen rating"),
        ("en", "move no rating"),
    ],
)
def test_help_says_which_games_move_a_rating(lang: str, unrated: str) -> None:
    """Ratings only where skill decides: auto mode and plain intervallkrig count but move no
    rating."""
    text = all_text(help_text(lang))
    assert unrated in text
