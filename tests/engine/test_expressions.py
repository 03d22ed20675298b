"""The answer reader, evaluator, printer and judge of Regnekrig (RULES.md §2.2, regn mode)."""

from __future__ import annotations

import doctest
import inspect
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import expressions
from engine.errors import ExpressionError, Unreadable
from engine.expressions import (
    MAX_ANSWER_LENGTH,
    AnswerForm,
    BinOp,
    Expr,
    Neg,
    Num,
    Reason,
    Root,
    Square,
    Verdict,
    evaluate,
    judge,
    parse,
    parse_answer,
    to_text,
)
from engine.solver import reachable


def value(text: str) -> Fraction:
    return evaluate(parse(text))


def code_of(text: str) -> str:
    with pytest.raises(ExpressionError) as caught:
        parse(text)
    return caught.value.code


def test_doctests_pass() -> None:
    assert doctest.testmod(expressions).failed == 0


# --- §2.2 "a number or an expression": every spelling a pupil may type --------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7", 7),
        ("0", 0),
        ("-7", -7),
        ("+7", 7),
        ("1.5", Fraction(3, 2)),
        ("1,5", Fraction(3, 2)),
        ("-1,25", Fraction(-5, 4)),
        (".5", Fraction(1, 2)),
        ("0.125", Fraction(1, 8)),
        ("007", 7),
        (" 3 +  4 ", 7),
        ("\t3+4\n", 7),
        ("3\u00a0+\u00a04", 7),
        ("3 - 4", -1),
        ("3 \u2212 4", -1),
        ("3 \u2013 4", -1),
        ("\u22123", -3),
        ("\u20133", -3),
        ("3*4", 12),
        ("3x4", 12),
        ("3X4", 12),
        ("3 x 4", 12),
        ("3\u00d74", 12),
        ("3\u00b74", 12),
        ("3\u22c54", 12),
        ("7/2", Fraction(7, 2)),
        ("7\u00f72", Fraction(7, 2)),
        ("7:2", Fraction(7, 2)),
        ("(3+4)*2", 14),
        ("[3+4]*2", 14),
        ("[(3+4)]*2", 14),
        ("3^2", 9),
        ("3 ^ 2", 9),
        ("3**2", 9),
        ("3\u00b2", 9),
        ("3^(2)", 9),
        ("3^2.0", 9),
        ("sqrt(4)", 2),
        ("SQRT(4)", 2),
        ("Sqrt 9", 3),
        ("sqrt4", 2),
        ("rot(9)", 3),
        ("Rot(16)", 4),
        ("\u221a4", 2),
        ("\u221a(4)", 2),
        ("\u221a 4", 2),
        ("sqrt(4)+6", 8),
        ("\u221a4+6", 8),
        ("3\u00b2-5", 4),
        ("6/(-2)", -3),
        ("-3*4", -12),
        ("3xrot(4)", 6),
        ("\u221a(2,25)", Fraction(3, 2)),
        ("--3", 3),
        ("4 - -3", 7),
    ],
)
def test_every_accepted_spelling(text: str, expected: Fraction | int) -> None:
    """RULES.md §2.2: pupils type `-3*4`, `6/(-2)`, `3^2-5`, `sqrt(4)+6`, `√4+6`, `3²-5`."""
    assert value(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("-3^2", -9),
        ("-3\u00b2", -9),
        ("(-3)^2", 9),
        ("(-3)**2", 9),
        ("2+3*4", 14),
        ("2*3+4", 10),
        ("(2+3)*4", 20),
        ("8-3-2", 3),
        ("8/4/2", 1),
        ("8-(3-2)", 7),
        ("2*-3", -6),
        ("-2*-3", 6),
        ("-3^2+4", -5),
        ("2*3^2", 18),
        ("\u221a4^2", 4),
        ("\u221a4*3", 6),
        ("-\u221a4", -2),
        ("\u221a\u221a16", 2),
        ("\u221a-4+4", None),
    ],
)
def test_precedence_is_that_of_mathematics(text: str, expected: int | None) -> None:
    """Squares bind tighter than unary minus, unary minus tighter than · ÷, then + −."""
    if expected is None:
        with pytest.raises(ExpressionError):
            value(text)
    else:
        assert value(text) == expected


