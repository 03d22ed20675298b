"""Judging a regn-mode answer: accepted with its value, or *no value* and why (RULES.md §2.2).

`engine.expressions` reads and computes what a pupil typed; this module holds it against the
side's two cards and the level: which expressions are legal, which number a legal expression
must give, and, for a wrong number, which slip explains it (`engine.diagnosis`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd, isqrt
from types import MappingProxyType
from typing import NoReturn, TypeAlias

from engine.diagnosis import diagnose_number, flip_literal, rounded_from
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
    Reading,
    level_operators,
)
from engine.mistakes import name_number, name_result, name_square_shape
from engine.notation import Remainder, remainder, school_text, unsimplified
from engine.rewrites import stands_for
from engine.solver import reachable

__all__ = ["TypedNumber", "Verdict", "judge", "read_number", "typed_number"]

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


@dataclass(frozen=True, slots=True)
class TypedNumber:
    """A part of an answer that is a number (RULES.md §2.6): its exact value, and how many
    digits were typed after a decimal mark (0 for a whole number or a fraction)."""

    value: Fraction
    places: int


_SIGN = "[+\\-\u2212\u2013]"
_NUMBER = re.compile(
    rf"\s*(?P<sign>{_SIGN}?)\s*(?:(?P<top>[0-9]+)\s*/\s*(?P<bottom>[0-9]+)"
    r"|(?P<whole>[0-9]*)(?:[.,](?P<places>[0-9]+))?)\s*"
)


def read_number(text: str) -> TypedNumber | None:
    """The number a part of an answer is, or None when it is an expression (RULES.md §2.6):
    a whole number, a decimal (``1,5`` or ``1.5``), or a fraction ``p/q`` in lowest terms
    with q > 1, each with at most one sign, in front. ``6:3``, ``9/3``, ``(-2):2``,
    ``3/(-4)`` and ``4/8`` are expressions: the pupil has not said the value yet. Only the
    slash writes a fraction; ``:`` and ``÷`` always divide.

    >>> read_number("-5/6")
    TypedNumber(value=Fraction(-5, 6), places=0)
    >>> read_number("4/8") is None
    True
    """
    match = _NUMBER.fullmatch(text)
    if match is None:
        return None
    negative = match["sign"] in ("-", MINUS, "\u2013")
    if match["top"] is not None:
        top, bottom = int(match["top"]), int(match["bottom"])
        if bottom <= 1 or gcd(top, bottom) != 1:
            return None
        value, places = Fraction(top, bottom), 0
    else:
        digits = match["places"] or ""
        if not (match["whole"] or digits):
            return None
        value = Fraction(int(match["whole"] or "0")) + Fraction(
            int(digits or "0"), 10 ** len(digits)
        )
        places = len(digits)
    return TypedNumber(-value if negative else value, places)


_Problem: TypeAlias = tuple[Reason, dict[str, object]]


def judge(
    text: str,
    cards: tuple[int, int],
    level: int,
    answer_form: AnswerForm = AnswerForm.NUMBER,
    reading: Reading = Reading.AS_SCHOOL_WRITES,
) -> Verdict:
    """Judge a regn-mode answer for a side holding `cards` (RULES.md §2.2, §2.6).

    An answer that is refused raises `ExpressionError` (nothing is counted; the pupil may type
    again): unreadable text (an `Unreadable` code), a power below level 6
    (`power_not_allowed`), a rounded decimal (`not_exact`, with the `exact` value), and an
    expression without its result at levels 1–2 or in the `number` answer form: with the
    `Reason` of the rule it breaks when it breaks one (illegal before missing), else
    `result_missing`. Anything else gets a `Verdict`.

    A number answer is accepted when some legal expression gives it; when none does, the
    verdict says which slip explains it (`engine.diagnosis`). An expression must use the two
    cards with their signs and only what the level allows; the rules are checked in this
    order so a pupil gets the most basic reason first: too_many_operations, the cards
    (sign_slip, card_twice, not_your_cards, card_missing), operator_not_allowed,
    square_not_allowed, root_not_allowed, squares_both, root_and_square, root_of_result,
    root_of_negative, root_of_non_square, division_by_zero. Then every step and the result
    typed after it must equal its value: a result that is its value's negative, or the value
    of the expression with one card's sign flipped, is a sign_slip, any other an
    arithmetic_slip (at every level: the pupil wrote which operation they meant).

    >>> judge("3/2", (6, 4), 3).value
    Fraction(3, 2)
    >>> judge("4 + 5 = 9", (-4, 5), 1).reason
    'sign_slip'
    >>> judge("3 + (-5) = 2", (3, -5), 1).reason
    'sign_slip'

    `reading` is the edition of the rule book the answer was typed under (`Reading`): the
    second reads school notation first (`engine.notation`), refuses a remainder and a fraction
    not in lowest terms, counts a rewrite as the legal expression it stands for
    (`engine.rewrites`) and names the mistake by its ladder (`engine.mistakes`).

    >>> judge("3 - 5 = -2", (3, -5), 1).value
    Fraction(-2, 1)
    >>> judge("3 - 5 = -2", (3, -5), 1, reading=Reading.EACH_CARD_WITH_ITS_SIGN).reason
    'sign_slip'
    """
    level_operators(level)
    form = AnswerForm.NUMBER if level in RESULT_LEVELS else AnswerForm(answer_form)
    school = Reading(reading) is Reading.AS_SCHOOL_WRITES
    if school:
        written = remainder(text)
        if written is not None:
            _refuse_remainder(written, text, cards, level)
        text = school_text(text)
    try:
        parts = parse_answer(text)
    except ExpressionError as error:
        if error.code == "unsupported_power" and level < SQUARE_LEVEL:
            _error("power_not_allowed", "powers are not part of this level", level=level)
        raise
    numbers = [read_number(part) for part in text.split("=")]  # the parts parse_answer read
    shown_parts = [_part_text(part, number) for part, number in zip(parts, numbers, strict=True)]
    typed = " = ".join(shown_parts)
    expression = parts[0]

    def refuse(reason: Reason, details: Mapping[str, object]) -> Verdict:
        return Verdict(None, typed, reason.value, MappingProxyType(dict(details)), typed)

    if len(parts) == 1 and numbers[0] is not None:
        return _judge_number(numbers[0], expression, cards, level, refuse, typed, school)
    if school:
        return _judge_school(parts, numbers, text.split("="), cards, level, form, refuse, typed)
    judged = _judge_expression(expression, cards, level)
    if numbers[-1] is None and (len(parts) > 1 or form is AnswerForm.NUMBER):
        _refuse_without_result(judged, typed, cards)
    if not isinstance(judged, Fraction):
        reason, details = judged
        return refuse(reason, {**details, **_cards(cards)})
    for step, number in zip(parts[1:], numbers[1:], strict=True):
        slip = _step_slip(expression, judged, step, number, cards)
        if slip is not None:
            return refuse(slip[0], {**slip[1], **_cards(cards)})
    shown = " = ".join(shown_parts[:-1]) if len(parts) > 1 else typed
    return Verdict(judged, shown, typed=typed)


def _refuse_without_result(
    judged: Fraction | _Problem, typed: str, cards: tuple[int, int]
) -> NoReturn:
    """An expression without its result is no answer (§2.2). Illegal before missing (§2.6):
    when it breaks a rule, the refusal says which, not "type the result". A legal-looking
    expression the level has no shape for (a sign in front of a root) is only missing its
    result: saying its value would do the pupil's sum."""
    if isinstance(judged, tuple) and judged[0] is not Reason.WRONG_VALUE:
        reason, details = judged
        message = f"{typed} is not a legal expression at this level, with or without its value"
        _error(reason.value, message, **details, **_cards(cards))
    _error("result_missing", "type the number the expression gives", expression=typed)


