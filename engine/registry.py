"""The games the engine knows, one descriptor each (python-chess's `VARIANTS`, OpenSpiel's
game registry), and the actions they may be played with.

Each game module declares its own `GameDescriptor` (`engine.descriptor`): adding a game is one
new module plus its entry in `GAMES`. No screen branches on a game's name.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from typing import Any

from engine.actions import SHARED_ACTIONS, Action
from engine.descriptor import GameDescriptor
from engine.errors import ConfigurationError, IllegalActionError, Refusal
from engine.intervallkrig import INTERVALLKRIG, SATSING
from engine.options import Option
from engine.regnekrig import REGNEKRIG

GAMES: dict[str, GameDescriptor] = {g.key: g for g in (REGNEKRIG, INTERVALLKRIG, SATSING)}


def descriptor(key: str) -> GameDescriptor:
    try:
        return GAMES[key]
    except KeyError:
        raise ConfigurationError(
            f"unknown game {key!r} (one of {', '.join(GAMES)})", field="game", value=key
        ) from None


# -- actions in their SCENARIOS.md JSON form ---------------------------------------------------


def action_types() -> Iterator[type[Action]]:
    """Every action a game may be played with: the shared ones, then each game's own."""
    yield from SHARED_ACTIONS
    for game in GAMES.values():
        yield from game.actions


def action_to_json(action: Action) -> dict[str, Any]:
    """`type`, then the action's fields in order (`side` first)."""
    out: dict[str, Any] = {"type": action.kind}
    for f in fields(action):
        value = getattr(action, f.name)
        if "absent" in f.metadata and value == f.metadata["absent"]:
            continue  # what a stored action without the field means (`action_from_json`)
        out[f.name] = value
    return out


def action_from_json(data: Any) -> Action:
    """Parse one SCENARIOS.md action of any registered game; anything malformed is an
    `IllegalActionError` (code `malformed_action`). A field is a whole number or a text (a
    scenario may give a text as a JSON number: an answer `12` is the answer "12"). A field
    added later names in its metadata what an action stored before it meant (`absent`)."""
    if not isinstance(data, dict):
        raise IllegalActionError("an action must be an object", code=Refusal.MALFORMED_ACTION)
    kind = data.get("type")
    cls = next((c for c in action_types() if c.kind == kind), None)
    if cls is None:
        raise IllegalActionError(f"unknown action type {kind!r}", code=Refusal.MALFORMED_ACTION)
    values: dict[str, int | str] = {}
    for f in fields(cls):
        if f.name not in data and "absent" in f.metadata:
            values[f.name] = int(f.metadata["absent"])
            continue
        values[f.name] = _text(data, f.name) if f.type == "str" else _whole(data, f.name)
    return cls(**values)


def _whole(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalActionError(f"{key!r} must be a whole number", code=Refusal.MALFORMED_ACTION)
    return value


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise IllegalActionError(f"{key!r} must be a text", code=Refusal.MALFORMED_ACTION)
    return value


def game_options() -> tuple[Option, ...]:
    """Every option the registered games are started with, each once, in the order the games
    list them (a screen that starts any game offers these). Two games that name one option
    must mean the same one."""
    found: dict[str, Option] = {}
    for game in GAMES.values():
        for option in game.options:
            known = found.setdefault(option.key, option)
            if known != option:
                raise ConfigurationError(
                    f"two games declare the option {option.key!r} differently", field=option.key
                )
    return tuple(found.values())
