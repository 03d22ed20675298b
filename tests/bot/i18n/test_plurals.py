"""Counts read right in every language: "1 minute / 2 minutes", never "1 minutes".

A sentence with a count has one catalogue key per plural form (``<key>.one``, ``<key>.other``),
and `t` picks the form its ``count`` asks for. Every catalogue string is run through its
placeholders with the numbers 1 and 2 (a ``.one`` form only with 1, an ``.other`` form only
with 2, as `t` chooses them) and read for a count beside the wrong form of its noun.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest

from classroom.i18n import LANGS, PLURAL_FORMS, catalogue, placeholders, plural_form, t

# Nouns whose singular and plural differ, in each language: (singular, plural). A compound
# counts as its last word ("best moves", "prosentpoeng").
NOUNS: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (
        ("minute", "minutes"),
        ("second", "seconds"),
        ("round", "rounds"),
        ("card", "cards"),
        ("game", "games"),
        ("answer", "answers"),
        ("pupil", "pupils"),
        ("time", "times"),
        ("point", "points"),
        ("character", "characters"),
        ("day", "days"),
        ("move", "moves"),
        ("player", "players"),
        ("hit", "hits"),
        ("mistake", "mistakes"),
    ),
    "nb": (
        ("minutt", "minutter"),
        ("sekund", "sekunder"),
        ("runde", "runder"),
        ("gang", "ganger"),
        ("elev", "elever"),
        ("dag", "dager"),
        ("spiller", "spillere"),
        ("fulltreffer", "fulltreffere"),
        ("feil", "feil"),
    ),
    "nn": (
        ("runde", "rundar"),
        ("gong", "gonger"),
        ("elev", "elevar"),
        ("dag", "dagar"),
        ("spelar", "spelarar"),
    ),
    "sv": (
        ("minut", "minuter"),
        ("sekund", "sekunder"),
        ("omgång", "omgångar"),
        ("gång", "gånger"),
        ("elev", "elever"),
        ("dag", "dagar"),
        ("fullträff", "fullträffar"),
        ("spelare", "spelare"),
    ),
}
# Words that may stand between a count and its noun ("1 exact hits").
BETWEEN: dict[str, str] = {
    "en": "exact|best|percentage|more|new|extra",
    "nb": "beste|nye|ekstra",
    "nn": "beste|nye|ekstra",
    "sv": "bästa|nya|extra",
}
# Placeholders that hold words, not counts: filled as the renderers fill them.
WORDS = {"percent": "50 %", "card": "left", "reason": "Try again."}
ONE_OR_OTHER = re.compile(r"\.(one|other)$")


def _wrong_forms(text: str, lang: str, number: int) -> list[str]:
    """Where ``number`` stands before the form of a noun it does not take (an adjective may
    stand between: "1 exact hits")."""
    plain = text.replace("*", "")
    found = []
    for singular, plural in NOUNS[lang]:
        if singular == plural:
            continue
        wrong = plural if number == 1 else singular
        pattern = rf"(?<![\d,.]){number} (?:(?:{BETWEEN[lang]}) )?{wrong}\b"
        found += [m.group(0) for m in re.finditer(pattern, plain, re.IGNORECASE)]
    return found


def _plural_stems(texts: Mapping[str, str]) -> set[str]:
    """The sentences `t` picks a plural form of: those with a ``.one`` form (a key such as
    ``advice.other``, the advice for the mistake kind "other", is a sentence of its own)."""
    return {key.removesuffix(".one") for key in texts if key.endswith(".one")}


def _numbers_chosen(key: str, stems: set[str]) -> tuple[int, ...]:
    """The numbers `t` can give a key: a ``.one`` form only 1, an ``.other`` form never 1."""
    form = ONE_OR_OTHER.search(key)
    if form is None or key[: form.start()] not in stems:
        return (1, 2)
    return (1,) if form.group(1) == "one" else (2,)


@pytest.mark.parametrize("lang", LANGS)
def test_no_count_stands_beside_the_wrong_form_of_its_noun(lang: str) -> None:
    wrong: dict[str, list[str]] = {}
    texts = catalogue(lang)
    stems = _plural_stems(texts)
    for key, text in texts.items():
        for number in _numbers_chosen(key, stems):
            values = {name: WORDS.get(name, number) for name in placeholders(text)}
            filled = text.format_map(values)
            if found := _wrong_forms(filled, lang, number):
                wrong[f"{key} ({number})"] = found
    assert wrong == {}


@pytest.mark.parametrize(
    ("lang", "text", "number", "found"),
    [
        ("en", "Time limit: 1 minutes", 1, True),
        ("nb", "Tidsgrense: 1 minutter", 1, True),
        ("sv", "Tidsgräns: 1 minuter", 1, True),
        ("nn", "⭐ 1 av 1 rundar", 1, True),
        ("en", "**1** exact hits", 1, True),
        ("en", "2 card", 2, True),
        ("nb", "om 2 sekund", 2, True),
        ("en", "Time limit: 1 minute", 1, False),
        ("en", "21 minutes", 1, False),
        ("nb", "1,5 minutter", 1, False),
        ("sv", "2 minuter", 2, False),
    ],
)
def test_the_reader_finds_a_wrong_form(lang: str, text: str, number: int, found: bool) -> None:
    """The check above can fail: it finds each wrong example, and nothing in the right ones."""
    assert bool(_wrong_forms(text, lang, number)) is found


def test_every_counted_sentence_has_each_plural_form_with_the_same_placeholders() -> None:
    for lang in LANGS:
        texts = catalogue(lang)
        stems = _plural_stems(texts)
        assert len(stems) >= 10
        for stem in stems:
            assert stem not in texts, (lang, stem)  # `t` would never pick a form
            forms = [f"{stem}.{form}" for form in PLURAL_FORMS]
            assert all(key in texts for key in forms), (lang, stem)
            assert len({placeholders(texts[key]) for key in forms}) == 1, (lang, stem)


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("nb", "Tidsgrense: 1 minutt", "Tidsgrense: 2 minutter"),
        ("nn", "Tidsgrense: 1 minutt", "Tidsgrense: 2 minutt"),
        ("sv", "Tidsgräns: 1 minut", "Tidsgräns: 2 minuter"),
        ("en", "Time limit: 1 minute", "Time limit: 2 minutes"),
    ],
)
def test_a_count_picks_its_form(lang: str, one: str, two: str) -> None:
    assert t("invite.option.minutes", lang, count=1) == one
    assert t("invite.option.minutes", lang, count=2) == two
    assert plural_form(lang, 0) == plural_form(lang, 2) == "other"
    assert plural_form(lang, 1) == "one"


def test_a_counted_sentence_needs_its_whole_count() -> None:
    with pytest.raises(KeyError):
        t("invite.option.minutes", "en", minutes=5)  # the count is named `count`
    with pytest.raises(TypeError):
        t("invite.option.minutes", "en", count="5")
