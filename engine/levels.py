"""What each Regnekrig level allows a side to compute with its two cards (RULES.md §2.2).

The judge, the solver and the screens all ask here, so a level's operations, its square and
root, and whether it always wants the result are written down once.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum, StrEnum
from fractions import Fraction
from types import MappingProxyType

from engine.expressions import Expr, Neg, Num, Op

__all__ = [
    "RESULT_LEVELS",
    "ROOT_LEVEL",
    "SQUARE_LEVEL",
    "AnswerForm",
    "Reading",
    "card_term",
    "level_operators",
]

_LEVEL_OPERATORS: Mapping[int, tuple[Op, ...]] = MappingProxyType(
    {
        1: ("+",),
        2: ("*",),
        3: ("/",),
        4: ("-",),
        5: ("+", "-", "*", "/"),
        6: ("+", "-", "*", "/"),
        7: ("+", "-", "*", "/"),
    }
)
SQUARE_LEVEL = 6
ROOT_LEVEL = 7
RESULT_LEVELS = range(1, 3)
"""Levels 1–2 always ask for the result, whatever the game's answer form (§2.2)."""


class AnswerForm(StrEnum):
    """What a regn-mode answer at levels 3–7 must contain (RULES.md §2.2, SCENARIOS.md)."""

    NUMBER = "number"  # the value, alone or after its expression; both are checked
    EXPRESSION = "expression"  # an expression alone is enough (a beginner's aid)


class Reading(IntEnum):
    """Which edition of the rule book reads an answer (RULES.md §2.2, §2.6). A game is its
    actions replayed, so an answer stored under the first edition is judged by it for ever:
    each answer carries the edition it was typed under, and new answers take the newest.

    `EACH_CARD_WITH_ITS_SIGN`: every card written with its sign (``3-5`` for 3 and −5 is a
    sign slip); school notation, practice notes and the mistakes of squares and of the order
    of operations are not read. `AS_SCHOOL_WRITES`: a sign taken into the operation counts as
    the legal expression it stands for, fractions must be simplified, school notation is
    read, and the mistake ladder names −k² and the order of operations."""

    EACH_CARD_WITH_ITS_SIGN = 1
    AS_SCHOOL_WRITES = 2


def level_operators(level: int) -> tuple[Op, ...]:
    """The binary operators a level allows (RULES.md §2.2). Raises ValueError for a level
    outside 1..7: that is a programming error, not a pupil's."""
    try:
        return _LEVEL_OPERATORS[level]
    except KeyError:
        raise ValueError(f"Regnekrig levels are 1..7, not {level!r}") from None


def card_term(card: int) -> Expr:
    """A card as a pupil writes it: −4 is `Neg(Num(4))`, "the card with its sign" (§2.2)."""
    literal = Num(Fraction(abs(card)))
    return Neg(literal) if card < 0 else literal