def _step_slip(
    expression: Expr,
    value: Fraction,
    step: Expr,
    number: TypedNumber | None,
    cards: tuple[int, int],
) -> _Problem | None:
    """What is wrong with a step or the result typed after a legal expression, or None."""
    try:
        step_value: Fraction | None = evaluate(step)
    except ExpressionError:
        step_value = None
    if step_value == value:
        return None
    if number is not None and rounded_from(number.value, number.places, {value}) is not None:
        _not_exact(step, value)
    details: dict[str, object] = {
        "expression": to_text(expression),
        "value": number_detail(value),
        "number": typed_number(step),
    }
    if step_value is not None and _sign_flipped(expression, value, step_value, cards):
        return Reason.SIGN_SLIP, details
    return Reason.ARITHMETIC_SLIP, details


def _sign_flipped(
    expression: Expr, value: Fraction, typed: Fraction, cards: tuple[int, int]
) -> bool:
    """The typed result is the expression's value with its sign flipped, or the value of the
    same expression with one card's sign flipped (`3² + (−2) = 9 + 2`)."""
    if typed == -value:
        return True
    for card in {card for card in cards if card != 0}:
        flipped = flip_literal(expression, card)
        if flipped is None:
            continue
        try:
            if evaluate(flipped) == typed:
                return True
        except ExpressionError:
            continue
    return False


def _part_text(part: Expr, number: TypedNumber | None) -> str:
    """A part of the answer as the screens show it: a typed fraction as the number it is
    (``−5/6``, not the division ``−5 ÷ 6``), anything else in the canonical notation."""
    if number is not None and number.places == 0 and number.value.denominator != 1:
        return str(number.value).replace("-", MINUS)
    return to_text(part)


