"""One fixed palette for every picture.

Every tile (card face, text, mark) is drawn in RGB once, mapped onto this palette and cached;
a picture is then only tiles pasted onto a palette canvas, written as an 8-bit PNG. A fixed
palette is what keeps pictures small (no per-picture quantising, a few kilobytes of colour
table) and fast; it holds the colours the pictures use plus, for every pair of colours that
meet at an antialiased edge, the shades between them, so text stays smooth.
"""

from __future__ import annotations

from functools import cache

from PIL import Image

RGB = tuple[int, int, int]

FELT: RGB = (22, 90, 62)  # the card table
FELT_DARK: RGB = (15, 66, 45)  # the header band and row lines
WHITE: RGB = (255, 255, 255)
MUTED: RGB = (184, 214, 198)  # secondary text on the felt
INK: RGB = (24, 24, 32)  # black cards, positive values in fortegn
RED: RGB = (200, 30, 45)  # red cards, negative values in fortegn
NAVY: RGB = (30, 58, 138)  # the heltall deck's ink
EDGE: RGB = (120, 128, 136)  # a card's outline
LINE: RGB = (176, 186, 204)  # the heltall number line
GOLD: RGB = (246, 190, 38)
GOLD_DARK: RGB = (176, 116, 8)
STEEL: RGB = (214, 220, 230)
STEEL_DARK: RGB = (96, 104, 120)
BULL: RGB = (220, 38, 38)
BACK: RGB = (37, 99, 235)  # card backs
BACK_DARK: RGB = (23, 64, 170)
GREEN_MARK: RGB = (134, 239, 172)  # "inside" on the felt
GAME_COLOURS: tuple[RGB, ...] = ((59, 130, 246), (34, 197, 94), (245, 158, 11))

_BASE = (
    FELT,
    FELT_DARK,
    WHITE,
    MUTED,
    INK,
    RED,
    NAVY,
    EDGE,
    LINE,
    GOLD,
    GOLD_DARK,
    STEEL,
    STEEL_DARK,
    BULL,
    BACK,
    BACK_DARK,
    GREEN_MARK,
    *GAME_COLOURS,
)
# Colours that meet at antialiased edges: (foreground, background).
_EDGES = (
    (WHITE, FELT),
    (MUTED, FELT),
    (WHITE, FELT_DARK),
    (MUTED, FELT_DARK),
    (GOLD, FELT_DARK),
    (INK, WHITE),
    (RED, WHITE),
    (NAVY, WHITE),
    (LINE, WHITE),
    (EDGE, FELT),
    (EDGE, WHITE),
    (GOLD, FELT),
    (GOLD_DARK, GOLD),
    (GOLD_DARK, FELT),
    (STEEL, FELT),
    (STEEL_DARK, STEEL),
    (STEEL_DARK, FELT),
    (BULL, FELT),
    (BULL, WHITE),
    (BULL, FELT_DARK),
    (WHITE, BULL),
    (BACK, FELT),
    (WHITE, BACK),
    (BACK_DARK, BACK),
    (GREEN_MARK, FELT),
    *((colour, FELT_DARK) for colour in GAME_COLOURS),
)
_SHADES = 7


def _blend(a: RGB, b: RGB, k: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * k),
        round(a[1] + (b[1] - a[1]) * k),
        round(a[2] + (b[2] - a[2]) * k),
    )


@cache
def colours() -> tuple[RGB, ...]:
    """The palette's colours, each once, in a fixed order."""
    out: list[RGB] = list(dict.fromkeys(_BASE))
    for fg, bg in _EDGES:
        for step in range(1, _SHADES + 1):
            shade = _blend(fg, bg, step / (_SHADES + 1))
            if shade not in out:
                out.append(shade)
    assert len(out) <= 256
    return tuple(out)


@cache
def palette_image() -> Image.Image:
    """A 1×1 palette image that `Image.quantize(palette=…)` maps tiles onto."""
    image = Image.new("P", (1, 1))
    flat = [channel for colour in colours() for channel in colour]
    image.putpalette(flat + [0] * (768 - len(flat)))
    return image


def index(colour: RGB) -> int:
    """A colour's palette index (only the base colours are asked for by name)."""
    return colours().index(colour)


def to_palette(tile: Image.Image) -> Image.Image:
    """An RGB tile mapped onto the palette, nearest colour, no dithering (dots would cost
    bytes and look like dirt on a card)."""
    return tile.convert("RGB").quantize(palette=palette_image(), dither=Image.Dither.NONE)
