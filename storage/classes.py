"""Classes that remember: a class, its roster (each pupil a first name or a pseudonym and a
personal join card) and each pupil's rounds and practice notes across lessons.

Every method is one transaction. The caller supplies the times and the cards' codes (storage
draws nothing). Forgetting a pupil deletes the pupil's roster row, rounds and notes, and
renames the pupil's seats in the lessons of the class still kept (their seats' names and the
names on their games), so no name of the pupil is left in the database; deleting a class
deletes its pupils, rounds, notes and every lesson of the class still kept. Both are
remembered as fingerprints (`storage.fingerprints`), so that a backup restored later deletes
them again (`delete_again`).

A lesson belongs to a class when its stored state names it (``state.class_id``) and maps its
seats to the class's pupils (``state.pupils``: seat id → pupil id).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from storage.errors import NotFoundError, RosterConflictError
from storage.fingerprints import fingerprint, made, record
from storage.records.classes import ClassInfo, KeptClass, NoteRow, Pupil, RoundRow, TallyRow
from storage.sql import Transactions, all_rows, dump, new_id, one

FORGOTTEN = "–"  # a forgotten pupil's seat in a lesson still kept: no name at all
_OWNER = "coalesce(owner, '') = ?"


def _class(row: Any) -> ClassInfo:
    return ClassInfo(int(row["id"]), row["name"], row["owner"], row["keep_days"],
                     int(row["created_at"]))  # fmt: skip


def _pupil(row: Any) -> Pupil:
    return Pupil(int(row["id"]), int(row["class_id"]), row["name"], row["card"])


class ClassStorage(Transactions):
    """Classes, their rosters and their pupils' results across lessons."""

    async def create_class(
        self, name: str, at: int, owner: str | None = None, keep_days: int | None = None
    ) -> ClassInfo:
        """A new class; RosterConflictError("class") when the teacher has one of that name."""

        def _tx(conn: sqlite3.Connection) -> ClassInfo:
            if one(conn, f"SELECT id FROM classes WHERE name = ? AND {_OWNER}",
                   (name, owner or "")):  # fmt: skip
                raise RosterConflictError("class")
            new = new_id(
                conn,
                "INSERT INTO classes (name, owner, keep_days, created_at) VALUES (?, ?, ?, ?)"
                " RETURNING id",
                (name, owner, keep_days, at),
            )
            return ClassInfo(new, name, owner, keep_days, at)

        return await self._write(_tx)

    async def class_named(self, name: str, owner: str | None = None) -> ClassInfo | None:
        def _tx(conn: sqlite3.Connection) -> ClassInfo | None:
            row = one(conn, f"SELECT * FROM classes WHERE name = ? AND {_OWNER}",
                      (name, owner or ""))  # fmt: skip
            return None if row is None else _class(row)

        return await self._read(_tx)

    async def class_info(self, class_id: int) -> ClassInfo:
        """The class; NotFoundError if there is none (any more)."""

        def _tx(conn: sqlite3.Connection) -> ClassInfo:
            row = one(conn, "SELECT * FROM classes WHERE id = ?", (class_id,))
            if row is None:
                raise NotFoundError(f"no class {class_id}")
            return _class(row)

        return await self._read(_tx)

    async def classes(self, owner: str | None = None) -> list[ClassInfo]:
        def _tx(conn: sqlite3.Connection) -> list[ClassInfo]:
            rows = all_rows(conn, f"SELECT * FROM classes WHERE {_OWNER} ORDER BY name, id",
                            (owner or "",))  # fmt: skip
            return [_class(r) for r in rows]

        return await self._read(_tx)

    async def kept_classes(self) -> list[KeptClass]:
        """Every class kept, whoever's (a school server's teachers', removed ones' included, and
        the classes of `mattekrig class`), with its teacher's name and its roster's size: what
        whoever runs the lessons needs to find the class a request is about."""

        def _tx(conn: sqlite3.Connection) -> list[KeptClass]:
            rows = all_rows(
                conn,
                "SELECT c.*, t.name AS teacher, t.removed_at AS teacher_removed_at,"
                " (SELECT count(*) FROM class_pupils AS p WHERE p.class_id = c.id) AS pupils"
                " FROM classes AS c LEFT JOIN school_teachers AS t ON t.id = c.owner"
                " ORDER BY c.id",
            )
            kept = [
                KeptClass(
                    _class(r),
                    r["teacher"],
                    None if r["teacher_removed_at"] is None else int(r["teacher_removed_at"]),
                    int(r["pupils"]),
                )
                for r in rows
            ]
            # by name, then teacher (none first, a removed one after a present one): sorted
            # here, as SQLite and PostgreSQL put NULL at opposite ends
            return sorted(kept, key=lambda k: (
                k.info.name, k.teacher is not None, k.teacher or "",
                k.teacher_removed_at is not None, k.teacher_removed_at or 0, k.info.id,
            ))  # fmt: skip

        return await self._read(_tx)

    async def set_class_keep(self, class_id: int, keep_days: int | None) -> None:
        def _tx(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE classes SET keep_days = ? WHERE id = ?", (keep_days, class_id))

        await self._write(_tx)

    async def add_pupil(self, class_id: int, name: str, card: str, at: int) -> Pupil:
        """A pupil on the roster with a new card. RosterConflictError: "name" (the roster
        has it), "card" (the code is taken: draw another); NotFoundError (no such class)."""

        def _tx(conn: sqlite3.Connection) -> Pupil:
            if one(conn, "SELECT id FROM classes WHERE id = ?", (class_id,)) is None:
                raise NotFoundError(f"no class {class_id}")
            if one(conn, "SELECT id FROM class_pupils WHERE class_id = ? AND name = ?",
                   (class_id, name)):  # fmt: skip
                raise RosterConflictError("name")
            if one(conn, "SELECT id FROM class_pupils WHERE card = ?", (card,)):
                raise RosterConflictError("card")
            new = new_id(
                conn,
                "INSERT INTO class_pupils (class_id, name, card, created_at)"
                " VALUES (?, ?, ?, ?) RETURNING id",
                (class_id, name, card, at),
            )
            return Pupil(new, class_id, name, card)

        return await self._write(_tx)

    async def replace_card(self, pupil_id: int, card: str) -> Pupil:
        """A lost card replaced: the pupil's new code; the old one opens nothing any more.
        RosterConflictError("card"), NotFoundError."""

        def _tx(conn: sqlite3.Connection) -> Pupil:
            if one(conn, "SELECT id FROM class_pupils WHERE card = ?", (card,)):
                raise RosterConflictError("card")
            row = one(conn, "SELECT * FROM class_pupils WHERE id = ?", (pupil_id,))
            if row is None:
                raise NotFoundError(f"no pupil {pupil_id}")
            conn.execute("UPDATE class_pupils SET card = ? WHERE id = ?", (card, pupil_id))
            return Pupil(pupil_id, int(row["class_id"]), row["name"], card)

        return await self._write(_tx)

    async def pupils(self, class_id: int) -> list[Pupil]:
        """The roster, by name."""

        def _tx(conn: sqlite3.Connection) -> list[Pupil]:
            rows = all_rows(conn, "SELECT * FROM class_pupils WHERE class_id = ?"
                            " ORDER BY name, id", (class_id,))  # fmt: skip
            return [_pupil(r) for r in rows]

        return await self._read(_tx)

    async def pupil_by_card(self, card: str) -> Pupil | None:
        def _tx(conn: sqlite3.Connection) -> Pupil | None:
            row = one(conn, "SELECT * FROM class_pupils WHERE card = ?", (card,))
            return None if row is None else _pupil(row)

        return await self._read(_tx)

    async def record_rounds(
        self, class_id: int, rounds: Sequence[RoundRow], notes: Sequence[NoteRow]
    ) -> None:
        """Store rounds (a round stored already is left as it is) and practice-note counts
        (each game's count as it is now). Rows of a pupil no longer on the roster (forgotten
        meanwhile) are dropped."""

        def _tx(conn: sqlite3.Connection) -> None:
            rows = all_rows(conn, "SELECT id FROM class_pupils WHERE class_id = ?", (class_id,))
            known = {int(r["id"]) for r in rows}
            conn.executemany(
                "INSERT INTO class_rounds (class_id, pupil_id, lesson_id, lesson_at, game_id,"
                " seq, at, level, answered, best, kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (pupil_id, lesson_id, game_id, seq) DO NOTHING",
                [(class_id, r.pupil_id, r.lesson_id, r.lesson_at, r.game_id, r.seq, r.at,
                  r.level, int(r.answered), int(r.best), r.kind)
                 for r in rounds if r.pupil_id in known],
            )  # fmt: skip
            conn.executemany(
                "INSERT INTO class_notes (class_id, pupil_id, lesson_id, lesson_at, game_id,"
                " kind, n, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (pupil_id, lesson_id, game_id, kind) DO UPDATE SET n = excluded.n,"
                " at = excluded.at",
                [(class_id, n.pupil_id, n.lesson_id, n.lesson_at, n.game_id, n.kind, n.n, n.at)
                 for n in notes if n.pupil_id in known],
            )  # fmt: skip

        if rounds or notes:
            await self._write(_tx)

    async def class_rounds(
        self, class_id: int, pupil_id: int | None = None
    ) -> tuple[list[RoundRow], list[NoteRow]]:
        """Every round and note of the class (or of one pupil), oldest first."""

        def _tx(conn: sqlite3.Connection) -> tuple[list[RoundRow], list[NoteRow]]:
            where = "class_id = ?" + ("" if pupil_id is None else " AND pupil_id = ?")
            params: tuple[int, ...] = (class_id,) if pupil_id is None else (class_id, pupil_id)
            rounds = [
                RoundRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]), bool(r[8]), r[9])
                for r in conn.execute(
                    "SELECT pupil_id, lesson_id, lesson_at, game_id, seq, at, level, answered,"
                    f" best, kind FROM class_rounds WHERE {where} ORDER BY lesson_at, at",
                    params,
                ).fetchall()
            ]
            notes = [
                NoteRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6])
                for r in conn.execute(
                    "SELECT pupil_id, lesson_id, lesson_at, game_id, kind, n, at FROM class_notes"
                    f" WHERE {where} ORDER BY lesson_at, at",
                    params,
                ).fetchall()
            ]
            return rounds, notes

        return await self._read(_tx)

    async def class_tallies(
        self, class_id: int, pupil_id: int | None = None
    ) -> tuple[list[TallyRow], list[NoteRow]]:
        """The class's (or one pupil's) rounds counted per pupil, lesson, level and kind, and
        the notes per pupil, lesson and kind: what the progress pages need, counted by the
        database (a school year is some 48,000 rounds, a few thousand counts)."""

        def _tx(conn: sqlite3.Connection) -> tuple[list[TallyRow], list[NoteRow]]:
            where = "class_id = ?" + ("" if pupil_id is None else " AND pupil_id = ?")
            params: tuple[int, ...] = (class_id,) if pupil_id is None else (class_id, pupil_id)
            tallies = [
                TallyRow(r[0], r[1], r[2], r[3], r[4], r[5], int(r[6]), int(r[7]))
                for r in conn.execute(
                    "SELECT pupil_id, lesson_id, lesson_at, level, kind, count(*),"
                    f" sum(answered), sum(best) FROM class_rounds WHERE {where}"
                    " GROUP BY pupil_id, lesson_id, lesson_at, level, kind",
                    params,
                ).fetchall()
            ]
            notes = [
                NoteRow(r[0], r[1], r[2], "", r[3], int(r[4]), 0)
                for r in conn.execute(
                    "SELECT pupil_id, lesson_id, lesson_at, kind, sum(n) FROM class_notes"
                    f" WHERE {where} GROUP BY pupil_id, lesson_id, lesson_at, kind",
                    params,
                ).fetchall()
            ]
            return tallies, notes

        return await self._read(_tx)

    async def forget_pupil(self, pupil_id: int, at: int) -> bool:
        """Delete the pupil, the card, the rounds and notes, and the pupil's name in the
        lessons of the class still kept (module docstring), and remember it was done (a
        fingerprint: a backup restored later forgets the pupil again); False if there was
        none."""

        def _tx(conn: sqlite3.Connection) -> bool:
            row = one(conn, "SELECT * FROM class_pupils WHERE id = ?", (pupil_id,))
            if row is None:
                return False
            _forget_pupil(conn, pupil_id, int(row["class_id"]), row["name"])
            record(conn, "pupil", made(pupil_id, int(row["created_at"])), at)
            return True

        return await self._write(_tx)

    async def delete_class(self, class_id: int, at: int) -> bool:
        """Delete the class, its roster, its results and every lesson of it still kept, and
        remember it was done (a fingerprint: a backup restored later deletes it again)."""

        def _tx(conn: sqlite3.Connection) -> bool:
            row = one(conn, "SELECT created_at FROM classes WHERE id = ?", (class_id,))
            _delete_class(conn, class_id)
            if row is not None:
                record(conn, "class", made(class_id, int(row["created_at"])), at)
            return row is not None

        return await self._write(_tx)

    async def purge_class_rounds(self, now: int, school_year_start: int) -> int:
        """Delete the rounds and notes past their class's retention: older than its
        ``keep_days``, or (None) played before ``school_year_start`` (the caller's 1 August).
        Returns how many rows went."""

        def _tx(conn: sqlite3.Connection) -> int:
            gone = 0
            for c in all_rows(conn, "SELECT id, keep_days FROM classes"):
                days = c["keep_days"]
                before = school_year_start if days is None else now - int(days) * 86_400_000
                for table in ("class_rounds", "class_notes"):
                    gone += conn.execute(
                        f"DELETE FROM {table} WHERE class_id = ? AND at < ?", (c["id"], before)
                    ).rowcount
            return gone

        return await self._write(_tx)

    async def expire_classes(self, now: int, school_year_start: int) -> int:
        """Delete the classes past their retention, roster and all, as their results go
        (`purge_class_rounds`): a class nothing of which is newer than its cut (made, a round
        played, a lesson of it used before the school year began, or before its ``keep_days``)
        and with no lesson of it open. Returns how many classes went."""

        def _tx(conn: sqlite3.Connection) -> int:
            lessons = [
                (state.get("class_id"), status, used)
                for state, status, used in _lesson_states(conn)
            ]
            gone = 0
            for c in all_rows(conn, "SELECT id, keep_days, created_at FROM classes"):
                class_id, days = int(c["id"]), c["keep_days"]
                before = school_year_start if days is None else now - int(days) * 86_400_000
                if int(c["created_at"]) >= before:
                    continue
                latest = one(conn, "SELECT MAX(at) AS at FROM class_rounds WHERE class_id = ?",
                             (class_id,))  # fmt: skip
                if latest is not None and latest["at"] is not None and int(latest["at"]) >= before:
                    continue
                if any(k == class_id and (status == "open" or used >= before)
                       for k, status, used in lessons):  # fmt: skip
                    continue
                _delete_class(conn, class_id)
                gone += 1
            return gone

        return await self._write(_tx)


