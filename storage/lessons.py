"""Class lessons in the browser, stored as they happen: the lesson's row (code, the digest of
the teacher's secret, the class's game, its state, the pause), its seats, its games and each
game's actions, so that `mattekrig class` after a crash brings back the same lesson.

Every change of a lesson is one transaction (`commit_lesson`): the lesson's row as it is now,
the seats and games that changed, and the actions accepted, numbered on from each game's
last (a seq taken is `EventConflictError`, a gap a `ValueError`). The lesson calls it before
anyone sees the change.

Fenced writes: on a school server (PostgreSQL, several processes) a lesson is served by the
process holding its lease, a session advisory lock on that process's lease connection
(`storage.postgres.leases`). A process can lose that connection and not know it for seconds
while another takes the lesson over; a write it began meanwhile must not land beside the new
holder's. So a write given a `LeaseFence` first checks, inside its own transaction, that the
lesson's lock is granted to that very session (`pg_locks`, `pg_stat_activity`), and is
refused whole otherwise (`LeaseLostError`). The check runs after the lesson's write lock
(`storage.postgres.storage`), and the new holder reads the lesson only after that lock too,
so a write either was committed before the new holder read the lesson or sees its lease gone.

Retention: an ended lesson keeps its data until `keep_until` (`end_lesson`), then
`purge_lessons` deletes it whole; a retention of 0 deletes it as it ends. An open lesson
nobody has used for a while is ended as of its last use (`end_idle_lessons`), so it is
deleted in its turn.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from storage.errors import (
    EventConflictError,
    LeaseLostError,
    LessonClosedError,
    LessonCodeTakenError,
    NotFoundError,
)
from storage.fingerprints import made, record
from storage.records.lessons import (
    LeaseFence,
    LessonAction,
    LessonChange,
    LessonGame,
    LessonInfo,
    LessonSeat,
    NewLesson,
    StoredLesson,
)
from storage.sql import Transactions, all_rows, dump, new_id, one

_INFO = (
    "SELECT l.id, l.code, l.owner, l.status, l.created_at, l.used_at, l.ended_at,"
    " l.keep_until,"
    " (SELECT count(*) FROM lesson_seats AS s WHERE s.lesson_id = l.id) AS seats,"
    " (SELECT count(*) FROM lesson_games AS g WHERE g.lesson_id = l.id) AS games,"
    " (SELECT count(*) FROM lesson_actions AS a WHERE a.lesson_id = l.id) AS actions"
    " FROM lessons AS l"
)

# A laptop's lessons have no owner; a school server's, the teacher's id (both databases read
# this alike, where ``IS NOT DISTINCT FROM`` needs a newer SQLite).
_OWNER = "coalesce(owner, '') = ?"


def _owner(owner: str | None) -> tuple[str]:
    return (owner or "",)


class LessonStorage(Transactions):
    """Lessons, their seats, games and actions."""

    async def create_lesson(self, new: NewLesson, at: int) -> int:
        """A new open lesson; returns its id. LessonCodeTakenError when an open lesson has
        the code already (draw another)."""

        def _tx(conn: sqlite3.Connection) -> int:
            if one(conn, "SELECT id FROM lessons WHERE code = ? AND status = 'open'", (new.code,)):
                raise LessonCodeTakenError(new.code)
            return new_id(
                conn,
                "INSERT INTO lessons (code, teacher_key, key_nonce, owner, setup, state,"
                " created_at, used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (new.code, new.teacher_key, new.key_nonce, new.owner, dump(new.setup),
                 dump(new.state), at, at),
            )  # fmt: skip

        return await self._write(_tx)

    async def commit_lesson(
        self, lesson_id: int, change: LessonChange, *, fence: LeaseFence | None = None
    ) -> None:
        """Store one change of an open lesson whole (see the module's docstring).
        NotFoundError, LessonClosedError (ended), EventConflictError (a seq taken),
        ValueError (a gap, or an action of a game the lesson does not have),
        LeaseLostError (``fence`` no longer holds the lesson)."""
        _check_actions(change.actions)

        def _tx(conn: sqlite3.Connection) -> None:
            _check_fence(conn, lesson_id, fence)
            _commit(conn, lesson_id, change)

        await self._write(_tx)

    async def load_lesson(self, lesson_id: int) -> StoredLesson:
        """The lesson with its seats, games and every action; NotFoundError if unknown."""
        return await self._read(lambda conn: _load(conn, lesson_id))

    async def resumable_lesson(self, since: int, owner: str | None = None) -> int | None:
        """The open lesson (of ``owner``) used most recently at or after ``since``, if any."""

        def _tx(conn: sqlite3.Connection) -> int | None:
            row = one(
                conn,
                "SELECT id FROM lessons WHERE status = 'open' AND used_at >= ?"
                f" AND {_OWNER} ORDER BY used_at DESC, id DESC LIMIT 1",
                (since, *_owner(owner)),
            )
            return None if row is None else int(row["id"])

        return await self._read(_tx)

    async def open_lesson_by_code(self, code: str) -> int | None:
        """The open lesson a join code opens, if any (a school server's front page)."""

        def _tx(conn: sqlite3.Connection) -> int | None:
            row = one(conn, "SELECT id FROM lessons WHERE code = ? AND status = 'open'", (code,))
            return None if row is None else int(row["id"])

        return await self._read(_tx)

    async def lessons(self, owner: str | None = None, limit: int = 50) -> list[LessonInfo]:
        """The lessons (of ``owner``) still kept, newest first."""

        def _tx(conn: sqlite3.Connection) -> list[LessonInfo]:
            rows = all_rows(
                conn,
                f"{_INFO} WHERE {_OWNER.replace('owner', 'l.owner')}"
                " ORDER BY l.created_at DESC, l.id DESC LIMIT ?",
                (*_owner(owner), limit),
            )
            return [_info(r) for r in rows]

        return await self._read(_tx)

    async def end_lesson(
        self, lesson_id: int, at: int, keep_ms: int, *, fence: LeaseFence | None = None
    ) -> bool:
        """End an open lesson: its data is kept ``keep_ms`` more (0 or less: deleted now, and
        True is returned). Ending an ended lesson again changes nothing. NotFoundError,
        LeaseLostError (``fence`` no longer holds the lesson)."""

        def _tx(conn: sqlite3.Connection) -> bool:
            _check_fence(conn, lesson_id, fence)
            row = one(conn, "SELECT status FROM lessons WHERE id = ?", (lesson_id,))
            if row is None:
                raise NotFoundError(f"no lesson {lesson_id}")
            if keep_ms <= 0:
                _delete(conn, lesson_id)
                return True
            if row["status"] == "open":
                conn.execute(
                    "UPDATE lessons SET status = 'ended', ended_at = ?, used_at = ?,"
                    " keep_until = ? WHERE id = ?",
                    (at, at, at + keep_ms, lesson_id),
                )
            return False

        return await self._write(_tx)

    async def end_idle_lessons(self, before: int, keep_ms: int, owner: str | None = None) -> int:
        """End every open lesson (of ``owner``) last used before ``before``, as of its last
        use, kept ``keep_ms`` from then (0: deleted now). Returns how many."""

        def _tx(conn: sqlite3.Connection) -> int:
            rows = all_rows(
                conn,
                "SELECT id, used_at FROM lessons WHERE status = 'open' AND used_at < ?"
                f" AND {_OWNER}",
                (before, *_owner(owner)),
            )
            for r in rows:
                _end_idle(conn, int(r["id"]), keep_ms)
            return len(rows)

        return await self._write(_tx)

    async def idle_lessons(self, before: int, limit: int = 100) -> list[tuple[int, str]]:
        """The open lessons (id, code) last used before ``before``, least recently used
        first: a school server ends each one only while it holds its lease (nobody serves it)."""

        def _tx(conn: sqlite3.Connection) -> list[tuple[int, str]]:
            rows = all_rows(
                conn,
                "SELECT id, code FROM lessons WHERE status = 'open' AND used_at < ?"
                " ORDER BY used_at, id LIMIT ?",
                (before, limit),
            )
            return [(int(r["id"]), str(r["code"])) for r in rows]

        return await self._read(_tx)

    async def end_idle_lesson(
        self, lesson_id: int, before: int, keep_ms: int, *, fence: LeaseFence | None = None
    ) -> bool:
        """End one lesson as `end_idle_lessons` does, if it is still open and still last used
        before ``before`` (a press since the list was read keeps it open). True if ended.
        LeaseLostError (``fence`` no longer holds the lesson)."""

        def _tx(conn: sqlite3.Connection) -> bool:
            _check_fence(conn, lesson_id, fence)
            row = one(
                conn,
                "SELECT id FROM lessons WHERE id = ? AND status = 'open' AND used_at < ?",
                (lesson_id, before),
            )
            if row is None:
                return False
            _end_idle(conn, lesson_id, keep_ms)
            return True

        return await self._write(_tx)

    async def delete_lesson(
        self, lesson_id: int, at: int, *, fence: LeaseFence | None = None
    ) -> bool:
        """Delete a lesson and everything of it now, and remember it was done (a fingerprint:
        a backup restored later deletes it again); False if there was none. LeaseLostError
        (``fence`` no longer holds the lesson)."""

        def _tx(conn: sqlite3.Connection) -> bool:
            _check_fence(conn, lesson_id, fence)
            row = one(conn, "SELECT created_at FROM lessons WHERE id = ?", (lesson_id,))
            if row is None:
                return False
            _delete(conn, lesson_id)
            record(conn, "lesson", made(lesson_id, int(row["created_at"])), at)
            return True

        return await self._write(_tx)

    async def purge_lessons(self, now: int) -> int:
        """Delete the ended lessons whose retention has run out; returns how many."""

        def _tx(conn: sqlite3.Connection) -> int:
            rows = all_rows(
                conn,
                "SELECT id FROM lessons WHERE keep_until IS NOT NULL AND keep_until <= ?",
                (now,),
            )
            for r in rows:
                _delete(conn, int(r["id"]))
            return len(rows)

        return await self._write(_tx)


def _check_actions(actions: Sequence[LessonAction]) -> None:
    for action in actions:
        if action.seq < 0:
            raise ValueError(f"seq must be >= 0, not {action.seq}")


# A session's start as the fence keeps it: microseconds since the epoch (the lease connection
# reads its own with the same expression, so the two always compare equal).
BACKEND_START = "CAST(extract(epoch FROM {start}) * 1000000 AS bigint)"
# The lease's two-int4 advisory key shows in pg_locks as classid (an oid: the namespace's
# bits, hence the int4 → oid cast of a negative hash), objid and objsubid 2; the session is
# named by its process id and its start, since the server reuses process ids.
_FENCE = (
    "SELECT 1 FROM pg_locks AS l JOIN pg_stat_activity AS a ON a.pid = l.pid"
    " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2"
    " AND l.classid = CAST(CAST(? AS integer) AS oid) AND l.objid = CAST(? AS oid)"
    f" AND l.pid = ? AND {BACKEND_START.format(start='a.backend_start')} = ?"
)


def _check_fence(conn: sqlite3.Connection, lesson_id: int, fence: LeaseFence | None) -> None:
    """Refuse the write unless ``fence``'s session holds the lesson's lease (see the module's
    docstring); no fence: nothing to check (a laptop, SQLite)."""
    if fence is None:
        return
    if isinstance(conn, sqlite3.Connection):
        raise ValueError("a lease fence is PostgreSQL's: SQLite's one process needs none")
    params = (fence.namespace, lesson_id, fence.backend_pid, fence.backend_start)
    if one(conn, _FENCE, params) is None:
        raise LeaseLostError(lesson_id)


def _end_idle(conn: sqlite3.Connection, lesson_id: int, keep_ms: int) -> None:
    """Ended as of its last use, kept ``keep_ms`` from then (0 or less: deleted now)."""
    if keep_ms <= 0:
        _delete(conn, lesson_id)
    else:
        conn.execute(
            "UPDATE lessons SET status = 'ended', ended_at = used_at,"
            " keep_until = used_at + ? WHERE id = ?",
            (keep_ms, lesson_id),
        )


def _delete(conn: sqlite3.Connection, lesson_id: int) -> bool:
    # The children first, explicitly: the same on both databases, whatever their cascades.
    for table in ("lesson_actions", "lesson_games", "lesson_seats"):
        conn.execute(f"DELETE FROM {table} WHERE lesson_id = ?", (lesson_id,))
    return conn.execute("DELETE FROM lessons WHERE id = ?", (lesson_id,)).rowcount > 0


def _commit(conn: sqlite3.Connection, lesson_id: int, change: LessonChange) -> None:
    row = one(conn, "SELECT status FROM lessons WHERE id = ?", (lesson_id,))
    if row is None:
        raise NotFoundError(f"no lesson {lesson_id}")
    if row["status"] != "open":
        raise LessonClosedError(lesson_id)
    if change.setup is None or change.state is None:
        conn.execute("UPDATE lessons SET used_at = ? WHERE id = ?", (change.at, lesson_id))
    else:
        conn.execute(
            "UPDATE lessons SET setup = ?, state = ?, paused_at = ?, used_at = ? WHERE id = ?",
            (dump(change.setup), dump(change.state), change.paused_at, change.at, lesson_id),
        )
    if change.seats:
        conn.executemany(
            "INSERT INTO lesson_seats (lesson_id, id, name, device, joined, game_id, met,"
            " removed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (lesson_id, id) DO UPDATE SET name = excluded.name,"
            " device = excluded.device, game_id = excluded.game_id, met = excluded.met,"
            " removed = excluded.removed",
            [(lesson_id, s.id, s.name, s.device, s.joined, s.game_id, dump(sorted(s.met)),
              int(s.removed)) for s in change.seats],
        )  # fmt: skip
    for g in change.games:  # a game's settings and seed are written once, when it is new
        moved = conn.execute(
            "UPDATE lesson_games SET names = ?, seats = ?, clocks = ?, over = ?, updated_at = ?"
            " WHERE lesson_id = ? AND id = ?",
            (dump(list(g.names)), dump([list(s) for s in g.seats]), dump(g.clocks),
             int(g.over), change.at, lesson_id, g.id),
        )  # fmt: skip
        if moved.rowcount == 0:
            conn.execute(
                "INSERT INTO lesson_games (lesson_id, id, number, settings, seed, names, seats,"
                " clocks, over, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (lesson_id, g.id, g.number, dump(g.settings), g.seed, dump(list(g.names)),
                 dump([list(s) for s in g.seats]), dump(g.clocks), int(g.over), change.at,
                 change.at),
            )  # fmt: skip
    _append(conn, lesson_id, change)


def _append(conn: sqlite3.Connection, lesson_id: int, change: LessonChange) -> None:
    """The actions, each game's numbered on from its last stored one."""
    expected: dict[str, int] = {}
    for action in change.actions:
        game = action.game_id
        if game not in expected:
            last = one(
                conn,
                "SELECT (SELECT max(seq) FROM lesson_actions WHERE lesson_id = ? AND game_id = ?)"
                " AS last, (SELECT count(*) FROM lesson_games WHERE lesson_id = ? AND id = ?)"
                " AS known",
                (lesson_id, game, lesson_id, game),
            )
            if last is None or not last["known"]:
                raise ValueError(f"lesson {lesson_id} has no game {game!r}")
            expected[game] = 0 if last["last"] is None else int(last["last"]) + 1
        if action.seq < expected[game]:
            raise EventConflictError(0, action.seq, f"game {game!r} already has {action.seq}")
        if action.seq > expected[game]:
            raise ValueError(f"game {game!r}: next seq is {expected[game]}, not {action.seq}")
        conn.execute(
            "INSERT INTO lesson_actions (lesson_id, game_id, seq, action, seat_id, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (lesson_id, game, action.seq, dump(action.action), action.seat_id,
             change.at if action.at is None else action.at),
        )  # fmt: skip
        expected[game] += 1


