"""A sign taken into the operation, as school writes it (RULES.md §2.2), and the readings that
name a wrong result (§2.6: −k² read as (−k)², worked from left to right).

`stands_for` finds the legal expression a typed one stands for: ``3 − 5`` with the cards 3 and
−5 is the addition 3 + (−5), ``2 + 6`` with 2 and −6 the subtraction 2 − (−6), ``−(3 · 4)``
with 3 and −4 the product 3 · (−4). A rewrite moves signs only: the typed expression names
each card's absolute value once, in the legal expression's places and with its square or root,
its operation is the legal one, or − for a + (and + for a −) whose following card is negative,
or for · and ÷ any placement of the signs; and its value equals the legal expression's. So a
positive card's addition never becomes a subtraction (``3 − 5`` with 3 and 5 at level 1 stays a
subtraction), nor one operation another (``2 · 2`` is a product, however equal to 2 + 2).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import isqrt
from typing import TypeAlias

from engine.errors import ExpressionError
from engine.expressions import BinOp, Expr, Neg, Num, Op, Root, Square, evaluate, strip_signs
from engine.levels import card_term, level_operators
from engine.solver import combine

__all__ = ["Rewrite", "left_to_right", "square_signs_swapped", "stands_for"]

_PARTNER: dict[Op, Op] = {"+": "-", "-": "+"}
# A term's skeleton: its decoration and the absolute value of its card.
_Skeleton: TypeAlias = tuple[str, Fraction]


@dataclass(frozen=True, slots=True)
class Rewrite:
    """The legal expression a typed one stands for, and its value."""

    legal: Expr
    value: Fraction


def _skeleton(term: Expr) -> _Skeleton | None:
    """A term as a card with its decoration, signs anywhere ignored; None when it is more
    than one card (a group, a square of a square)."""
    core, _ = strip_signs(term)
    if isinstance(core, Num):
        return "plain", core.value
    if isinstance(core, (Square, Root)):
        inner, _ = strip_signs(core.operand)
        if isinstance(inner, Num):
            return ("square" if isinstance(core, Square) else "root"), inner.value
    return None


def _terms(card: int, level: int) -> list[tuple[_Skeleton, Fraction, Expr]]:
    plain = card_term(card)
    found = [(("plain", Fraction(abs(card))), Fraction(card), plain)]
    if level >= 6:
        found.append((("square", Fraction(abs(card))), Fraction(card * card), Square(plain)))
    if level >= 7 and card >= 0 and isqrt(card) ** 2 == card:
        found.append((("root", Fraction(card)), Fraction(isqrt(card)), Root(plain)))
    return found


def stands_for(expr: Expr, cards: tuple[int, int], level: int) -> Rewrite | None:
    """The legal expression `expr` stands for (module doc), or None when it is no rewrite of
    one (then the judge reads it as it is written)."""
    outer = 0
    top = expr
    while isinstance(top, Neg):
        top = top.operand
        outer += 1
    if not isinstance(top, BinOp):
        return None
    left, right = _skeleton(top.left), _skeleton(top.right)
    if left is None or right is None:
        return None
    try:
        typed = evaluate(expr)
    except ExpressionError:
        return None
    a, b = cards
    for x, y in ((a, b), (b, a)):
        for x_skeleton, x_value, x_term in _terms(x, level):
            for y_skeleton, y_value, y_term in _terms(y, level):
                if (x_skeleton, y_skeleton) != (left, right):
                    continue
                if x_skeleton[0] == y_skeleton[0] == "square":
                    continue
                for op in level_operators(level):
                    if not _same_operation(top.op, op, outer, y):
                        continue
                    value = combine(op, x_value, y_value)
                    if value is not None and value == typed:
                        return Rewrite(BinOp(op, x_term, y_term), value)
    return None


def _same_operation(typed: Op, legal: Op, outer: int, following: int) -> bool:
    """Whether the typed operation may stand for the legal one: the same, or the partner of
    + and − when the following card is negative; a sign in front of the whole only for · ÷."""
    if legal in ("*", "/"):
        return typed == legal
    if outer:
        return False
    return typed == legal or (typed == _PARTNER[legal] and following < 0)


def square_signs_swapped(expr: Expr) -> Expr | None:
    """The expression with −k² read as (−k)² and (−k)² as −k² (§2.6 `square_sign`), or None
    when it squares no signed number."""
    changed = False

    def visit(node: Expr) -> Expr:
        nonlocal changed
        if isinstance(node, Neg) and isinstance(node.operand, Square):
            inner = node.operand.operand
            if isinstance(inner, Num):
                changed = True
                return Square(Neg(inner))
        if isinstance(node, Square) and isinstance(node.operand, Neg):
            inner, minuses = strip_signs(node.operand)
            if isinstance(inner, Num) and minuses % 2:
                changed = True
                return Neg(Square(inner))
        if isinstance(node, BinOp):
            return BinOp(node.op, visit(node.left), visit(node.right))
        if isinstance(node, (Neg, Square, Root)):
            return type(node)(visit(node.operand))
        return node

    swapped = visit(expr)
    return swapped if changed else None


def left_to_right(expr: Expr) -> Expr | None:
    """The expression worked from left to right, the square taken of all that stands before
    it (``2 · 3²`` as (2 · 3)², §2.6 `order_of_operations`), or None when that is no other
    reading."""
    core, minuses = strip_signs(expr)
    if not isinstance(core, BinOp) or not isinstance(core.right, Square):
        return None
    reading: Expr = Square(BinOp(core.op, core.left, core.right.operand))
    for _ in range(minuses):
        reading = Neg(reading)
    return reading