def _lesson_states(conn: sqlite3.Connection) -> list[tuple[dict[str, Any], str, int]]:
    """Every stored lesson's state, status and last use."""
    found = []
    for r in all_rows(conn, "SELECT state, status, used_at FROM lessons"):
        state = json.loads(r["state"])
        if isinstance(state, dict):
            found.append((state, str(r["status"]), int(r["used_at"])))
    return found


def delete_again(
    conn: sqlite3.Connection, key: bytes, marks: set[tuple[str, str]]
) -> dict[str, int]:
    """A restored backup's classes, pupils and lessons whose fingerprints (made with ``key``)
    are among ``marks`` (kind, fingerprint): deleted again, as they were deleted after the
    backup was taken. Returns how many of each."""
    counts = {"classes": 0, "pupils": 0, "lessons": 0}

    def marked(kind: str, row: Any) -> bool:
        return (kind, fingerprint(key, kind, made(int(row["id"]), int(row["created_at"])))) in marks

    for c in all_rows(conn, "SELECT id, created_at FROM classes ORDER BY id"):
        if marked("class", c):
            _delete_class(conn, int(c["id"]))
            counts["classes"] += 1
    for p in all_rows(conn, "SELECT id, class_id, name, created_at FROM class_pupils ORDER BY id"):
        if marked("pupil", p):
            _forget_pupil(conn, int(p["id"]), int(p["class_id"]), p["name"])
            counts["pupils"] += 1
    for lesson in all_rows(conn, "SELECT id, created_at FROM lessons ORDER BY id"):
        if marked("lesson", lesson):
            _delete_lesson(conn, int(lesson["id"]))
            counts["lessons"] += 1
    return counts


