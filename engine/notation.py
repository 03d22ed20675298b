"""School notation, read as the expression grammar reads it (RULES.md §2.6, "School notation is
read").

Pupils write what their exercise books write: a mixed number (``1 1/2``), a fraction
character (``½``), a product by juxtaposition (``3(-4)``), a number ending in a full stop
(``7.``), a division with a remainder (``2 rest 1``). The grammar of `engine.expressions`
stays strict (its decisions are its own); this module rewrites the school forms into it before
an answer is parsed, part by part between the ``=`` signs, and finds a remainder, which is no
value and is refused with how to write it.

Decisions where the rule book is silent:

* A mixed number is a whole number, spaces, then a fraction ``p/q`` with p < q (``1 1/2``,
  ``2 ¾``); ``1 3/2`` is left alone (and stays unreadable). Typed alone it becomes the
  fraction ``3/2`` (so a number is still a number); inside an expression, ``(3/2)``.
* A juxtaposed product is a number, a closing bracket or a square right before an opening
  bracket or a root: ``3(-4)``, ``(-3)(4)``, ``2√9``. Two numbers side by side (``2 3``) are
  still no product.
* A trailing full stop is a decimal point with nothing after it: ``7.`` is 7. A trailing comma
  is not read (it can be a list).
* A remainder is a whole number, a remainder word (``rest``, ``r``, ``rem``, ``remainder``,
  any case), a whole number: ``2 rest 1``, ``2r1``, ``6:4=1 rest 2``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from math import gcd
from types import MappingProxyType

__all__ = ["Remainder", "remainder", "school_text", "unsimplified"]

_FRACTION_CHARACTERS: Mapping[str, str] = MappingProxyType(
    {
        "\u00bd": "1/2",
        "\u2153": "1/3",
        "\u2154": "2/3",
        "\u00bc": "1/4",
        "\u00be": "3/4",
        "\u2155": "1/5",
        "\u2156": "2/5",
        "\u2157": "3/5",
        "\u2158": "4/5",
        "\u2159": "1/6",
        "\u215a": "5/6",
        "\u2150": "1/7",
        "\u215b": "1/8",
        "\u215c": "3/8",
        "\u215d": "5/8",
        "\u215e": "7/8",
        "\u2151": "1/9",
        "\u2152": "1/10",
    }
)
_FRACTION_SLASH = "\u2044"
_SIGN = "[+\\-\u2212\u2013]"
_MIXED = re.compile(r"(?<![\d.,/)\]])(\d+)\s+(\d+)\s*/\s*(\d+)(?![\d.,])")
_MIXED_ALONE = re.compile(rf"\s*(?:{_SIGN}\s*)?(\d+)\s+(\d+)\s*/\s*(\d+)\s*")
_TRAILING_POINT = re.compile(r"(?<=\d)\.(?![\d])")
_JUXTAPOSED = re.compile(r"(?<=[\d)\]\u00b2])\s*(?=[(\[\u221a]|sqrt|rot)", re.IGNORECASE)
_REMAINDER = re.compile(
    rf"\s*(?P<sign>{_SIGN})?\s*(?P<quotient>\d+)\s*(?:rest|remainder|rem|r)\s*(?P<rest>\d+)\s*",
    re.IGNORECASE,
)
# Whether an answer may hold a school form at all: most answers hold none and are left alone.
_ANY_SCHOOL_FORM = re.compile(
    "[" + "".join(_FRACTION_CHARACTERS) + _FRACTION_SLASH + r"]|\d\s+\d+\s*/|\d\.(?!\d)"
    r"|[\d)\]\u00b2]\s*(?:[(\[\u221a]|sqrt|rot)",
    re.IGNORECASE,
)
_UNSIMPLIFIED = re.compile(rf"\s*(?P<sign>{_SIGN})?\s*(?P<top>\d+)\s*/\s*(?P<bottom>\d+)\s*")


def _characters(text: str) -> str:
    """``½`` is ``1/2``; right after a digit it is the fraction of a mixed number (``1½``)."""
    if not any(ch in _FRACTION_CHARACTERS or ch == _FRACTION_SLASH for ch in text):
        return text
    out: list[str] = []
    for ch in text.replace(_FRACTION_SLASH, "/"):
        fraction = _FRACTION_CHARACTERS.get(ch)
        if fraction is None:
            out.append(ch)
        elif out and out[-1].isdigit():
            out.append(" " + fraction)
        else:
            out.append(fraction)
    return "".join(out)


def _mixed(part: str) -> str:
    def improper(match: re.Match[str], alone: bool) -> str:
        whole, top, bottom = (int(match[i]) for i in (1, 2, 3))
        if not 0 < top < bottom:
            return match[0]
        fraction = f"{whole * bottom + top}/{bottom}"
        return fraction if alone else f"({fraction})"

    if _MIXED_ALONE.fullmatch(part):
        return _MIXED.sub(lambda m: improper(m, True), part)
    return _MIXED.sub(lambda m: improper(m, False), part)


def school_text(text: str) -> str:
    """The answer with its school forms written in the grammar's own (module doc).

    >>> school_text("1 1/2")
    '3/2'
    >>> school_text("3(-4)=-12.")
    '3*(-4)=-12'
    """
    if _ANY_SCHOOL_FORM.search(text) is None:
        return text
    parts = _characters(text).split("=")
    read = []
    for part in parts:
        part = _mixed(part)
        part = _TRAILING_POINT.sub("", part)
        part = _JUXTAPOSED.sub("*", part)
        read.append(part)
    return "=".join(read)


@dataclass(frozen=True, slots=True)
class Remainder:
    """A division written with its remainder: ``2 rest 1`` is quotient 2, remainder 1."""

    text: str
    quotient: int
    rest: int


def remainder(text: str) -> Remainder | None:
    """The first part of the answer that is a quotient with a remainder, or None.

    >>> remainder("6:4=1 rest 2")
    Remainder(text='1 rest 2', quotient=1, rest=2)
    """
    if "r" not in text and "R" not in text:
        return None
    for part in text.split("="):
        match = _REMAINDER.fullmatch(part)
        if match is not None:
            sign = -1 if match["sign"] not in (None, "+") else 1
            shown = " ".join(part.split())
            return Remainder(shown, sign * int(match["quotient"]), int(match["rest"]))
    return None


def unsimplified(part: str) -> str | None:
    """A fraction of two whole numbers that is not in lowest terms (``12/8``, ``-6/3``,
    ``6/1``), as the pupil should see it (``12/8``), or None. Only the slash writes a
    fraction (``:`` and ``÷`` divide), and its sign stands in front."""
    match = _UNSIMPLIFIED.fullmatch(part)
    if match is None:
        return None
    top, bottom = int(match["top"]), int(match["bottom"])
    if bottom == 0 or (gcd(top, bottom) == 1 and bottom > 1):
        return None
    sign = "-" if match["sign"] not in (None, "+") else ""
    return f"{sign}{top}/{bottom}"
