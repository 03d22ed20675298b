"""Deadlines that survive a restart: one per (game, kind), gone with the game's end."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from storage.games import live_status, set_deadline
from storage.records import (
    Timer,
)
from storage.sql import Transactions, all_rows, one


class TimerStorage(Transactions):
    """The games' deadlines (answer time, time limit, autoplay, idle expiry)."""

    async def set_timer(self, game_id: int, kind: str, due_at: int, payload: Any = None) -> None:
        """Set (or move) the game's ``kind`` deadline; GameClosedError if the game ended."""

        def _tx(conn: sqlite3.Connection) -> None:
            live_status(conn, game_id)
            set_deadline(conn, game_id, kind, due_at, payload)

        await self._write(_tx)

    async def clear_timer(self, game_id: int, kind: str) -> bool:
        """Remove a deadline; False if there was none."""

        def _tx(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "DELETE FROM timers WHERE game_id = ? AND kind = ?", (game_id, kind)
            )
            return cursor.rowcount > 0

        return await self._write(_tx)

    async def due_timers(self, now: int) -> list[Timer]:
        """Deadlines at or before ``now``, earliest first. They stay until cleared or moved."""

        def _tx(conn: sqlite3.Connection) -> list[Timer]:
            rows = all_rows(
                conn,
                "SELECT t.* FROM timers AS t JOIN games AS g ON g.id = t.game_id"
                " WHERE t.due_at <= ? AND g.status = 'live'"
                " ORDER BY t.due_at, t.game_id, t.kind",
                (now,),
            )
            return [_timer(r) for r in rows]

        return await self._read(_tx)

    async def timers_for(self, game_id: int) -> list[Timer]:
        """The game's deadlines, earliest first."""

        def _tx(conn: sqlite3.Connection) -> list[Timer]:
            rows = all_rows(
                conn, "SELECT * FROM timers WHERE game_id = ? ORDER BY due_at, kind", (game_id,)
            )
            return [_timer(r) for r in rows]

        return await self._read(_tx)

    async def live_timers(self) -> list[Timer]:
        """The deadlines of every live game, by game then earliest first (for a restart)."""

        def _tx(conn: sqlite3.Connection) -> list[Timer]:
            rows = all_rows(
                conn,
                "SELECT t.* FROM timers AS t JOIN games AS g ON g.id = t.game_id"
                " WHERE g.status = 'live' ORDER BY t.game_id, t.due_at, t.kind",
            )
            return [_timer(r) for r in rows]

        return await self._read(_tx)

    async def next_timer_due(self) -> int | None:
        """When the earliest deadline falls, so a scheduler knows how long to sleep."""

        def _tx(conn: sqlite3.Connection) -> int | None:
            row = one(conn, "SELECT min(due_at) FROM timers", ())
            return None if row is None else row[0]

        return await self._read(_tx)


def _timer(row: sqlite3.Row) -> Timer:
    return Timer(row["game_id"], row["kind"], row["due_at"], json.loads(row["payload"]))
