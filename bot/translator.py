"""Slash-command names and descriptions in each language Discord has a locale for (Norwegian
and Swedish: `classroom.i18n.languages`), taken from the catalogues.

Install with ``await bot.tree.set_translator(MattekrigTranslator())`` before syncing.
Discord shows a command's default (English) text for every locale the translator answers
None for, so only the locales a language names are translated here and English is never
repeated.

How a string finds its catalogue key (first match wins):

1. An explicit key: ``locale_str("...", key="cmd.start.desc")``. `ls` builds one with its
   English text read from ``en.json``, so English lives in the catalogue too; `choice`
   builds a `Choice` the same way. Choices *need* this: discord.py does not tell the
   translator which option a choice belongs to.
2. Otherwise the key is derived from where the string sits. ``<path>`` is the qualified
   command name without the root group, dots for spaces (``/mattekrig start`` → ``start``;
   the root group itself keeps its name, ``mattekrig``):

   ============================  ====================================================
   group name / description      ``group.<path>.name`` / ``group.<path>.desc``
   command name / description    ``cmd.<path>.name`` / ``cmd.<path>.desc``
   option name / description     ``cmd.<path>.opt.<option>.name|desc`` if that key
                                 exists (a command-specific wording), else
                                 ``opt.<option>.name|desc`` (shared by every command)
   choice name                   ``choice.<option>.<value>`` (only via `choice`)
   ============================  ====================================================

A translation that breaks Discord's rules (names ``^[-_\\p{L}\\p{N}]{1,32}$`` and lowercase,
descriptions and choice names 1–100 characters) is dropped with an error log instead of
being sent: Discord refuses the whole command sync for one bad string. The catalogue tests
catch these before they ship.
"""

from __future__ import annotations

import logging
import unicodedata
from typing import TypeVar

from discord import Locale
from discord.app_commands import (
    Choice,
    Command,
    ContextMenu,
    Group,
    Parameter,
    TranslationContextLocation,
    TranslationContextTypes,
    Translator,
    locale_str,
)

from classroom.i18n import LANGS, Lang, catalogue, t
from classroom.i18n.languages import by_discord_locale

log = logging.getLogger(__name__)


def discord_lang(locale: Locale) -> Lang | None:
    """The language whose catalogue names the commands in a Discord locale (``no`` → nb,
    ``sv-SE`` → sv; `classroom.i18n.languages`), else None: Discord shows English."""
    return by_discord_locale(locale.value)


NAME_MAX = 32
DESCRIPTION_MAX = 100
CHOICE_NAME_MAX = 100

_L = TranslationContextLocation
_NAMES = {_L.group_name, _L.command_name, _L.parameter_name}
_SUFFIX = {
    _L.group_name: "name",
    _L.group_description: "desc",
    _L.command_name: "name",
    _L.command_description: "desc",
    _L.parameter_name: "name",
    _L.parameter_description: "desc",
}

ChoiceValue = TypeVar("ChoiceValue", str, int, float)


def is_valid_name(text: str) -> bool:
    """Discord's rule for command, group and option names (letters, digits, - and _)."""
    return 1 <= len(text) <= NAME_MAX and all(
        (char in "-_" or unicodedata.category(char)[0] in "LN") and char == char.lower()
        for char in text
    )


def ls(key: str) -> locale_str:
    """A `locale_str` with the English text of ``key`` and the key for the translator."""
    return locale_str(t(key, "en"), key=key)


def choice(option: str, value: ChoiceValue) -> Choice[ChoiceValue]:
    """The choice ``value`` of ``option``, labelled from ``choice.<option>.<value>``."""
    return Choice(name=ls(f"choice.{option}.{value}"), value=value)


def _path(qualified_name: str) -> str:
    parts = qualified_name.split()
    return ".".join(parts[1:] or parts)


def context_key(context: TranslationContextTypes) -> str | None:
    """The catalogue key derived from where a string sits (None for choices and others)."""
    data: object = context.data
    suffix = _SUFFIX.get(context.location)
    if suffix is None:
        return None
    if isinstance(data, Group):
        return f"group.{_path(data.qualified_name)}.{suffix}"
    if isinstance(data, Command | ContextMenu):
        return f"cmd.{_path(data.qualified_name)}.{suffix}"
    if isinstance(data, Parameter):
        specific = f"cmd.{_path(data.command.qualified_name)}.opt.{data.name}.{suffix}"
        return specific if specific in catalogue("en") else f"opt.{data.name}.{suffix}"
    return None


def _fits(context: TranslationContextTypes, text: str) -> bool:
    if context.location in _NAMES and not isinstance(context.data, ContextMenu):
        return is_valid_name(text)
    limit = CHOICE_NAME_MAX if context.location is _L.choice_name else DESCRIPTION_MAX
    return 1 <= len(text) <= limit


class MattekrigTranslator(Translator):
    """Answers each Discord locale a language names (``no``, ``sv-SE``) with its catalogue."""

    def __init__(self) -> None:
        self._reported: set[tuple[str, str]] = set()

    async def load(self) -> None:
        for lang in LANGS:  # a broken catalogue should stop start-up, not the first sync
            catalogue(lang)

    async def translate(
        self, string: locale_str, locale: Locale, context: TranslationContextTypes
    ) -> str | None:
        lang = discord_lang(locale)
        if lang is None:
            return None
        key = string.extras.get("key") or context_key(context)
        if not isinstance(key, str):
            self._report_once(lang, repr(string.message), "has no catalogue key")
            return None
        text = catalogue(lang).get(key)
        if text is None:
            self._report_once(lang, key, "is missing")
            return None
        if not _fits(context, text):
            self._report_once(lang, key, f"breaks Discord's rules for {context.location.name}")
            return None
        return text

    def _report_once(self, lang: str, key: str, problem: str) -> None:
        if (lang, key) not in self._reported:
            self._reported.add((lang, key))
            log.error(
                "command translation %s in %s %s; Discord will show English", key, lang, problem
            )
