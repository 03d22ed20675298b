"""The pieces a picture is pasted from: card faces, card backs, marks and lines of text.

Each is drawn once in RGB (shapes four times too large, then shrunk, for smooth edges), mapped
onto the fixed palette and kept (`functools` caches keyed by what is drawn and the scale), so
a new picture mostly pastes. Drawing is not re-entrant across threads (FreeType faces are
shared), so callers hold `compose.DRAWING` while they make tiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from bot.render.pictures import palette as p
from bot.render.pictures.fonts import fit, font, printable

CARD_W, CARD_H = 48, 68  # a card, in logical pixels (the picture is drawn at SCALE×)
BACK_W, BACK_H = 34, 48  # a face-down card in a stack
STACK_SHOWN = 3  # at most this many backs are drawn in a stack; the count says the rest
SUPER = 4  # shapes are drawn this many times larger, then shrunk

MINUS = "\u2212"
_LETTERS = {1: "A", 11: "J", 12: "Q", 13: "K"}
_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
HELTALL_RANGE = 6  # RULES §1.1: the heltall deck carries −6…6


class Mark(StrEnum):
    """The round's result marks, drawn as shapes (an emoji font is not shipped)."""

    TROPHY = "trophy"  # won the round (or the game)
    SWORDS = "swords"  # in a war
    BULLSEYE = "bullseye"  # an exact hit, and the target itself


@dataclass(frozen=True, slots=True)
class Face:
    """What a face-up card shows: enough to draw it and nothing else (the key of its tile)."""

    deck: str  # DeckProfile value
    value: int
    suit: str | None = None  # Suit value ("H"), None when unknown (stacked piles, past rounds)
    rank: int | None = None


def signed(value: int) -> str:
    """A whole number with the true minus sign."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def _ink(face: Face) -> p.RGB:
    """The value's colour: the `fortegn` deck's red is negative and black positive; an ordinary
    deck keeps its suit's colour; the `heltall` deck has its own ink (its suits mean nothing)."""
    if face.deck == "heltall":
        return p.NAVY
    if face.deck == "fortegn":
        return p.RED if face.value < 0 else p.INK
    return p.RED if face.suit in ("H", "D") else p.INK


def _suit_ink(suit: str) -> p.RGB:
    return p.RED if suit in ("H", "D") else p.INK


def _letter(face: Face) -> str | None:
    """A picture card's letter, only where the value is the rank (never in heltall)."""
    if face.deck == "heltall" or face.rank is None or abs(face.value) != face.rank:
        return None
    return _LETTERS.get(face.rank)


def _shrink(big: Image.Image, size: tuple[int, int]) -> Image.Image:
    return big.resize(size, Image.Resampling.LANCZOS)


def _body(w: int, h: int, scale: int, fill: p.RGB, outline: p.RGB) -> Image.Image:
    """A rounded card on the felt, smooth edged, `scale`× its logical size."""
    k = scale * SUPER
    big = Image.new("RGB", (w * k, h * k), p.FELT)
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle(
        (0, 0, w * k - 1, h * k - 1), radius=6 * k, fill=fill, outline=outline, width=k
    )
    return _shrink(big, (w * scale, h * scale))


def _centred(
    draw: ImageDraw.ImageDraw, text: str, x: float, y: float, size: int, bold: bool, fill: p.RGB
) -> None:
    draw.text((x, y), text, font=font(size, bold), fill=fill, anchor="mm")


@cache
def face(card: Face, scale: int) -> Image.Image:
    """One card face up."""
    image = _body(CARD_W, CARD_H, scale, p.WHITE, p.EDGE)
    draw = ImageDraw.Draw(image)
    s = scale
    text = signed(card.value)
    size = 26 if len(text) <= 2 else 19
    ink = _ink(card)
    if card.deck == "heltall":
        _centred(draw, text, CARD_W * s / 2, 28 * s, size * s, True, ink)
        _number_line(draw, card.value, s)
    else:
        middle = 39 if card.suit is not None else 34  # below the corner index, if any
        _centred(draw, text, CARD_W * s / 2, middle * s, (size - 2) * s, True, ink)
    if card.suit is not None:
        suit = _SUITS.get(card.suit, "")
        # heltall: the suit only helps find the card; in its colour it would read as a sign.
        colour = p.EDGE if card.deck == "heltall" else _suit_ink(card.suit)
        letter = _letter(card)
        top = 9 * s
        if letter is not None:
            _centred(draw, letter, 8 * s, 8 * s, 10 * s, True, colour)
            top = 19 * s
        _centred(draw, suit, 8 * s, top, 11 * s, False, colour)
        if card.deck != "heltall":
            _centred(draw, suit, (CARD_W - 8) * s, (CARD_H - 9) * s, 11 * s, False, colour)
    return p.to_palette(image)


def _number_line(draw: ImageDraw.ImageDraw, value: int, s: int) -> None:
    """The heltall face's own mark: where the value sits on the line from −6 to 6."""
    left, right, y = 8 * s, (CARD_W - 8) * s, 54 * s
    draw.line((left, y, right, y), fill=p.LINE, width=max(1, s))
    for tick in (left, (left + right) / 2, right):
        draw.line((tick, y - 3 * s, tick, y + 3 * s), fill=p.LINE, width=max(1, s))
    clamped = max(-HELTALL_RANGE, min(HELTALL_RANGE, value))
    x = left + (right - left) * (clamped + HELTALL_RANGE) / (2 * HELTALL_RANGE)
    r = 3.5 * s
    draw.ellipse((x - r, y - r, x + r, y + r), fill=p.NAVY)


