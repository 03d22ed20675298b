"""Comparing card pictures in tests, with a failure that says what to mend.

Pictures are deterministic: the same view gives the same bytes, in any thread and in the
worker process. When two pictures of the same round differ, "the bytes differ" says nothing;
these helpers say whether the pixels differ (and where) or only the compression, and which of
the two a drawing with every cache emptied agrees with (so the side that kept a wrong tile,
or drew one wrongly, is named).
"""

from __future__ import annotations

import io

from PIL import Image, ImageChops

from bot.render.pictures import draw_table, forget, tiles
from bot.render.pictures import palette as p
from bot.render.pictures.fonts import font, has_glyph
from engine.view import View


def open_png(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def difference(name: str, got: bytes, drawn: bytes) -> str:
    """Whether two PNGs of the same round differ in their pixels (and where) or only in how
    they were compressed: the two call for different mends."""
    mine, theirs = open_png(got), open_png(drawn)
    if mine.size != theirs.size:
        return f"{name}: {mine.size} against {theirs.size}"
    box = ImageChops.difference(mine.convert("RGB"), theirs.convert("RGB")).getbbox()
    return f"{name}: pixels differ in {box}" if box else f"{name}: same pixels, other bytes"


def every_cache_cold() -> None:
    """Forget every picture, tile, font and the palette, as a new process starts."""
    forget()
    for cached in (tiles.face, tiles.back, tiles.stack, tiles.mark, tiles.text):
        cached.cache_clear()
    for kept in (font, has_glyph, p.palette_image):
        kept.cache_clear()


def why_they_differ(
    name: str, got: bytes, here: bytes, seen: View, names: dict[int, str], lang: str
) -> str:
    """`got` (from elsewhere: the worker, a thread) and `here` (drawn in this process) differ:
    how, and which of them a drawing with every cache cold gives."""
    every_cache_cold()
    cold = draw_table(seen, names, lang).png
    agrees = (
        "both"
        if cold == got == here
        else "the other"
        if cold == got
        else "this process's"
        if cold == here
        else "neither"
    )
    return f"{difference(name, got, here)}; drawn cold, it is {agrees} picture"
