"""Why a number no legal expression gives was typed: the slip a learner most likely made.

A wrong number alone says nothing by itself, so the judge asks here which simple mistake
explains it, first match wins (RULES.md §2.6):

0. the side's cards have no value at this level at all (0 and 0 at level 3): `no_legal_value`;
1. `sign_slip`: the number is the negative of a legal value (2 for 3 + (−5): the result's sign
   flipped), or a value the cards give with one card's sign flipped (9 for −4 and 5 at
   level 1). The same slip is named the same at every level;
2. levels 1–4: an operation of another level gives it (2 for 6 and 3 at level 1):
   `operator_not_allowed`. Only the four operations are ever named: a square is never
   suggested below level 6, nor a root below level 7;
3. levels 1–4 (one or two legal values): a slip in the sum, product, quotient or difference
   (25 for 4 · 6): `arithmetic_slip`, naming the legal value closest to the typed one;
4. otherwise `wrong_value`.

A decimal that is a legal value rounded (`-0,83` for −5/6) is not a mistake but *not exact*
(`rounded_from`): the judge refuses it and the pupil types the exact value. A decimal that is
the negative of a rounded legal value is that value's sign slip.

Every `sign_slip` and `arithmetic_slip` found here carries the same details: the legal
`expression` the pupil most likely meant, its right `value`, and the typed `number`; a card
slip also names the `card` whose sign slipped and the number `used` for it (and has no
`expression` when the card with its sign has none of that shape: √4 for the card −4).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import floor

from engine.errors import ExpressionError, Reason
from engine.expressions import (
    BinOp,
    Expr,
    Neg,
    Num,
    Op,
    evaluate,
    number_detail,
    operator_symbol,
    parse,
    to_text,
)
from engine.levels import card_term, level_operators
from engine.solver import combine, reachable

__all__ = ["diagnose_number", "flip_literal", "flipped_cards", "rounded_from"]

_SIMPLE_LEVELS = range(1, 5)
_OPERATIONS: tuple[Op, ...] = ("+", "-", "*", "/")

Diagnosis = tuple[Reason, dict[str, object]]


def flipped_cards(cards: tuple[int, int]) -> list[tuple[int, tuple[int, int]]]:
    """Each card whose sign can slip (not 0), with the pair as the slip makes it."""
    a, b = cards
    return [(card, pair) for card, pair in ((a, (-a, b)), (b, (a, -b))) if card != 0]


def rounded_from(
    number: Fraction, places: int, legal: Mapping[Fraction, str] | set[Fraction]
) -> Fraction | None:
    """The legal value a decimal with `places` digits after its mark is a rounding of (to the
    nearest, or cut off after the last digit typed), the closest one first; None when the
    number is exact or no legal value rounds to it. A whole number (no digits typed) is
    never a rounding: 0 for 1/3 is a slip, not a lack of digits."""
    if places <= 0 or number in legal:
        return None
    scale = 10**places
    found = [
        value
        for value in legal
        if value != number and number in (_round(value, scale), Fraction(int(value * scale), scale))
    ]
    return min(found, key=lambda v: (abs(v - number), v)) if found else None


def _round(value: Fraction, scale: int) -> Fraction:
    """To the nearest 1/scale, a half away from zero (as pupils learn to round)."""
    magnitude = Fraction(floor(abs(value) * scale + Fraction(1, 2)), scale)
    return -magnitude if value < 0 else magnitude


def diagnose_number(
    value: Fraction, cards: tuple[int, int], level: int, places: int = 0
) -> Diagnosis | None:
    """None when `value` is legal for these cards at `level`, else the reason and details.
    `places` is how many digits the pupil typed after a decimal mark: a rounded decimal's
    sign slip is found too."""
    a, b = cards
    legal = reachable(a, b, level)
    if value in legal:
        return None
    if not legal:
        return Reason.NO_LEGAL_VALUE, {"value": number_detail(value)}
    slip = _sign_slip(value, cards, level, places)
    if slip is not None:
        return slip
    if level not in _SIMPLE_LEVELS:
        return Reason.WRONG_VALUE, {"value": number_detail(value)}
    other = _other_operation(value, cards, level)
    if other is not None:
        return other
    nearest = min(legal, key=lambda v: (abs(v - value), v))
    return Reason.ARITHMETIC_SLIP, _slip_details(legal[nearest], nearest, value)


def _slip_details(expression: str, right: Fraction, typed: Fraction) -> dict[str, object]:
    return {
        "expression": expression,
        "value": number_detail(right),
        "number": number_detail(typed),
    }


def _sign_slip(
    value: Fraction, cards: tuple[int, int], level: int, places: int
) -> Diagnosis | None:
    """The result's sign flipped (the negative of a legal value, or of its rounding), else one
    card's sign flipped (a value the flipped pair gives, named with the expression the pupil
    meant: the same shape with the card's real sign)."""
    legal = reachable(cards[0], cards[1], level)
    right = -value if -value in legal else rounded_from(-value, places, legal)
    if right is not None:
        return Reason.SIGN_SLIP, _slip_details(legal[right], right, value)
    for card, pair in flipped_cards(cards):
        slipped = reachable(pair[0], pair[1], level)
        if value in slipped:
            meant = flip_literal(parse(slipped[value]), -card)
            assert meant is not None  # the slipped expression holds the flipped card
            try:
                details = _slip_details(to_text(meant), evaluate(meant), value)
            except ExpressionError:  # √4 for the card −4: with its sign it has no root
                details = {"number": number_detail(value)}
            return Reason.SIGN_SLIP, {**details, "card": card, "used": -card}
    return None


def flip_literal(expr: Expr, card: int) -> Expr | None:
    """The expression with the sign of the first literal that stands for `card` (with its
    sign, as `card_term` writes it) flipped: ``4 + 5`` with the card 4 gives ``−4 + 5``;
    None when no literal stands for it. A card's literal is a number or a number with one
    minus (``−4``); the minus in front of a group or a root is not a card's sign."""
    target, flipped = card_term(card), card_term(-card)
    done = False

    def visit(node: Expr) -> Expr:
        nonlocal done
        if done:
            return node
        if node == target:
            done = True
            return flipped
        if isinstance(node, Num) or (isinstance(node, Neg) and isinstance(node.operand, Num)):
            return node  # another card's literal: its digits are not this card
        if isinstance(node, BinOp):
            return BinOp(node.op, visit(node.left), visit(node.right))
        return type(node)(visit(node.operand))

    result = visit(expr)
    return result if done else None


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
