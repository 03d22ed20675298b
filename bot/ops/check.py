"""`mattekrig check [--online]`: every start-up check (`bot.ops.startup`, the same list
`run` stops at), reported line by line.

Offline it touches nothing: no folder is made, no database created or migrated, no lock
kept. `--online` logs in once (gateway included, as the bot would) and reports who the bot
is and which servers it is in, then disconnects. The token is never printed.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord

from bot.config import Config, environment
from bot.invite import invite_url
from bot.ops.school_check import check_school, school_only
from bot.ops.startup import Findings, inspect

ONLINE_TIMEOUT = 60.0


def offline(cwd: Path | None = None) -> tuple[Config, Findings]:
    """Every start-up check, reported (nothing is changed), and the school server's settings
    when any is set (without a Discord token, those alone: no bot runs here)."""
    here = cwd or Path.cwd()
    environ, _ = environment(here)
    config, found = inspect(here, need_token=not school_only(environ))
    # the raw settings: load_school_settings reads the secret files itself (and refuses a
    # secret given both ways)
    check_school(environ, found)
    return config, found


class Probe(discord.Client):
    """Connects once, notes who it is and where, and disconnects."""

    def __init__(self, **options: object) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(intents=intents, **options)  # type: ignore[arg-type]
        self.servers: list[tuple[int, str]] = []

    async def on_ready(self) -> None:
        self.servers = sorted((g.id, g.name) for g in self.guilds)
        await self.close()


async def online(config: Config, found: Findings, **options: object) -> None:
    """Log in as the bot and add what Discord says; raises discord/aiohttp errors."""
    probe = Probe(**options)
    async with probe:
        await asyncio.wait_for(probe.start(config.token), ONLINE_TIMEOUT)
    user = probe.user
    found.add("online", f"logged in as {user} (id {user.id if user else '?'})")
    names = ", ".join(f"{name} ({gid})" for gid, name in probe.servers) or "none yet"
    found.add("servers", f"{len(probe.servers)}: {names}")
    if probe.application_id:
        found.add("invite", invite_url(probe.application_id))
