"""The game options of `/mattekrig start`, read from the registered games' descriptors.

A slash command's options are its callback's parameters, so `with_game_options` gives the
callback one keyword parameter per game option (`engine.registry.game_options`): a whole number
in its range, one of its choices, or yes/no, each described from ``opt.<key>.desc`` and its
choices labelled from ``choice.<key>.<value>``. A game with an option no game had before is
offered by the command without a line here. The callback receives them as keyword arguments
(None: not given).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from discord import app_commands

from bot.translator import choice, ls
from engine.options import Option
from engine.registry import game_options

T = TypeVar("T")
# The callback as discord.py takes it: its parameters are known only once it is decorated.
Callback = Callable[..., Coroutine[Any, Any, T]]
# Who plays is asked by the command itself (opponents, the computer), not as a game option.
NOT_ASKED = frozenset({"sides"})


def start_options() -> tuple[Option, ...]:
    """The game options the start command offers."""
    return tuple(o for o in game_options() if o.key not in NOT_ASKED)


def _annotation(option: Option) -> Any:
    if isinstance(option.default, bool):
        return bool | None
    if option.values is not None:
        return app_commands.Range[int, option.low, option.high] | None
    return str | None


def with_game_options(func: Callback[T]) -> Callback[T]:
    """Give a command callback (``async def …(self, interaction, …, *, …, **options)``) a
    parameter per game option, described and with its choices, after its positional
    parameters and before its keyword-only ones (apply below ``@app_commands.command``)."""
    signature = inspect.signature(func)
    params = [p for p in signature.parameters.values() if p.kind is not p.VAR_KEYWORD]
    positional = [p for p in params if p.kind is not p.KEYWORD_ONLY]
    last = [p for p in params if p.kind is p.KEYWORD_ONLY]  # after the game's options
    options = start_options()
    added = [
        inspect.Parameter(
            o.key, inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(o), default=None
        )
        for o in options
    ]
    func.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[*positional, *added, *last]
    )
    app_commands.describe(**{o.key: ls(f"opt.{o.key}.desc") for o in options})(func)
    app_commands.choices(
        **{o.key: [choice(o.key, c) for c in o.choices] for o in options if o.choices}
    )(func)
    return func
