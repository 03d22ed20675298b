"""Practice notes on Discord (RULES §2.6): how often a pupil's answer in a game was refused as
rounded or as a fraction not simplified. The refusal changes nothing in the game (its move
log stays as it was, so a replay is bit for bit the same); the count is kept here, beside the
game's result, for the teacher's summary and report. Never the text typed."""

from __future__ import annotations

import sqlite3

from storage.records import PRACTICE_NOTE_CODES, PracticeNote
from storage.sql import Transactions, all_rows


class NoteStorage(Transactions):
    """Practice notes per game, pupil and note code."""

    async def add_practice_note(self, game_id: int, guild_id: int, user_id: int, code: str) -> None:
        """One more note ``code`` for the pupil in the game (a code that is no practice note
        is not stored)."""
        if code not in PRACTICE_NOTE_CODES:
            return

        def _tx(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO practice_notes (game_id, guild_id, user_id, code, n)"
                " VALUES (?, ?, ?, ?, 1) ON CONFLICT (game_id, user_id, code)"
                " DO UPDATE SET n = practice_notes.n + 1",
                (game_id, guild_id, user_id, code),
            )

        await self._write(_tx)

    async def practice_notes(self, guild_id: int, user_id: int | None = None) -> list[PracticeNote]:
        """The server's notes (or one pupil's there), by game, pupil and code."""
        pupil = " AND user_id = ?" if user_id is not None else ""

        def _tx(conn: sqlite3.Connection) -> list[PracticeNote]:
            rows = all_rows(
                conn,
                "SELECT game_id, user_id, code, n FROM practice_notes WHERE guild_id = ?"
                + pupil
                + " ORDER BY game_id, user_id, code",
                (guild_id, *((user_id,) if user_id is not None else ())),
            )
            return [PracticeNote(int(r[0]), int(r[1]), str(r[2]), int(r[3])) for r in rows]

        return await self._read(_tx)
