"""The shipped font: DejaVu Sans, regular and bold (Bitstream Vera licence, see fonts/LICENSE).

Pillow's built-in font has no glyph for `−`, `²`, `√` or the suits, and a system font may be
missing on the machine that runs the bot, so the font travels inside the package and is read
with `importlib.resources` (it works from a wheel as from a checkout).
"""

from __future__ import annotations

import io
from functools import cache
from importlib import resources

from PIL import ImageFont

REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"


class FontMissingError(RuntimeError):
    """The package was installed without its font files (package-data left out)."""


@cache
def _font_bytes(name: str) -> bytes:
    source = resources.files("bot.render.pictures").joinpath("fonts", name)
    try:
        return source.read_bytes()
    except FileNotFoundError:
        raise FontMissingError(
            f"bot/render/pictures/fonts/{name} is missing: reinstall the package "
            "(pyproject's package-data ships it)"
        ) from None


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The font at a pixel size, loaded once per (size, weight)."""
    return ImageFont.truetype(io.BytesIO(_font_bytes(BOLD if bold else REGULAR)), size)


UNASSIGNED = "\U0010fffd"  # no font has it: what it draws is the font's missing-glyph box


@cache
def has_glyph(character: str) -> bool:
    """Whether the font draws `character` as itself rather than as the missing-glyph box."""
    face = font(20)
    return character.isspace() or bytes(face.getmask(character)) != bytes(face.getmask(UNASSIGNED))


def printable(text: str) -> str:
    """`text` without the characters the font cannot draw (a name's emoji, the computer's 🤖),
    so a picture never shows a box; the alternative text keeps them."""
    if all(has_glyph(c) for c in text):
        return text
    return " ".join("".join(c for c in text if has_glyph(c)).split())


def _word_ends(text: str) -> list[int]:
    """Where `text` may be cut: before each space that is not inside brackets (an interval
    such as `[−2, 3]` stays whole), longest first."""
    ends, depth = [], 0
    for i, c in enumerate(text):
        depth += (c in "[(") - (c in "])")
        if c == " " and depth <= 0:
            ends.append(i)
    return ends[::-1]


def fit(text: str, size: int, bold: bool, width: int) -> str:
    """`text`, shortened with an ellipsis so it is at most `width` pixels wide: cut between
    words, never inside one (`9 innenfor [−…` tells a pupil nothing), unless its first word
    alone is too wide (a long name)."""
    face = font(size, bold)
    if face.getlength(text) <= width:
        return text
    for end in _word_ends(text):
        shown = text[:end].rstrip(" ,;:·") + "…"
        if face.getlength(shown) <= width:
            return shown
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"
