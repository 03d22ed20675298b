"""Seasons: a server's board and ratings start again at a new season; the old ones stay,
under their own scope."""

from __future__ import annotations

import sqlite3

from storage.records import (
    Season,
)
from storage.sql import Transactions, all_rows, one


class SeasonStorage(Transactions):
    """The servers' seasons."""

    async def current_season(self, guild_id: int) -> Season | None:
        """The server's running season; None before its first result."""

        def _tx(conn: sqlite3.Connection) -> Season | None:
            return running_season(conn, guild_id, 0, create=False)

        return await self._read(_tx)

    async def seasons(self, guild_id: int) -> list[Season]:
        """Every season of the server, oldest first."""

        def _tx(conn: sqlite3.Connection) -> list[Season]:
            rows = all_rows(
                conn, "SELECT * FROM seasons WHERE guild_id = ? ORDER BY season", (guild_id,)
            )
            return [_season(r) for r in rows]

        return await self._read(_tx)

    async def new_season(self, guild_id: int, at: int) -> tuple[Season | None, Season]:
        """End the running season (its board and ratings stay, under its own scope) and start
        the next. Returns (the season archived or None, the season started)."""

        def _tx(conn: sqlite3.Connection) -> tuple[Season | None, Season]:
            current = running_season(conn, guild_id, at, create=False)
            number = 1
            if current is not None:
                conn.execute(
                    "UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND season = ?",
                    (at, guild_id, current.season),
                )
                current = Season(guild_id, current.season, current.started_at, at)
                number = current.season + 1
            conn.execute(
                "INSERT INTO seasons (guild_id, season, started_at) VALUES (?, ?, ?)",
                (guild_id, number, at),
            )
            return current, Season(guild_id, number, at)

        return await self._write(_tx)


def _season(row: sqlite3.Row) -> Season:
    return Season(row["guild_id"], row["season"], row["started_at"], row["ended_at"])


def running_season(
    conn: sqlite3.Connection, guild_id: int, at: int, *, create: bool
) -> Season | None:
    row = one(
        conn,
        "SELECT * FROM seasons WHERE guild_id = ? AND ended_at IS NULL"
        " ORDER BY season DESC LIMIT 1",
        (guild_id,),
    )
    if row is not None:
        return _season(row)
    if not create:
        return None
    last = one(conn, "SELECT max(season) FROM seasons WHERE guild_id = ?", (guild_id,))
    number = (last[0] or 0) + 1 if last is not None else 1
    conn.execute(
        "INSERT INTO seasons (guild_id, season, started_at) VALUES (?, ?, ?)",
        (guild_id, number, at),
    )
    return Season(guild_id, number, at)
