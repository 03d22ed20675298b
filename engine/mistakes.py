"""The mistake a wrong answer shows, as a maths teacher names it (RULES.md §2.6, the ladder of
the rule book's second edition, `Reading.AS_SCHOOL_WRITES`). First match wins:

1. `sign_slip`: the negative of a value the cards give (the result's sign flipped), or a value
   the cards give with a **negative** card read as positive;
2. levels 6–7, an expression: `square_sign`, its value with −k² read as (−k)² or the reverse;
3. levels 5–7, an expression: `order_of_operations`, its value worked from left to right;
4. levels 1–4 with a negative card: `sign_slip`, a positive card read as negative;
5. levels 1–4, a number alone: `operator_not_allowed`, an operation of another level gives it
   (with no negative card this comes before any sign reading); but a product with a 0 card
   typed as the other card is the slip of 6;
6. levels 1–4 (and every step typed after a legal expression): `arithmetic_slip`;
7. `wrong_value`.

Every kind's details hold what the pupil's message shows: the calculation the pupil made
(`expression`, or `read_as` for a card read with the wrong sign), the right `value`, the typed
`number`, and a `why` that names the one line of explanation (`subtract_negative`,
`add_negative`, `number_line`, `product_signs`) or a `check` (the sum worked backwards) and a
`zero` for a product with 0. `engine.diagnosis` keeps the first edition's ladder.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from engine.diagnosis import Diagnosis, flip_literal, flipped_cards, rounded_from
from engine.errors import ExpressionError, Reason
from engine.expressions import (
    BinOp,
    Expr,
    Num,
    Op,
    Square,
    evaluate,
    number_detail,
    operator_symbol,
    parse,
    strip_signs,
    to_text,
    walk,
)
from engine.levels import card_term, level_operators
from engine.rewrites import left_to_right, square_signs_swapped
from engine.solver import combine, number_answer, reachable

__all__ = ["name_number", "name_result", "name_square_shape", "why_of"]

_SIMPLE_LEVELS = range(1, 5)
_OPERATIONS: tuple[Op, ...] = ("+", "-", "*", "/")
_INVERSE: dict[Op, Op] = {"+": "-", "-": "+", "*": "/", "/": "*"}


def why_of(legal: Expr) -> str:
    """The line that explains a sign in this legal expression: subtracting or adding a
    negative number, the signs of a product or a quotient, or the number line."""
    if not isinstance(legal, BinOp):
        return "number_line"
    if legal.op in ("*", "/"):
        return "product_signs"
    try:
        following = evaluate(legal.right)
    except ExpressionError:
        return "number_line"
    if following < 0:
        return "subtract_negative" if legal.op == "-" else "add_negative"
    return "number_line"


def _details(expression: Expr | str, right: Fraction, typed: Fraction) -> dict[str, object]:
    text = expression if isinstance(expression, str) else to_text(expression)
    return {"expression": text, "value": number_detail(right), "number": number_detail(typed)}


def _card_read(
    value: Fraction, cards: tuple[int, int], level: int, negative: bool
) -> Diagnosis | None:
    """A value the cards give with one card's sign read the other way (a negative card as
    positive, or a positive one as negative), explained by the reading that gives it."""
    for card, pair in flipped_cards(cards):
        if (card < 0) != negative:
            continue
        slipped = reachable(pair[0], pair[1], level)
        if value not in slipped:
            continue
        read_as = slipped[value]
        meant = flip_literal(parse(read_as), -card)
        assert meant is not None  # the reading holds the card as it was read
        try:
            details = _details(meant, evaluate(meant), value)
        except ExpressionError:  # √4 for the card −4: with its sign it has no root
            details = {"number": number_detail(value)}
        read = {"card": card, "used": -card, "read_as": read_as, "why": why_of(meant)}
        return Reason.SIGN_SLIP, {**details, **read}
    return None


def name_number(
    value: Fraction, cards: tuple[int, int], level: int, places: int = 0
) -> Diagnosis | None:
    """None when `value` is legal for these cards at `level`, else the mistake a number typed
    alone shows (module doc)."""
    a, b = cards
    legal = reachable(a, b, level)
    if value in legal:
        return None
    if not legal:
        return Reason.NO_LEGAL_VALUE, {"value": number_detail(value)}
    right = -value if -value in legal else rounded_from(-value, places, legal)
    if right is not None:
        meant = parse(legal[right])
        return Reason.SIGN_SLIP, {**_details(meant, right, value), "why": why_of(meant)}
    slip = _card_read(value, cards, level, negative=True)
    if slip is not None:
        return slip
    if level not in _SIMPLE_LEVELS:
        return Reason.WRONG_VALUE, {"value": number_detail(value)}
    if a < 0 or b < 0:
        slip = _card_read(value, cards, level, negative=False)
        if slip is not None:
            return slip
    zero_product = level_operators(level) == ("*",) and 0 in cards
    if not (zero_product and value in (a, b)):
        other = _other_operation(value, cards, level, legal)
        if other is not None:
            return other
    nearest = min(legal, key=lambda v: (abs(v - value), v))
    return Reason.ARITHMETIC_SLIP, _arithmetic(parse(legal[nearest]), nearest, value)


def _arithmetic(legal: Expr, right: Fraction, typed: Fraction) -> dict[str, object]:
    """An arithmetic slip's details: the sum, the right and typed values, and the check that
    works it backwards (``24 ÷ 6 = 4``), or that anything times 0 is 0."""
    details = _details(legal, right, typed)
    if not isinstance(legal, BinOp):
        return details
    try:
        x, y = evaluate(legal.left), evaluate(legal.right)
    except ExpressionError:
        return details
    if legal.op == "*" and 0 in (x, y):
        return {**details, "zero": True}
    inverse = _INVERSE[legal.op]
    if inverse == "/" and y == 0:
        return details
    shown = f"({number_answer(y)})" if y < 0 else number_answer(y)
    check = f"{number_answer(right)} {operator_symbol(inverse)} {shown} = {number_answer(x)}"
    return {**details, "check": check}


def _other_operation(
    value: Fraction, cards: tuple[int, int], level: int, legal: Mapping[Fraction, str]
) -> Diagnosis | None:
    """An operation the level does not allow that gives `value` with the cards as they are,
    with the level's own calculation beside it."""
    allowed = level_operators(level)
    best = max(legal)
    for op in _OPERATIONS:
        if op in allowed:
            continue
        for x, y in ((cards[0], cards[1]), (cards[1], cards[0])):
            if combine(op, Fraction(x), Fraction(y)) == value:
                return Reason.OPERATOR_NOT_ALLOWED, {
                    "operator": operator_symbol(op),
                    "allowed": [operator_symbol(o) for o in allowed],
                    "level": level,
                    "expression": to_text(BinOp(op, card_term(x), card_term(y))),
                    "value": number_detail(value),
                    "right": legal[best],
                    "right_value": number_detail(best),
                }
    return None


