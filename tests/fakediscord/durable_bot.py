"""The benchmark's durable floor: the bare bot (bare_bot.py) that also stores every Flip
press as one SQLite row, on disk, before it answers: the least a bot does that shows
nothing before it is stored.

Its writes go the way Mattekrig's do: one writer thread with group commit, each caller
answered after the COMMIT's fsync (``synchronous=FULL``; storage/database.py). So
Mattekrig's ratio to this bot is what Mattekrig costs beyond a durable write
(benchmarks/latency.py)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import discord

from storage.database import Database
from tests.fakediscord.bare_bot import BareBot

_TABLE = "CREATE TABLE IF NOT EXISTS presses (game INTEGER, window INTEGER, at INTEGER)"


class DurableBot(BareBot):
    def __init__(self, guild_id: int, database: Path, **options: Any) -> None:
        super().__init__(guild_id, **options)
        self.database = database
        self.db: Database | None = None

    async def setup_hook(self) -> None:
        self.db = Database.open(str(self.database))
        await self.db.raw(lambda conn: conn.execute(_TABLE))
        await super().setup_hook()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        custom_id = str(dict(interaction.data or {}).get("custom_id", ""))
        if self.db is not None and custom_id.startswith("mk:flip:"):
            game, window = (int(part) for part in custom_id.split(":")[2:4])
            await self.db.write(lambda conn: _store(conn, game, window))
        await super().on_interaction(interaction)

    async def close(self) -> None:
        await super().close()
        if self.db is not None:
            await self.db.close()


def _store(conn: sqlite3.Connection, game: int, window: int) -> None:
    conn.execute(
        "INSERT INTO presses (game, window, at) VALUES (?, ?, ?)",
        (game, window, time.time_ns() // 1_000_000),
    )
