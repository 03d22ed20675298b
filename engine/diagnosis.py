"""Why a number no legal expression gives was typed: the slip a learner most likely made.

A wrong number alone says nothing by itself, so the judge asks here which simple mistake
explains it, most telling first (RULES.md §2.2, issue "every round teaches"):

1. the side's cards have no value at this level at all (0 and 0 at level 3): `no_legal_value`;
2. one card's sign was dropped or added (9 for −4 and 5 at level 1): `sign_slip`;
3. levels 1–4: an operation of another level gives it (2 for 6 and 3 at level 1):
   `operator_not_allowed`. Only the four operations are ever named: a square is never
   suggested below level 6, nor a root below level 7;
4. levels 1–4 (one or two legal values): a slip in the sum, product, quotient or difference
   (25 for 4 · 6): `arithmetic_slip`, naming the legal value closest to the typed one;
5. otherwise `wrong_value`.
"""

from __future__ import annotations

from fractions import Fraction

from engine.errors import Reason
from engine.expressions import BinOp, Op, number_detail, operator_symbol, to_text
from engine.levels import card_term, level_operators
from engine.solver import combine, reachable

__all__ = ["diagnose_number", "flipped_cards"]

_SIMPLE_LEVELS = range(1, 5)
_OPERATIONS: tuple[Op, ...] = ("+", "-", "*", "/")

Diagnosis = tuple[Reason, dict[str, object]]


def flipped_cards(cards: tuple[int, int]) -> list[tuple[int, tuple[int, int]]]:
    """Each card whose sign can slip (not 0), with the pair as the slip makes it."""
    a, b = cards
    return [(card, pair) for card, pair in ((a, (-a, b)), (b, (a, -b))) if card != 0]


def diagnose_number(value: Fraction, cards: tuple[int, int], level: int) -> Diagnosis | None:
    """None when `value` is legal for these cards at `level`, else the reason and details."""
    a, b = cards
    legal = reachable(a, b, level)
    if value in legal:
        return None
    if not legal:
        return Reason.NO_LEGAL_VALUE, {"value": number_detail(value)}
    for card, pair in flipped_cards(cards):
        slipped = reachable(pair[0], pair[1], level)
        if value in slipped:
            return Reason.SIGN_SLIP, {
                "number": -card,
                "card": card,
                "value": number_detail(value),
                "expression": slipped[value],
            }
    if level not in _SIMPLE_LEVELS:
        return Reason.WRONG_VALUE, {"value": number_detail(value)}
    other = _other_operation(value, cards, level)
    if other is not None:
        return other
    nearest = min(legal, key=lambda v: (abs(v - value), v))
    return Reason.ARITHMETIC_SLIP, {
        "expression": legal[nearest],
        "value": number_detail(nearest),
        "number": number_detail(value),
    }


def _other_operation(value: Fraction, cards: tuple[int, int], level: int) -> Diagnosis | None:
    """An operation the level does not allow that gives `value` with the cards, in either
    order (+ − · ÷ first to last)."""
    allowed = level_operators(level)
    a, b = cards
    for op in _OPERATIONS:
        if op in allowed:
            continue
        for x, y in ((a, b), (b, a)):
            if combine(op, Fraction(x), Fraction(y)) == value:
                return Reason.OPERATOR_NOT_ALLOWED, {
                    "operator": operator_symbol(op),
                    "allowed": [operator_symbol(o) for o in allowed],
                    "level": level,
                    "expression": to_text(BinOp(op, card_term(x), card_term(y))),
                    "value": number_detail(value),
                }
    return None
