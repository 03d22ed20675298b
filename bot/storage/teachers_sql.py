"""The teacher's class presets and per-pupil accommodations (migration 0006).

A mixin of `Storage`, self-contained so it moves into the storage contract as one piece.
Presets are per channel or for the whole server (``channel_id`` `SERVER_WIDE`); a channel's
own preset wins over the server's. An accommodation is a pupil's answer time as a
percentage of the table's (0: no answer timer).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

import aiosqlite

from bot.storage.records import SERVER_WIDE, Assignment, ClassPreset, ClassSession


class TeacherStorage:
    """The teacher half of `Storage` (see the module docstring)."""

    if TYPE_CHECKING:

        def _transaction(
            self, mode: str = "IMMEDIATE"
        ) -> AbstractAsyncContextManager[aiosqlite.Connection]: ...

    async def set_preset(self, preset: ClassPreset, at: int) -> ClassPreset:
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO class_presets (guild_id, channel_id, options, locked, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, channel_id) DO UPDATE SET"
                " options = excluded.options, locked = excluded.locked,"
                " updated_at = excluded.updated_at",
                (
                    preset.guild_id,
                    preset.channel_id,
                    json.dumps(dict(preset.options), sort_keys=True),
                    int(preset.locked),
                    at,
                ),
            )
        return ClassPreset(
            preset.guild_id, preset.channel_id, dict(preset.options), preset.locked, at
        )

    async def clear_preset(self, guild_id: int, channel_id: int) -> bool:
        async with self._transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM class_presets WHERE guild_id = ? AND channel_id = ?",
                (guild_id, channel_id),
            )
            return cursor.rowcount > 0

    async def preset_for(self, guild_id: int, channel_id: int) -> ClassPreset | None:
        """The channel's own preset, else the server's, else None."""
        async with self._transaction("DEFERRED") as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT * FROM class_presets WHERE guild_id = ? AND channel_id IN (?, ?)"
                    " ORDER BY channel_id = ?",  # the channel's own first
                    (guild_id, channel_id, SERVER_WIDE, SERVER_WIDE),
                )
            )
        return _preset(rows[0]) if rows else None

    async def presets(self, guild_id: int) -> list[ClassPreset]:
        async with self._transaction("DEFERRED") as conn:
            rows = await conn.execute_fetchall(
                "SELECT * FROM class_presets WHERE guild_id = ? ORDER BY channel_id", (guild_id,)
            )
        return [_preset(r) for r in rows]

    async def set_accommodation(
        self, guild_id: int, user_id: int, answer_percent: int | None, at: int
    ) -> None:
        """``answer_percent`` None removes the accommodation (the table's time again)."""
        async with self._transaction() as conn:
            if answer_percent is None:
                await conn.execute(
                    "DELETE FROM accommodations WHERE guild_id = ? AND user_id = ?",
                    (guild_id, user_id),
                )
                return
            await conn.execute(
                "INSERT INTO accommodations (guild_id, user_id, answer_percent, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
                " answer_percent = excluded.answer_percent, updated_at = excluded.updated_at",
                (guild_id, user_id, answer_percent, at),
            )

    async def start_session(
        self, guild_id: int, channel_id: int, lang: str, started_at: int, ends_at: int
    ) -> ClassSession | None:
        """A new class session, or None while another of the server's is still running."""
        async with self._transaction() as conn:
            running = await conn.execute_fetchall(
                "SELECT id FROM class_sessions WHERE guild_id = ? AND summarized_at IS NULL"
                " AND ends_at > ?",
                (guild_id, started_at),
            )
            if running:
                return None
            cursor = await conn.execute(
                "INSERT INTO class_sessions (guild_id, channel_id, lang, started_at, ends_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (guild_id, channel_id, lang, started_at, ends_at),
            )
            session_id = cursor.lastrowid
        assert session_id is not None
        return ClassSession(session_id, guild_id, channel_id, lang, started_at, ends_at)

    async def running_session(self, guild_id: int, at: int) -> ClassSession | None:
        """The server's session that is running at ``at`` (None: no session)."""
        async with self._transaction("DEFERRED") as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT * FROM class_sessions WHERE guild_id = ? AND summarized_at IS NULL"
                    " AND started_at <= ? AND ends_at > ? ORDER BY ends_at LIMIT 1",
                    (guild_id, at, at),
                )
            )
        return _session(rows[0]) if rows else None

    async def ended_sessions(self, at: int) -> list[ClassSession]:
        """Sessions whose time is up and whose summary is not posted yet."""
        async with self._transaction("DEFERRED") as conn:
            rows = await conn.execute_fetchall(
                "SELECT * FROM class_sessions WHERE summarized_at IS NULL AND ends_at <= ?"
                " ORDER BY ends_at, id",
                (at,),
            )
        return [_session(r) for r in rows]

    async def next_session_end(self) -> int | None:
        async with self._transaction("DEFERRED") as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT min(ends_at) FROM class_sessions WHERE summarized_at IS NULL"
                )
            )
        return rows[0][0] if rows else None

    async def last_session(self, guild_id: int) -> ClassSession | None:
        """The server's most recent summarised session."""
        async with self._transaction("DEFERRED") as conn:
            rows = list(
                await conn.execute_fetchall(
                    "SELECT * FROM class_sessions WHERE guild_id = ? AND summarized_at IS NOT NULL"
                    " ORDER BY ends_at DESC, id DESC LIMIT 1",
                    (guild_id,),
                )
            )
        return _session(rows[0]) if rows else None

    async def mark_summarized(self, session_id: int, at: int) -> bool:
        """True for the one caller that marks it (a summary is posted once)."""
        async with self._transaction() as conn:
            cursor = await conn.execute(
                "UPDATE class_sessions SET summarized_at = ?"
                " WHERE id = ? AND summarized_at IS NULL",
                (at, session_id),
            )
            return cursor.rowcount > 0

    async def add_assignment(
        self,
        guild_id: int,
        game: str,
        level: int,
        rounds: int,
        best_percent: int,
        created_at: int,
        due_at: int,
    ) -> Assignment:
        async with self._transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO assignments (guild_id, game, level, rounds, best_percent,"
                " created_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (guild_id, game, level, rounds, best_percent, created_at, due_at),
            )
            assignment_id = cursor.lastrowid
        assert assignment_id is not None
        return Assignment(
            assignment_id, guild_id, game, level, rounds, best_percent, created_at, due_at
        )

    async def assignments(self, guild_id: int, *, due_after: int = 0) -> list[Assignment]:
        """The server's assignments due after ``due_after`` (0: all), soonest first."""
        async with self._transaction("DEFERRED") as conn:
            rows = await conn.execute_fetchall(
                "SELECT * FROM assignments WHERE guild_id = ? AND due_at > ? ORDER BY due_at, id",
                (guild_id, due_after),
            )
        return [Assignment(**{k: r[k] for k in r.keys()}) for r in rows]  # noqa: SIM118

    async def accommodations(
        self, guild_id: int, user_ids: Iterable[int] | None = None
    ) -> dict[int, int]:
        """user id -> answer percentage, for the given pupils (all of the server's: None)."""
        async with self._transaction("DEFERRED") as conn:
            rows = await conn.execute_fetchall(
                "SELECT user_id, answer_percent FROM accommodations WHERE guild_id = ?",
                (guild_id,),
            )
        wanted = None if user_ids is None else set(user_ids)
        return {r[0]: r[1] for r in rows if wanted is None or r[0] in wanted}


def _session(row: Any) -> ClassSession:
    return ClassSession(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        lang=row["lang"],
        started_at=row["started_at"],
        ends_at=row["ends_at"],
        summarized_at=row["summarized_at"],
    )


def _preset(row: Any) -> ClassPreset:
    return ClassPreset(
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        options=json.loads(row["options"]),
        locked=bool(row["locked"]),
        updated_at=row["updated_at"],
    )
