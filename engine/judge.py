"""Judging a regn-mode answer: accepted with its value, or *no value* and why (RULES.md §2.2).

`engine.expressions` reads and computes what a pupil typed; this module holds it against the
side's two cards and the level: which expressions are legal, which number a legal expression
must give, and, for a wrong number, which slip explains it (`engine.diagnosis`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import isqrt
from types import MappingProxyType
from typing import NoReturn, TypeAlias

from engine.diagnosis import diagnose_number
from engine.errors import ExpressionError, Reason
from engine.expressions import (
    MINUS,
    BinOp,
    Expr,
    Neg,
    Num,
    Root,
    Square,
    evaluate,
    number_detail,
    operator_symbol,
    parse_answer,
    strip_signs,
    to_text,
    walk,
)
from engine.levels import (
    RESULT_LEVELS,
    ROOT_LEVEL,
    SQUARE_LEVEL,
    AnswerForm,
    level_operators,
)
from engine.solver import reachable

__all__ = ["Verdict", "is_number", "judge", "typed_number"]

_NO_DETAILS: Mapping[str, object] = MappingProxyType({})


def _error(code: str, message: str, **details: object) -> NoReturn:
    raise ExpressionError(message, code=code, **details)


@dataclass(frozen=True, slots=True)
class Verdict:
    """How an answer was judged. `value` None is *no value* (RULES.md §2.2); `reason` is a
    stable `Reason` the bot localises, with `details` (JSON-safe) to fill in the sentence.

    `typed` is the whole answer as the pupil typed it, in canonical notation (``4 · 6 = 25``):
    a typed number stays that number. `text` is what a result line shows: for an accepted
    answer the part before its value (``4 · 6``, or the number alone), for a refused one the
    whole answer, so the screen can put it beside the cards it was judged with."""

    value: Fraction | None
    text: str
    reason: str | None = None
    details: Mapping[str, object] = field(default_factory=lambda: _NO_DETAILS)
    typed: str = ""

    @property
    def accepted(self) -> bool:
        return self.reason is None


def _signed_literals(expr: Expr) -> list[tuple[Fraction, Fraction | None]]:
    """Each literal with the signs written on it, left to right: ``-4`` is −4 and ``(-4)²``
    is −4 squared. A sign in front of a square (``-3²``) is offered as the second reading,
    so a pupil with the card −3 who writes ``-3²`` is using that card."""
    found: list[tuple[Fraction, Fraction | None]] = []

    def visit(node: Expr, minuses: int, outer: int) -> None:
        if isinstance(node, Neg):
            visit(node.operand, minuses + 1, outer)
        elif isinstance(node, Num):
            value = -node.value if minuses % 2 else node.value
            found.append((value, -value if outer % 2 else None))
        elif isinstance(node, BinOp):
            visit(node.left, 0, 0)
            visit(node.right, 0, 0)
        elif isinstance(node, Square):
            visit(node.operand, 0, outer + minuses)
        else:  # −√4 is minus the root of 4: the 4 is the card, whatever the sign in front
            visit(node.operand, 0, 0)

    visit(expr, 0, 0)
    return found


def is_number(expr: Expr) -> bool:
    """A number answer: a number, or a fraction of two whole numbers with at most a sign in
    front (``-7/2``); ``6/(-2)`` is an expression (RULES.md §2.2)."""
    inner = strip_signs(expr)[0]
    if isinstance(inner, Num):
        return True
    if not (isinstance(inner, BinOp) and inner.op == "/" and isinstance(inner.right, Num)):
        return False
    numerator = strip_signs(inner.left)[0]
    return (
        isinstance(numerator, Num)
        and numerator.value.denominator == 1
        and inner.right.value.denominator == 1
    )


_Problem: TypeAlias = tuple[Reason, dict[str, object]]


def judge(
    text: str,
    cards: tuple[int, int],
    level: int,
    answer_form: AnswerForm = AnswerForm.NUMBER,
) -> Verdict:
    """Judge a regn-mode answer for a side holding `cards` (RULES.md §2.2).

    Unreadable text raises `ExpressionError` (an `Unreadable` code; the pupil may type again):
    also an expression without its result at levels 1–2 or in the `number` answer form
    (`result_missing`), and any power below level 6 (`power_not_allowed`). Anything else gets
    a `Verdict`. A number answer is accepted when some legal expression gives it; when none
    does, the verdict says which slip explains it (`engine.diagnosis`). An expression must use
    the two cards with their signs and only what the level allows; the rules are checked in
    this order so a pupil gets the most basic reason first: too_many_operations, the cards
    (sign_slip, card_twice, not_your_cards, card_missing), operator_not_allowed,
    square_not_allowed, root_not_allowed, squares_both, root_and_square, root_of_result,
    root_of_negative, root_of_non_square, division_by_zero; then every step and the result
    typed after it must equal its value (arithmetic_slip).

    >>> judge("3/2", (6, 4), 3).value
    Fraction(3, 2)
    >>> judge("4 + 5 = 9", (-4, 5), 1).reason
    'sign_slip'
    """
    level_operators(level)
    form = AnswerForm.NUMBER if level in RESULT_LEVELS else AnswerForm(answer_form)
    try:
        parts = parse_answer(text)
    except ExpressionError as error:
        if error.code == "unsupported_power" and level < SQUARE_LEVEL:
            _error("power_not_allowed", "powers are not part of this level", level=level)
        raise
    typed = " = ".join(to_text(part) for part in parts)
    expression, result = parts[0], parts[-1]

    def refuse(reason: Reason, details: Mapping[str, object]) -> Verdict:
        return Verdict(None, typed, reason.value, MappingProxyType(dict(details)), typed)

    def accept(value: Fraction) -> Verdict:
        shown = " = ".join(to_text(part) for part in parts[:-1]) if len(parts) > 1 else typed
        return Verdict(value, shown, typed=typed)

    if len(parts) > 1 and not is_number(result):
        _error("result_missing", "the answer ends with its number", expression=typed)
    if len(parts) == 1 and is_number(expression):
        return _judge_number(expression, cards, level, refuse, accept)
    if len(parts) == 1 and form is AnswerForm.NUMBER:
        _error("result_missing", "type the number the expression gives", expression=typed)

    judged = _judge_expression(expression, cards, level)
    if not isinstance(judged, Fraction):
        reason, details = judged
        return refuse(reason, {**details, **_cards(cards)})
    for step in parts[1:]:
        try:
            step_value = evaluate(step)
        except ExpressionError:
            step_value = None
        if step_value != judged:
            return refuse(
                Reason.ARITHMETIC_SLIP,
                {
                    "expression": to_text(expression),
                    "value": number_detail(judged),
                    "number": typed_number(step),
                    **_cards(cards),
                },
            )
    return accept(judged)


def typed_number(expr: Expr) -> int | str:
    """A typed number as a detail: a whole number as an int, anything else as typed
    (``1,6`` stays ``1,6``, never ``8/5``: the pupil sees their own number)."""
    try:
        value = evaluate(expr)
    except ExpressionError:
        return to_text(expr)
    if not is_number(expr):
        return to_text(expr)
    if value.denominator == 1:
        return value.numerator
    inner, minuses = strip_signs(expr)
    if isinstance(inner, BinOp):  # a typed fraction keeps its terms: 6/4 stays 6/4
        top, top_minuses = strip_signs(inner.left)
        assert isinstance(top, Num) and isinstance(inner.right, Num)
        sign = MINUS if (minuses + top_minuses) % 2 else ""
        return f"{sign}{top.value}/{inner.right.value}"
    return to_text(expr)


def _cards(cards: tuple[int, int]) -> dict[str, object]:
    return {"card_a": cards[0], "card_b": cards[1]}


def _judge_number(
    expr: Expr,
    cards: tuple[int, int],
    level: int,
    refuse: Callable[[Reason, Mapping[str, object]], Verdict],
    accept: Callable[[Fraction], Verdict],
) -> Verdict:
    try:
        value = evaluate(expr)
    except ExpressionError as error:  # only x/0 is possible for a number
        return refuse(Reason(error.code), {**error.details, **_cards(cards)})
    diagnosis = diagnose_number(value, cards, level)
    if diagnosis is None:
        return accept(value)
    reason, details = diagnosis
    # The number the pupil typed, as typed (1,6 stays 1,6); the slip's right value stays exact.
    typed_key = "number" if reason is Reason.ARITHMETIC_SLIP else "value"
    details = {**details, typed_key: typed_number(expr)}
    return refuse(reason, {**details, **_cards(cards)})


def _judge_expression(expr: Expr, cards: tuple[int, int], level: int) -> Fraction | _Problem:
    """The value of a legal expression with these cards, or the first rule it breaks."""
    problem = _shape_problem(expr, cards, level)
    if problem is not None:
        return problem
    try:
        value = evaluate(expr)
    except ExpressionError as error:
        return Reason(error.code), dict(error.details)
    if value not in reachable(cards[0], cards[1], level):
        # Only a sign in front of a square or root can get here (−√4 · 6): legal pieces in
        # a shape the level does not have.
        return Reason.WRONG_VALUE, {"value": number_detail(value)}
    return value


def _card_problem(expr: Expr, cards: tuple[int, int]) -> _Problem | None:
    """Match every literal to a card, sign included (§2.2: "4 is not that card")."""
    remaining = [Fraction(card) for card in cards]
    for value, other in _signed_literals(expr):
        if value in remaining:
            remaining.remove(value)
        elif other is not None and other in remaining:
            remaining.remove(other)
        elif value != 0 and -value in remaining:
            return Reason.SIGN_SLIP, {
                "number": number_detail(value),
                "card": number_detail(-value),
            }
        elif value in cards:
            return Reason.CARD_TWICE, {"number": number_detail(value)}
        else:
            return Reason.NOT_YOUR_CARDS, {"number": number_detail(value)}
    if remaining:
        return Reason.CARD_MISSING, {"missing": number_detail(remaining[0])}
    return None


def _shape_problem(expr: Expr, cards: tuple[int, int], level: int) -> _Problem | None:
    """The first rule the expression breaks, in the documented order, or None."""
    allowed = level_operators(level)
    nodes = list(walk(expr))
    binops = [node for node in nodes if isinstance(node, BinOp)]
    squares = [node for node in nodes if isinstance(node, Square)]
    roots = [node for node in nodes if isinstance(node, Root)]

    def decorated(kind: type[Square] | type[Root], inner: tuple[type, ...]) -> bool:
        return any(
            isinstance(node, kind) and isinstance(strip_signs(node.operand)[0], inner)
            for node in nodes
        )

    negated_group = any(isinstance(node, Neg) and isinstance(node.operand, BinOp) for node in nodes)
    if len(binops) > 1 or negated_group or decorated(Square, (BinOp, Square)):
        return Reason.TOO_MANY_OPERATIONS, {"operators": len(binops)}
    problem = _card_problem(expr, cards)
    if problem is not None:
        return problem
    for binop in binops:
        if binop.op not in allowed:
            return Reason.OPERATOR_NOT_ALLOWED, {
                "operator": operator_symbol(binop.op),
                "allowed": [operator_symbol(op) for op in allowed],
                "level": level,
            }
    if squares and level < SQUARE_LEVEL:
        return Reason.SQUARE_NOT_ALLOWED, {"level": level}
    if roots and level < ROOT_LEVEL:
        return Reason.ROOT_NOT_ALLOWED, {"level": level}
    if len(squares) > 1:
        return Reason.SQUARES_BOTH, {}
    if decorated(Square, (Root,)) or decorated(Root, (Square,)):
        return Reason.ROOT_AND_SQUARE, {}
    if decorated(Root, (BinOp, Root)):
        return Reason.ROOT_OF_RESULT, {}
    for root in roots:
        inner, minuses = strip_signs(root.operand)
        assert isinstance(inner, Num)  # every other operand was refused above
        value = -inner.value if minuses % 2 else inner.value
        if value < 0:
            return Reason.ROOT_OF_NEGATIVE, {"number": number_detail(value)}
        if value.denominator != 1 or isqrt(value.numerator) ** 2 != value:
            return Reason.ROOT_OF_NON_SQUARE, {"number": number_detail(value)}
    return None
