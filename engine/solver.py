"""Every legal value two cards can make at a Regnekrig level, and the best of them (§2.2).

The engine asks for the best play of every side in every round (auto mode, the report after
each round, the computer player), so after the first call for a (level, a, b) every answer is
a dictionary look-up: `precompute` fills the cache for a deck profile up front. Card values
may be any int (stacked test piles), not only deck values.

Tie-break **[decision]**, so the same cards always show the same expression: among
expressions of equal worth (the same value, or at levels 5–7 the same distance to the target)
the one that comes first in this order wins:

1. fewer decorations: plain, then one square, one root, square + root, two roots;
2. the cards in the order given (a op b) before the swapped order (b op a);
3. the decoration on the first operand before the second (square and root: the square on
   the first operand first);
4. the operators in the order + − · ÷.

At levels 5–7, two different values at equal distance (T − d and T + d) are decided by the
same order applied to the expression that gives each.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt
from types import MappingProxyType
from typing import TypeAlias

from engine.expressions import MINUS, BinOp, Expr, Op, Root, Square, to_text
from engine.levels import card_term, level_operators

__all__ = [
    "TARGETS",
    "Play",
    "answer_text",
    "best",
    "combine",
    "distance",
    "number_answer",
    "precompute",
    "reachable",
]

TARGETS = range(-15, 16)
"""The targets a side may name (RULES.md §2.5); each gets a ready answer in the cache."""

_CACHE_LIMIT = 20_000
"""On-demand tables kept before they are dropped (precomputed ones always stay)."""


@dataclass(frozen=True, slots=True)
class Play:
    """A side's best legal play; `value` None (and `text` "") when there is none."""

    value: Fraction | None
    text: str

    @property
    def answer(self) -> str:
        """The play as a pupil types it in any answer form: the expression and its value
        (``4 − (−3) = 7``, RULES §2.2); "" when there is no play."""
        return "" if self.value is None else answer_text(self.text, self.value)


def number_answer(value: Fraction) -> str:
    """A value as a pupil types it: ``7``, ``−3``, ``−7/2``."""
    return str(value).replace("-", MINUS)


def answer_text(expression: str, value: Fraction) -> str:
    """An expression with the value it gives, the full answer of RULES §2.2."""
    return f"{expression} = {number_answer(value)}"


NO_PLAY = Play(None, "")

# A term is one card, possibly decorated: (decoration, value, tree).
_Term: TypeAlias = tuple[str, Fraction, Expr]
# (decorations, roots, order, placement, operator): smaller is preferred.
_Key: TypeAlias = tuple[int, int, int, int, int]
# Which operand carries which decoration, in order of preference (module doc, rule 3).
_PLACEMENTS = (
    ("plain", "plain"),
    ("square", "plain"),
    ("plain", "square"),
    ("root", "plain"),
    ("plain", "root"),
    ("square", "root"),
    ("root", "square"),
    ("root", "root"),
)


@dataclass(frozen=True, slots=True)
class _Table:
    reachable: Mapping[Fraction, str]
    values: tuple[Fraction, ...]  # ascending
    keys: tuple[_Key, ...]  # aligned with values
    plays: tuple[Play, ...]  # aligned with values
    top: Play  # highest value (levels 1–4)
    by_target: Mapping[int, Play]  # closest to each target in TARGETS (levels 5–7)

    def closest(self, target: int) -> Play:
        return _closest(self.values, self.keys, self.plays, target)


def _closest(
    values: tuple[Fraction, ...], keys: tuple[_Key, ...], plays: tuple[Play, ...], target: int
) -> Play:
    """Bisect: only the neighbours of the target can be closest."""
    i = bisect_left(values, target)
    if i < len(values) and values[i] == target:
        return plays[i]
    candidates = [j for j in (i - 1, i) if 0 <= j < len(values)]
    if not candidates:
        return NO_PLAY
    return plays[min(candidates, key=lambda j: (abs(values[j] - target), keys[j]))]


_TABLES: dict[tuple[int, int, int], _Table] = {}
_PINNED: set[tuple[int, int, int]] = set()


def distance(value: Fraction | None, target: int) -> Fraction | None:
    """|value − target|, or None for *no value* (which loses to every value, §2.2)."""
    return None if value is None else abs(value - target)


