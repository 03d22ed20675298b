"""Every wrong answer gets a diagnosis (RULES §2.2: every round teaches).

RULES §2.2: "An expression is legal when it uses exactly the side's two cards, each **with its
sign** (for a card −4 the pupil writes −4 or (−4); 4 is not that card), and only what the
level allows; given with a number, it must equal that number." "A wrong or illegal answer
... counts as *no value*. Unreadable text (not a number or an expression) is refused and may
be typed again." One test per code, with the details its sentence is filled with.
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.actions import Timeout
from engine.config import GameConfig, Mode
from engine.errors import ConfigurationError, ExpressionError, Reason, Unreadable
from engine.events import ValueShown
from engine.expressions import BinOp, Expr, Neg, Num, Root, Square, evaluate, parse, to_text
from engine.game import apply, new_game
from engine.judge import Verdict
from engine.judge import judge as judge_any_edition
from engine.levels import AnswerForm, Reading
from engine.regnekrig import Answer
from engine.solver import answer_text, number_answer, reachable


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


def no_value(
    text: str, cards: tuple[int, int], level: int, form: AnswerForm = NUMBER
) -> tuple[str | None, dict[str, object]]:
    result = judge(text, cards, level, form)
    assert result.value is None, result
    return result.reason, dict(result.details)


def unreadable(text: str, cards: tuple[int, int], level: int, form: AnswerForm = NUMBER) -> str:
    with pytest.raises(ExpressionError) as caught:
        judge(text, cards, level, form)
    assert caught.value.code in set(Unreadable)
    return caught.value.code


# --- §2.2 "the pupil computes" ------------------------------------------------------------


@pytest.mark.parametrize("form", list(AnswerForm))
def test_levels_one_and_two_ask_for_the_result_whatever_the_form(form: AnswerForm) -> None:
    """§2.2 levels 1–2: "`7` or `3+4=7`. An expression without its result (`3+4`) is not an
    answer: the pupil is asked to type the result, and nothing is counted"."""
    assert judge("9", (4, 5), 1, form).value == 9
    assert judge("4+5=9", (4, 5), 1, form).value == 9
    assert judge("4*5 = 20", (4, 5), 2, form).value == 20
    assert unreadable("4+5", (4, 5), 1, form) == "result_missing"
    assert unreadable("4*5", (4, 5), 2, form) == "result_missing"


def test_result_missing_names_the_expression() -> None:
    with pytest.raises(ExpressionError) as caught:
        judge("4 + 5", (4, 5), 1)
    assert caught.value.details == {"expression": "4 + 5"}


def test_the_number_form_asks_for_the_value_and_checks_both() -> None:
    """§2.2 `number` (the default): "the value, alone or after the expression that gives it
    (`-3` or `6:(-2)=-3`)"."""
    assert judge("-3", (6, -2), 3).value == -3
    assert judge("6:(-2)=-3", (6, -2), 3).value == -3
    assert unreadable("6:(-2)", (6, -2), 3) == "result_missing"
    assert no_value("6:(-2)=-4", (6, -2), 3)[0] == "arithmetic_slip"
    assert no_value("6:(-2)=3", (6, -2), 3)[0] == "sign_slip"


def test_the_expression_form_takes_an_expression_alone_and_still_checks_a_number() -> None:
    """§2.2 `expression`: "an expression alone is enough (`6/(-2)`) ... and the engine
    computes its value"; a number typed after it is still checked."""
    assert judge("6/(-2)", (6, -2), 3, EXPRESSION).value == -3
    assert judge("-3", (6, -2), 3, EXPRESSION).value == -3
    assert no_value("6/(-2) = 4", (6, -2), 3, EXPRESSION)[0] == "arithmetic_slip"
    assert no_value("6/(-2) = 3", (6, -2), 3, EXPRESSION)[0] == "sign_slip"


def test_a_typed_number_stays_that_number() -> None:
    """The verdict carries what the pupil typed: a number is never rewritten as an
    expression of other numbers, and an accepted `expression = value` shows the expression
    (its value is shown beside it)."""
    assert judge("1,5", (6, 4), 3).text == "1,5"
    assert judge("-3", (6, -2), 3).text == "\u22123"
    accepted = judge("6:(-2)=-3", (6, -2), 3)
    assert (accepted.text, accepted.typed) == ("6 \u00f7 (\u22122)", "6 \u00f7 (\u22122) = \u22123")
    refused = judge("4*6=25", (4, 6), 2)
    assert refused.text == refused.typed == "4 \u00b7 6 = 25"


