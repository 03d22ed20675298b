"""School notation: how each language's classrooms write what the engine computes.

The engine prints one canonical form (``6 ÷ (−2)``, decimal comma). Norwegian and Swedish
schools write division as ``:`` (and ÷ can read as a minus sign there), English ones as ÷;
English writes a decimal point, Norwegian and Swedish a decimal comma; both signs are the
catalogue's (``notation.division``, ``notation.decimal_mark``). A value that is not whole is
shown as the exact fraction with its decimal beside it (``7/2 = 3,5``, or
``10/3 ≈ 3,33`` when the decimal never ends), so a ten-year-old can place it on the number
line without losing the exact value the game compares.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache

from classroom.i18n import Lang, t
from classroom.text.cards import MINUS, number_text
from classroom.text.locale import as_lang

DIVIDE = "\u00f7"
_ENGINE_DECIMAL = re.compile(r"(?<=\d),(?=\d)")  # the engine's decimal comma inside a number
_PLACES = 2  # a decimal that never ends is rounded to this many places


@cache
def _signs(lang: Lang) -> tuple[str, str]:
    """The language's division sign and decimal mark (``:`` and ``,`` in nb, nn and sv; ``÷``
    and ``.`` in en), read once: the catalogues do not change while the bot runs, and every
    number on a board passes here."""
    return t("notation.division", lang), t("notation.decimal_mark", lang)


def _expression(text: str, lang: Lang) -> str:
    division, mark = _signs(lang)
    return _ENGINE_DECIMAL.sub(mark, text.replace(DIVIDE, division))


def decimal_mark(lang: str) -> str:
    """The language's decimal mark (``,`` in nb, nn and sv; ``.`` in en)."""
    return _signs(as_lang(lang))[1]


def _decimal(value: Fraction, lang: Lang) -> tuple[str, bool]:
    """The decimal of a value and whether it is exact (a decimal that ends within 2 places)."""
    scaled = value * 10**_PLACES
    exact = scaled.denominator == 1
    rounded = round(abs(scaled))
    whole, part = divmod(rounded, 10**_PLACES)
    digits = f"{part:0{_PLACES}d}".rstrip("0") if exact else f"{part:0{_PLACES}d}"
    text = str(whole) + (decimal_mark(lang) + digits if digits else "")
    return (MINUS + text if value < 0 and rounded else text), exact


def _value(value: Fraction | int, lang: Lang) -> str:
    value = Fraction(value)
    exact = number_text(value)
    if value.denominator == 1:
        return exact
    decimal, ends = _decimal(value, lang)
    return f"{exact} {'=' if ends else '≈'} {decimal}"


def school_expression(text: str, lang: str) -> str:
    """An engine expression as the language's schools write it: ``6 ÷ (−2)`` → ``6 : (−2)``
    in nb and sv; ``1,5`` → ``1.5`` in en."""
    return _expression(text, as_lang(lang))


def school_value(value: Fraction | int, lang: str) -> str:
    """A value: whole as it is (``−3``), else the fraction with its decimal (``7/2 = 3,5``)."""
    return _value(value, as_lang(lang))


def seconds_text(ms: int, lang: str) -> str:
    """A time in seconds as a pupil reads it: whole from 10 s (``12``), else with one decimal
    in the language's mark (``4,5``; en ``4.5``)."""
    tenths = round(ms / 100)
    whole, tenth = divmod(tenths, 10)
    if whole >= 10 or not tenth:
        return str(round(ms / 1000))
    return f"{whole}{decimal_mark(lang)}{tenth}"
