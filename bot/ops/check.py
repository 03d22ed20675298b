"""`mattekrig check [--online]`: every start-up check, reported line by line.

Offline it touches nothing: no folder is made, no database created or migrated, no lock
kept. `--online` logs in once (gateway included, as the bot would) and reports who the bot
is and which servers it is in, then disconnects. The token is never printed.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

import discord

from bot.config import Config, environment, read_config
from bot.ops.database import DatabaseProblem, inspect_database
from bot.ops.invite import invite_url
from bot.ops.lock import holder, is_running
from bot.paths import old_default_database
from bot.token_shape import bot_id

ONLINE_TIMEOUT = 60.0


@dataclass
class Findings:
    lines: list[tuple[str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def add(self, topic: str, text: str) -> None:
        """A line under ``topic``; a second one for the same topic replaces the first."""
        for index, (known, _) in enumerate(self.lines):
            if known == topic:
                self.lines[index] = (topic, text)
                return
        self.lines.append((topic, text))

    def text(self) -> str:
        width = max((len(topic) for topic, _ in self.lines), default=0)
        shown = [f"{topic.ljust(width)}  {text}" for topic, text in self.lines]
        shown += [f"problem: {problem}" for problem in self.problems]
        return "\n".join(shown)


def _postgres(config: Config, found: Findings) -> None:
    """DATABASE_URL: reach and migrate the server once, as `run` would before Discord."""
    import asyncio

    from bot.storage import StorageError
    from bot.storage.select import open_storage

    async def _version() -> int:
        storage = await open_storage(config.database_path, config.database_url)
        try:
            return storage.schema_version
        finally:
            await storage.close()

    try:
        version = asyncio.run(_version())
    except StorageError as error:
        found.add("database", f"PostgreSQL {config.database_label}")
        found.problems.append(f"{error}.")
        return
    found.add("database", f"PostgreSQL {config.database_label}, schema version {version}")
    found.add("running", "bots on PostgreSQL share the database (no lock; see SHARD_IDS)")


def _database(config: Config, cwd: Path, found: Findings) -> None:
    if config.database_url is not None:
        _postgres(config, found)
        return
    path = config.database_path
    old = old_default_database(cwd) if config.database_is_default else None
    if old is not None:
        found.problems.append(old_database_sentence(old, path))
    try:
        report = inspect_database(path, create_folder=False)
    except DatabaseProblem as problem:
        found.add("database", str(path))
        found.problems.append(str(problem))
        return
    found.add("database", report.summary())
    if is_running(path):
        pid = holder(path)
        found.add("running", f"yes, a bot runs on this database now (process {pid})")
    else:
        found.add("running", "no bot runs on this database now")


def old_database_sentence(old: Path, new: Path) -> str:
    return (
        f"DATABASE_PATH is not set and an older Mattekrig's database is at {old}: set "
        f"DATABASE_PATH={old} in .env to keep using it, or move it to {new}."
    )


def offline(cwd: Path | None = None) -> tuple[Config, Findings]:
    """Settings, token shape, database and lock, without a network call."""
    here = cwd or Path.cwd()
    environ, env_files = environment(here)
    config, problems = read_config(environ, env_files=env_files, cwd=here)
    found = Findings()
    found.add("settings", ", ".join(map(str, env_files)) or "no .env file (environment only)")
    found.problems.extend(problems)
    _database(config, here, found)
    token_ok = bool(config.token) and not any(p.startswith("DISCORD_TOKEN") for p in problems)
    if token_ok:
        user_id = bot_id(config.token)
        found.add("token", f"shape OK (the bot's user id {user_id})")
        if user_id is not None:
            found.add("invite", invite_url(user_id))
    where = (
        f"at start-up to server {config.dev_guild_id} (DEV_GUILD_ID)"
        if config.dev_guild_id is not None
        else "to no server at start-up (DEV_GUILD_ID is not set)"
    )
    found.add("commands", f"synced {where}; everywhere with `mattekrig sync`")
    found.add("logs", f"{config.log_level}, {config.log_format}")
    if config.shard_count is not None:
        ids = ", ".join(map(str, config.shard_ids or ()))
        found.add("shards", f"{ids} of {config.shard_count} (SHARD_IDS of SHARD_COUNT)")
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
