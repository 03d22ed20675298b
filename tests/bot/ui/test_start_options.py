"""`/mattekrig start` offers the options the games are started with, read from their
descriptors (`engine.registry.game_options`): a game that brings an option brings it to the
command, with the same range or choices the engine checks (`engine.options`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from discord import AppCommandOptionType, app_commands

from bot.config import Config
from bot.ops.sync import CommandsOnly
from bot.ui.start_options import start_options
from classroom.i18n import t
from engine.options import SIDES_OPTION
from engine.registry import GAMES, game_options


async def _start_command(tmp_path: Path) -> app_commands.Command[Any, ..., Any]:
    """`/mattekrig start` as the bot builds it (its extensions loaded by name, no login)."""
    bot = CommandsOnly(Config("unused", tmp_path / "unused.db", None, "INFO"))
    await bot.setup_hook()
    (root,) = bot.tree.get_commands()
    assert isinstance(root, app_commands.Group)
    start = root.get_command("start")
    await bot.close()
    assert isinstance(start, app_commands.Command)
    return start


async def test_the_start_command_offers_every_game_option_with_its_range_and_choices(
    tmp_path: Path,
) -> None:
    start = await _start_command(tmp_path)
    params = {p.name: p for p in start.parameters}
    offered = {o.key for o in start_options()}
    assert offered == {o.key for g in GAMES.values() for o in g.options} - {SIDES_OPTION.key}
    assert {"game", "opponent", "opponent2", "opponent3", "computer", "thread"} <= set(params)
    for option in start_options():
        param = params[option.key]
        assert not param.required
        if option.values is not None:
            assert (param.min_value, param.max_value) == (option.low, option.high)
            assert param.type is AppCommandOptionType.integer
        elif option.choices:
            assert [c.value for c in param.choices] == list(option.choices)
        else:
            assert param.type is AppCommandOptionType.boolean
        assert param.description == t(f"opt.{option.key}.desc", "en")
    # The pupil's own options come first; the thread, how the game is shown, last.
    names = [p.name for p in start.parameters]
    assert names[0] == "game" and names[-1] == "thread"


def test_each_option_is_said_once_by_every_game_that_has_it() -> None:
    keys = [o.key for o in game_options()]
    assert len(keys) == len(set(keys))
    for game in GAMES.values():
        for option in game.options:
            assert option in game_options()
