"""The pictures' own PNG writer (bot/render/pictures/png.py): what any PNG reader opens is
exactly the canvas that was drawn, on the fixed palette, and nothing else is written."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.render.pictures import palette as p
from bot.render.pictures import png


def _canvas(width: int, height: int, seed: int) -> Image.Image:
    """A canvas like a picture's: felt, boxes of palette colours, a few stray pixels."""
    rng = random.Random(seed)
    image = Image.new("P", (width, height), p.index(p.FELT))
    for _ in range(12):
        x0, y0 = rng.randrange(width), rng.randrange(height)
        x1, y1 = rng.randrange(x0, width), rng.randrange(y0, height)
        image.paste(rng.randrange(len(p.colours())), (x0, y0, x1 + 1, y1 + 1))
    for _ in range(50):
        image.putpixel((rng.randrange(width), rng.randrange(height)), rng.randrange(256))
    return image


@pytest.mark.parametrize(("width", "height", "seed"), [(1, 1, 0), (7, 3, 1), (880, 468, 2)])
def test_a_reader_sees_the_canvas_pixel_for_pixel(width: int, height: int, seed: int) -> None:
    canvas = _canvas(width, height, seed)
    opened = Image.open(io.BytesIO(png.encode(canvas)))
    opened.load()
    assert opened.format == "PNG"
    assert (opened.mode, opened.size) == ("P", (width, height))
    assert opened.tobytes() == canvas.tobytes()


def test_the_palette_is_the_pictures_palette_and_no_more() -> None:
    opened = Image.open(io.BytesIO(png.encode(_canvas(20, 10, 3))))
    flat = [channel for colour in p.colours() for channel in colour]
    assert opened.getpalette() == flat


def test_the_same_canvas_gives_the_same_bytes() -> None:
    """Pictures are cached and compared by their bytes: nothing in the file may vary."""
    assert png.encode(_canvas(300, 200, 4)) == png.encode(_canvas(300, 200, 4))


def test_only_the_chunks_a_picture_needs() -> None:
    data = png.encode(_canvas(30, 20, 5))
    assert data.startswith(png.SIGNATURE)
    kinds, at = [], len(png.SIGNATURE)
    while at < len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        kinds.append(data[at + 4 : at + 8])
        at += 12 + length
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]


def test_a_canvas_off_the_palette_is_refused() -> None:
    with pytest.raises(ValueError, match="palette"):
        png.encode(Image.new("RGB", (4, 4)))
