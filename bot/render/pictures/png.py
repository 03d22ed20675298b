"""The palette canvas written as a PNG, compressed with ISA-L's deflate instead of zlib's.

Why not `Image.save(…, "PNG")`: zlib's deflate, even at its fastest level, is most of a
picture's cost, and a picture follows every press. ISA-L's level 1 deflates the same
scanlines several times faster for about the same size (docs/performance.md, "Pictures").
The file is the plainest PNG there is: 8-bit palette, every scanline unfiltered (a palette
image gains little from filters), no extra chunks, so the same canvas always gives the same
bytes.
"""

from __future__ import annotations

import struct
import zlib
from functools import cache

from isal import isal_zlib
from PIL import Image

from bot.render.pictures import palette as p

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 1  # ISA-L's levels are 0–3; 1 is as small as 3 here, at a third of its time
NO_FILTER = 0  # the filter type byte that starts each scanline
BIT_DEPTH = 8
PALETTE_COLOUR = 3  # PNG colour type: indices into PLTE


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@cache
def _palette_chunk() -> bytes:
    """The palette's colours as they are, no padding to 256 entries."""
    return _chunk(b"PLTE", bytes(channel for colour in p.colours() for channel in colour))


def encode(canvas: Image.Image) -> bytes:
    """A canvas of palette indices (mode "P", on the fixed palette) as PNG bytes."""
    if canvas.mode != "P":
        raise ValueError(f"a picture is drawn on the palette, not in mode {canvas.mode}")
    width, height = canvas.size
    # Each scanline is its filter byte, then the row: the canvas pasted one pixel to the
    # right of a column of zeros is exactly that, in one copy done by Pillow's C code.
    framed = Image.new("P", (width + 1, height), NO_FILTER)
    framed.paste(canvas, (1, 0))
    header = struct.pack(">IIBBBBB", width, height, BIT_DEPTH, PALETTE_COLOUR, 0, 0, 0)
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", header),
            _palette_chunk(),
            _chunk(b"IDAT", isal_zlib.compress(framed.tobytes(), LEVEL)),
            _chunk(b"IEND", b""),
        )
    )
