"""The judge of Regnekrig's regn mode (RULES.md §2.2): which answers are accepted, with which
value, and why the others count as no value. Every diagnosis code with its details has its own
test in test_diagnosis.py; here the judge is checked over many spellings and shapes."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import judge as judge_module
from engine.errors import ExpressionError, Reason, Unreadable
from engine.expressions import parse_answer, to_text
from engine.judge import Verdict, read_number
from engine.judge import judge as judge_any_edition
from engine.levels import AnswerForm, Reading
from engine.solver import reachable
from tests.engine.strategies import answer_like


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


def test_doctests_pass() -> None:
    assert doctest.testmod(judge_module).failed == 0


def verdict(text: str, cards: tuple[int, int], level: int) -> Verdict:
    """Judged in the `expression` answer form (levels 1–2 ask for the result whatever the form,
    so their cases below type it)."""
    return judge(text, cards, level, AnswerForm.EXPRESSION)


def canonical(text: str) -> list[str]:
    """Each part of an answer as the screens show it: in the canonical notation, and a typed
    fraction as the number it is (§2.6: `-7/2` is the number −7/2, not a division)."""
    shown = []
    for part, expr in zip(text.split("="), parse_answer(text), strict=True):
        number = read_number(part)
        if number is not None and number.places == 0 and number.value.denominator != 1:
            shown.append(str(number.value).replace("-", "\u2212"))
        else:
            shown.append(to_text(expr))
    return shown


def shown(text: str) -> str:
    """What a result line shows for an accepted answer: the part before its value."""
    parts = canonical(text)
    return " = ".join(parts[:-1]) if len(parts) > 1 else parts[0]


@pytest.mark.parametrize(
    ("text", "cards", "level", "expected"),
    [
        # level 1 Addisjon: "the result (the sum or product), alone or after its expression"
        ("7", (3, 4), 1, 7),
        ("3+4=7", (3, 4), 1, 7),
        ("4 + 3 = 7", (3, 4), 1, 7),
        ("1", (-3, 4), 1, 1),
        ("-3+4=1", (-3, 4), 1, 1),
        ("4 + (-3) = 1", (-3, 4), 1, 1),
        # level 2 Multiplikasjon
        ("12", (3, 4), 2, 12),
        ("3*4=12", (3, 4), 2, 12),
        ("-12", (-3, 4), 2, -12),
        ("-3 x 4 = -12", (-3, 4), 2, -12),
        # level 3 Divisjon: either order
        ("3/2", (6, 4), 3, Fraction(3, 2)),
        ("1,5", (6, 4), 3, Fraction(3, 2)),
        ("6/4", (6, 4), 3, Fraction(3, 2)),
        ("4:6", (6, 4), 3, Fraction(2, 3)),
        ("0", (0, 5), 3, 0),
        ("0 \u00f7 5", (0, 5), 3, 0),
        ("-7/2", (-7, 2), 3, Fraction(-7, 2)),
        ("6/(-2)", (6, -2), 3, -3),
        ("6:(-2)=-3", (6, -2), 3, -3),
        # level 4 Subtraksjon: either order
        ("4-(-3)", (-3, 4), 4, 7),
        ("-3-4", (-3, 4), 4, -7),
        ("7", (-3, 4), 4, 7),
        ("1", (3, 4), 4, 1),
        # level 5 Elite: any operator, either order; signs follow the cards
        ("4 + (-3)", (-3, 4), 5, 1),
        ("-3*4", (-3, 4), 5, -12),
        ("4/(-3)", (-3, 4), 5, Fraction(-4, 3)),
        ("-4/3", (-3, 4), 5, Fraction(-4, 3)),
        ("-12", (-3, 4), 5, -12),
        # level 6 Ultra smart: one card squared
        ("3^2-5", (3, 5), 6, 4),
        ("5 - 3\u00b2", (3, 5), 6, -4),
        ("(-3)^2+4", (-3, 4), 6, 13),
        ("-3^2+4", (-3, 4), 6, -5),  # the sign in front of the square is the card's
        ("-3^2+4", (3, 4), 6, -5),
        ("13", (-3, 4), 6, 13),
        ("3^2+(-2) = 9-2 = 7", (3, -2), 6, 7),  # a middle step, checked too
        # level 7 Champion: roots of perfect squares
        ("sqrt(4)+6", (4, 6), 7, 8),
        ("\u221a4+6", (4, 6), 7, 8),
        ("\u221a4 + \u221a9", (4, 9), 7, 5),
        ("3\u00b2 + \u221a4", (3, 4), 7, 11),
        ("\u221a0 - 5", (0, 5), 7, -5),
        ("\u221a1 \u00b7 7", (1, 7), 7, 7),
        ("3^2-5", (3, 5), 7, 4),
    ],
)
def test_judge_accepts(
    text: str, cards: tuple[int, int], level: int, expected: Fraction | int
) -> None:
    """§2.2: a legal expression with the side's cards, or a number some legal one gives."""
    result = verdict(text, cards, level)
    assert (result.reason, dict(result.details)) == (None, {})
    assert result.value == expected
    assert result.accepted
    assert result.text == shown(text)
    assert result.typed == " = ".join(canonical(text))


