"""The names pupils give themselves: what a lesson accepts, so that a name on the projector is
the pupil's own and cannot pose as somebody else's.

A name is normalised (NFKC: a full-width "Ａｄａ" is "Ada", "ﬁ" is "fi") and its spaces folded,
then refused, each with its own sentence, when it

* holds an invisible or formatting character (a zero-width space, a byte order mark, a soft
  hyphen, a direction override, a Hangul filler …): two names that look alike but differ;
  the joiners and variation selectors of an emoji sequence are fine;
* stacks more than two combining marks on one letter (a name that smears over its
  neighbours; "ệ" has two and is fine);
* looks like a name already in the lesson: the same Unicode TR39 skeleton (a Cyrillic "а"
  for a Latin "a", "rn" for "m", upper or lower case alike);
* is one the product uses itself: the computer's labels and the word for the teacher, in
  every language.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from classroom.i18n import LANGS, t
from classroom.text.naming import computer_name
from table.press import Refused
from table.setup import MAX_NAME

MAX_MARKS = 2  # combining marks on one letter ("ệ": a dot below and a circumflex)
# Emoji sequences are made of these (👩‍👩‍👧, ❤️, 🏴 with its tags): allowed after a symbol.
_EMOJI_JOINERS = frozenset("\u200d\ufe0e\ufe0f") | frozenset(map(chr, range(0xE0020, 0xE0080)))
# Characters that draw nothing though Unicode does not file them as formatting (Unicode's
# Default_Ignorable_Code_Point letters and marks, and the blank braille pattern).
_BLANKS = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f\u2800\u3164\uffa0"
) | frozenset(map(chr, [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]))
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
# Control characters and direction overrides (a name that turns the projector's text
# backwards) are not a name at all: refused as one of the wrong length or letters.
_DIRECTION_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                                "\u2066\u2067\u2068\u2069")  # fmt: skip


def clean_name(text: str) -> str:
    """A name as typed, normalised (NFKC) with its spaces folded."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _invisible(name: str) -> bool:
    before = ""
    for char in name:
        if char in _EMOJI_JOINERS:
            if not before or unicodedata.category(before) not in ("So", "Sk"):
                return True
            continue  # `before` stays the symbol the sequence is built on
        if char in _BLANKS or unicodedata.category(char) in _INVISIBLE_CATEGORIES:
            return True
        before = char
    return False


def _stacked(name: str) -> bool:
    """More than `MAX_MARKS` combining marks on one letter (counted in NFD)."""
    run = 0
    for char in unicodedata.normalize("NFD", name):
        if unicodedata.category(char).startswith("M") and char not in _EMOJI_JOINERS:
            run += 1
            if run > MAX_MARKS:
                return True
        else:
            run = 0
    return False


@functools.cache
def _prototypes() -> dict[str, str]:
    """Unicode's confusables (TR39) as each character's prototype, from the data that
    confusable-homoglyphs ships. Its file lists, for each character, the characters it is
    confused with both ways; a prototype never maps on (TR39), so a character listing one
    other character whose own list is longer (or that is a sequence, like "rn") maps to it,
    and a pair maps to its smaller member."""
    from confusable_homoglyphs import utils

    data: dict[str, list[dict[str, str]]] = utils.load("confusables.json")
    out: dict[str, str] = {}

    def plain(text: str) -> str:
        return "".join(c for c in text if unicodedata.category(c) != "Cf")

    for char, others in data.items():
        if len(char) != 1 or len(others) != 1:
            continue
        other = plain(others[0]["c"])
        if not other or other == char:
            continue
        if len(other) > 1 or len(data.get(other, ())) > 1 or other < char:
            out[char] = other
    return out


def skeleton(name: str) -> str:
    """What a name looks like (TR39's skeleton, case folded): two names with the same
    skeleton can be told apart by nobody at the back of the classroom."""

    def mapped(text: str) -> str:
        mapping = _prototypes()
        text = unicodedata.normalize("NFD", text)
        return "".join(mapping.get(c, c) for c in text if c not in _EMOJI_JOINERS)

    # As typed first ("Ida" with a capital i looks like "lda" with a small L), then case
    # folded and once more (a capital look-alike folds to a small one).
    return unicodedata.normalize("NFD", mapped(mapped(clean_name(name)).casefold()))


def _letters(name: str) -> str:
    """A name's skeleton without what is not a letter or digit (its emoji, brackets, spaces)."""
    return "".join(c for c in skeleton(name) if c.isalnum())


@functools.cache
def _reserved() -> frozenset[str]:
    """The names the product itself shows, as `_letters` reads them: the computer with and
    without its strength, and the teacher, in every language."""
    names = [
        computer_name(strength, lang)
        for lang in LANGS
        for strength in (None, "easy", "medium", "hard")
    ]
    names += [t(key, lang) for lang in LANGS for key in ("computer.name", "lesson.name.teacher")]
    names += ["Teacher", "Lærer", "Lærar", "Lärare"]  # whatever the catalogues say
    return frozenset(_letters(n) for n in names)


def check_name(text: str, taken: Iterable[str]) -> str:
    """The name a pupil typed, cleaned, or a refusal in words (`taken`: the names of the
    lesson's seats)."""
    name = clean_name(text)
    if not 1 <= len(name) <= MAX_NAME or any(
        unicodedata.category(c) == "Cc" or c in _DIRECTION_CONTROLS for c in name
    ):
        raise Refused("lesson.error.name", count=MAX_NAME)
    if _invisible(name):
        raise Refused("lesson.error.name_invisible")
    if _stacked(name):
        raise Refused("lesson.error.name_marks")
    if _letters(name) in _reserved():
        raise Refused("lesson.error.name_reserved", name=name)
    mine = skeleton(name)
    for other in taken:
        if other.casefold() == name.casefold():
            raise Refused("lesson.error.name_taken", name=name)
        if skeleton(other) == mine:
            raise Refused("lesson.error.name_lookalike", name=other)
    return name
