"""Reading an answer and naming the mistake (RULES §2.6): a number or an expression, exact
values only, illegal before missing, and the mistake kinds in their order with `sign_slip`
first. Each case quotes the rule it proves."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import ExpressionError, Reason
from engine.judge import TypedNumber, Verdict, read_number
from engine.judge import judge as judge_any_edition
from engine.levels import AnswerForm, Reading
from engine.solver import number_answer, reachable


def judge(
    text: str,
    cards: tuple[int, int],
    level: int,
    answer_form: AnswerForm = AnswerForm.NUMBER,
) -> Verdict:
    """The rule book's first edition of §2.2 and §2.6 ("each card with its sign"): it still
    judges every answer a stored game holds without a reading, so these tests keep proving it
    (`tests/engine/test_school_reading.py` proves the second)."""
    return judge_any_edition(text, cards, level, answer_form, Reading.EACH_CARD_WITH_ITS_SIGN)


NUMBER, EXPRESSION = AnswerForm.NUMBER, AnswerForm.EXPRESSION
MINUS = "\u2212"


def refused(text: str, cards: tuple[int, int], level: int, form: AnswerForm = NUMBER) -> str:
    """The code of an answer that is not counted (the pupil may type again)."""
    with pytest.raises(ExpressionError) as caught:
        judge(text, cards, level, form)
    return caught.value.code


def refusal(
    text: str, cards: tuple[int, int], level: int, form: AnswerForm = NUMBER
) -> tuple[str, dict[str, object]]:
    with pytest.raises(ExpressionError) as caught:
        judge(text, cards, level, form)
    return caught.value.code, dict(caught.value.details)


def mistake(text: str, cards: tuple[int, int], level: int, form: AnswerForm = NUMBER) -> str | None:
    result = judge(text, cards, level, form)
    assert result.value is None, result
    return result.reason


# --- a number or an expression ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value", "places"),
    [
        ("7", 7, 0),
        ("-7", -7, 0),
        ("\u22127", -7, 0),
        ("+7", 7, 0),
        ("1,5", Fraction(3, 2), 1),
        ("1.5", Fraction(3, 2), 1),
        ("-0,83", Fraction(-83, 100), 2),
        (".5", Fraction(1, 2), 1),
        ("-5/6", Fraction(-5, 6), 0),
        (" 7 / 2 ", Fraction(7, 2), 0),
        ("\u22125/6", Fraction(-5, 6), 0),
    ],
)
def test_a_number_is_whole_decimal_or_a_fraction_in_lowest_terms(
    text: str, value: Fraction | int, places: int
) -> None:
    """§2.6: "A *number* is a whole number, a decimal (`1,5` or `1.5`), or a fraction `p/q` in
    lowest terms with q > 1 and its sign only in front (`-5/6`, `7/2`)"."""
    assert read_number(text) == TypedNumber(Fraction(value), places)


@pytest.mark.parametrize(
    "text",
    [
        "6:3",
        "9/3",
        "(-2):2",
        "3/(-4)",
        "4/8",
        "6/1",
        "0/5",
        "7:2",
        "7\u00f72",
        "-(5/6)",
        "--5",
        "1/0",
    ],
)
def test_any_other_text_with_an_operator_is_an_expression(text: str) -> None:
    """§2.6: "`6:3`, `9/3`, `(-2):2`, `3/(-4)`, `4/8` are expressions"; only the slash writes
    a fraction, and a fraction needs q > 1 in lowest terms."""
    assert read_number(text) is None


@pytest.mark.parametrize(
    ("text", "cards"),
    [("6:3", (6, 3)), ("6/3", (6, 3)), ("(-2):2", (-2, 2)), ("3/(-4)", (3, -4)), ("4/8", (4, 8))],
)
def test_at_level_three_the_pupil_must_still_say_the_value(
    text: str, cards: tuple[int, int]
) -> None:
    """§2.6: "at level 3 with cards 6 and 3 the pupil must still say 2 (`6:3=2` or `2`)". The
    sign of the divisor no longer decides whether the pupil has to compute."""
    assert refused(text, cards, 3) == "result_missing"
    assert judge(text, cards, 3, EXPRESSION).accepted  # the beginner's aid computes it


def test_the_divisions_value_is_accepted_alone_or_after_its_expression() -> None:
    assert judge("2", (6, 3), 3).value == 2
    assert judge("6:3=2", (6, 3), 3).value == 2
    assert judge("-1", (-2, 2), 3).value == -1
    assert judge("(-2):2 = -1", (-2, 2), 3).value == -1


def test_a_fraction_in_lowest_terms_is_the_number() -> None:
    """§2.6: "with cards −5 and 6 the answer `-5/6` is the number"."""
    assert judge("-5/6", (-5, 6), 3).value == Fraction(-5, 6)
    assert judge("-5:6 = -5/6", (-5, 6), 3).value == Fraction(-5, 6)
    assert judge("3/2", (6, 4), 3).value == Fraction(3, 2)
    assert judge("-6/5", (-5, 6), 3).value == Fraction(-6, 5)