def test_root_takes_the_following_atom_and_squares_come_after() -> None:
    """[decision] √4² is (√4)²; √-4 is √(−4)."""
    assert parse("\u221a4\u00b2") == Square(Root(Num(Fraction(4))))
    assert parse("\u221a-4") == Root(Neg(Num(Fraction(4))))
    assert parse("\u221a(4\u00b2)") == Root(Square(Num(Fraction(4))))
    assert parse("-3^2") == Neg(Square(Num(Fraction(3))))


@pytest.mark.parametrize(
    ("text", "code", "details"),
    [
        ("", "empty", {}),
        ("   \t", "empty", {}),
        ("1" * (MAX_ANSWER_LENGTH + 1), "too_long", {"length": 101}),
        ("\uff13", "unknown_symbol", {"symbol": "\uff13", "position": 0}),
        ("3 + a", "unknown_symbol", {"symbol": "a", "position": 4}),
        ("3 & 4", "unknown_symbol", {"symbol": "&", "position": 2}),
        ("3 \u2014 4", "unknown_symbol", {"symbol": "\u2014"}),
        ("\u0663", "unknown_symbol", {}),
        ("3+", "malformed", {"position": 2}),
        ("(3+4", "malformed", {"position": 4}),
        ("3+4)", "malformed", {"position": 3}),
        ("(3+4]", "malformed", {"position": 4}),
        ("()", "malformed", {"position": 1}),
        ("*3", "malformed", {"position": 0}),
        ("3 4", "malformed", {"position": 2}),
        ("2(3)", "malformed", {"position": 1}),
        ("3.", "malformed", {"position": 1}),
        ("3, 4", "malformed", {"position": 1}),
        ("3^", "malformed", {}),
        ("3***2", "malformed", {}),
        ("sqrt", "malformed", {}),
        ("\u221a", "malformed", {}),
        ("3^3", "unsupported_power", {"exponent": "3", "position": 1}),
        ("3**-1", "unsupported_power", {"exponent": "\u22121"}),
        ("3\u00b3", "unsupported_power", {"exponent": "3"}),
        ("2^(1+1)", "unsupported_power", {}),
        ("3\u00b2\u00b2", "unsupported_power", {}),
        ("3^2^2", "unsupported_power", {}),
    ],
)
def test_every_parse_error_code(text: str, code: str, details: dict[str, object]) -> None:
    """Unreadable answers are refused with a stable code (the pupil may retype, §2.2)."""
    with pytest.raises(ExpressionError) as caught:
        parse(text)
    assert caught.value.code == code
    assert details.items() <= caught.value.details.items()


def test_too_long_is_checked_before_reading() -> None:
    assert code_of("&" * 101) == "too_long"
    assert code_of(" " * 101) == "too_long"
    assert value("1" + " " * (MAX_ANSWER_LENGTH - 1)) == 1


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("7/0", "division_by_zero"),
        ("7/(3-3)", "division_by_zero"),
        ("\u221a5", "root_of_non_square"),
        ("\u221a(-4)", "root_of_non_square"),
        ("sqrt(0,5)", "root_of_non_square"),
        ("(" * 11 + "9\u00b2" + ")\u00b2" * 11, "too_large"),
    ],
)
def test_evaluate_errors(text: str, code: str) -> None:
    with pytest.raises(ExpressionError) as caught:
        value(text)
    assert caught.value.code == code


def test_literals_are_non_negative_terminating_decimals() -> None:
    with pytest.raises(ValueError):
        Num(Fraction(-1))
    with pytest.raises(ValueError):
        Num(Fraction(1, 3))