# --- one test per reason code -------------------------------------------------------------


def test_sign_slip_for_a_card_typed_without_its_sign() -> None:
    """§2.2 "4 is not that card": `4+5` with cards −4, 5 is not legal (not to be
    accepted and shown as 4 + 5 = 9)."""
    assert no_value("4+5=9", (-4, 5), 1) == (
        "sign_slip",
        {"card": -4, "used": 4, "card_a": -4, "card_b": 5},
    )


def test_sign_slip_for_a_number_the_cards_give_with_one_sign_flipped() -> None:
    """§2.6: 9 for cards −4 and 5 at level 1 is 4 + 5: the sign of −4 slipped. The details
    name what the pupil meant with the card's real sign (−4 + 5 = 1)."""
    assert no_value("9", (-4, 5), 1) == (
        "sign_slip",
        {
            "expression": "\u22124 + 5",
            "value": 1,
            "number": 9,
            "card": -4,
            "used": 4,
            "card_a": -4,
            "card_b": 5,
        },
    )
    # √4 is no value of the card −4: the slip names the card only
    assert no_value("8", (-4, 6), 7) == (
        "sign_slip",
        {"number": 8, "card": -4, "used": 4, "card_a": -4, "card_b": 6},
    )


def test_a_leading_minus_on_a_negative_card_is_that_card() -> None:
    """§2.2 "for a card −4 the pupil writes −4 or (−4)"."""
    assert judge("-4+5=1", (-4, 5), 1).value == 1
    assert judge("(-4)+5=1", (-4, 5), 1).value == 1
    assert judge("5+(-4)=1", (-4, 5), 1).value == 1
    assert judge("5 - -4 = 9", (-4, 5), 5).value == 9


def test_a_sign_in_front_of_a_root_is_not_the_cards_sign() -> None:
    """−√4 is minus the root of 4: with the card −4 the pupil used 4, not −4."""
    assert no_value("-\u221a4 + 6 = 4", (-4, 6), 7)[1]["card"] == -4
    assert judge("6 - \u221a4 = 4", (4, 6), 7).value == 4


def test_arithmetic_slip_for_a_legal_expression_with_the_wrong_number() -> None:
    """An arithmetic slip names the true result: "4 · 6 = 24, ikke 25"."""
    assert no_value("4*6=25", (4, 6), 2) == (
        "arithmetic_slip",
        {"expression": "4 \u00b7 6", "value": 24, "number": 25, "card_a": 4, "card_b": 6},
    )


def test_arithmetic_slip_for_a_wrong_number_alone_at_levels_one_to_four() -> None:
    """A times-table slip: 25 for 4 · 6; at level 3 the closer of the two orders is named."""
    assert no_value("25", (4, 6), 2)[1] == {
        "expression": "4 \u00b7 6",
        "value": 24,
        "number": 25,
        "card_a": 4,
        "card_b": 6,
    }
    assert no_value("1,6", (6, 4), 3)[1]["expression"] == "6 \u00f7 4"


def test_arithmetic_slip_in_a_middle_step() -> None:
    """`3² + (−2) = 9 − 2 = 7` is an answer; a wrong middle step is a slip, named."""
    assert judge("3^2+(-2)=9-2=7", (3, -2), 6).value == 7
    reason, details = no_value("3^2+(-2)=6-2=4", (3, -2), 6)
    assert reason == "arithmetic_slip"
    assert (details["value"], details["number"]) == (7, "6 \u2212 2")


def test_not_your_cards_names_the_number_and_the_real_cards() -> None:
    """`6/(-2)` with cards 6, 6 is not a sign slip ("Sjekk fortegnene!"): −2 is no card at all."""
    assert no_value("6/(-2)", (6, 6), 3, EXPRESSION) == (
        "not_your_cards",
        {"number": -2, "card_a": 6, "card_b": 6},
    )