def typed_number(expr: Expr) -> int | str:
    """A typed number or step as a detail: a whole number as an int, anything else in the
    canonical notation (``1,6`` stays ``1,6``, never ``8/5``: the pupil sees their own
    number; a typed fraction keeps its terms)."""
    inner, minuses = strip_signs(expr)
    if isinstance(inner, Num) and inner.value.denominator == 1:
        return -inner.value.numerator if minuses % 2 else inner.value.numerator
    if isinstance(inner, BinOp) and inner.op == "/":
        top, top_minuses = strip_signs(inner.left)
        if isinstance(top, Num) and isinstance(inner.right, Num):  # -5/6 stays −5/6
            sign = MINUS if (minuses + top_minuses) % 2 else ""
            return f"{sign}{to_text(top)}/{to_text(inner.right)}"
    return to_text(expr)


def _not_exact(typed: Expr, exact: Fraction) -> NoReturn:
    """A rounded decimal is no mistake and no answer (§2.6): the pupil types the exact value,
    told as a fraction."""
    number, value = typed_number(typed), number_detail(exact)
    message = f"{number} is rounded: the exact value is {str(exact).replace('-', MINUS)}"
    _error("not_exact", message, number=number, exact=value)


def _cards(cards: tuple[int, int]) -> dict[str, object]:
    return {"card_a": cards[0], "card_b": cards[1]}


def _judge_number(
    number: TypedNumber,
    expr: Expr,
    cards: tuple[int, int],
    level: int,
    refuse: Callable[[Reason, Mapping[str, object]], Verdict],
    typed: str,
    school: bool = False,
) -> Verdict:
    legal = reachable(cards[0], cards[1], level)
    if number.value in legal:
        return Verdict(number.value, typed, typed=typed)
    exact = rounded_from(number.value, number.places, legal)
    if exact is not None:
        _not_exact(expr, exact)
    name = name_number if school else diagnose_number
    diagnosis = name(number.value, cards, level, number.places)
    assert diagnosis is not None  # the value is not legal
    reason, details = diagnosis
    # The number the pupil typed, as typed (1,6 stays 1,6); the slip's right value stays exact.
    typed_key = "number" if "number" in details else "value"
    details = {**details, typed_key: typed_number(expr)}
    return refuse(reason, {**details, **_cards(cards)})


def _judge_school(
    parts: tuple[Expr, ...],
    numbers: list[TypedNumber | None],
    raw: list[str],
    cards: tuple[int, int],
    level: int,
    form: AnswerForm,
    refuse: Callable[[Reason, Mapping[str, object]], Verdict],
    typed: str,
) -> Verdict:
    """An answer that is not a number alone, by the rule book's second edition: a rewrite is
    the legal expression it stands for (§2.2); a fraction not in lowest terms as the answer is
    refused (§2.6, after the rule its expression breaks, if any); a wrong result is named by
    the ladder of `engine.mistakes`."""
    expression = parts[0]
    judged: Fraction | _Problem = _judge_expression(expression, cards, level, school=True)
    legal, rewrite = expression, None
    if not isinstance(judged, Fraction):  # an expression legal as written is no rewrite
        rewrite = stands_for(expression, cards, level)
        if rewrite is not None:
            judged, legal = rewrite.value, rewrite.legal
    fraction = unsimplified(raw[-1])
    legal_shape = isinstance(judged, Fraction) or judged[0] is Reason.WRONG_VALUE
    if len(parts) == 1:
        accepted = isinstance(judged, Fraction) and form is AnswerForm.EXPRESSION
        if fraction is not None and not accepted:
            _not_simplified(fraction)
    elif fraction is not None and legal_shape:
        _not_simplified(fraction)
    if numbers[-1] is None and (len(parts) > 1 or form is AnswerForm.NUMBER):
        _refuse_without_result(judged, typed, cards)
    if not isinstance(judged, Fraction):
        problem = judged
        if judged[0] is Reason.WRONG_VALUE and numbers[-1] is not None:
            typed_value = numbers[-1].value
            problem = name_square_shape(expression, typed_value, cards, level) or judged
            own = evaluate(expression)  # legal pieces: it has a value
            if problem is judged and typed_value == -own:  # −(3 · 4) = 12 for 3 and 4
                flipped: dict[str, object] = {
                    "expression": to_text(expression),
                    "value": number_detail(own),
                    "number": typed_number(parts[-1]),
                }
                problem = Reason.SIGN_SLIP, flipped
        return refuse(problem[0], {**problem[1], **_cards(cards)})
    for step, number in zip(parts[1:], numbers[1:], strict=True):
        try:
            step_value: Fraction | None = evaluate(step)
        except ExpressionError:
            step_value = None
        if step_value == judged:
            continue
        if number is not None and rounded_from(number.value, number.places, {judged}):
            _not_exact(step, judged)
        reason, details = name_result(expression, legal, judged, step_value, cards, level)
        return refuse(reason, {**details, "number": typed_number(step), **_cards(cards)})
    shown = " = ".join(typed.split(" = ")[:-1]) if len(parts) > 1 else typed
    details = {}
    if rewrite is not None and to_text(legal) != to_text(expression):
        details = {"rewrite": to_text(legal), "value": number_detail(judged)}
    return Verdict(judged, shown, details=MappingProxyType(details), typed=typed)


