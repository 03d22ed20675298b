"""The bot's sign of life for the health check: a file whose time is when the bot was last
connected to Discord.

Why: the image's HEALTHCHECK (`mattekrig check --quiet --running`) runs as a process of its own
beside the bot. The database's lock alone says a bot process runs, not that it is connected: a
bot that had been reconnecting for hours (the network down, the token reset) held its lock and
stayed "healthy", and on PostgreSQL there is no lock at all, so the check never failed there.
While connected the bot touches this file every ``BEAT_S``; `check --running` finds a problem
once it is older than ``STALE_S`` (a few missed beats: a short reconnect is no alarm).

The file is beside the database (its folder is the bot's, 0700), one per process, so the two
shards of the compose file, which share `/data`, each have their own: ``<database>.alive``, or
``<database>.shards-0-1.alive`` for ``SHARD_IDS=0,1``. It holds the process id, for the
operator's eyes only, and is removed when the bot stops.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from pathlib import Path

import discord

from bot.config import Config

log = logging.getLogger(__name__)

BEAT_S = 30.0  # how often a connected bot touches the file
STALE_S = 180.0  # older than this: the bot has not been connected for a while
FILE_MODE = 0o600


def heartbeat_path(config: Config) -> Path:
    database = config.database_path
    shards = "" if config.shard_ids is None else ".shards-" + "-".join(map(str, config.shard_ids))
    return database.with_name(f"{database.name}{shards}.alive")


def connected(client: discord.Client) -> bool:
    """Whether the client is logged in and every gateway connection it runs is open now
    (discord.py keeps a closed socket while it waits to reconnect)."""
    if client.is_closed() or not client.is_ready():
        return False
    shards = getattr(client, "shards", None)
    if isinstance(shards, dict) and shards:
        return all(not shard.is_closed() for shard in shards.values())
    socket = getattr(client, "ws", None)
    return socket is not None and bool(socket.open)


def beat(path: Path, at: float | None = None) -> None:
    """Touch the file (made 0600 with the process id in it when it is missing)."""
    if not path.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # PostgreSQL: maybe none yet
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
        try:
            os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        finally:
            os.close(fd)
    moment = time.time() if at is None else at
    os.utime(path, (moment, moment))


def last_beat(path: Path) -> float | None:
    """When the file was last touched (None: there is none)."""
    try:
        return path.stat().st_mtime
    except OSError:
        return None


def staleness(path: Path, now: float | None = None) -> str | None:
    """Why the bot does not count as connected (None when its last beat is recent)."""
    last = last_beat(path)
    if last is None:
        return f"no bot has been connected to Discord here ({path} is missing)."
    age = (time.time() if now is None else now) - last
    if age <= STALE_S:
        return None
    minutes = max(1, int(age // 60))
    return (
        f"the bot has not been connected to Discord for {minutes} minute(s) ({path} is that "
        "old): its log says why (the network, or a token reset in the Developer Portal)."
    )


class Heartbeat:
    """Touches the file while ``is_connected()``; says once when it cannot (a read-only
    folder), so a beat that fails never stops the bot."""

    def __init__(self, path: Path, client: discord.Client) -> None:
        self.path = path
        self.client = client
        self._failed = False

    def tick(self) -> bool:
        """One beat if the client is connected now; whether the file was touched."""
        if not connected(self.client):
            return False
        try:
            beat(self.path)
        except OSError as error:
            if not self._failed:
                log.warning(
                    "cannot write the health check's file %s (%s): the health check will "
                    "say the bot is not connected",
                    self.path,
                    error.strerror or error,
                )
            self._failed = True
            return False
        self._failed = False
        return True

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()