def _forget_pupil(conn: sqlite3.Connection, pupil_id: int, class_id: int, name: str) -> None:
    _scrub_lessons(conn, class_id, {pupil_id: name})
    for table in ("class_rounds", "class_notes"):
        conn.execute(f"DELETE FROM {table} WHERE pupil_id = ?", (pupil_id,))
    conn.execute("DELETE FROM class_pupils WHERE id = ?", (pupil_id,))


def _delete_class(conn: sqlite3.Connection, class_id: int) -> None:
    for lesson_id, _ in _lessons_of(conn, class_id):
        _delete_lesson(conn, lesson_id)
    for table in ("class_rounds", "class_notes", "class_pupils"):
        conn.execute(f"DELETE FROM {table} WHERE class_id = ?", (class_id,))
    conn.execute("DELETE FROM classes WHERE id = ?", (class_id,))


def _delete_lesson(conn: sqlite3.Connection, lesson_id: int) -> None:
    # The children first, as storage.lessons deletes a lesson: alike on both databases.
    for table in ("lesson_actions", "lesson_games", "lesson_seats"):
        conn.execute(f"DELETE FROM {table} WHERE lesson_id = ?", (lesson_id,))
    conn.execute("DELETE FROM lessons WHERE id = ?", (lesson_id,))