# --- the canonical form the bot shows -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("-3*4", "\u22123 \u00b7 4"),
        ("6/(-2)", "6 \u00f7 (\u22122)"),
        ("4 - (-3)", "4 \u2212 (\u22123)"),
        ("4--3", "4 \u2212 (\u22123)"),
        ("3^2-5", "3\u00b2 \u2212 5"),
        ("(-3)^2+4", "(\u22123)\u00b2 + 4"),
        ("sqrt(4)+6", "\u221a4 + 6"),
        ("7:2", "7 \u00f7 2"),
        ("1.5", "1,5"),
        ("1.50", "1,5"),
        ("2.0", "2"),
        ("((3))", "3"),
        ("(3+4)*2", "(3 + 4) \u00b7 2"),
        ("3-(4+5)", "3 \u2212 (4 + 5)"),
        ("3-(4-5)", "3 \u2212 (4 \u2212 5)"),
        ("(3-4)-5", "3 \u2212 4 \u2212 5"),
        ("3/(4*5)", "3 \u00f7 (4 \u00b7 5)"),
        ("-(3+4)", "\u2212(3 + 4)"),
        ("--3", "\u2212(\u22123)"),
        ("-3^2", "\u22123\u00b2"),
        ("\u221a4^2", "(\u221a4)\u00b2"),
        ("\u221a(4^2)", "\u221a(4\u00b2)"),
        ("(3^2)^2", "(3\u00b2)\u00b2"),
        ("(3+4)^2", "(3 + 4)\u00b2"),
        ("\u221a-4", "\u221a(\u22124)"),
        ("\u221a\u221a16", "\u221a\u221a16"),
        ("\u221a(3+6)", "\u221a(3 + 6)"),
        ("3*(-4)^2", "3 \u00b7 (\u22124)\u00b2"),
        ("3*-4^2", "3 \u00b7 (\u22124\u00b2)"),
    ],
)
def test_canonical_text(text: str, canonical: str) -> None:
    assert to_text(parse(text)) == canonical
    assert to_text(parse(canonical)) == canonical
    assert _value_or_code(parse(canonical)) == _value_or_code(parse(text))


# --- robustness: deep nesting and fuzzing ---------------------------------------------------


