"""`PostgresStorage`: the SQLite backend's methods over PostgreSQL.

It is `storage.sqlite.Storage` with another database underneath: every contract method
runs the same transaction function, on a psycopg connection dressed as a sqlite3 one
(`connection.Connection`, parameters spelled by `dialect`). What PostgreSQL adds is
serialisation across processes: SQLite's single writer serialises everything; here
several bot processes write at once, so every write that names a game first takes that
game's advisory lock (held to the end of the batch's transaction). A second
process that (misconfigured) drives the same game waits for the first one's commit, then
sees its events: the next seq is taken and the stale press fails with EventConflictError
instead of being applied twice.

The locks are a schema's own (`lock_statement`): another deployment in another schema of the
same database (the tests' schemas, a second school's server) has lessons and games with the
same ids, and must neither wait for these nor deadlock with them (a batch holds several
locks at once).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar, cast
from urllib.parse import urlsplit

import psycopg

from storage.contract import Rater, Store
from storage.database import Database, Work
from storage.errors import StorageError
from storage.migrate import Migration
from storage.postgres.database import PgDatabase
from storage.postgres.migrate import load_pg_migrations, migrate
from storage.records import (
    ActionCommit,
    GameRecord,
    GameResult,
    GameStatus,
    NewGame,
    Season,
)
from storage.records.lessons import LeaseFence, LessonChange, StoredLesson
from storage.sqlite import Storage

T = TypeVar("T")

SCHEMES = ("postgresql", "postgres")

# The advisory lock the current task's next write takes first (set around the methods that
# write one game's rows, or one server's ratings and seasons): (statement, its parameter).
_LOCK: ContextVar[tuple[tuple[str, Any], ...]] = ContextVar("mattekrig_pg_lock", default=())
# A game, a lesson, a server's ratings and seasons, a channel's one live game: keyed by a
# 64-bit hash of a name ("game:ID", "lesson:ID", "guild:ID", "channel:ID") seeded by the
# schema's name (the leases' two-int keys are another key space).
_NAMED_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended(?, hashtext(current_schema())))"


def lock_statement(name: str) -> tuple[str, str]:
    """The statement (``?`` for its parameter) and the parameter of the write lock named
    ``name`` ("lesson:ID", "game:ID", "guild:ID", "channel:ID")."""
    return _NAMED_LOCK, name


def _nothing(conn: sqlite3.Connection) -> None:
    """A write of nothing: its locks are its point."""


def is_postgres_url(url: str) -> bool:
    return urlsplit(url).scheme in SCHEMES


def _redacted(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


class PostgresStorage(Storage):
    """Create with ``await PostgresStorage.open(url)``; close when done."""

    @classmethod
    async def open_url(
        cls, url: str, *, migrations: list[Migration] | None = None
    ) -> PostgresStorage:
        """Connect and migrate. StorageError (one sentence) when ``url`` is not a PostgreSQL
        URL or the server cannot be reached; SchemaTooNewError as for SQLite."""
        if not is_postgres_url(url):
            raise StorageError(f"not a PostgreSQL URL (postgresql://…): {_redacted(url)}")
        found = load_pg_migrations() if migrations is None else migrations
        try:
            db = await asyncio.to_thread(PgDatabase.open, url)
        except (psycopg.Error, ValueError) as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise StorageError(f"cannot connect to {_redacted(url)}: {first}") from exc
        try:
            version = await db.raw(lambda conn: migrate(cast(Any, conn).raw, found))
            await asyncio.to_thread(db.open_reader)
        except BaseException:
            await db.close()
            raise
        return cls(cast(Database, db), _redacted(url), version)

    @contextmanager
    def _locking(self, statement: str, key: Any) -> Iterator[None]:
        token = _LOCK.set((*_LOCK.get(), (statement, key)))
        try:
            yield
        finally:
            _LOCK.reset(token)

    def _game(self, game_id: int) -> Any:
        return self._locking(_NAMED_LOCK, f"game:{game_id:d}")

    def _guild(self, guild_id: int) -> Any:
        return self._locking(_NAMED_LOCK, f"guild:{guild_id:d}")

    def _channel(self, channel_id: int) -> Any:
        """A game's channel (its thread when it has one): checking that no live game is
        there and creating one is one step across processes, as in SQLite's one writer."""
        return self._locking(_NAMED_LOCK, f"channel:{channel_id:d}")

    async def _write(self, work: Work[T]) -> T:
        locks = _LOCK.get()
        if not locks:
            return await self._db.write(work)

        def _locked(conn: sqlite3.Connection) -> T:
            for statement, key in locks:
                conn.execute(statement, (key,))
            return work(conn)

        return await self._db.write(_locked)

    async def commit_action(self, game_id: int, change: ActionCommit) -> None:
        with self._game(game_id):
            await super().commit_action(game_id, change)

    async def set_status(self, game_id: int, status: GameStatus, at: int) -> None:
        with self._game(game_id):
            await super().set_status(game_id, status, at)

    async def set_timer(self, game_id: int, kind: str, due_at: int, payload: Any = None) -> None:
        with self._game(game_id):
            await super().set_timer(game_id, kind, due_at, payload)

    async def set_board_message(
        self, game_id: int, message_id: int, at: int, *, thread_id: int | None = None
    ) -> None:
        with self._game(game_id), self._channel(thread_id or 0):
            await super().set_board_message(game_id, message_id, at, thread_id=thread_id)

    async def start_game(self, new: NewGame, change: ActionCommit) -> GameRecord:
        with self._channel(new.thread_id or new.channel_id):
            return await super().start_game(new, change)

    async def record_result(self, result: GameResult, *, at: int, rate: Rater) -> GameResult | None:
        """Under the server's lock: two processes catching up on the same game record it once,
        and two games ending in one server never rate from the same old rating."""
        with self._guild(result.guild_id):
            return await super().record_result(result, at=at, rate=rate)

    async def void_result(self, guild_id: int, game_id: int, at: int) -> GameResult | None:
        with self._guild(guild_id):
            return await super().void_result(guild_id, game_id, at)

    async def new_season(self, guild_id: int, at: int) -> tuple[Season | None, Season]:
        """Under the server's lock: two processes changing season at once make one season."""
        with self._guild(guild_id):
            return await super().new_season(guild_id, at)

    def _lesson(self, lesson_id: int) -> Any:
        """One lesson's writes, one at a time across processes (a school server's lease
        keeps a lesson in one process; this keeps a misrouted write from interleaving)."""
        return self._locking(_NAMED_LOCK, f"lesson:{lesson_id:d}")

    async def commit_lesson(
        self, lesson_id: int, change: LessonChange, *, fence: LeaseFence | None = None
    ) -> None:
        with self._lesson(lesson_id):  # the fence is checked under it (storage.lessons)
            await super().commit_lesson(lesson_id, change, fence=fence)

    async def end_lesson(
        self, lesson_id: int, at: int, keep_ms: int, *, fence: LeaseFence | None = None
    ) -> bool:
        with self._lesson(lesson_id):
            return await super().end_lesson(lesson_id, at, keep_ms, fence=fence)

    async def load_lesson(self, lesson_id: int) -> StoredLesson:
        """Read after every write of the lesson under way has committed: a process that has
        just taken the lesson's lease over sees whatever the last holder's write, already
        past its fence, stored (an empty write under the lesson's lock waits for it; the
        read's snapshot is taken after)."""
        with self._lesson(lesson_id):
            await self._write(_nothing)
        return await super().load_lesson(lesson_id)

    async def end_idle_lesson(
        self, lesson_id: int, before: int, keep_ms: int, *, fence: LeaseFence | None = None
    ) -> bool:
        with self._lesson(lesson_id):
            return await super().end_idle_lesson(lesson_id, before, keep_ms, fence=fence)

    async def delete_lesson(
        self, lesson_id: int, at: int, *, fence: LeaseFence | None = None
    ) -> bool:
        with self._lesson(lesson_id):
            return await super().delete_lesson(lesson_id, at, fence=fence)

    async def pragma(self, name: str) -> Any:
        raise StorageError("PRAGMA is SQLite's; PostgreSQL has none")


if TYPE_CHECKING:  # mypy checks here that the backend implements the whole contract
    _IMPLEMENTS: type[Store] = PostgresStorage

__all__ = ["SCHEMES", "PostgresStorage", "is_postgres_url"]
