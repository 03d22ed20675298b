"""Looking up a user-facing sentence in the pupil's language; no discord import.

Catalogues are flat JSON objects, one per language (``catalogues/nb.json`` …), mapping
dotted keys to ``str.format`` templates with named placeholders: ``"error.missing_permission":
"I need the permission **{permission}** in this channel."``. JSON rather than Python
modules because a catalogue is data: a teacher or translator can edit it without knowing
Python, translation tools (Weblate, Crowdin) read flat JSON as is, loading it runs no code,
and the package already ships ``*.json``.

English is the reference: every key exists in ``en.json``. A key missing from another
language falls back to English (logged once per key and language) so a pupil never sees a
crash; a key missing from English too is a bug and raises `MissingTranslationError`. The
catalogue tests keep all four languages on exactly the same keys and placeholders.

Norwegian has two written standards, bokmål (``nb``) and nynorsk (``nn``), and a school may
only use learning resources that come in both. Discord's one Norwegian locale (``no``) means
bokmål, and Discord has no nynorsk locale, so nynorsk is reached only by choosing it: the
server's language setting on Discord, the switch or the browser's ``nn`` on the table.

Key families (other engineers add keys; keep the prefix of the family):

* ``group.<path>.name|desc``, ``cmd.<path>.name|desc``, ``cmd.<path>.opt.<option>.desc``,
  ``opt.<option>.name|desc``, ``choice.<option>.<value>`` -- slash commands; see
  `bot.translator` for how the translator finds them.
* ``game.<game>.name|desc``, ``level.<n>.name|desc``, ``deck.<profile>.name|desc``,
  ``mode.<mode>.name|desc``, ``war_rule.<rule>.name``, ``computer.<strength>.name``.
* ``error.<what>`` -- the error ladder's sentences.
* ``answer.rejected.<code>`` -- one per engine answer-rejection code (`ExpressionError.code`).
* ``report.csv.<column>`` -- the teacher's spreadsheets' column names, in the screens' words.
* ``notation.division``, ``notation.decimal_mark`` -- how the language's schools write a
  division and a decimal (``:`` and ``,`` in nb, nn and sv): the screens and spreadsheets.
* ``<key>.one`` / ``<key>.other`` -- a sentence with a count in it, one key per plural form,
  its number in ``{count}``: ``t("invite.option.minutes", lang, count=n)`` picks the form.
"""

from __future__ import annotations

import json
import logging
import re
import string
from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Literal

from classroom.i18n.languages import LANGS, LANGUAGES, Lang, by_tag

log = logging.getLogger(__name__)

PluralForm = Literal["one", "other"]
PLURAL_FORMS: tuple[PluralForm, ...] = ("one", "other")
DEFAULT_LANG: Lang = "en"

# Discord locale codes (``no``, ``sv-SE``, ``en-US``, ``en-GB``) and browser language tags are
# read by their primary subtag (`classroom.i18n.languages`). ``no`` alone is bokmål (Discord's
# Norwegian, and what most browsers mean by it); a ``no`` tag that names nynorsk (``no-NN``,
# the old ``no-nyn``) is nynorsk.
_NYNORSK_SUBTAGS = frozenset({"nn", "nyn"})

_warned: set[tuple[str, str]] = set()


class MissingTranslationError(KeyError):
    """The key is in no catalogue, not even English: a typo or a forgotten key."""


