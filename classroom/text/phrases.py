"""A game's words (`engine.facts.Phrase`) as a screen prints them: the catalogue sentence of
its key in the reader's language, its numbers with the true minus sign, its calculations in
the school's notation, its values exact (with the decimal of a fraction), its cards as cards,
and each side it names by that side's name."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from classroom.i18n import Lang, t
from classroom.text.cards import number_text
from classroom.text.notation import school_expression, school_value
from engine.facts import Calculation, Exact, Faces, Phrase, PhraseValue


def faces_text(values: tuple[int, ...]) -> str:
    """Cards as the lines write them: ``[ −3 ] [ 4 ]`` (a screen that draws the cards puts
    them in this text's place)."""
    return " ".join(f"[ {number_text(v)} ]" for v in values)


def value_text(value: PhraseValue, lang: Lang) -> str:
    if isinstance(value, Calculation):
        return school_expression(value, lang)
    if isinstance(value, str):
        return value
    if isinstance(value, Exact):
        return school_value(value.value, lang)
    if isinstance(value, Faces):
        return faces_text(value.values)
    if isinstance(value, int | Fraction):
        return number_text(value)
    raise TypeError(f"a phrase cannot say a {type(value).__name__}")


def phrase_text(phrase: Phrase, names: Mapping[int, str], lang: Lang) -> str:
    values = {key: value_text(value, lang) for key, value in phrase.values}
    return t(phrase.key, lang, **values, **{key: names[side] for key, side in phrase.sides})


def line_text(line: tuple[Phrase, ...], names: Mapping[int, str], lang: Lang) -> str:
    """One line of phrases, joined as the board joins a line's parts."""
    return " · ".join(phrase_text(phrase, names, lang) for phrase in line)