def test_a_result_that_is_no_number_is_missing() -> None:
    """A fraction not in lowest terms is still an expression, also after `=`."""
    assert refused("6:4 = 6/4", (6, 4), 3) == "result_missing"
    assert judge("6:4 = 3/2", (6, 4), 3).value == Fraction(3, 2)


# --- exact values only -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cards", "level", "exact"),
    [
        ("-0,83", (-5, 6), 3, "-5/6"),  # the rule book's example: rounded
        ("-0.8", (-5, 6), 3, "-5/6"),
        ("0,333", (1, 3), 3, "1/3"),
        ("0,66", (2, 3), 3, "2/3"),  # cut off after the last digit typed
        ("0,67", (2, 3), 3, "2/3"),  # rounded to the nearest
        ("0,13", (1, 8), 3, "1/8"),  # 0,125 rounded: type all of it
        ("-5:6 = -0,83", (-5, 6), 3, "-5/6"),
        ("1/3 = 0,33", (1, 3), 5, "1/3"),
    ],
)
def test_a_rounded_decimal_is_refused_as_not_exact(
    text: str, cards: tuple[int, int], level: int, exact: str
) -> None:
    """§2.6: "A rounded decimal (`-0,83` for −5/6, `0.333` for 1/3) is refused as *not
    exact*: nothing is counted, the pupil may type again, and the message says the exact value
    is a fraction (`-5/6`). It is not a mistake." """
    code, details = refusal(text, cards, level)
    assert code == "not_exact"
    assert details["exact"] == exact


def test_not_exact_names_the_number_as_typed() -> None:
    assert refusal("-0.83", (-5, 6), 3)[1] == {"number": f"{MINUS}0,83", "exact": "-5/6"}


def test_an_exact_decimal_is_accepted() -> None:
    """§2.6: "A decimal is accepted when it is exactly the value"."""
    assert judge("1,5", (6, 4), 3).value == Fraction(3, 2)
    assert judge("0,125", (1, 8), 3).value == Fraction(1, 8)
    assert judge("7,0", (3, 4), 1).value == 7


def test_a_decimal_that_rounds_no_value_is_a_mistake() -> None:
    """Not exact means a legal value rounded: 0,7 is not 5/6 rounded, and a whole number is
    never a rounding (0 for 1/3 is a slip)."""
    assert mistake("0,7", (5, 6), 3) == "arithmetic_slip"
    assert mistake("0", (1, 3), 3) == "arithmetic_slip"
    assert mistake("6,9", (3, 4), 1) == "arithmetic_slip"


def test_a_rounded_decimal_with_its_sign_flipped_is_a_sign_slip() -> None:
    """The negative of a legal value, rounded, is that value's sign slip."""
    assert judge("0,83", (-5, 6), 3).reason == "sign_slip"


# --- illegal before missing ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cards", "level", "code"),
    [
        ("sqrt(-4)+6", (-4, 6), 7, "root_of_negative"),  # not "no square number"
        ("\u221a5+6", (5, 6), 7, "root_of_non_square"),
        ("3+8", (3, 4), 1, "not_your_cards"),
        ("4+5", (-4, 5), 1, "sign_slip"),
        ("3*4", (3, 4), 1, "operator_not_allowed"),
        ("3-4", (3, 4), 3, "operator_not_allowed"),
        ("3^2+4", (3, 4), 5, "square_not_allowed"),
        ("6/0", (6, 0), 3, "division_by_zero"),
        ("3+4+4", (3, 4), 5, "too_many_operations"),
        ("sqrt(-4)+6 = 2+6", (-4, 6), 7, "root_of_negative"),
    ],
)
def test_an_illegal_expression_without_its_result_says_why(
    text: str, cards: tuple[int, int], level: int, code: str
) -> None:
    """§2.6: "When that expression is also illegal (a card it does not hold, a root of a
    negative card, an operation the level does not allow), the message says why it is
    illegal, not 'type the result'". Nothing is counted: the pupil may type again."""
    assert refused(text, cards, level) == code


