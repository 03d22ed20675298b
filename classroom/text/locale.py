"""The board's language as the renderers need it.

Callers hold languages in several spellings (``GameSettings.locale`` is whatever the starter's
client sent, a Discord locale such as ``no`` or ``sv-SE``, or already ``nb``), so every public
renderer takes a plain string and reads it through `as_lang`: anything we do not speak is
English rather than an exception in the middle of a game.
"""

from __future__ import annotations

from classroom.i18n import DEFAULT_LANG, Lang, lang_of


def as_lang(lang: str) -> Lang:
    """``nb``/``no``/``nb-NO`` → nb, ``sv``/``sv-SE`` → sv, ``en-GB`` → en, anything else → en."""
    return lang_of(lang) or DEFAULT_LANG
