"""Command options checked against what each command declares, before discord.py reads them.

Why: discord.py trusts Discord. It hands an option's value to the command as it arrived, so a
value Discord's client would never send (text for a number, a number past its range, a choice
not offered, a user id that is no snowflake) reached our commands as a `TypeError` deep in a
service, or as a `ValueError` in a task nobody awaits. Each declared option is checked here
instead, and the first one that is wrong is named in the user's refusal.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from discord import AppCommandOptionType, app_commands

MAX_SNOWFLAKE = 2**63 - 1
MAX_INTEGER = 2**53  # Discord's integer options are doubles: exact only below this
MAX_SHOWN = 40  # characters of an unknown option's name echoed back
SNOWFLAKE_TYPES = frozenset(
    {
        AppCommandOptionType.user,
        AppCommandOptionType.channel,
        AppCommandOptionType.role,
        AppCommandOptionType.mentionable,
        AppCommandOptionType.attachment,
    }
)


def wrong_option(
    command: app_commands.Command[Any, ..., Any], options: Sequence[Any]
) -> str | None:
    """The code name of the first option Discord would never send like this (the catalogue's
    ``opt.<name>``, which the refusal shows in the user's language; an undeclared option as
    it came), or None when every option is one the command declares, of its type, within its
    limits, and none is missing."""
    declared = {p.display_name: p for p in command.parameters}
    seen: set[str] = set()
    for option in options:
        if not isinstance(option, Mapping):
            return "?"
        name = option.get("name")
        parameter = declared.get(name) if isinstance(name, str) else None
        if parameter is None or parameter.display_name in seen:
            return str(name)[:MAX_SHOWN] or "?"
        seen.add(parameter.display_name)
        if option.get("type") != parameter.type.value or not fits(parameter, option.get("value")):
            return parameter.name
    missing = [p.name for p in command.parameters if p.required and p.display_name not in seen]
    return missing[0] if missing else None


def fits(parameter: app_commands.Parameter, value: object) -> bool:
    """Whether ``value`` is one the parameter's type, range, length and choices allow."""
    kind = parameter.type
    if kind is AppCommandOptionType.string:
        if not isinstance(value, str) or "\x00" in value:
            return False
        size: float = len(value)
    elif kind is AppCommandOptionType.integer:
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_INTEGER:
            return False
        size = value
    elif kind is AppCommandOptionType.number:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        if not math.isfinite(value) or abs(value) > MAX_INTEGER:
            return False
        size = value
    elif kind is AppCommandOptionType.boolean:
        return isinstance(value, bool)
    elif kind in SNOWFLAKE_TYPES:
        return (
            isinstance(value, str)
            and value.isascii()
            and value.isdigit()
            and int(value) <= MAX_SNOWFLAKE
        )
    else:
        return False
    low, high = parameter.min_value, parameter.max_value
    if (low is not None and size < low) or (high is not None and size > high):
        return False
    return not parameter.choices or value in [c.value for c in parameter.choices]
