"""Exact chances for intervallkrig and satsing (RULES.md §3.3: "the bot shows each side the
chance that its third card lands inside its interval before and after a swap").

A side cannot see face-down cards or any pile's order, so every card that is not face up on
the table is equally likely to come next. The chances are exact `Fraction`s.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from engine.cards import Card
from engine.state import GameState


@dataclass(frozen=True, slots=True)
class InsideCount:
    """What to count (a hint says what to count, not only a fraction): `inside` of
    the `unseen` cards the side cannot see lie between `low` and `high` (ends included)."""

    low: int
    high: int
    inside: int
    unseen: int

    @property
    def chance(self) -> Fraction:
        return Fraction(self.inside, self.unseen) if self.unseen else Fraction(0)


@dataclass(frozen=True, slots=True)
class SwapChances:
    now: Fraction  # keep both cards
    swap: tuple[Fraction, Fraction]  # replace the first / the second interval card
    count: InsideCount  # the cards behind `now`


def unseen_cards(state: GameState) -> list[Card]:
    """Every dealt card that is not face up on the table now."""
    visible: set[int] = set()
    for up in state.up:
        visible.update(c.id for c in up)
    visible.update(c.id for c in state.part.face_up())
    return [c for c in state.all_cards() if c.id not in visible]


def _inside_count(counts: Counter[int], low: int, high: int) -> int:
    return sum(n for value, n in counts.items() if low <= value <= high)


def chance_inside(interval: tuple[int, int], unseen: list[int]) -> Fraction:
    """The chance that one unseen card lands in [min, max] of the interval (ends count)."""
    if not unseen:
        return Fraction(0)
    low, high = sorted(interval)
    return Fraction(sum(1 for v in unseen if low <= v <= high), len(unseen))


def chance_after_swap(keep: int, unseen: list[int]) -> Fraction:
    """The chance of landing inside after replacing one card by the next unseen card: the
    replacement r is any unseen card, then the third is any other unseen card."""
    total = len(unseen)
    if total < 2:
        return Fraction(0)
    counts = Counter(unseen)
    favourable = 0
    for r, n in counts.items():
        low, high = (keep, r) if keep <= r else (r, keep)
        inside = _inside_count(counts, low, high) - 1  # the replacement itself is gone
        favourable += n * inside
    return Fraction(favourable, total * (total - 1))


def inside_count(interval: tuple[int, int], unseen: list[int]) -> InsideCount:
    """How many of the unseen cards lie in [min, max] of the interval (ends count)."""
    low, high = sorted(interval)
    inside = sum(1 for v in unseen if low <= v <= high)
    return InsideCount(low, high, inside, len(unseen))


def swap_chances(state: GameState, side: int) -> SwapChances:
    """The side's chance now and after swapping either interval card (its two face-up cards)."""
    first, second = (c.value for c in state.up[side])
    unseen = [c.value for c in unseen_cards(state)]
    return SwapChances(
        now=chance_inside((first, second), unseen),
        swap=(chance_after_swap(second, unseen), chance_after_swap(first, unseen)),
        count=inside_count((first, second), unseen),
    )
