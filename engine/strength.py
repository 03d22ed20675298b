"""How strongly the computer plays: three strengths a learner can beat.

A pupil learns from an opponent that plays like a pupil, so the weaker strengths do not play
randomly: they find the best move at a set rate and otherwise make the mistakes pupils make
(each game's decisions say which mistakes those are, `engine.decision.Decision.computer`).
`easy` finds the best move half the time, `medium` 70 % of the time, `hard` always. Rates are
exact fractions, drawn with integer arithmetic from the rng the caller injects.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction


class Strength(StrEnum):
    EASY = "easy"  # a learner's opponent: best move half the time, pupils' mistakes
    MEDIUM = "medium"  # best move about 70 % of the time, mostly a weaker legal value
    HARD = "hard"  # the best choice


@dataclass(frozen=True, slots=True)
class Style:
    """How a strength answers: the chance of the best move, and how the misses divide between
    a weaker legal value, a sign slip and a late answer (relative weights)."""

    best: Fraction
    weaker: int
    slip: int
    late: int


STYLES = {
    Strength.EASY: Style(Fraction(1, 2), weaker=2, slip=2, late=1),
    Strength.MEDIUM: Style(Fraction(7, 10), weaker=6, slip=1, late=1),
    Strength.HARD: Style(Fraction(1), weaker=0, slip=0, late=0),
}


def style_of(strength: Strength, best_rate: Fraction | None = None) -> Style:
    """The strength's style; `best_rate` (0…1) makes it adaptive: the best move at that rate,
    with easy's mix of mistakes."""
    if best_rate is None:
        return STYLES[strength]
    if not 0 <= best_rate <= 1:
        raise ValueError(f"a best-move rate is from 0 to 1, not {best_rate}")
    easy = STYLES[Strength.EASY]
    return Style(Fraction(best_rate), easy.weaker, easy.slip, easy.late)


def happens(chance: Fraction, rng: random.Random) -> bool:
    """True with exactly `chance` (an integer draw, no float); a certainty draws nothing."""
    if chance >= 1 or chance <= 0:
        return chance >= 1
    return rng.randrange(chance.denominator) < chance.numerator