def test_card_twice_for_one_card_used_twice() -> None:
    """`4*4` with cards 4, 6 is not "4 er ikke et av kortene dine": 4 is, once."""
    assert no_value("4*4", (4, 6), 5, EXPRESSION) == (
        "card_twice",
        {"number": 4, "card_a": 4, "card_b": 6},
    )


def test_card_missing_for_a_card_left_out() -> None:
    """`3^2` at level 6 keeps its reason and what is missing."""
    expected = ("card_missing", {"missing": 4, "card_a": 3, "card_b": 4})
    assert no_value("3^2", (3, 4), 6, EXPRESSION) == expected
    assert no_value("3^2=9", (3, 4), 6) == expected


def test_operator_not_allowed_in_an_expression() -> None:
    """The pupil's own calculation comes with it, to be told back (§2.6)."""
    assert no_value("6-4", (6, 4), 3, EXPRESSION) == (
        "operator_not_allowed",
        {
            "operator": "\u2212",
            "allowed": ["\u00f7"],
            "level": 3,
            "expression": "6 \u2212 4",
            "card_a": 6,
            "card_b": 4,
        },
    )


def test_operator_not_allowed_for_a_number_another_operation_gives() -> None:
    """2 for cards 6 and 3 at level 1 is 6 ÷ 3: the pupil divided instead of adding."""
    assert no_value("2", (6, 3), 1) == (
        "operator_not_allowed",
        {
            "operator": "\u00f7",
            "allowed": ["+"],
            "level": 1,
            "expression": "6 \u00f7 3",
            "value": 2,
            "card_a": 6,
            "card_b": 3,
        },
    )


def test_squares_and_roots_are_never_suggested_below_their_level() -> None:
    """Never mention squares below level 6, roots below 7: 36 for 6 and 1 is
    6² · 1, but at level 2 it is only an arithmetic slip of 6 · 1."""
    reason, details = no_value("36", (6, 1), 2)
    assert reason == "arithmetic_slip" and details["expression"] == "6 \u00b7 1"
    reason, details = no_value("3", (9, 1), 6)  # √9 · 1 at level 7
    assert reason == "wrong_value" and "\u221a" not in str(details)


def test_square_not_allowed_below_level_six() -> None:
    """The pupil's own calculation comes with it, to be told back (§2.6), as for an
    operation the level does not allow."""
    assert no_value("3^2-5", (3, 5), 5, EXPRESSION) == (
        "square_not_allowed",
        {"level": 5, "expression": "3\u00b2 \u2212 5", "card_a": 3, "card_b": 5},
    )


def test_any_other_power_below_level_six_is_power_not_allowed() -> None:
    """`3^3` at level 5 is not "the only power you can use is 2": no power is part of
    level 5; from level 6 the square is the one power there is."""
    with pytest.raises(ExpressionError) as caught:
        judge("3^3", (3, 4), 5)
    assert (caught.value.code, caught.value.details) == ("power_not_allowed", {"level": 5})
    assert unreadable("3^3", (3, 4), 6) == "unsupported_power"


def test_root_not_allowed_below_level_seven() -> None:
    """With the pupil's own calculation, as a square below level 6 (§2.6)."""
    assert no_value("sqrt(4)+6", (4, 6), 6, EXPRESSION) == (
        "root_not_allowed",
        {"level": 6, "expression": "\u221a4 + 6", "card_a": 4, "card_b": 6},
    )


def test_squares_both() -> None:
    assert no_value("3^2-5^2", (3, 5), 6, EXPRESSION)[0] == "squares_both"


def test_root_and_square() -> None:
    assert no_value("\u221a(4\u00b2)+6", (4, 6), 7, EXPRESSION)[0] == "root_and_square"


def test_root_of_result() -> None:
    assert no_value("\u221a(4+5)", (4, 5), 7, EXPRESSION)[0] == "root_of_result"


def test_root_of_negative() -> None:
    """`sqrt(-4)` is not "…kvadrattall, som 0, 1, 4 eller 9": −4 is negative."""
    assert no_value("sqrt(-4)+6", (-4, 6), 7, EXPRESSION) == (
        "root_of_negative",
        {"number": -4, "card_a": -4, "card_b": 6},
    )


def test_root_of_non_square() -> None:
    assert no_value("\u221a5+6", (5, 6), 7, EXPRESSION) == (
        "root_of_non_square",
        {"number": 5, "card_a": 5, "card_b": 6},
    )