@contextmanager
def recursion_headroom(frames: int) -> Iterator[None]:
    """Leave only `frames` frames above the caller, so a deep recursion fails loudly."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + frames)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


@pytest.mark.parametrize(
    "text",
    [
        "(" * 49 + "1" + ")" * 49,
        "[(" * 24 + "1" + ")]" * 24,
        "-" * 99 + "1",
        "\u221a" * 99 + "1",
        "(-" * 33 + "1" + ")" * 33,
        "(\u221a" * 33 + "1" + ")" * 33,
        "(" * 50 + "1" * 50,
        "1+" * 49 + "1",
        "-(" * 33 + "1" + ")" * 33,
    ],
)
def test_deepest_inputs_stay_far_from_the_recursion_limit(text: str) -> None:
    assert len(text) <= MAX_ANSWER_LENGTH
    with recursion_headroom(400):
        try:
            expr = parse(text)
        except ExpressionError as error:
            assert error.code == "malformed"
            return
        canonical = to_text(expr)  # may be longer than an answer may be
        if len(canonical) <= MAX_ANSWER_LENGTH:
            assert to_text(parse(canonical)) == canonical
        assert _value_or_code(expr) in (Fraction(1), Fraction(-1), Fraction(50))


ANSWER_ALPHABET = "0123456789.,+-*/:^()[]xX \u2212\u2013\u00d7\u00b7\u22c5\u00f7\u00b2\u00b3\u221a"
answer_chars = st.sampled_from([*ANSWER_ALPHABET, "sqrt", "rot", "**", "SQRT"])
answer_like = st.lists(answer_chars, max_size=40).map("".join)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=120), answer_like))
def test_parse_never_raises_anything_but_expression_error(text: str) -> None:
    try:
        expr = parse(text)
    except ExpressionError:
        return
    canonical = to_text(expr)
    with suppress(ExpressionError):
        evaluate(expr)
    assert to_text(parse(canonical)) == canonical


def _numbers() -> st.SearchStrategy[Expr]:
    whole = st.integers(0, 1000).map(lambda n: Num(Fraction(n)))
    decimal = st.tuples(st.integers(0, 999), st.integers(0, 3)).map(
        lambda t: Num(Fraction(t[0], 10 ** t[1]))
    )
    return st.one_of(whole, decimal)


def _extend(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
    ops = st.sampled_from(["+", "-", "*", "/"])
    return st.one_of(
        st.builds(BinOp, ops, children, children),
        st.builds(Neg, children),
        st.builds(Square, children),
        st.builds(Root, children),
    )


expressions_strategy = st.recursive(_numbers(), _extend, max_leaves=8)


def _value_or_code(expr: Expr) -> Fraction | str:
    try:
        return evaluate(expr)
    except ExpressionError as error:
        return error.code


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(expressions_strategy)
def test_well_formed_trees_round_trip(expr: Expr) -> None:
    """`to_text` prints what `parse` reads back to the same tree, value and text."""
    canonical = to_text(expr)
    assume(len(canonical) <= MAX_ANSWER_LENGTH)
    try:
        again = parse(canonical)
    except ExpressionError as error:
        # Only a power applied right to a power is refused; to_text never prints one.
        pytest.fail(f"{canonical!r} does not read back: {error.code}")
    assert again == expr
    assert to_text(again) == canonical
    assert _value_or_code(again) == _value_or_code(expr)


# --- judge: RULES.md §2.2 regn mode -------------------------------------------------------
# Every diagnosis code with its details has its own test in test_diagnosis.py; here the
# judge is checked over many spellings and shapes.


def verdict(text: str, cards: tuple[int, int], level: int) -> Verdict:
    """Judged in the `expression` answer form (levels 1–2 ask for the result whatever the form,
    so their cases below type it)."""
    return judge(text, cards, level, AnswerForm.EXPRESSION)


def shown(text: str) -> str:
    """What a result line shows for an accepted answer: the part before its value."""
    parts = [to_text(part) for part in parse_answer(text)]
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
        ("12/8", (6, 4), 3, Fraction(3, 2)),
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
    assert result.typed == " = ".join(to_text(part) for part in parse_answer(text))


@pytest.mark.parametrize(
    ("text", "cards", "level", "reason", "details"),
    [
        # wrong results at levels 1 and 2
        ("8", (3, 4), 1, "arithmetic_slip", {"expression": "3 + 4", "value": 7, "number": 8}),
        ("-1", (-3, 4), 1, "arithmetic_slip", {"value": 1, "number": -1}),
        ("7", (3, 4), 2, "operator_not_allowed", {"operator": "+", "expression": "3 + 4"}),
        ("12", (-3, 4), 2, "sign_slip", {"card": -3, "number": 3}),
        # the sign cases: card −3 is not card 3
        ("3 - 4", (-3, 4), 5, "sign_slip", {"number": 3, "card": -3}),
        ("3 - 4", (-3, 4), 4, "sign_slip", {}),
        ("4 - 3", (-3, 4), 4, "sign_slip", {}),
        ("-3/4", (3, 4), 3, "sign_slip", {"card": 3, "value": "\u22123/4"}),
        ("\u221a4+6", (-4, 6), 7, "sign_slip", {"number": 4, "card": -4}),
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
        ("\u221a-4+6", (4, 6), 7, "sign_slip", {"number": -4, "card": 4}),
        # division by zero is never legal
        ("6/0", (6, 0), 5, "division_by_zero", {}),
        ("6/0", (6, 0), 3, "division_by_zero", {}),
        ("0/0", (0, 0), 3, "division_by_zero", {}),
        ("7/0", (3, 4), 3, "division_by_zero", {}),
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
    assert result.text == result.typed == " = ".join(to_text(p) for p in parse_answer(text))


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
    """Every answer is either unreadable (an `Unreadable` code) or gets a verdict; an accepted
    value is one the cards can make, and a refusal has a `Reason`."""
    try:
        result = judge(text, cards, level, form)
    except ExpressionError as error:
        assert error.code in set(Unreadable)
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
