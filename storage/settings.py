"""The teacher's settings per server, kept in memory after the first read."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from typing import Any, Unpack

from storage.records import (
    ANSWER_FORMS,
    BOARD_SORTS,
    BOARD_VISIBILITIES,
    GuildSettings,
    SettingsChange,
)
from storage.sql import Transactions, one, record_of


class SettingsStorage(Transactions):
    """The teacher's settings per server."""

    # Filled by `Storage`: the settings read so far, and a count of writes, so a read that
    # raced a write does not keep the old settings.
    _settings_cache: dict[int, GuildSettings]
    _settings_generation: int

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The teacher's settings (the defaults when never set).

        Read on every start and most commands, changed a few times a term: kept in memory
        after the first read (one round trip less per start). This process is the
        database's only writer, and every write of the settings goes through here."""
        cached = self._settings_cache.get(guild_id)
        if cached is not None:
            return cached
        generation = self._settings_generation

        def _tx(conn: sqlite3.Connection) -> GuildSettings:
            row = one(conn, "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
            return GuildSettings(guild_id) if row is None else _settings(row)

        found = await self._read(_tx)
        if generation == self._settings_generation:  # no change was written meanwhile
            self._settings_cache[guild_id] = found
        return found

    def _settings_changed(self, guild_id: int, now: GuildSettings | None) -> None:
        self._settings_generation += 1
        if now is None:
            self._settings_cache.pop(guild_id, None)
        else:
            self._settings_cache[guild_id] = now

    async def update_guild_settings(
        self, guild_id: int, at: int, **change: Unpack[SettingsChange]
    ) -> GuildSettings:
        """Change the given settings, keep the others (`SettingsChange`)."""
        board, channels = change.get("board"), change.get("channels")
        answer_form, public_board = change.get("answer_form"), change.get("public_board")
        given: dict[str, Any] = {
            name: value for name, value in change.items() if value is not None or name == "language"
        }
        if channels is not None:
            given["channels"] = tuple(dict.fromkeys(channels))
        if board is not None and board not in BOARD_VISIBILITIES:
            raise ValueError(f"board must be one of {BOARD_VISIBILITIES}")
        if answer_form is not None and answer_form not in ANSWER_FORMS:
            raise ValueError(f"answer_form must be one of {ANSWER_FORMS}")
        if public_board is not None and public_board not in BOARD_SORTS:
            raise ValueError(f"public_board must be one of {BOARD_SORTS}")

        def _tx(conn: sqlite3.Connection) -> GuildSettings:
            row = one(conn, "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
            old = GuildSettings(guild_id) if row is None else _settings(row)
            new = replace(old, **given, updated_at=at)
            conn.execute(
                "INSERT INTO guild_settings (guild_id, board, channels, language, threads,"
                " pings, answer_form, updated_at, public_board, pictures)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET"
                " board = excluded.board, channels = excluded.channels,"
                " language = excluded.language, threads = excluded.threads,"
                " pings = excluded.pings, answer_form = excluded.answer_form,"
                " updated_at = excluded.updated_at, public_board = excluded.public_board,"
                " pictures = excluded.pictures",
                (
                    guild_id,
                    new.board,
                    json.dumps(list(new.channels)),
                    new.language,
                    int(new.threads),
                    int(new.pings),
                    new.answer_form,
                    at,
                    new.public_board,
                    int(new.pictures),
                ),
            )
            return new

        self._settings_changed(guild_id, None)  # a read in flight must not keep the old one
        stored = await self._write(_tx)
        self._settings_changed(guild_id, stored)
        return stored


def _settings(row: sqlite3.Row) -> GuildSettings:
    flags = {name: bool(row[name]) for name in ("threads", "pings", "pictures")}
    return record_of(GuildSettings, row, channels=tuple(json.loads(row["channels"])), **flags)