@pytest.mark.parametrize(
    ("text", "cards", "level", "reason", "details"),
    [
        # wrong results at levels 1 and 2
        ("8", (3, 4), 1, "arithmetic_slip", {"expression": "3 + 4", "value": 7, "number": 8}),
        # §2.6: the result's sign flipped is a sign slip, at every level
        ("-1", (-3, 4), 1, "sign_slip", {"expression": "\u22123 + 4", "value": 1, "number": -1}),
        ("2", (3, -5), 1, "sign_slip", {"expression": "3 + (\u22125)", "value": -2, "number": 2}),
        ("3+(-5)=2", (3, -5), 1, "sign_slip", {"expression": "3 + (\u22125)", "number": 2}),
        ("2", (3, -5), 5, "sign_slip", {"expression": "3 + (\u22125)", "number": 2}),
        ("2-(-6)=-8", (2, -6), 4, "sign_slip", {"value": 8, "number": -8}),
        ("4-2=-2", (4, 2), 4, "sign_slip", {"expression": "4 \u2212 2", "number": -2}),
        ("3^2+(-2)=9+2=11", (3, -2), 6, "sign_slip", {"value": 7, "number": "9 + 2"}),
        ("7", (3, 4), 2, "operator_not_allowed", {"operator": "+", "expression": "3 + 4"}),
        ("12", (-3, 4), 2, "sign_slip", {"expression": "\u22123 \u00b7 4", "number": 12}),
        ("9", (-4, 5), 1, "sign_slip", {"expression": "\u22124 + 5", "card": -4, "used": 4}),
        # the sign cases: card −3 is not card 3
        ("3 - 4", (-3, 4), 5, "sign_slip", {"card": -3, "used": 3}),
        ("3 - 4", (-3, 4), 4, "sign_slip", {}),
        ("4 - 3", (-3, 4), 4, "sign_slip", {}),
        ("-3/4", (3, 4), 3, "sign_slip", {"value": "3/4", "number": "\u22123/4"}),
        ("\u221a4+6", (-4, 6), 7, "sign_slip", {"card": -4, "used": 4}),
        ("3/4", (6, 4), 3, "arithmetic_slip", {"value": "2/3", "number": "3/4"}),
        ("1,6", (6, 4), 3, "arithmetic_slip", {"value": "3/2", "number": "1,6"}),
        ("0", (0, 0), 3, "no_legal_value", {"value": 0}),
        # operators
        ("3*4=12", (3, 4), 1, "operator_not_allowed", {"operator": "\u00b7", "allowed": ["+"]}),
        ("3+4=7", (3, 4), 2, "operator_not_allowed", {"operator": "+"}),
        ("6-4", (6, 4), 3, "operator_not_allowed", {"operator": "\u2212"}),
        ("6/4", (6, 4), 4, "operator_not_allowed", {"operator": "\u00f7"}),
        # decorations
        ("3^2-5", (3, 5), 5, "square_not_allowed", {"level": 5}),
        ("3\u00b2+5=14", (3, 5), 1, "square_not_allowed", {"level": 1}),
        ("3\u00b2-5=4", (3, 5), 1, "operator_not_allowed", {}),
        ("3\u00b2\u00b75=45", (3, 5), 2, "square_not_allowed", {}),
        ("sqrt(4)+6", (4, 6), 6, "root_not_allowed", {"level": 6}),
        ("\u221a4+6", (4, 6), 5, "root_not_allowed", {}),
        ("3^2-5^2", (3, 5), 6, "squares_both", {}),
        ("3\u00b2 \u00b7 5\u00b2", (3, 5), 7, "squares_both", {}),
        ("\u221a(4\u00b2)+6", (4, 6), 7, "root_and_square", {}),
        ("(\u221a4)\u00b2+6", (4, 6), 7, "root_and_square", {}),
        ("\u221a4\u00b2+6", (4, 6), 7, "root_and_square", {}),
        ("\u221a(4+5)", (4, 5), 7, "root_of_result", {}),
        ("\u221a(-4+13)", (-4, 13), 7, "root_of_result", {}),
        ("\u221a\u221a16+4", (16, 4), 7, "root_of_result", {}),
        ("\u221a5+6", (5, 6), 7, "root_of_non_square", {"number": 5}),
        ("\u221a(-4)+6", (-4, 6), 7, "root_of_negative", {"number": -4}),
        ("\u221a-4+6", (4, 6), 7, "sign_slip", {"card": 4, "used": -4}),
        # division by zero is never legal
        ("6/0", (6, 0), 5, "division_by_zero", {}),
        ("6/0", (6, 0), 3, "division_by_zero", {}),
        ("0/0", (0, 0), 3, "division_by_zero", {}),
        ("7/0", (3, 4), 3, "not_your_cards", {"number": 7}),  # §2.6: 7/0 is no fraction
        ("12/8", (6, 4), 3, "not_your_cards", {"number": 12}),  # nor is 12/8: not lowest terms
        ("6:(3-3)", (6, 3), 5, "too_many_operations", {}),
        # too many operations
        ("1+2+3", (1, 2), 5, "too_many_operations", {"operators": 2}),
        ("3+4-0", (3, 4), 5, "too_many_operations", {}),
        ("-(3+4)", (3, 4), 5, "too_many_operations", {}),
        ("-(3+4)=-7", (3, 4), 1, "too_many_operations", {}),
        ("(3+4)^2", (3, 4), 6, "too_many_operations", {}),
        ("(3\u00b2)\u00b2 + 4", (3, 4), 7, "too_many_operations", {}),
        ("3+3+4", (3, 4), 5, "too_many_operations", {}),
        # not the side's cards
        ("3+5", (3, 4), 5, "not_your_cards", {"number": 5}),
        ("2*3", (6, 4), 5, "not_your_cards", {"number": 2}),
        ("4+4=8", (3, 4), 1, "card_twice", {"number": 4}),
        ("1,5+4", (3, 4), 5, "not_your_cards", {"number": "3/2"}),
        ("3\u00b2", (3, 4), 6, "card_missing", {"missing": 4}),
        ("\u221a4", (4, 4), 7, "card_missing", {"missing": 4}),
        ("-\u221a9", (9, 0), 7, "card_missing", {"missing": 0}),
    ],
)
def test_judge_refuses_with_reason(
    text: str, cards: tuple[int, int], level: int, reason: str, details: dict[str, object]
) -> None:
    """§2.2: "A wrong or illegal answer ... counts as no value"; the verdict shows the whole
    answer as typed, and names the side's cards."""
    result = verdict(text, cards, level)
    assert result.value is None
    assert not result.accepted
    assert result.reason == reason
    assert details.items() <= dict(result.details).items()
    assert (result.details["card_a"], result.details["card_b"]) == cards
    assert result.text == result.typed == " = ".join(canonical(text))