@cache
def catalogue(lang: Lang) -> Mapping[str, str]:
    """The raw catalogue of one language (read-only), loaded once: ``<lang>.json`` plus every
    ``<area>.<lang>.json`` beside it (an area of the bot keeps its sentences in its own file,
    so two people adding keys never edit the same file). A key in two files is an error."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {LANGS}")
    folder = LANGUAGES[lang].folder or resources.files("classroom.i18n.catalogues")
    names = sorted(
        entry.name
        for entry in folder.iterdir()
        if entry.name == f"{lang}.json" or entry.name.endswith(f".{lang}.json")
    )
    merged: dict[str, str] = {}
    for name in names:
        data = json.loads(folder.joinpath(name).read_text("utf-8"))
        if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in data.items()
        ):
            raise ValueError(f"catalogue {name} must be one flat object of strings")
        clash = merged.keys() & data.keys()
        if clash:
            raise ValueError(f"catalogue {name} repeats keys: {sorted(clash)}")
        merged.update(data)
    return MappingProxyType(merged)


def template(key: str, lang: Lang) -> str:
    """The unformatted text for ``key`` in ``lang``, falling back to English."""
    text = catalogue(lang).get(key)
    if text is not None:
        return text
    english = catalogue(DEFAULT_LANG).get(key)
    if english is None:
        raise MissingTranslationError(key)
    if (lang, key) not in _warned:
        _warned.add((lang, key))
        log.warning("catalogue %s has no %r; using English", lang, key)
    return english


def t(key: str, lang: str, /, **values: object) -> str:
    """The sentence ``key`` in ``lang`` with its ``{placeholders}`` filled from ``values``.

    ``lang`` may be any spelling of a language (``nb``, ``no``, ``sv-SE``, ``en-GB``): stored
    settings and Discord locales reach here as plain strings, and a language we do not speak
    is English rather than an error in front of a pupil. A sentence with plural forms
    (``<key>.one``, ``<key>.other``) takes the form its ``count`` asks for, so every language
    words its own singular and a count of 1 never reads "1 minutes"."""
    code = lang_of(lang) or DEFAULT_LANG
    english = catalogue(DEFAULT_LANG)
    if key not in english and f"{key}.one" in english:
        count = values["count"]  # a counted sentence without its count is a bug, as any value
        if not isinstance(count, int):
            raise TypeError(f"{key} needs a whole count, not {count!r}")
        key = f"{key}.{plural_form(code, count)}"
    return template(key, code).format_map(values)


def option_name(option: str, lang: str) -> str:
    """A slash-command option as Discord shows it in ``lang`` (``level`` → ``nivå``), from
    its catalogue name: the shared ``opt.<option>.name``, else a command's own
    ``cmd.<path>.opt.<option>.name``. A sentence that names an option (``{option}``) must
    name it as the pupil sees it, never by the code's word for it; an unknown name (a
    forged option) is shown as it came."""
    key = _option_keys().get(option)
    return option if key is None else t(key, lang)


@cache
def _option_keys() -> Mapping[str, str]:
    keys: dict[str, str] = {}
    for key in sorted(catalogue(DEFAULT_LANG), reverse=True):  # opt.* after cmd.*: it wins
        found = re.fullmatch(r"(?:cmd\.[a-z0-9_.]+\.)?opt\.([a-z0-9_]+)\.name", key)
        if found is not None:
            keys[found.group(1)] = key
    return MappingProxyType(keys)


def is_key(key: str) -> bool:
    """Whether ``t`` knows ``key``: a sentence of the English catalogue, or one with plural
    forms (``key.one``, ``key.other``)."""
    english = catalogue(DEFAULT_LANG)
    return key in english or f"{key}.one" in english


def plural_form(lang: str, count: int) -> PluralForm:
    """The plural form a count takes: ``one`` for exactly 1, ``other`` for every other
    count (0 too). Bokmål, nynorsk, Swedish and English all count this way (CLDR: one is
    an integer 1), so "1 minutt / 2 minutter", "1 minut / 2 minuter", "1 minute / 2
    minutes"; a language with more forms would add them here."""
    del lang  # every language we speak has the same two forms
    return "one" if count == 1 else "other"


def placeholders(text: str) -> frozenset[str]:
    """The named placeholders of a template (``{symbol}`` → ``"symbol"``)."""
    return frozenset(
        field.split(".")[0].split("[")[0]
        for _, field, _, _ in string.Formatter().parse(text)
        if field is not None
    )


def lang_of(locale: object | None) -> Lang | None:
    """Our language for a Discord locale (``discord.Locale`` or its code), else None."""
    if locale is None:
        return None
    code = str(locale).strip().lower().replace("_", "-")
    primary, *rest = code.split("-")
    if primary == "no" and _NYNORSK_SUBTAGS.intersection(rest):
        return "nn"
    return by_tag(primary)


def pick_locale(interaction_locale: object | None, guild_locale: object | None = None) -> Lang:
    """The language to answer in: the user's own if we speak it, else the server's, else English.

    ``no`` → nb, ``sv-SE`` → sv, ``en-US``/``en-GB`` → en; a language we don't have (say
    ``de``) passes to the server's locale, so a German-language Discord in a Norwegian
    school server still gets Norwegian. A Norwegian Discord in a server whose language is
    nynorsk reads nynorsk: Discord's ``no`` names no written standard, so the class's
    choice says which one the pupil writes at school.
    """
    own, server = lang_of(interaction_locale), lang_of(guild_locale)
    if own == "nb" and server == "nn":
        return "nn"
    return own or server or DEFAULT_LANG
