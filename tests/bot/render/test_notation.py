"""School notation: nb and sv write division as ``:``, en as ÷; a value
that is not whole is the fraction with the language's decimal beside it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from classroom.text.notation import school_expression, school_value, seconds_text


@pytest.mark.parametrize(
    ("lang", "shown"),
    [("nb", "6 : (−2)"), ("sv", "6 : (−2)"), ("en", "6 ÷ (−2)")],
)
def test_division_is_written_as_each_school_writes_it(lang: str, shown: str) -> None:
    assert school_expression("6 ÷ (−2)", lang) == shown


@pytest.mark.parametrize(
    ("lang", "shown"), [("nb", "1,5 + 2"), ("sv", "1,5 + 2"), ("en", "1.5 + 2")]
)
def test_the_decimal_mark_is_the_languages(lang: str, shown: str) -> None:
    assert school_expression("1,5 + 2", lang) == shown


@pytest.mark.parametrize(
    ("value", "lang", "shown"),
    [
        (Fraction(7, 2), "nb", "7/2 = 3,5"),
        (Fraction(7, 2), "en", "7/2 = 3.5"),
        (Fraction(-7, 4), "sv", "−7/4 = −1,75"),
        (Fraction(10, 3), "nb", "10/3 ≈ 3,33"),
        (Fraction(-1, 3), "en", "−1/3 ≈ −0.33"),
        (Fraction(-3), "nb", "−3"),
        (12, "en", "12"),
    ],
)
def test_a_value_that_is_not_whole_shows_its_decimal(
    value: Fraction | int, lang: str, shown: str
) -> None:
    assert school_value(value, lang) == shown


def test_seconds_to_answer_read_as_a_pupil_reads_them() -> None:
    assert seconds_text(4_500, "nb") == "4,5" and seconds_text(4_500, "en") == "4.5"
    assert seconds_text(4_000, "sv") == "4" and seconds_text(12_400, "nb") == "12"
