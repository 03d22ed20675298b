"""The solver against brute force: every legal expression of RULES.md §2.2, as typed text."""

from __future__ import annotations

import doctest
from bisect import bisect_left
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from math import isqrt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import solver
from engine.cards import DeckProfile, profile_values
from engine.errors import ExpressionError
from engine.expressions import Num, evaluate, parse
from engine.judge import judge
from engine.levels import AnswerForm
from engine.solver import TARGETS, Play, best, distance, precompute, reachable

# Every ordered pair of card values any deck profile can deal (RULES.md §1.1).
PAIRS = sorted(
    {
        (a, b)
        for profile in DeckProfile
        for a in profile_values(profile)
        for b in profile_values(profile)
    }
)


def test_doctests_pass() -> None:
    assert doctest.testmod(solver).failed == 0


# --- brute force, written from the rule book and independent of the solver ------------------


def card_terms(card: int, level: int) -> Iterator[tuple[str, str]]:
    """(decoration, typed text) for one card: plain, squared (level 6+), rooted (level 7,
    perfect squares only: negative values never are)."""
    text = f"({card})"
    yield "plain", text
    if level >= 6:
        yield "square", f"{text}^2"
    if level >= 7 and card >= 0 and isqrt(card) ** 2 == card:
        yield "root", f"sqrt{text}"


LEVEL_RULES = {
    1: ("+", False),  # a + b
    2: ("*", False),  # a · b
    3: ("/", True),  # a ÷ b or b ÷ a
    4: ("-", True),  # a − b or b − a
    5: ("+-*/", True),
    6: ("+-*/", True),
    7: ("+-*/", True),
}


def legal_expressions(a: int, b: int, level: int) -> Iterator[tuple[str, int, int]]:
    """Every legal `x op y` of §2.2 as text, with its number of decorations and of roots."""
    ops, either_order = LEVEL_RULES[level]
    for x, y in [(a, b), (b, a)] if either_order else [(a, b)]:
        for x_kind, x_text in card_terms(x, level):
            for y_kind, y_text in card_terms(y, level):
                if x_kind == y_kind == "square":
                    continue  # at most one square
                kinds = (x_kind, y_kind)
                decorations = 2 - kinds.count("plain")
                for op in ops:
                    yield f"{x_text} {op} {y_text}", decorations, kinds.count("root")


@cache
def brute_force(a: int, b: int, level: int) -> dict[Fraction, tuple[int, int]]:
    """Each legal value with the fewest (decorations, roots) that give it."""
    found: dict[Fraction, tuple[int, int]] = {}
    for text, decorations, roots in legal_expressions(a, b, level):
        try:
            value = evaluate(parse(text))
        except ExpressionError as error:
            assert error.code == "division_by_zero", text  # never legal (§2.2)
            continue
        found[value] = min(found.get(value, (9, 9)), (decorations, roots))
    return found


def closest_distance(values: list[Fraction], target: int) -> Fraction | None:
    i = bisect_left(values, target)
    near = [abs(values[j] - target) for j in (i - 1, i) if 0 <= j < len(values)]
    return min(near) if near else None


def decorations_of(text: str) -> tuple[int, int]:
    roots = text.count("\u221a")
    return text.count("\u00b2") + roots, roots


def assert_is_legal_play(play: Play, a: int, b: int, level: int) -> None:
    """The shown play parses, uses exactly the two cards, is accepted with its value in every
    answer form (RULES §2.2: "the value, alone or after the expression that gives it")."""
    assert play.value is not None
    expr = parse(play.text)
    assert evaluate(expr) == play.value
    literals = sorted(node.value for node in _nums(expr))
    assert literals == sorted([Fraction(abs(a)), Fraction(abs(b))])
    for form in AnswerForm:
        verdict = judge(play.answer, (a, b), level, form)
        assert (verdict.reason, verdict.value, verdict.text) == (None, play.value, play.text)


def _nums(expr: object) -> Iterator[Num]:
    if isinstance(expr, Num):
        yield expr
        return
    for name in ("operand", "left", "right"):
        child = getattr(expr, name, None)
        if child is not None:
            yield from _nums(child)


# --- levels 1–4: highest value wins (§2.1) ----------------------------------------------


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_levels_1_to_4_match_brute_force_for_every_pair(level: int) -> None:
    """§2.2 levels 1–4 and §2.1 "the highest value wins", for every profile's pairs."""
    for a, b in PAIRS:
        expected = brute_force(a, b, level)
        assert set(reachable(a, b, level)) == set(expected), (a, b)
        play = best(a, b, level)
        if not expected:
            assert play == Play(None, "")
            continue
        assert play.value == max(expected)
        assert best(a, b, level, target=3) == play  # the target is ignored
        assert_is_legal_play(play, a, b, level)


def test_levels_1_and_2_have_exactly_one_value() -> None:
    for a, b in PAIRS:
        assert dict(reachable(a, b, 1)) == {Fraction(a + b): _plain(a, "+", b)}
        assert list(reachable(a, b, 2)) == [Fraction(a * b)]


def _plain(a: int, op: str, b: int) -> str:
    right = f"(\u2212{-b})" if b < 0 else str(b)
    return f"{a}".replace("-", "\u2212") + f" {op} {right}"


def test_level_3_division_by_zero_is_never_a_choice() -> None:
    """§2.2: division by zero is not legal; 0 and 0 at level 3 has no value."""
    assert dict(reachable(5, 0, 3)) == {Fraction(0): "0 \u00f7 5"}
    assert best(5, 0, 3) == Play(Fraction(0), "0 \u00f7 5")
    assert best(0, -5, 3) == Play(Fraction(0), "0 \u00f7 (\u22125)")
    assert dict(reachable(0, 0, 3)) == {}
    assert best(0, 0, 3) == Play(None, "")
    assert Fraction(0) in reachable(0, 0, 5)


