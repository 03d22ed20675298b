"""The benchmark's yardstick: a bare discord.py bot that answers `/mattekrig start` and the
board's Flip presses the way Mattekrig does (the board as the command's answer, each press
editing the pressed board), doing no other work: no game, no storage, no rendering.

What Mattekrig costs is the difference to this bot on the same fake Discord
(benchmarks/latency.py)."""

from __future__ import annotations

import itertools
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands


def _board(game: int, window: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Flip", custom_id=f"mk:flip:{game}:{window}"))
    view.add_item(discord.ui.Button(label="Auto", custom_id=f"mk:auto:{game}:{window}"))
    return view


class BareBot(commands.Bot):
    def __init__(self, guild_id: int, **options: Any) -> None:
        options.setdefault("guild_ready_timeout", 0)
        intents = discord.Intents.none()
        intents.guilds = True  # the same as Mattekrig's: no message events
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **options)
        self.guild_id = guild_id
        self._ids = itertools.count(1)
        group = app_commands.Group(name="mattekrig", description="Mattekrig")

        @group.command(name="start", description="Start a game")
        async def start(
            interaction: discord.Interaction,
            game: str,
            computer: str | None = None,
            thread: bool | None = None,
        ) -> None:
            await interaction.response.send_message(
                content=f"{game}: round 1", view=_board(next(self._ids), 1)
            )

        self.tree.add_command(group, guild=discord.Object(guild_id))

    async def setup_hook(self) -> None:
        await self.tree.sync(guild=discord.Object(self.guild_id))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, object] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        verb, game, window = [*custom_id.split(":"), "", "", ""][1:4]
        if verb == "flip":
            turn = int(window) + 1
            await interaction.response.edit_message(
                content=f"round {turn}", view=_board(int(game), turn)
            )
