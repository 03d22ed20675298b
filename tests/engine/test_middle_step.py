"""The middle step after a round: where a square or a root was involved, the
result line shows the step between the expression and its value, as the rules page writes it:
``3² + (−2) = 9 − 2 = 7`` (RULES §2.2, levels 6–7)."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import steps
from engine.expressions import ROOT, SQUARE, evaluate, parse, to_text
from engine.solver import reachable
from engine.steps import middle_step


def test_doctests_pass() -> None:
    assert doctest.testmod(steps).failed == 0


@pytest.mark.parametrize(
    ("typed", "middle"),
    [
        ("3^2 + (-2)", "9 − 2"),  # the rules page's own example
        ("(-3)^2 - (-3)", "9 + 3"),  # minus a negative reads as plus
        ("3² · (−2)", "9 · (−2)"),  # a negative factor keeps its parentheses
        ("sqrt(9) : (-3)", "3 ÷ (−3)"),
        ("-3² + 4", "−9 + 4"),  # the sign in front of a square stays in front
        ("√4 − √9", "2 − 3"),
        ("5 - 2^2", "5 − 4"),
    ],
)
def test_the_middle_step_works_out_squares_and_roots(typed: str, middle: str) -> None:
    step = middle_step(parse(typed))
    assert step is not None and to_text(step) == middle
    assert evaluate(step) == evaluate(parse(typed))


@pytest.mark.parametrize("typed", ["4 * 6", "-3 - 4", "7/2", "6 : (-2)"])
def test_no_square_or_root_needs_no_middle_step(typed: str) -> None:
    assert middle_step(parse(typed)) is None


def test_a_root_of_a_non_square_has_no_middle_step() -> None:
    assert middle_step(parse("sqrt(5) + 1")) is None  # refused by the judge; nothing to show


@given(
    st.integers(-13, 13),
    st.integers(-13, 13),
    st.sampled_from([6, 7]),
)
def test_every_best_expression_keeps_its_value_through_the_middle_step(
    a: int, b: int, level: int
) -> None:
    """Every value the cards can make at levels 6–7: the middle step has the same value and
    no square or root left."""
    for value, text in reachable(a, b, level).items():
        step = middle_step(parse(text))
        if SQUARE in text or ROOT in text:
            assert step is not None
            assert evaluate(step) == value
            assert SQUARE not in to_text(step) and ROOT not in to_text(step)
        else:
            assert step is None