# --- levels 5–7: closest to the target wins (§2.1, §2.5) --------------------------------


@pytest.mark.parametrize("level", [5, 6, 7])
def test_levels_5_to_7_match_brute_force_for_every_pair_and_target(level: int) -> None:
    """§2.2 levels 5–7 for every profile's pairs and every target −15…15 (§2.5)."""
    for a, b in PAIRS:
        expected = brute_force(a, b, level)
        table = reachable(a, b, level)
        assert set(table) == set(expected), (a, b)
        # the shown expression for each value is one with the fewest decorations
        for value, text in table.items():
            assert decorations_of(text) == expected[value], (a, b, text)
        values = sorted(expected)
        checked: set[Play] = set()
        for target in TARGETS:
            play = best(a, b, level, target)
            assert distance(play.value, target) == closest_distance(values, target)
            assert play.value is not None and play.text == table[play.value]
            if play not in checked:
                assert_is_legal_play(play, a, b, level)
                checked.add(play)


@settings(max_examples=150)
@given(
    st.integers(-200, 200),
    st.integers(-200, 200),
    st.integers(1, 7),
    st.integers(-10_000, 10_000),
)
def test_any_int_cards_and_targets_work(a: int, b: int, level: int, target: int) -> None:
    """Stacked test piles may hold any int; targets outside −15…15 use the bisect path."""
    expected = brute_force(a, b, level)
    assert set(reachable(a, b, level)) == set(expected)
    play = best(a, b, level, target)
    if not expected:
        assert play == Play(None, "")
        return
    if level <= 4:
        assert play.value == max(expected)
    else:
        assert distance(play.value, target) == closest_distance(sorted(expected), target)
    assert_is_legal_play(play, a, b, level)


@pytest.mark.parametrize(
    ("a", "b", "level", "target", "text"),
    [
        (2, 4, 5, 7, "2 + 4"),  # 6 and 8 are equally close: + before ·
        (4, 2, 5, 7, "4 + 2"),  # the cards' own order first
        (1, 2, 4, None, "2 \u2212 1"),  # only b − a gives the maximum
        (3, 3, 5, 0, "3 \u2212 3"),
        (3, 4, 6, 7, "3 + 4"),  # plain before any decoration
        (4, 0, 7, 2, "\u221a4 + 0"),  # the root is needed; + first
        (9, 4, 7, 5, "9 \u2212 4"),  # plain beats √9 + √4 = 5
        (3, 5, 6, 4, "3\u00b2 \u2212 5"),
        (3, 5, 6, -5, "5 \u2212 3\u00b2"),  # −4 (1 away) beats 3 − 5² = −22
        (-3, 4, 4, None, "4 \u2212 (\u22123)"),
        (-3, 4, 6, -5, "4 \u2212 (\u22123)\u00b2"),
        (4, 1, 7, 2, "\u221a4 \u00b7 1"),  # √4·1 = √4÷1 = 2: · before ÷
        (1, 4, 7, 16, "1 \u00b7 4\u00b2"),  # square before root, first operand first
    ],
)
def test_tie_break_is_documented_order(
    a: int, b: int, level: int, target: int | None, text: str
) -> None:
    """[decision] fewer decorations, then a op b before b op a, then + − · ÷."""
    assert best(a, b, level, target).text == text


def test_equal_distance_on_both_sides_takes_the_earlier_expression() -> None:
    # cards 2, 4 at target 7: 2 + 4 = 6 and 2 · 4 = 8 are both 1 away.
    assert best(2, 4, 5, 7).value == 6
    # at target 1000 only the largest value is closest: the bisect path agrees.
    assert best(2, 4, 5, 1000).value == 8
    assert best(2, 4, 5, -1000).value == -2


def test_level_5_to_7_need_a_target() -> None:
    with pytest.raises(ValueError):
        best(3, 4, 5)


def test_unknown_level_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        reachable(3, 4, 0)


def test_distance() -> None:
    assert distance(None, 3) is None
    assert distance(Fraction(7, 2), 3) == Fraction(1, 2)
    assert distance(Fraction(-2), 3) == 5


def test_precompute_makes_every_answer_a_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    values = profile_values(DeckProfile.HELTALL)
    precompute(values)

    def no_building(*args: object) -> object:
        raise AssertionError("computed after precompute")

    monkeypatch.setattr(solver, "_build", no_building)
    for a in values:
        for b in values:
            for level in range(1, 8):
                reachable(a, b, level)
                best(a, b, level, 0 if level >= 5 else None)
                if level >= 5:
                    for target in TARGETS:
                        best(a, b, level, target)


def test_reachable_is_read_only() -> None:
    table = reachable(3, 4, 5)
    with pytest.raises(TypeError):
        table[Fraction(99)] = "x"  # type: ignore[index]  # the write a Mapping forbids


def test_on_demand_tables_are_dropped_but_precomputed_ones_stay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    precompute([1, 2], levels=[5])
    monkeypatch.setattr(solver, "_CACHE_LIMIT", 3)
    for a in range(1000, 1010):
        best(a, a, 1)
    assert len(solver._TABLES) <= len(solver._PINNED) + 3
    assert (5, 1, 2) in solver._TABLES
    assert best(1009, 1009, 1) == Play(Fraction(2018), "1009 + 1009")
