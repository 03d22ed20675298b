"""The teacher's class presets, pupils' accommodations, class sessions and assignments
(migration 0008), and named presets (migration 0010).

Its contract: `storage.contract.TeacherStore`. Presets are per
channel or for the whole server (``channel_id`` `SERVER_WIDE`); a channel's own preset wins
over the server's. An accommodation is a pupil's answer time as a percentage of the table's
(0: no answer timer). Every method is one transaction on the database thread.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, TypeVar

from storage.database import Work
from storage.records import (
    SERVER_WIDE,
    Assignment,
    ClassPreset,
    ClassSession,
    NamedPreset,
    preset_key,
)
from storage.sql import Transactions, all_rows, new_id, record_of

T = TypeVar("T")


class TeacherStorage(Transactions):
    """Presets, accommodations, class sessions and assignments."""

    # -- class presets ---------------------------------------------------------------------

    async def set_preset(self, preset: ClassPreset, at: int) -> ClassPreset:
        def _tx(conn: sqlite3.Connection) -> None:
            conn.execute(
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

        await self._write(_tx)
        return ClassPreset(
            preset.guild_id, preset.channel_id, dict(preset.options), preset.locked, at
        )

    async def clear_preset(self, guild_id: int, channel_id: int) -> bool:
        def _tx(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "DELETE FROM class_presets WHERE guild_id = ? AND channel_id = ?",
                (guild_id, channel_id),
            )
            return cursor.rowcount > 0

        return await self._write(_tx)

    async def preset_for(self, guild_id: int, channel_id: int) -> ClassPreset | None:
        """The channel's own preset, else the server's, else None."""

        def _tx(conn: sqlite3.Connection) -> ClassPreset | None:
            found = all_rows(
                conn,
                "SELECT * FROM class_presets WHERE guild_id = ? AND channel_id IN (?, ?)"
                " ORDER BY channel_id = ?",  # the channel's own first
                (guild_id, channel_id, SERVER_WIDE, SERVER_WIDE),
            )
            return _preset(found[0]) if found else None

        return await self._read(_tx)

    async def presets(self, guild_id: int) -> list[ClassPreset]:
        def _tx(conn: sqlite3.Connection) -> list[ClassPreset]:
            found = all_rows(
                conn,
                "SELECT * FROM class_presets WHERE guild_id = ? ORDER BY channel_id",
                (guild_id,),
            )
            return [_preset(r) for r in found]

        return await self._read(_tx)

    # -- named presets (migration 0010) ----------------------------------------------------

    async def save_named_preset(self, preset: NamedPreset, at: int) -> NamedPreset:
        """Saved under its name (a preset of the same name, whatever its capitals, is
        replaced)."""

        def _tx(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO named_presets (guild_id, folded, name, options, locked, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, folded) DO UPDATE SET"
                " name = excluded.name, options = excluded.options, locked = excluded.locked,"
                " updated_at = excluded.updated_at",
                (
                    preset.guild_id,
                    preset.key,
                    preset.name,
                    json.dumps(dict(preset.options), sort_keys=True),
                    int(preset.locked),
                    at,
                ),
            )

        await self._write(_tx)
        return NamedPreset(preset.guild_id, preset.name, dict(preset.options), preset.locked, at)

    async def named_preset(self, guild_id: int, name: str) -> NamedPreset | None:
        def _tx(conn: sqlite3.Connection) -> NamedPreset | None:
            found = all_rows(
                conn,
                "SELECT * FROM named_presets WHERE guild_id = ? AND folded = ?",
                (guild_id, preset_key(name)),
            )
            return _named(found[0]) if found else None

        return await self._read(_tx)

    async def named_presets(self, guild_id: int) -> list[NamedPreset]:
        """The server's named presets, by name."""

        def _tx(conn: sqlite3.Connection) -> list[NamedPreset]:
            found = all_rows(
                conn,
                "SELECT * FROM named_presets WHERE guild_id = ? ORDER BY folded",
                (guild_id,),
            )
            return [_named(r) for r in found]

        return await self._read(_tx)

    async def delete_named_preset(self, guild_id: int, name: str) -> bool:
        def _tx(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "DELETE FROM named_presets WHERE guild_id = ? AND folded = ?",
                (guild_id, preset_key(name)),
            )
            return cursor.rowcount > 0

        return await self._write(_tx)

    # -- accommodations --------------------------------------------------------------------

    async def set_accommodation(
        self, guild_id: int, user_id: int, answer_percent: int | None, at: int
    ) -> None:
        """``answer_percent`` None removes the accommodation (the table's time again)."""

        def _tx(conn: sqlite3.Connection) -> None:
            if answer_percent is None:
                conn.execute(
                    "DELETE FROM accommodations WHERE guild_id = ? AND user_id = ?",
                    (guild_id, user_id),
                )
                return
            conn.execute(
                "INSERT INTO accommodations (guild_id, user_id, answer_percent, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
                " answer_percent = excluded.answer_percent, updated_at = excluded.updated_at",
                (guild_id, user_id, answer_percent, at),
            )

        await self._write(_tx)

    async def accommodations(
        self, guild_id: int, user_ids: Iterable[int] | None = None
    ) -> dict[int, int]:
        """user id -> answer percentage, for the given pupils (all of the server's: None)."""
        wanted = None if user_ids is None else set(user_ids)

        def _tx(conn: sqlite3.Connection) -> dict[int, int]:
            found = all_rows(
                conn,
                "SELECT user_id, answer_percent FROM accommodations WHERE guild_id = ?",
                (guild_id,),
            )
            return {r[0]: r[1] for r in found if wanted is None or r[0] in wanted}

        return await self._read(_tx)

    # -- class sessions --------------------------------------------------------------------

    async def start_session(
        self,
        guild_id: int,
        channel_id: int,
        lang: str,
        started_at: int,
        ends_at: int,
        preset: NamedPreset | None = None,
    ) -> ClassSession | None:
        """A new class session (with a copy of ``preset``, the named preset its games get),
        or None while another of the server's is still running."""
        kept = None if preset is None else json.dumps(preset.to_json(), sort_keys=True)

        def _tx(conn: sqlite3.Connection) -> ClassSession | None:
            running = all_rows(
                conn,
                "SELECT id FROM class_sessions WHERE guild_id = ? AND summarized_at IS NULL"
                " AND ends_at > ?",
                (guild_id, started_at),
            )
            if running:
                return None
            session_id = new_id(
                conn,
                "INSERT INTO class_sessions (guild_id, channel_id, lang, started_at, ends_at,"
                " preset) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, lang, started_at, ends_at, kept),
            )
            return ClassSession(
                session_id,
                guild_id,
                channel_id,
                lang,
                started_at,
                ends_at,
                preset=None if preset is None else replace(preset, updated_at=None),
            )

        return await self._write(_tx)

    async def running_session(self, guild_id: int, at: int) -> ClassSession | None:
        """The server's session that is running at ``at`` (None: no session)."""
        return await self._read(
            _first_session(
                "guild_id = ? AND summarized_at IS NULL AND started_at <= ? AND ends_at > ?"
                " ORDER BY ends_at",
                (guild_id, at, at),
            )
        )

    async def session(self, session_id: int) -> ClassSession | None:
        """One session by its id (None: no such session)."""
        return await self._read(_first_session("id = ?", (session_id,)))

    async def last_session(self, guild_id: int) -> ClassSession | None:
        """The server's most recent summarised session."""
        return await self._read(
            _first_session(
                "guild_id = ? AND summarized_at IS NOT NULL ORDER BY ends_at DESC, id DESC",
                (guild_id,),
            )
        )

    async def ended_sessions(self, at: int) -> list[ClassSession]:
        """Sessions whose time is up and whose summary is not posted yet."""

        def _tx(conn: sqlite3.Connection) -> list[ClassSession]:
            found = all_rows(
                conn,
                "SELECT * FROM class_sessions WHERE summarized_at IS NULL AND ends_at <= ?"
                " ORDER BY ends_at, id",
                (at,),
            )
            return [_session(r) for r in found]

        return await self._read(_tx)

    async def next_session_end(self) -> int | None:
        def _tx(conn: sqlite3.Connection) -> int | None:
            found = all_rows(
                conn, "SELECT min(ends_at) FROM class_sessions WHERE summarized_at IS NULL"
            )
            value: int | None = found[0][0] if found else None
            return value

        return await self._read(_tx)

    async def mark_summarized(self, session_id: int, at: int) -> bool:
        """True for the one caller that marks it (a summary is posted once)."""

        def _tx(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "UPDATE class_sessions SET summarized_at = ?"
                " WHERE id = ? AND summarized_at IS NULL",
                (at, session_id),
            )
            return cursor.rowcount > 0

        return await self._write(_tx)

    # -- assignments -----------------------------------------------------------------------

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
        def _tx(conn: sqlite3.Connection) -> Assignment:
            assignment_id = new_id(
                conn,
                "INSERT INTO assignments (guild_id, game, level, rounds, best_percent,"
                " created_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (guild_id, game, level, rounds, best_percent, created_at, due_at),
            )
            return Assignment(
                assignment_id, guild_id, game, level, rounds, best_percent, created_at, due_at
            )

        return await self._write(_tx)

    async def assignments(self, guild_id: int, *, due_after: int = 0) -> list[Assignment]:
        """The server's assignments due after ``due_after`` (0: all), soonest first."""

        def _tx(conn: sqlite3.Connection) -> list[Assignment]:
            found = all_rows(
                conn,
                "SELECT * FROM assignments WHERE guild_id = ? AND due_at > ? ORDER BY due_at, id",
                (guild_id, due_after),
            )
            return [record_of(Assignment, r) for r in found]

        return await self._read(_tx)


def _first_session(where: str, params: tuple[Any, ...]) -> Work[ClassSession | None]:
    def _tx(conn: sqlite3.Connection) -> ClassSession | None:
        found = all_rows(conn, f"SELECT * FROM class_sessions WHERE {where} LIMIT 1", params)
        return _session(found[0]) if found else None

    return _tx


def _session(row: Any) -> ClassSession:
    kept = row["preset"]
    preset = None if kept is None else NamedPreset.from_json(row["guild_id"], json.loads(kept))
    return record_of(ClassSession, row, preset=preset)


def _named(row: Any) -> NamedPreset:
    return record_of(
        NamedPreset, row, options=json.loads(row["options"]), locked=bool(row["locked"])
    )


def _preset(row: Any) -> ClassPreset:
    options, locked = json.loads(row["options"]), bool(row["locked"])
    return record_of(ClassPreset, row, options=options, locked=locked, name=None)