@cache
def back(scale: int) -> Image.Image:
    """One small card face down."""
    k = scale * SUPER
    big = Image.new("RGB", (BACK_W * k, BACK_H * k), p.FELT)
    draw = ImageDraw.Draw(big)
    box = (0, 0, BACK_W * k - 1, BACK_H * k - 1)
    draw.rounded_rectangle(box, radius=5 * k, fill=p.BACK, outline=p.WHITE, width=k)
    inset = 4 * k
    draw.rounded_rectangle(
        (inset, inset, BACK_W * k - inset, BACK_H * k - inset),
        radius=3 * k,
        fill=p.BACK_DARK,
        outline=p.WHITE,
        width=k,
    )
    return p.to_palette(_shrink(big, (BACK_W * scale, BACK_H * scale)))


STACK_STEP = 4  # logical pixels between the backs of a stack


@cache
def stack(count: int, scale: int) -> Image.Image:
    """Up to three backs fanned out (the count is written beside it)."""
    shown = max(1, min(STACK_SHOWN, count))
    w = BACK_W + STACK_STEP * (shown - 1)
    h = BACK_H + STACK_STEP * (shown - 1)
    image = Image.new("P", (w * scale, h * scale), p.index(p.FELT))
    image.putpalette(p.palette_image().getpalette() or [])
    one = back(scale)
    for i in range(shown):
        image.paste(one, (i * STACK_STEP * scale, (shown - 1 - i) * STACK_STEP * scale))
    return image


@cache
def mark(kind: Mark, size: int, scale: int, background: p.RGB = p.FELT) -> Image.Image:
    """A trophy, crossed swords or a bullseye, `size` logical pixels square."""
    k = size * scale * SUPER
    big = Image.new("RGB", (k, k), background)
    draw = ImageDraw.Draw(big)
    if kind is Mark.TROPHY:
        _trophy(draw, k)
    elif kind is Mark.SWORDS:
        _swords(draw, k)
    else:
        _bullseye(draw, k)
    return p.to_palette(_shrink(big, (size * scale, size * scale)))


def _trophy(draw: ImageDraw.ImageDraw, k: int) -> None:
    w = max(1, round(k * 0.07))
    draw.arc((0.06 * k, 0.14 * k, 0.40 * k, 0.50 * k), 90, 270, fill=p.GOLD, width=w)
    draw.arc((0.60 * k, 0.14 * k, 0.94 * k, 0.50 * k), 270, 90, fill=p.GOLD, width=w)
    draw.chord((0.20 * k, -0.18 * k, 0.80 * k, 0.64 * k), 0, 180, fill=p.GOLD)
    draw.rectangle((0.20 * k, 0.10 * k, 0.80 * k, 0.24 * k), fill=p.GOLD)
    draw.rectangle((0.44 * k, 0.60 * k, 0.56 * k, 0.78 * k), fill=p.GOLD_DARK)
    draw.rounded_rectangle((0.28 * k, 0.76 * k, 0.72 * k, 0.90 * k), 0.03 * k, fill=p.GOLD)


def _swords(draw: ImageDraw.ImageDraw, k: int) -> None:
    blade = max(1, round(k * 0.09))
    guard = max(1, round(k * 0.08))
    for flip in (False, True):

        def at(x: float, y: float, flip: bool = flip) -> tuple[float, float]:
            return ((1 - x) * k if flip else x * k, y * k)

        draw.line((*at(0.16, 0.84), *at(0.88, 0.12)), fill=p.STEEL, width=blade)
        draw.line((*at(0.18, 0.62), *at(0.38, 0.82)), fill=p.GOLD_DARK, width=guard)
        cx, cy = at(0.12, 0.88)
        r = 0.06 * k
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=p.GOLD_DARK)


def _bullseye(draw: ImageDraw.ImageDraw, k: int) -> None:
    c = k / 2
    for radius, colour in ((0.48, p.BULL), (0.36, p.WHITE), (0.24, p.BULL), (0.12, p.WHITE)):
        r = radius * k
        draw.ellipse((c - r, c - r, c + r, c + r), fill=colour)
    r = 0.05 * k
    draw.ellipse((c - r, c - r, c + r, c + r), fill=p.BULL)


@lru_cache(maxsize=1024)  # names, counts and statuses recur; plays mostly do not
def text(
    line: str, size: int, bold: bool, ink: p.RGB, background: p.RGB, width: int, scale: int
) -> Image.Image:
    """One line of text on its background, cut with an ellipsis to `width` logical pixels."""
    face_ = font(size * scale, bold)
    shown = fit(printable(line), size * scale, bold, width * scale)
    ascent, descent = face_.getmetrics()
    w = max(1, round(face_.getlength(shown)))
    image = Image.new("RGB", (w, ascent + descent), background)
    ImageDraw.Draw(image).text((0, 0), shown, font=face_, fill=ink)
    return p.to_palette(image)