def _not_simplified(fraction: str) -> NoReturn:
    """A fraction not in lowest terms is no answer yet (§2.6): the pupil simplifies it."""
    shown = fraction.replace("-", MINUS)
    _error("not_simplified", f"{shown} can be simplified", number=shown)


def _refuse_remainder(
    written: Remainder, text: str, cards: tuple[int, int], level: int
) -> NoReturn:
    """A remainder is no value (§2.6): refused with how to write the value, as a fraction
    (and a decimal where it ends), when the expression before it or the cards say which
    division it was."""
    exact: Fraction | None = None
    before = text.split("=")[0]
    if before.strip() and remainder(before) is None:
        try:
            exact = evaluate(parse_answer(school_text(before))[0])
        except ExpressionError:
            exact = None
    if exact is None:
        for x, y in ((cards[0], cards[1]), (cards[1], cards[0])):
            if y > 0 and x == written.quotient * y + written.rest and 0 <= written.rest < y:
                exact = Fraction(x, y)
                break
    details: dict[str, object] = {"number": written.text}
    if exact is not None:
        details["exact"] = number_detail(exact)
    _error("remainder", f"{written.text} is a division with a remainder", **details)


def _judge_expression(
    expr: Expr, cards: tuple[int, int], level: int, school: bool = False
) -> Fraction | _Problem:
    """The value of a legal expression with these cards, or the first rule it breaks."""
    problem = _shape_problem(expr, cards, level, school)
    if school and problem is not None and problem[0] is Reason.TOO_MANY_OPERATIONS:
        problem = _card_twice(expr, cards) or problem
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


def _card_twice(expr: Expr, cards: tuple[int, int]) -> _Problem | None:
    """More than two numbers, all of them the cards' (``5 + 2 + 2`` with 5 and 2): a card
    used twice (§2.6), not "one operation"."""
    written = [abs(value) for value, _ in _signed_literals(expr)]
    held = [abs(Fraction(card)) for card in cards]
    if len(written) <= 2 or any(value not in held for value in written):
        return None
    for value in written:
        if written.count(value) > held.count(value):
            return Reason.CARD_TWICE, {"number": number_detail(value)}
    return None


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
                "card": number_detail(-value),
                "used": number_detail(value),
            }
        elif value in cards:
            return Reason.CARD_TWICE, {"number": number_detail(value)}
        else:
            return Reason.NOT_YOUR_CARDS, {"number": number_detail(value)}
    if remaining:
        return Reason.CARD_MISSING, {"missing": number_detail(remaining[0])}
    return None


def _shape_problem(
    expr: Expr, cards: tuple[int, int], level: int, school: bool = False
) -> _Problem | None:
    """The first rule the expression breaks, in the documented order, or None. As school
    writes it, a sign in front of a product or a quotient (−(3 · 4)) is a sign's place, not
    a second operation (§2.2)."""
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

    signed = ("+", "-") if school else ("+", "-", "*", "/")
    negated_group = any(
        isinstance(node, Neg) and isinstance(node.operand, BinOp) and node.operand.op in signed
        for node in nodes
    )
    if len(binops) > 1 or negated_group or decorated(Square, (BinOp, Square)):
        return Reason.TOO_MANY_OPERATIONS, {"operators": len(binops)}
    problem = _card_problem(expr, cards)
    if problem is not None:
        return problem

    def own() -> dict[str, object]:
        """What the level does not allow is told with the pupil's own calculation (§2.6)."""
        return {"level": level, "expression": to_text(expr)}

    for binop in binops:
        if binop.op not in allowed:
            return Reason.OPERATOR_NOT_ALLOWED, {
                "operator": operator_symbol(binop.op),
                "allowed": [operator_symbol(op) for op in allowed],
                **own(),
            }
    if squares and level < SQUARE_LEVEL:
        return Reason.SQUARE_NOT_ALLOWED, own()
    if roots and level < ROOT_LEVEL:
        return Reason.ROOT_NOT_ALLOWED, own()
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
