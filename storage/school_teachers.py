"""A school server's teachers and how they sign in (`mattekrig serve`): the teachers the
operator added, their one-time sign-in links and their browsers' sessions.

A link's or a session's token is handed in as the caller holds it and kept only as its
SHA-256 (`token_digest`): whoever reads the database, a backup or a log of its statements
holds no way in. A link is spent by a conditional UPDATE in the same transaction that opens
the session, so two presses of one link (two tabs, two processes) sign in once.

A removed teacher keeps their row (their lessons' and classes' ``owner`` still names it until
those run out) but signs in no more: their sessions and links are deleted with the removal,
and every read here skips a removed teacher. Expired links and sessions, and a removed
teacher once nothing is kept under their id, are deleted by `purge_sign_ins`; until then a
read treats them as gone.
"""

from __future__ import annotations

import hashlib
import sqlite3
from typing import Any

from storage.errors import NotFoundError, SchoolConflictError
from storage.records.school import Teacher
from storage.sql import Transactions, all_rows, one

_PRESENT = "removed_at IS NULL"
_COLUMNS = "id, name, oidc_subject, created_at, signed_in_at"


def token_digest(token: str) -> str:
    """What is stored of a token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _teacher(row: Any) -> Teacher:
    return Teacher(
        id=row["id"],
        name=row["name"],
        bound=row["oidc_subject"] is not None,
        created_at=int(row["created_at"]),
        signed_in_at=None if row["signed_in_at"] is None else int(row["signed_in_at"]),
    )


def _present(conn: sqlite3.Connection, teacher_id: str) -> Teacher | None:
    row = one(
        conn, f"SELECT {_COLUMNS} FROM school_teachers WHERE id = ? AND {_PRESENT}", (teacher_id,)
    )
    return None if row is None else _teacher(row)


def _open_session(
    conn: sqlite3.Connection, teacher_id: str, session: str, at: int, expires_at: int
) -> Teacher:
    conn.execute(
        "INSERT INTO school_sessions (token_hash, teacher_id, created_at, expires_at)"
        " VALUES (?, ?, ?, ?)",
        (token_digest(session), teacher_id, at, expires_at),
    )
    conn.execute("UPDATE school_teachers SET signed_in_at = ? WHERE id = ?", (at, teacher_id))
    teacher = _present(conn, teacher_id)
    if teacher is None:  # checked by every caller in the same transaction
        raise NotFoundError(f"no teacher {teacher_id}")
    return teacher


class SchoolTeacherStorage(Transactions):
    """A school server's teachers, sign-in links and sessions."""

    async def add_school_teacher(self, teacher_id: str, name: str, at: int) -> Teacher:
        """A new teacher; SchoolConflictError("name") when a present teacher has the name."""

        def _tx(conn: sqlite3.Connection) -> Teacher:
            if one(conn, f"SELECT id FROM school_teachers WHERE name = ? AND {_PRESENT}", (name,)):
                raise SchoolConflictError("name")
            try:
                conn.execute(
                    "INSERT INTO school_teachers (id, name, created_at) VALUES (?, ?, ?)",
                    (teacher_id, name, at),
                )
            except sqlite3.IntegrityError as exc:  # another process added the name meanwhile
                raise SchoolConflictError("name") from exc
            return Teacher(teacher_id, name, bound=False, created_at=at, signed_in_at=None)

        return await self._write(_tx)

    async def school_teachers(self) -> list[Teacher]:
        """The present teachers, by name."""

        def _tx(conn: sqlite3.Connection) -> list[Teacher]:
            rows = all_rows(
                conn, f"SELECT {_COLUMNS} FROM school_teachers WHERE {_PRESENT} ORDER BY name, id"
            )
            return [_teacher(r) for r in rows]

        return await self._read(_tx)

    async def school_teacher(self, teacher_id: str) -> Teacher | None:
        """The present teacher of that id (None: unknown or removed)."""
        return await self._read(lambda conn: _present(conn, teacher_id))

    async def school_teacher_named(self, name: str) -> Teacher | None:
        """The present teacher of that name."""

        def _tx(conn: sqlite3.Connection) -> Teacher | None:
            row = one(
                conn, f"SELECT {_COLUMNS} FROM school_teachers WHERE name = ? AND {_PRESENT}",
                (name,),
            )  # fmt: skip
            return None if row is None else _teacher(row)

        return await self._read(_tx)

    async def add_sign_in_link(self, teacher_id: str, token: str, at: int, expires_at: int) -> None:
        """A one-time sign-in link for a present teacher (their older links stay valid until
        spent or expired). NotFoundError: no such teacher, or removed."""

        def _tx(conn: sqlite3.Connection) -> None:
            if _present(conn, teacher_id) is None:
                raise NotFoundError(f"no teacher {teacher_id}")
            conn.execute(
                "INSERT INTO school_links (token_hash, teacher_id, created_at, expires_at)"
                " VALUES (?, ?, ?, ?)",
                (token_digest(token), teacher_id, at, expires_at),
            )

        await self._write(_tx)

    async def sign_in_link(self, token: str, now: int) -> Teacher | None:
        """The teacher a link would sign in now (unspent, not expired, teacher present);
        nothing is spent."""

        def _tx(conn: sqlite3.Connection) -> Teacher | None:
            row = one(
                conn,
                f"SELECT {', '.join('t.' + c for c in _COLUMNS.split(', '))}"
                " FROM school_links AS l JOIN school_teachers AS t ON t.id = l.teacher_id"
                " WHERE l.token_hash = ? AND l.spent_at IS NULL AND l.expires_at > ?"
                " AND t.removed_at IS NULL",
                (token_digest(token), now),
            )
            return None if row is None else _teacher(row)

        return await self._read(_tx)

    async def spend_sign_in_link(
        self,
        token: str,
        session: str,
        at: int,
        session_expires_at: int,
        account: tuple[str, str] | None = None,
    ) -> Teacher | None:
        """Spend a valid link and open a session for its teacher, in one transaction; with
        ``account`` (OpenID Connect issuer, subject) that account is bound to the teacher
        (in place of one bound before). None: the link is unknown, spent, expired or its
        teacher removed (nothing changes). SchoolConflictError("account"): another present
        teacher has the account (nothing changes, the link stays unspent)."""

        def _tx(conn: sqlite3.Connection) -> Teacher | None:
            row = one(
                conn,
                "SELECT l.teacher_id FROM school_links AS l"
                " JOIN school_teachers AS t ON t.id = l.teacher_id"
                " WHERE l.token_hash = ? AND l.spent_at IS NULL AND l.expires_at > ?"
                " AND t.removed_at IS NULL",
                (token_digest(token), at),
            )
            if row is None:
                return None
            teacher_id: str = row["teacher_id"]
            if account is not None:
                other = one(
                    conn,
                    "SELECT id FROM school_teachers WHERE oidc_issuer = ? AND oidc_subject = ?"
                    f" AND {_PRESENT} AND id <> ?",
                    (*account, teacher_id),
                )
                if other is not None:
                    raise SchoolConflictError("account")
            spent = conn.execute(
                "UPDATE school_links SET spent_at = ? WHERE token_hash = ? AND spent_at IS NULL",
                (at, token_digest(token)),
            )
            if spent.rowcount != 1:  # another press spent it first
                return None
            if account is not None:
                try:
                    conn.execute(
                        "UPDATE school_teachers SET oidc_issuer = ?, oidc_subject = ? WHERE id = ?",
                        (*account, teacher_id),
                    )
                except sqlite3.IntegrityError as exc:  # bound elsewhere meanwhile
                    raise SchoolConflictError("account") from exc
            return _open_session(conn, teacher_id, session, at, session_expires_at)

        return await self._write(_tx)

    async def sign_in_account(
        self, issuer: str, subject: str, session: str, at: int, session_expires_at: int
    ) -> Teacher | None:
        """Open a session for the present teacher bound to the account; None (nothing
        changes) when no teacher is: an account signs in only once a link has bound it."""

        def _tx(conn: sqlite3.Connection) -> Teacher | None:
            row = one(
                conn,
                "SELECT id FROM school_teachers WHERE oidc_issuer = ? AND oidc_subject = ?"
                f" AND {_PRESENT}",
                (issuer, subject),
            )
            if row is None:
                return None
            return _open_session(conn, row["id"], session, at, session_expires_at)

        return await self._write(_tx)

    async def session_teacher(self, session: str, now: int) -> Teacher | None:
        """The present teacher a session (not expired) belongs to."""

        def _tx(conn: sqlite3.Connection) -> Teacher | None:
            row = one(
                conn,
                f"SELECT {', '.join('t.' + c for c in _COLUMNS.split(', '))}"
                " FROM school_sessions AS s JOIN school_teachers AS t ON t.id = s.teacher_id"
                " WHERE s.token_hash = ? AND s.expires_at > ? AND t.removed_at IS NULL",
                (token_digest(session), now),
            )
            return None if row is None else _teacher(row)

        return await self._read(_tx)

    async def end_school_session(self, session: str) -> bool:
        """Sign a browser out; False if there was no such session."""

        def _tx(conn: sqlite3.Connection) -> bool:
            done = conn.execute(
                "DELETE FROM school_sessions WHERE token_hash = ?", (token_digest(session),)
            )
            return done.rowcount > 0

        return await self._write(_tx)

    async def remove_school_teacher(self, teacher_id: str, at: int) -> bool:
        """The teacher signs in no more: every session and link of theirs is deleted now, and
        the name may be given to a new teacher. Their lessons and classes stay (owned by the
        id) until their own retention. False if no present teacher has the id."""

        def _tx(conn: sqlite3.Connection) -> bool:
            removed = conn.execute(
                f"UPDATE school_teachers SET removed_at = ? WHERE id = ? AND {_PRESENT}",
                (at, teacher_id),
            )
            for table in ("school_sessions", "school_links"):
                conn.execute(f"DELETE FROM {table} WHERE teacher_id = ?", (teacher_id,))
            return removed.rowcount > 0

        return await self._write(_tx)

    async def purge_sign_ins(self, now: int) -> int:
        """Delete the links and sessions expired by ``now`` (and the spent links, which open
        nothing any more), and the removed teachers no lesson or class is kept under any
        more; returns how many rows went."""

        def _tx(conn: sqlite3.Connection) -> int:
            links = conn.execute(
                "DELETE FROM school_links WHERE expires_at <= ? OR spent_at IS NOT NULL", (now,)
            )
            sessions = conn.execute("DELETE FROM school_sessions WHERE expires_at <= ?", (now,))
            teachers = conn.execute(
                "DELETE FROM school_teachers AS t WHERE t.removed_at IS NOT NULL"
                " AND NOT EXISTS (SELECT 1 FROM lessons AS l WHERE l.owner = t.id)"
                " AND NOT EXISTS (SELECT 1 FROM classes AS c WHERE c.owner = t.id)"
            )
            return links.rowcount + sessions.rowcount + teachers.rowcount

        return await self._write(_tx)


__all__ = ["SchoolTeacherStorage", "token_digest"]