def test_division_by_zero() -> None:
    """§2.2 "Division by zero is undefined and not a legal choice"."""
    assert no_value("6/0=6", (6, 0), 3) == (
        "division_by_zero",
        {"text": "6 \u00f7 0", "card_a": 6, "card_b": 0},
    )
    assert no_value("6/0", (6, 0), 3, EXPRESSION)[0] == "division_by_zero"
    assert no_value("0:6 = 0:0 = 0", (0, 6), 3)[0] == "arithmetic_slip"


def test_too_many_operations() -> None:
    reason, details = no_value("1+2+3", (1, 2), 5, EXPRESSION)
    assert (reason, details["operators"]) == ("too_many_operations", 2)


def test_no_legal_value_when_the_cards_have_none() -> None:
    """§2.2: "A side with no defined value (0 and 0 at level 3) has *no value*"."""
    assert no_value("0", (0, 0), 3) == ("no_legal_value", {"value": 0, "card_a": 0, "card_b": 0})


def test_wrong_value_when_no_slip_explains_it() -> None:
    assert no_value("99", (3, 4), 5) == ("wrong_value", {"value": 99, "card_a": 3, "card_b": 4})


def test_too_large_is_refused_by_evaluate() -> None:
    """No answer `judge` reads gets near the limit (one operation on two cards); `evaluate`
    itself refuses it, and the code is one of the reasons."""
    huge = Num(Fraction(10**300))
    expr: Expr = huge
    for _ in range(4):
        expr = Square(expr)
    with pytest.raises(ExpressionError) as caught:
        evaluate(expr)
    assert caught.value.code == Reason.TOO_LARGE


def test_a_late_answer_counts_as_no_value_with_reason_timeout() -> None:
    state, _ = new_game(GameConfig("regnekrig", mode=Mode.REGN), 0, [[1, 2], [3, 4]])
    state, _ = apply(state, Timeout(0))
    state, events = apply(state, Timeout(1))
    reasons = {e.side: e.reason for e in events if isinstance(e, ValueShown)}
    assert reasons == {0: Reason.TIMEOUT, 1: Reason.TIMEOUT}


def test_every_reason_is_tested_above() -> None:
    """One list of codes: each `Reason` is named by a test in this file."""
    source = Path(__file__).read_text(encoding="utf-8")
    for reason in Reason:
        assert f'"{reason.value}"' in source or f"Reason.{reason.name}" in source, reason


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty"),
        ("x" * 101, "too_long"),
        ("3 & 4", "unknown_symbol"),
        ("7 -", "malformed"),
        ("3+4=", "malformed"),
        ("3^3+4", "unsupported_power"),
        ("3+4", "result_missing"),
        ("3+4=4+3", "result_missing"),
    ],
)
def test_unreadable_answers_are_refused_and_may_be_typed_again(text: str, code: str) -> None:
    """§2.2: "Unreadable text ... is refused and may be typed again"; nothing is counted."""
    assert unreadable(text, (3, 4), 7) == code


# --- the property: legal answers are accepted, sign flips are named -----------------------


def _flip_first(expr: Expr, size: Fraction) -> tuple[Expr, bool]:
    """The tree with the sign of the first literal of this size flipped (one `Neg` added or
    removed), and whether one was found."""
    if isinstance(expr, Neg) and isinstance(expr.operand, Num) and expr.operand.value == size:
        return expr.operand, True
    if isinstance(expr, Num):
        return (Neg(expr), True) if expr.value == size else (expr, False)
    if isinstance(expr, BinOp):
        left, done = _flip_first(expr.left, size)
        if done:
            return replace(expr, left=left), True
        right, done = _flip_first(expr.right, size)
        return replace(expr, right=right), done
    assert isinstance(expr, Neg | Square | Root)
    operand, done = _flip_first(expr.operand, size)
    return replace(expr, operand=operand), done