def name_result(
    typed: Expr,
    legal: Expr,
    value: Fraction,
    step: Fraction | None,
    cards: tuple[int, int],
    level: int,
) -> Diagnosis:
    """The mistake in a result (or step) `step` typed after the expression `typed`, which is
    legal as `legal` and gives `value` (module doc; every level names an arithmetic slip: the
    pupil wrote the operation they meant)."""
    details = _details(typed, value, step if step is not None else value)
    if step is None:
        return Reason.ARITHMETIC_SLIP, details
    if to_text(legal) != to_text(typed):
        details["legal"] = to_text(legal)
    if step == -value:
        return Reason.SIGN_SLIP, {**details, "why": why_of(legal)}
    slip = _card_flipped(legal, step, cards, negative=True)
    if slip is None and level >= 6:
        slip = _square_sign(typed, step, value)
    if slip is None and level >= 5:
        reading = left_to_right(typed)
        if reading is not None and _value(reading) == step:
            slip = Reason.ORDER_OF_OPERATIONS, {}
    if slip is None and level in _SIMPLE_LEVELS and min(cards) < 0:
        slip = _card_flipped(legal, step, cards, negative=False)
    if slip is not None:
        return slip[0], {**details, **slip[1]}
    if level in _SIMPLE_LEVELS:
        return Reason.ARITHMETIC_SLIP, _arithmetic(legal, value, step) | details
    return Reason.ARITHMETIC_SLIP, details


def _card_flipped(
    legal: Expr, step: Fraction, cards: tuple[int, int], negative: bool
) -> Diagnosis | None:
    """The legal expression with one card's sign read the other way gives the typed step."""
    for card in sorted({card for card in cards if card != 0 and (card < 0) == negative}):
        flipped = flip_literal(legal, card)
        if flipped is not None and _value(flipped) == step:
            read = {"card": card, "used": -card, "read_as": to_text(flipped)}
            return Reason.SIGN_SLIP, {**read, "why": why_of(legal)}
    return None


def _value(expr: Expr) -> Fraction | None:
    try:
        return evaluate(expr)
    except ExpressionError:
        return None


def _square_sign(typed: Expr, step: Fraction, value: Fraction) -> Diagnosis | None:
    swapped = square_signs_swapped(typed)
    if swapped is None or _value(swapped) != step:
        return None
    return Reason.SQUARE_SIGN, {**_details(typed, value, step), **_squared(typed)}


def _squared(typed: Expr) -> dict[str, object]:
    """The squared number of the expression's square: `base` k and its `square` k²."""
    for node in walk(typed):
        if isinstance(node, Square):
            inner, _ = strip_signs(node.operand)
            if isinstance(inner, Num):
                base = inner.value
                return {"base": number_detail(base), "square": number_detail(base * base)}
    return {}


def name_square_shape(
    typed: Expr, step: Fraction, cards: tuple[int, int], level: int
) -> Diagnosis | None:
    """An expression whose −k² stands for no card (``-3^2+2`` with the cards −3 and 2, when
    its value is no legal one): `square_sign` when the typed result is either reading of it."""
    if level < 6:
        return None
    swapped = square_signs_swapped(typed)
    own = _value(typed)
    if swapped is None:
        return None
    other = _value(swapped)
    if step not in (own, other) or own is None or other is None:
        return None
    right = other if step == own else own
    return Reason.SQUARE_SIGN, {**_details(typed, right, step), **_squared(typed)}
