"""A scene laid out and written as a PNG: tiles pasted onto a palette canvas.

Laid out for a phone: one row per side, at most four rows, 440 logical pixels wide (about the
width Discord gives an embed image on a phone), drawn at 2× so the cards stay sharp.
"""

from __future__ import annotations

import threading
from functools import cache

from PIL import Image, ImageDraw

from bot.render.pictures import palette as p
from bot.render.pictures import png, tiles
from bot.render.pictures.scene import Row, Scene
from bot.render.pictures.tiles import BACK_H, CARD_H, CARD_W, Mark

SCALE = 2  # sharp on a phone's high-density screen
WIDTH = 440
PAD = 12
HEADER = 34
BANNER = 26
ROW = 98
BOTTOM = 4
CARD_GAP = 6
THIRD_GAP = 12  # the third card stands apart from the interval
MARK = 24

# Tiles share FreeType faces, which are not safe to use from two threads at once; callers may
# draw from several threads (the bot's worker process draws one at a time), so all drawing
# holds this lock.
DRAWING = threading.RLock()


def height(rows: int, banner: bool) -> int:
    return HEADER + (BANNER if banner else 0) + rows * ROW + BOTTOM


@cache
def _blank(width: int, height_: int) -> Image.Image:
    image = Image.new("P", (width, height_), p.index(p.FELT))
    image.putpalette(p.palette_image().getpalette() or [])
    return image


@cache
def _swatch(colour: p.RGB, width: int, height_: int) -> Image.Image:
    return p.to_palette(Image.new("RGB", (width, height_), colour))


class _Canvas:
    """Logical coordinates in, `SCALE`× pixels out."""

    def __init__(self, width: int, height_: int) -> None:
        self.image = _blank(width * SCALE, height_ * SCALE).copy()
        self.draw = ImageDraw.Draw(self.image)

    def paste(self, tile: Image.Image, x: float, y: float) -> None:
        self.image.paste(tile, (round(x * SCALE), round(y * SCALE)))

    def box(self, x0: float, y0: float, x1: float, y1: float, colour: p.RGB) -> None:
        s = SCALE
        self.draw.rectangle((x0 * s, y0 * s, x1 * s - 1, y1 * s - 1), fill=p.index(colour))

    def text(
        self,
        line: str,
        x: float,
        y: float,
        *,
        size: int,
        width: float,
        bold: bool = False,
        ink: p.RGB = p.WHITE,
        background: p.RGB = p.FELT,
        right: bool = False,
    ) -> float:
        """Draw one line (cut to `width`); returns its width. `right`: `x` is its right end."""
        if not line or width <= 0:
            return 0
        tile = tiles.text(line, size, bold, ink, background, int(width), SCALE)
        w = tile.width / SCALE
        self.paste(tile, x - w if right else x, y)
        return w


def render(scene: Scene) -> bytes:
    """The scene as PNG bytes."""
    with DRAWING:
        canvas = _Canvas(WIDTH, height(len(scene.rows), bool(scene.banner)))
        _header(canvas, scene)
        y = HEADER
        if scene.banner:
            _banner(canvas, scene, y)
            y += BANNER
        for index, row in enumerate(scene.rows):
            if index:
                canvas.box(PAD, y, WIDTH - PAD, y + 1, p.FELT_DARK)
            _row(canvas, row, y)
            y += ROW
        return png.encode(canvas.image)


def _header(canvas: _Canvas, scene: Scene) -> None:
    canvas.box(0, 0, WIDTH, HEADER, p.FELT_DARK)
    canvas.paste(_swatch(scene.colour, 5 * SCALE, HEADER * SCALE), 0, 0)
    dark = p.FELT_DARK
    right: float = WIDTH - PAD
    if scene.target is not None:
        right -= canvas.text(
            scene.target, right, 7, size=16, bold=True, width=60, background=dark, right=True
        )
        right -= 4 + 20
        canvas.paste(tiles.mark(Mark.BULLSEYE, 20, SCALE, dark), right, 7)
        right -= 12
    if scene.pot is not None:
        right -= canvas.text(
            scene.pot, right, 10, size=12, width=90, ink=p.MUTED, background=dark, right=True
        )
        right -= 12
    x: float = PAD + 2
    x += canvas.text(scene.title, x, 8, size=14, bold=True, width=right - x - 70, background=dark)
    x += 10
    canvas.text(scene.round, x, 10, size=12, width=right - x, ink=p.MUTED, background=dark)


def _banner(canvas: _Canvas, scene: Scene, y: float) -> None:
    x: float = PAD
    if scene.banner_mark is not None:
        canvas.paste(tiles.mark(scene.banner_mark, 18, SCALE), x, y + 5)
        x += 24
    canvas.text(scene.banner, x, y + 6, size=13, bold=True, ink=p.GOLD, width=WIDTH - PAD - x)


def _row(canvas: _Canvas, row: Row, y: float) -> None:
    x: float = WIDTH - PAD
    for kind in reversed(row.marks):
        x -= MARK
        canvas.paste(tiles.mark(kind, MARK, SCALE), x, y + 4)
        x -= 4
    marks_left = x
    ink = p.MUTED if row.out else p.WHITE
    name_w = canvas.text(row.name, PAD, y + 7, size=13, bold=True, ink=ink, width=230)
    canvas.text(
        row.count,
        PAD + name_w + 8,
        y + 9,
        size=12,
        ink=p.MUTED,
        width=marks_left - PAD - name_w - 14,
    )
    top = y + 26
    x = PAD
    for card in row.cards:
        canvas.paste(tiles.face(card, SCALE), x, top)
        x += CARD_W + CARD_GAP
    if row.third is not None:
        x += THIRD_GAP - CARD_GAP
        canvas.paste(tiles.face(row.third, SCALE), x, top)
        x += CARD_W + CARD_GAP
    if row.stack:
        x += 4
        pile = tiles.stack(row.stack, SCALE)
        canvas.paste(pile, x, top + (CARD_H - pile.height / SCALE) / 2)
        x += pile.width / SCALE + 3
        label = f"×{row.stack}"
        x += canvas.text(label, x, top + (CARD_H - 16) / 2, size=12, bold=True, width=40)
        x += 4
    text_x = x + 8 if (row.cards or row.stack) else PAD
    room = WIDTH - PAD - text_x
    canvas.text(row.play, text_x, top + 14, size=15, bold=True, ink=ink, width=room)
    note_x = text_x
    if row.note_mark is not None:
        canvas.paste(tiles.mark(row.note_mark, 14, SCALE), note_x, top + 39)
        note_x += 18
    canvas.text(row.note, note_x, top + 39, size=12, ink=p.MUTED, width=WIDTH - PAD - note_x)


__all__ = ["BACK_H", "DRAWING", "SCALE", "render"]