def _accepted(verdict: Verdict, value: Fraction) -> bool:
    return verdict.reason is None and verdict.value == value


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(
    cards=st.tuples(st.integers(-15, 15), st.integers(-15, 15)),
    level=st.integers(1, 7),
    data=st.data(),
)
def test_legal_expressions_are_accepted_and_every_sign_flip_is_a_sign_slip(
    cards: tuple[int, int], level: int, data: st.DataObject
) -> None:
    """For random cards and levels: every legal expression typed with the real cards is
    accepted with its value (with its number in every form, alone in the expression form),
    and every single-sign flip of a card that changes the value is diagnosed as a sign slip,
    typed as an expression or as the number it gives (when no legal expression gives it)."""
    table = reachable(cards[0], cards[1], level)
    assume(table)
    value, text = data.draw(st.sampled_from(sorted(table.items())))
    for form in AnswerForm:
        assert _accepted(judge(answer_text(text, value), cards, level, form), value)
    if level >= 3:
        assert _accepted(judge(text, cards, level, EXPRESSION), value)

    card = data.draw(st.sampled_from(cards))
    assume(card != 0)
    flipped, found = _flip_first(parse(text), Fraction(abs(card)))
    assert found
    try:
        slipped = evaluate(flipped)
    except ExpressionError:  # √ of a negative or ÷ 0 (levels 3–7): the card is named first
        assert judge(to_text(flipped), cards, level, EXPRESSION).reason == "sign_slip"
        return
    assume(slipped != value)
    typed = answer_text(to_text(flipped), slipped)
    assert judge(typed, cards, level).reason == "sign_slip"
    if slipped not in table:
        assert judge(number_answer(slipped), cards, level).reason == "sign_slip"


# --- the game option (SCENARIOS.md `answer_form`) ----------------------------------------


def test_answer_form_is_a_game_option_defaulting_to_number() -> None:
    """SCENARIOS.md: `answer_form` ... default `number`; it survives the JSON round trip."""
    config = GameConfig.from_json({"game": "regnekrig", "level": 4})
    assert config.answer_form is NUMBER
    chosen = GameConfig.from_json({"game": "regnekrig", "level": 4, "answer_form": "expression"})
    assert chosen.answer_form is EXPRESSION
    assert GameConfig.from_json(chosen.to_json()) == chosen


def test_an_unknown_answer_form_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError):
        GameConfig.from_json({"game": "regnekrig", "answer_form": "words"})


@pytest.mark.parametrize(("level", "form"), [(1, EXPRESSION), (2, EXPRESSION), (4, NUMBER)])
def test_the_game_judges_with_its_answer_form(level: int, form: AnswerForm) -> None:
    """Levels 1–2 ask for the result "whatever the form"; at 3–7 the game's form decides."""
    config = GameConfig("regnekrig", level=level, mode=Mode.REGN, answer_form=form)
    state, _ = new_game(config, 0, [[5, 2, 1, 1], [3, 3, 1, 1]])
    with pytest.raises(ExpressionError) as caught:
        apply(state, Answer(0, "5·2" if level == 2 else "5+2" if level == 1 else "5-2"))
    assert caught.value.code == "result_missing"
    expression_form = replace(config, answer_form=EXPRESSION)
    state, _ = new_game(expression_form, 0, [[5, 2, 1, 1], [3, 3, 1, 1]])
    if level >= 3:
        state, _ = apply(state, Answer(0, "5-2"))
        assert state.pending == (1,)


def test_every_code_the_reader_raises_is_declared_once() -> None:
    """engine/errors.py `Unreadable` and `Reason` are the one list: the reader and the judge
    raise no other code."""
    engine = Path(__file__).parents[2] / "engine"
    source = "".join((engine / name).read_text("utf-8") for name in ("expressions.py", "judge.py"))
    raised = set(re.findall(r'_error\(\s*"(\w+)"', source))
    assert len(raised) >= 11
    assert raised <= {code.value for code in Unreadable} | {reason.value for reason in Reason}
    assert not {code.value for code in Unreadable} & {reason.value for reason in Reason}


def test_the_second_edition_names_square_signs_and_the_order_of_operations() -> None:
    """§2.6 (second edition): `Reason.SQUARE_SIGN` for "`-3^2+2=11`" and
    `Reason.ORDER_OF_OPERATIONS` for "`2*3^2=36`"; `tests/engine/test_school_reading.py`
    holds the whole table."""
    assert judge_any_edition("-3^2+2=11", (-3, 2), 6).reason == Reason.SQUARE_SIGN
    assert judge_any_edition("2*3^2=36", (2, 3), 6).reason == Reason.ORDER_OF_OPERATIONS
