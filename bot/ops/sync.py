"""`mattekrig sync`: register the slash commands with Discord once, then exit.

Global commands can take up to an hour to show up in every server, and Discord rate-limits
syncing, so the running bot syncs only to `DEV_GUILD_ID`; this command is the on-demand
global sync DESIGN.md asks for. It builds the commands exactly as the bot does (the same
cogs and translator) but opens no database, so it may run beside a running bot.
"""

from __future__ import annotations

import discord

from bot.client import EXTENSIONS, MattekrigBot
from bot.translator import MattekrigTranslator


class CommandsOnly(MattekrigBot):
    """The bot's command tree without its storage, services or timers."""

    async def setup_hook(self) -> None:
        await self.tree.set_translator(MattekrigTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)


async def sync_commands(bot: CommandsOnly, token: str, guild_id: int | None) -> int:
    """Log in over HTTP only (no gateway), sync, close; returns the number of commands."""
    async with bot:
        await bot.login(token)
        if guild_id is None:
            return len(await bot.tree.sync())
        guild = discord.Object(guild_id)
        bot.tree.copy_global_to(guild=guild)
        return len(await bot.tree.sync(guild=guild))