@pytest.mark.parametrize("text", ["", "3 +", "3 & 4", "3^3", "x" * 101, "3+4=", "=7", "3+4=4+3"])
def test_judge_raises_for_unreadable_answers(text: str) -> None:
    """An unreadable answer is refused (it can be typed again), not judged."""
    with pytest.raises(ExpressionError) as caught:
        judge(text, (3, 4), 5)
    assert caught.value.code in set(Unreadable)


def test_judge_rejects_unknown_levels() -> None:
    with pytest.raises(ValueError):
        judge("7", (3, 4), 8)


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(answer_like, st.text(max_size=30)),
    st.tuples(st.integers(-15, 15), st.integers(-15, 15)),
    st.integers(1, 7),
    st.sampled_from(AnswerForm),
)
def test_judge_never_raises_for_readable_answers(
    text: str, cards: tuple[int, int], level: int, form: AnswerForm
) -> None:
    """Every answer is either refused (an `Unreadable` code, or the `Reason` of the rule an
    expression without its result breaks) or gets a verdict; an accepted value is one the
    cards can make, and a refusal has a `Reason`."""
    try:
        result = judge(text, cards, level, form)
    except ExpressionError as error:
        # §2.6 "illegal before missing": an expression without its result that breaks a rule
        # is refused with that rule's reason.
        if error.code not in set(Unreadable):
            assert error.code in set(Reason)
            assert read_number(text.split("=")[-1]) is None
        return
    assert (result.value is None) == (result.reason is not None)
    if result.value is not None:
        assert result.value in reachable(cards[0], cards[1], level)
    else:
        assert result.reason in set(Reason)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.tuples(st.integers(-20, 20), st.integers(-20, 20)),
    st.integers(1, 7),
    st.data(),
)
def test_every_reachable_value_is_accepted_as_a_number_and_as_its_expression(
    cards: tuple[int, int], level: int, data: st.DataObject
) -> None:
    """§2.2: "a number is accepted when some legal expression gives it"; the expression with
    its number is an answer in every form, the expression alone in the `expression` form."""
    table = reachable(cards[0], cards[1], level)
    assume(table)
    target, text = data.draw(st.sampled_from(sorted(table.items())))
    number = str(target).replace("-", "\u2212")
    for form in AnswerForm:
        assert judge(f"{text} = {number}", cards, level, form).value == target
        assert judge(number, cards, level, form).value == target
    if level >= 3:
        assert judge(text, cards, level, AnswerForm.EXPRESSION).value == target