def _lessons_of(conn: sqlite3.Connection, class_id: int) -> list[tuple[int, dict[str, Any]]]:
    """The stored lessons of the class, with their state."""
    found = []
    for r in all_rows(conn, "SELECT id, state FROM lessons"):
        state = json.loads(r["state"])
        if isinstance(state, dict) and state.get("class_id") == class_id:
            found.append((int(r["id"]), state))
    return found


def _scrub_lessons(conn: sqlite3.Connection, class_id: int, names: dict[int, str]) -> None:
    """The forgotten pupils' seats in the class's lessons lose their names (their seats, and
    their names on the games they played), and the lessons forget whose the seats were."""
    for lesson_id, state in _lessons_of(conn, class_id):
        pupils = state.get("pupils") or {}
        seats = {seat: names[p] for seat, p in pupils.items() if p in names}
        if not seats:
            continue
        for seat in seats:
            conn.execute(
                "UPDATE lesson_seats SET name = ? WHERE lesson_id = ? AND id = ?",
                (FORGOTTEN, lesson_id, seat),
            )
        gone = set(seats.values())
        for g in all_rows(conn, "SELECT id, names FROM lesson_games WHERE lesson_id = ?",
                          (lesson_id,)):  # fmt: skip
            kept = [
                " & ".join(FORGOTTEN if part in gone else part for part in str(n).split(" & "))
                for n in json.loads(g["names"])
            ]
            conn.execute("UPDATE lesson_games SET names = ? WHERE lesson_id = ? AND id = ?",
                         (dump(kept), lesson_id, g["id"]))  # fmt: skip
        state["pupils"] = {s: p for s, p in pupils.items() if s not in seats}
        conn.execute("UPDATE lessons SET state = ? WHERE id = ?", (dump(state), lesson_id))


__all__ = ["FORGOTTEN", "ClassStorage", "delete_again"]
