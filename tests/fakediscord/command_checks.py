"""The command tree a bot syncs, checked as Discord checks it (400 50035 on the PUT/POST).

Names (Discord's regex, lower case where a letter has one), description lengths, localisation
keys from Discord's locale list only, required options before optional ones, at most 25
options and choices, names unique within their list and across each locale, and the budget of
8,000 characters a slash command may use. The numbers come from :data:`.limits.LIMITS`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from .limits import (
    AUTOCOMPLETE_CHOICES_MAX,
    CHOICE_TEXT_MAX,
    COMMAND_CHARACTERS_MAX,
    COMMAND_CHOICES_MAX,
    COMMAND_DESCRIPTION_MAX,
    COMMAND_NAME_MAX,
    COMMAND_OPTIONS_MAX,
    COMMANDS_MAX,
    DISCORD_LOCALES,
)
from .problems import Path, Problems, as_dict, as_list

CHAT_INPUT = 1
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3


def _name_character(ch: str) -> bool:
    """One character of ``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]$``: Python's ``re`` has no
    ``\\p``, so letters and numbers by Unicode category, the two scripts by character name."""
    if ch in "-_'":
        return True
    if unicodedata.category(ch)[0] in "LN":
        return True
    name = unicodedata.name(ch, "")
    return name.startswith(("DEVANAGARI", "THAI"))


def valid_name(name: Any, *, chat_input: bool) -> bool:
    """A command or option name Discord accepts (context-menu commands: any 1–32 characters)."""
    if not isinstance(name, str) or not 1 <= len(name) <= COMMAND_NAME_MAX:
        return False
    if not chat_input:
        return True
    # "If there is a lowercase variant of any letters used, you must use those."
    return name == name.lower() and all(_name_character(ch) for ch in name)


def _check_localisations(value: Any, problems: Problems, path: Path, *, name: bool) -> None:
    for locale, text in as_dict(value).items():
        if locale not in DISCORD_LOCALES:
            problems.add((*path, locale), "LOCALE_INVALID", f"Invalid locale {locale!r}.")
        elif name and not valid_name(text, chat_input=True):
            problems.add(
                (*path, locale), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"
            )
        elif not name:
            problems.length((*path, locale), text, 1, COMMAND_DESCRIPTION_MAX)


def check_commands(commands: Sequence[Any], problems: Problems) -> None:
    """A bulk overwrite: at most 100 commands, unique names per type, each command valid."""
    problems.count((), commands, 0, COMMANDS_MAX)
    seen: set[tuple[Any, Any]] = set()
    for index, raw in enumerate(commands):
        command = as_dict(raw)
        key = (command.get("type", CHAT_INPUT), command.get("name"))
        if key in seen:
            problems.add(
                (index, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique ({command.get('name')!r})",
            )
        seen.add(key)
        check_command(command, problems, (index,))


def check_command(command: Mapping[str, Any], problems: Problems, path: Path) -> None:
    """One command: its own fields, its option tree, and (slash commands) its size."""
    chat_input = command.get("type", CHAT_INPUT) == CHAT_INPUT
    if not valid_name(command.get("name"), chat_input=chat_input):
        problems.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    _check_localisations(
        command.get("name_localizations"), problems, (*path, "name_localizations"), name=True
    )
    if chat_input:
        _check_description(command, problems, path)
        _check_options(as_list(command.get("options")), problems, path, depth=0)
        _check_locale_names(command, problems, path)
        size = _size(command)
        if size > COMMAND_CHARACTERS_MAX:
            problems.add(
                path,
                "APPLICATION_COMMAND_TOO_LARGE",
                f"Command exceeds maximum size ({COMMAND_CHARACTERS_MAX}): {size} characters.",
            )


def _check_description(node: Mapping[str, Any], problems: Problems, path: Path) -> None:
    problems.length((*path, "description"), node.get("description"), 1, COMMAND_DESCRIPTION_MAX)
    _check_localisations(
        node.get("description_localizations"),
        problems,
        (*path, "description_localizations"),
        name=False,
    )


def _check_options(options: list[Any], problems: Problems, path: Path, *, depth: int) -> None:
    """One list of options: ≤ 25, unique names, required before optional, subcommands not
    mixed with values, groups holding subcommands only, each option's own fields."""
    at = (*path, "options")
    problems.count(at, options, 0, COMMAND_OPTIONS_MAX)
    names: set[Any] = set()
    optional_seen = False
    kinds = [as_dict(raw).get("type") for raw in options]
    nested = [kind in (SUB_COMMAND, SUB_COMMAND_GROUP) for kind in kinds]
    if any(nested) and not all(nested):
        problems.add(
            at,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Subcommands and groups cannot be mixed with other options.",
        )
    for index, raw in enumerate(options):
        option = as_dict(raw)
        here = (*at, index)
        kind = option.get("type")
        if (kind == SUB_COMMAND_GROUP and depth > 0) or (kind == SUB_COMMAND and depth > 1):
            problems.add(
                (*here, "type"),
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "A subcommand cannot hold subcommands, nor a group another group.",
            )
        if not valid_name(option.get("name"), chat_input=True):
            problems.add(
                (*here, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"
            )
        if option.get("name") in names:
            problems.add(
                (*here, "name"),
                "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                f"Option name {option.get('name')!r} is already used in this list.",
            )
        names.add(option.get("name"))
        _check_localisations(
            option.get("name_localizations"), problems, (*here, "name_localizations"), name=True
        )
        _check_description(option, problems, here)
        if kind not in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if option.get("required"):
                if optional_seen:
                    problems.add(
                        (*here, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
            else:
                optional_seen = True
            _check_choices(option, problems, here)
        else:
            _check_options(as_list(option.get("options")), problems, here, depth=depth + 1)


def _check_choices(option: Mapping[str, Any], problems: Problems, path: Path) -> None:
    choices = as_list(option.get("choices"))
    problems.count((*path, "choices"), choices, 0, COMMAND_CHOICES_MAX)
    if choices and option.get("autocomplete"):
        problems.add(
            (*path, "autocomplete"),
            "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_WITH_CHOICES",
            "Autocomplete cannot be enabled for an option with choices.",
        )
    check_choice_list(choices, problems, (*path, "choices"), string=option.get("type") == STRING)


def check_choice_list(choices: list[Any], problems: Problems, path: Path, *, string: bool) -> None:
    """Each choice: a name of 1–100 (and its localisations), a string value of at most 100."""
    for index, raw in enumerate(choices):
        choice = as_dict(raw)
        here = (*path, index)
        problems.length((*here, "name"), choice.get("name"), 1, CHOICE_TEXT_MAX)
        for locale, text in as_dict(choice.get("name_localizations")).items():
            at = (*here, "name_localizations", locale)
            if locale not in DISCORD_LOCALES:
                problems.add(at, "LOCALE_INVALID", f"Invalid locale {locale!r}.")
            else:
                problems.length(at, text, 1, CHOICE_TEXT_MAX)
        if string:
            problems.length((*here, "value"), choice.get("value"), 1, CHOICE_TEXT_MAX)


def _check_locale_names(command: Mapping[str, Any], problems: Problems, path: Path) -> None:
    """A localised option name must differ from every other option's default name and from
    every other option's name in that locale, within each list of options."""

    def walk(options: list[Any], here: Path) -> None:
        defaults = [as_dict(o).get("name") for o in options]
        by_locale: dict[str, list[Any]] = {}
        for index, raw in enumerate(options):
            option = as_dict(raw)
            for locale, text in as_dict(option.get("name_localizations")).items():
                others = [d for j, d in enumerate(defaults) if j != index]
                if text in others or text in by_locale.get(locale, []):
                    problems.add(
                        (*here, "options", index, "name_localizations", locale),
                        "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                        f"Localised name {text!r} is already used in this list.",
                    )
                by_locale.setdefault(locale, []).append(text)
            walk(as_list(option.get("options")), (*here, "options", index))

    walk(as_list(command.get("options")), path)


def _longest(node: Mapping[str, Any], key: str) -> int:
    texts = [node.get(key), *as_dict(node.get(f"{key}_localizations")).values()]
    return max((len(text) for text in texts if isinstance(text, str)), default=0)


def _size(node: Mapping[str, Any]) -> int:
    """Name, description and value characters of a command, its options and choices (the
    longest localisation of each field counted)."""
    total = _longest(node, "name") + _longest(node, "description")
    for choice in as_list(node.get("choices")):
        entry = as_dict(choice)
        total += _longest(entry, "name") + len(str(entry.get("value", "")))
    for option in as_list(node.get("options")):
        total += _size(as_dict(option))
    return total


def check_autocomplete(data: Mapping[str, Any], problems: Problems, path: Path) -> None:
    """Autocomplete results: at most 25 choices, each a valid choice."""
    choices = as_list(data.get("choices"))
    problems.count((*path, "choices"), choices, 0, AUTOCOMPLETE_CHOICES_MAX)
    check_choice_list(choices, problems, (*path, "choices"), string=False)
