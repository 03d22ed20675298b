"""The shipped font draws every character a picture can print: a glyph the font lacks comes
out as its missing-glyph box (.notdef), which would put boxes where a pupil expects `−4 ♥`."""

from __future__ import annotations

import string

import pytest

from bot.render.pictures.fonts import BOLD, REGULAR, font, printable
from classroom.i18n import LANGS, catalogue

# A code point no font has a glyph for: what it draws is the font's .notdef box.
UNASSIGNED = "\U0010fffd"
# The engine's expression symbols (engine.expressions.to_text), the suits, the Nordic letters.
NEEDED = "−·÷²√()+=/ ♥♦♣♠æøåÆØÅäöÄÖ" + string.digits + "×…✓→[],.:!–"
PREFIXES = ("picture.", "game.", "cards.", "side.fallback", "list.and", "computer.")


def _sentences() -> str:
    """Every character of every catalogue text a picture can print, in every language."""
    texts = [
        text
        for lang in LANGS
        for key, text in catalogue(lang).items()
        if key.startswith(PREFIXES) and not key.endswith(".desc")
    ]
    return "".join(texts)


def _missing(characters: str, bold: bool) -> list[str]:
    face = font(40, bold)
    notdef = bytes(face.getmask(UNASSIGNED))
    return [
        c for c in sorted(set(characters)) if not c.isspace() and bytes(face.getmask(c)) == notdef
    ]


@pytest.mark.parametrize("bold", [False, True], ids=[REGULAR, BOLD])
def test_every_needed_glyph_is_in_the_font(bold: bool) -> None:
    sentences = "".join(c for c in _sentences() if c not in "{}")
    assert _missing(NEEDED + sentences, bold) == []


def test_the_check_finds_a_missing_glyph() -> None:
    """The test can fail: an emoji (not in DejaVu Sans) is found as the missing-glyph box, which
    is why the marks are drawn as shapes."""
    assert _missing("🏆⚔🎯A", bold=True) == ["🎯", "🏆"]


def test_a_character_the_font_lacks_is_left_out_of_the_picture() -> None:
    """A name may carry an emoji (the computer is `🤖 Datamaskin`): the picture prints the name
    without it instead of a box."""
    assert printable("🤖 Datamaskin (middels)") == "Datamaskin (middels)"
    assert printable("Åse −4 ♥") == "Åse −4 ♥"