@pytest.mark.parametrize(
    ("text", "cards", "level", "expression", "operator"),
    [
        ("6:3", (6, 3), 1, "6 \u00f7 3", "\u00f7"),
        ("6\u00f73", (6, 3), 1, "6 \u00f7 3", "\u00f7"),
        ("(-6):3", (-6, 3), 1, "\u22126 \u00f7 3", "\u00f7"),
        ("6-(-3)", (6, -3), 2, "6 \u2212 (\u22123)", "\u2212"),
        ("3*4", (3, 4), 4, "3 \u00b7 4", "\u00b7"),
    ],
)
def test_an_operation_the_level_does_not_allow_is_told_with_the_pupils_calculation(
    text: str, cards: tuple[int, int], level: int, expression: str, operator: str
) -> None:
    """§2.6 "Illegal before missing": "When that expression is also illegal (…, an operation
    the level does not allow), the message says why it is illegal, not 'type the result'".
    Why names what the pupil typed: the refusal carries their calculation (`expression`, in
    the canonical notation), with or without its result, so the reply can show it to them."""
    code, details = refusal(text, cards, level)
    assert code == "operator_not_allowed"
    assert (details["expression"], details["operator"], details["level"]) == (
        expression,
        operator,
        level,
    )
    counted = judge(f"{text}=1", cards, level)  # with a result it counts as no value
    assert counted.reason == "operator_not_allowed"
    assert counted.details["expression"] == expression and "value" not in counted.details


def test_a_legal_expression_without_its_result_is_missing_it() -> None:
    assert refusal("sqrt(4)+6", (4, 6), 7) == ("result_missing", {"expression": "\u221a4 + 6"})


# --- the mistake kinds in their order, sign_slip first ----------------------------------------


@pytest.mark.parametrize(
    ("text", "cards", "level"),
    [
        ("2", (3, -5), 1),  # 2 for 3 + (−5)
        ("3+(-5)=2", (3, -5), 1),
        ("2-(-6)=-8", (2, -6), 4),
        ("4-2=-2", (4, 2), 4),
        ("9", (-4, 5), 1),  # one card's sign flipped
        ("-8", (2, 4), 2),
        ("-2", (6, 3), 3),
        ("8/3", (-8, 3), 3),
        ("3^2+(-2)=9+2=11", (3, -2), 6),  # a middle step with a card's sign flipped
    ],
)
def test_the_rule_books_sign_slips(text: str, cards: tuple[int, int], level: int) -> None:
    """§2.6 1: "`sign_slip` — the typed number is the negative of a value the side's cards give
    at this level (the result's sign flipped: `2` for 3 + (−5), `3+(-5)=2`, `2-(-6)=-8`,
    `4-2=-2`), or a value the cards give with one card's sign flipped (`9` for −4 and 5 at
    level 1)"."""
    assert mistake(text, cards, level) == "sign_slip"


def test_the_sign_slip_names_what_the_pupil_meant() -> None:
    """The details the reply shows: "Look at the sign: 3 + (−5) = −2"."""
    assert dict(judge("2", (3, -5), 1).details) == {
        "expression": "3 + (\u22125)",
        "value": -2,
        "number": 2,
        "card_a": 3,
        "card_b": -5,
    }
    assert dict(judge("2-(-6)=-8", (2, -6), 4).details) == {
        "expression": "2 \u2212 (\u22126)",
        "value": 8,
        "number": -8,
        "card_a": 2,
        "card_b": -6,
    }


@pytest.mark.parametrize("level", range(1, 8))
def test_the_same_slip_is_named_the_same_at_every_level(level: int) -> None:
    """§2.6: `2` for 3 + (−5) is a sign slip wherever 3 + (−5) is a legal value, and `3+(-5)=2`
    wherever + is allowed."""
    legal = reachable(3, -5, level)
    if Fraction(-2) in legal and Fraction(2) not in legal:
        assert mistake("2", (3, -5), level) == "sign_slip"
    if level in (1, 5, 6, 7):
        assert mistake("3+(-5)=2", (3, -5), level) == "sign_slip"


def test_the_order_after_sign_slip() -> None:
    """§2.6 2–4: levels 1–4 `operator_not_allowed` (`2` for 6 and 3 at level 1), then
    `arithmetic_slip`, then `wrong_value`."""
    assert mistake("2", (6, 3), 1) == "operator_not_allowed"
    assert mistake("8", (3, 4), 1) == "arithmetic_slip"
    assert mistake("99", (3, 4), 5) == "wrong_value"
    assert mistake("3*4=13", (3, 4), 5) == "arithmetic_slip"  # the expression says what was meant


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(cards=st.tuples(st.integers(-15, 15), st.integers(-15, 15)), level=st.integers(1, 7))
def test_the_negative_of_every_legal_value_that_is_not_legal_is_a_sign_slip(
    cards: tuple[int, int], level: int
) -> None:
    """§2.6 1, for every level and card pair: the negative of every legal value that is not
    itself legal is a `sign_slip`, typed alone and after the expression that gives the value."""
    legal = reachable(cards[0], cards[1], level)
    for value, expression in legal.items():
        if -value in legal:
            continue
        assert judge(number_answer(-value), cards, level).reason == Reason.SIGN_SLIP
        typed = f"{expression} = {number_answer(-value)}"
        assert judge(typed, cards, level).reason == Reason.SIGN_SLIP
