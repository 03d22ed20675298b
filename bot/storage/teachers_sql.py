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

from bot.storage.records import SERVER_WIDE, ClassPreset


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


def _preset(row: Any) -> ClassPreset:
    return ClassPreset(
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        options=json.loads(row["options"]),
        locked=bool(row["locked"]),
        updated_at=row["updated_at"],
    )
