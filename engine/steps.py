"""The middle step of a worked answer: ``3² + (−2) = 9 − 2 = 7``, as the rules page writes it.

After a round the board shows how a square or a root was worked out, for the pupil's answer
and for the best move; this module finds the step between the expression and its value.
"""

from __future__ import annotations

from engine.errors import ExpressionError
from engine.expressions import BinOp, Expr, Neg, Num, Op, Root, Square, evaluate, walk

__all__ = ["middle_step"]


def _worked(expr: Expr) -> Expr:
    """Every square and root replaced by its value (a literal with its sign)."""
    if isinstance(expr, (Square, Root)):
        value = evaluate(expr)
        literal: Expr = Num(abs(value))
        return Neg(literal) if value < 0 else literal
    if isinstance(expr, Neg):
        return Neg(_worked(expr.operand))
    if isinstance(expr, BinOp):
        return _plain_sign(BinOp(expr.op, _worked(expr.left), _worked(expr.right)))
    return expr


def _plain_sign(expr: BinOp) -> BinOp:
    """``a + (−b)`` as ``a − b`` and ``a − (−b)`` as ``a + b``: what a pupil writes next."""
    if expr.op in ("+", "-") and isinstance(expr.right, Neg):
        op: Op = "-" if expr.op == "+" else "+"
        return BinOp(op, expr.left, expr.right.operand)
    return expr


def middle_step(expr: Expr) -> Expr | None:
    """The step between an expression with a square or a root and its value: every square
    and root worked out, a plus of a negative written as a minus. None when the expression has
    no square or root (it needs no middle step), or when it cannot be worked out (a root of a
    non-square: that answer was refused, and its middle step would not exist).

    >>> from engine.expressions import parse, to_text
    >>> to_text(middle_step(parse("3^2 + -2")))
    '9 − 2'
    >>> to_text(middle_step(parse("(-3)² - (-3)")))
    '9 + 3'
    >>> to_text(middle_step(parse("sqrt(9) : -3")))
    '3 ÷ (−3)'
    >>> middle_step(parse("4 * 6")) is None
    True
    """
    if not any(isinstance(node, (Square, Root)) for node in walk(expr)):
        return None
    try:
        return _worked(expr)
    except ExpressionError:
        return None