def _info(row: Any) -> LessonInfo:
    return LessonInfo(
        id=int(row["id"]),
        code=row["code"],
        owner=row["owner"],
        status=row["status"],
        created_at=int(row["created_at"]),
        used_at=int(row["used_at"]),
        ended_at=row["ended_at"],
        keep_until=row["keep_until"],
        seats=int(row["seats"]),
        games=int(row["games"]),
        actions=int(row["actions"]),
    )


def _load(conn: sqlite3.Connection, lesson_id: int) -> StoredLesson:
    head = one(conn, f"{_INFO} WHERE l.id = ?", (lesson_id,))
    row = one(conn, "SELECT * FROM lessons WHERE id = ?", (lesson_id,))
    if head is None or row is None:
        raise NotFoundError(f"no lesson {lesson_id}")
    seats = tuple(
        LessonSeat(
            id=r["id"],
            name=r["name"],
            device=r["device"],
            joined=int(r["joined"]),
            game_id=r["game_id"],
            met=tuple(json.loads(r["met"])),
            removed=bool(r["removed"]),
        )
        for r in all_rows(
            conn, "SELECT * FROM lesson_seats WHERE lesson_id = ? ORDER BY joined, id", (lesson_id,)
        )
    )
    games = tuple(
        LessonGame(
            id=r["id"],
            number=int(r["number"]),
            settings=json.loads(r["settings"]),
            seed=int(r["seed"]),
            names=tuple(json.loads(r["names"])),
            seats=tuple(tuple(s) for s in json.loads(r["seats"])),
            clocks=json.loads(r["clocks"]),
            over=bool(r["over"]),
            created_at=int(r["created_at"]),
        )
        for r in all_rows(
            conn, "SELECT * FROM lesson_games WHERE lesson_id = ? ORDER BY number", (lesson_id,)
        )
    )
    actions = tuple(
        LessonAction(
            r["game_id"],
            int(r["seq"]),
            json.loads(r["action"]),
            r["seat_id"],
            int(r["created_at"]),
        )
        for r in all_rows(
            conn,
            "SELECT a.* FROM lesson_actions AS a JOIN lesson_games AS g"
            " ON g.lesson_id = a.lesson_id AND g.id = a.game_id"
            " WHERE a.lesson_id = ? ORDER BY g.number, a.seq",
            (lesson_id,),
        )
    )
    return StoredLesson(
        info=_info(head),
        teacher_key=row["teacher_key"],
        key_nonce=row["key_nonce"],
        setup=json.loads(row["setup"]),
        state=json.loads(row["state"]),
        paused_at=row["paused_at"],
        seats=seats,
        games=games,
        actions=actions,
    )


__all__ = ["BACKEND_START", "LessonStorage"]