def reachable(a: int, b: int, level: int) -> Mapping[Fraction, str]:
    """Every value a side with cards a, b can legally make at `level`, each with the
    preferred expression (module doc) that gives it, in ascending order of value.

    >>> dict(reachable(6, 4, 3))
    {Fraction(2, 3): '4 ÷ 6', Fraction(3, 2): '6 ÷ 4'}
    """
    table = _TABLES.get((level, a, b))
    if table is None:
        table = _build(level, a, b)
    return table.reachable


def best(a: int, b: int, level: int, target: int | None = None) -> Play:
    """The best legal play: levels 1–4 the highest value (`target` ignored), levels 5–7 the
    value closest to `target` (required; any int works, −15…15 are precomputed).

    >>> best(-3, 4, 4)
    Play(value=Fraction(7, 1), text='4 − (−3)')
    >>> best(3, 4, 6, target=-5)
    Play(value=Fraction(-5, 1), text='4 − 3²')
    """
    table = _TABLES.get((level, a, b))
    if table is None:
        table = _build(level, a, b)
    if level <= 4:
        return table.top
    if target is None:
        raise ValueError(f"level {level} needs a target")
    play = table.by_target.get(target)
    return play if play is not None else table.closest(target)


def precompute(values: Iterable[int], levels: Iterable[int] = range(1, 8)) -> None:
    """Fill the cache for every ordered pair of `values` (e.g. `engine.cards.profile_values`)
    so that no round ever computes; these tables are never evicted."""
    distinct = sorted(set(values))
    for level in levels:
        for a in distinct:
            for b in distinct:
                key = (level, a, b)
                if key not in _TABLES:
                    _build(level, a, b)
                _PINNED.add(key)


def _terms(card: int, level: int) -> list[_Term]:
    plain = card_term(card)
    terms: list[_Term] = [("plain", Fraction(card), plain)]
    if level >= 6:
        terms.append(("square", Fraction(card * card), Square(plain)))
    if level >= 7 and card >= 0 and isqrt(card) ** 2 == card:
        terms.append(("root", Fraction(isqrt(card)), Root(plain)))
    return terms


def combine(op: Op, x: Fraction, y: Fraction) -> Fraction | None:
    """x op y, or None for a division by zero (never legal, §2.2)."""
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    return None if y == 0 else x / y


def _candidates(a: int, b: int, level: int) -> dict[Fraction, tuple[_Key, Expr]]:
    """Each legal value with its preferred expression (smallest key)."""
    ops = level_operators(level)
    orders = ((a, b),) if level <= 2 else ((a, b), (b, a))
    found: dict[Fraction, tuple[_Key, Expr]] = {}
    for order, (x, y) in enumerate(orders):
        for x_term in _terms(x, level):
            for y_term in _terms(y, level):
                kinds = (x_term[0], y_term[0])
                if kinds == ("square", "square"):
                    continue  # one square at most (§2.2)
                decorations = 2 - kinds.count("plain")
                roots = kinds.count("root")
                placement = _PLACEMENTS.index(kinds)
                for op_index, op in enumerate(ops):
                    value = combine(op, x_term[1], y_term[1])
                    if value is None:
                        continue  # division by zero is never legal (§2.2)
                    key = (decorations, roots, order, placement, op_index)
                    known = found.get(value)
                    if known is None or key < known[0]:
                        found[value] = (key, BinOp(op, x_term[2], y_term[2]))
    return found


def _build(level: int, a: int, b: int) -> _Table:
    found = _candidates(a, b, level)
    values = tuple(sorted(found))
    keys = tuple(found[value][0] for value in values)
    plays = tuple(Play(value, to_text(found[value][1])) for value in values)
    by_target = {t: _closest(values, keys, plays, t) for t in TARGETS} if level >= 5 else {}
    table = _Table(
        reachable=MappingProxyType({v: play.text for v, play in zip(values, plays, strict=True)}),
        values=values,
        keys=keys,
        plays=plays,
        top=plays[-1] if plays else NO_PLAY,
        by_target=MappingProxyType(by_target),
    )
    if len(_TABLES) >= _CACHE_LIMIT + len(_PINNED):
        for key in [key for key in _TABLES if key not in _PINNED]:
            del _TABLES[key]
    _TABLES[(level, a, b)] = table
    return table
