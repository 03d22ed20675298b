"""PostgreSQL's leases: a session advisory lock per lesson, on one connection kept for them.

Why session locks on a connection of their own: PostgreSQL releases a session's advisory
locks when the session ends, and the session ends when its process dies (the socket closes,
kill -9 too), so another process can take a dead process's lessons at once, with no lease
table, no expiry and no clock. The connection is kept off the write path: the storage's
writer reconnects after a failure, and a reconnect must never let a lease go unnoticed.

The keys: ``pg_try_advisory_lock(namespace, lesson id)``, the two-int form, a key space apart
from the storage's one-bigint transaction locks (games, servers, channels, lessons' writes).
The namespace is a hash of the schema, so two schemas on one database (the tests') never
share a lesson's lease; advisory locks and notifications are per database already.

Handover: a process refused a lesson sends ``NOTIFY`` on the namespace's channel with the
lesson's id; every process LISTENs on its lease connection and the holder is told (`watch`'s
handover), so that it saves the lesson, closes its connections and releases it: a process
restarted behind a consistent hash gets its lessons back from the one that took them over.

Fences: a lease held is only as good as the connection holding it, and a process can lose
that connection for seconds before it notices (a silent network) while another process takes
the lesson over. So every write of a held lesson carries the lease's `LeaseFence` (`fence`:
this session's process id and start, and the namespace), checked in the write's own
transaction (`storage.lessons`): a write after the lock is gone is refused, noticed or not.

Lost: the connection's thread waits on its socket (notifications arrive there, and so does
the server closing it) and sends ``SELECT 1`` every `HEARTBEAT_SECONDS`; TCP keepalives and
``tcp_user_timeout`` bound how long a silent network hides a dead connection. Once the
connection is gone PostgreSQL releases its locks, so every lease is lost at once: `watch`'s
lost is told, and the next take opens a new connection.
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import select
import socket
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, LiteralString

import psycopg
from psycopg import sql

from storage.errors import LeaseError
from storage.lessons import BACKEND_START
from storage.records.lessons import LeaseFence

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 5.0
# A dead peer found within seconds, not TCP's default two hours (libpq connection options).
CONNECT_OPTIONS: dict[str, Any] = {
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 3,
    "tcp_user_timeout": 10_000,  # ms: a sent statement unanswered this long breaks it
}
_NAMESPACE = "SELECT hashtext('mattekrig lessons ' || coalesce(current_schema(), ''))"
_STARTED = (
    f"SELECT {BACKEND_START.format(start='backend_start')} FROM pg_stat_activity"
    " WHERE pid = pg_backend_pid()"
)
_INT4 = 2**31
Handover = Callable[[int], None]  # as storage.leases names them (it imports this module)
Lost = Callable[[], None]


@dataclass(slots=True)
class _Job:
    work: Callable[[], Any]
    future: asyncio.Future[Any]


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def application_name() -> str:
    """The lease connection's name in `pg_stat_activity`: which process (its pid on its
    machine) holds which lessons, joined with `pg_locks`, for an operator and the tests."""
    return f"mattekrig serve {os.getpid()}"


def _key(lesson_id: int) -> int:
    """A lesson id as the second int4 of the key (ids are an identity from 1)."""
    if not 0 < lesson_id < _INT4:
        raise ValueError(f"a lesson's lease needs an id from 1 to {_INT4 - 1}, not {lesson_id}")
    return lesson_id


class PgLeases:
    """Create with ``await PgLeases.open(url)`` on the event loop that serves the lessons;
    ``close()`` when done (see the module's docstring)."""

    def __init__(self, url: str, loop: asyncio.AbstractEventLoop, heartbeat: float) -> None:
        self.url = url
        self._loop = loop
        self._heartbeat = heartbeat
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._conn: psycopg.Connection[Any] | None = None
        self._fd = -1
        self.backend_pid: int | None = None  # the lease session's server process
        self.backend_start = 0  # … and when it started (µs since the epoch): see `fence`
        self.namespace = 0
        self.channel = ""
        self._held: set[int] = set()  # the thread's alone; `held` reads the snapshot
        # Each lesson held with the fence of the session that took it; replaced, never changed.
        self._snapshot: dict[int, LeaseFence] = {}
        self._handover: Handover | None = None
        self._lost: Lost | None = None
        self._thread = threading.Thread(target=self._run, name="pg-leases", daemon=True)
        self._closing = False

    @classmethod
    async def open(cls, url: str, *, heartbeat: float = HEARTBEAT_SECONDS) -> PgLeases:
        """Connect and LISTEN; LeaseError (one sentence) when the server cannot be reached."""
        leases = cls(url, asyncio.get_running_loop(), heartbeat)
        await asyncio.to_thread(leases._connect)
        leases._thread.start()
        return leases

    # -- the event loop's side ---------------------------------------------------------------

    @property
    def held(self) -> frozenset[int]:
        return frozenset(self._snapshot)

    def fence(self, lesson_id: int) -> LeaseFence:
        """The fence of a lesson held here: a write carrying it lands only while the session
        that took the lease still holds it (a new lease connection takes the lesson anew).
        LeaseError when the lesson is not held (any more)."""
        fence = self._snapshot.get(lesson_id)
        if fence is None:
            raise LeaseError(f"lesson {lesson_id} is not held by this process")
        return fence

    def watch(self, *, handover: Handover, lost: Lost) -> None:
        self._handover, self._lost = handover, lost

    async def take(self, lesson_id: int, *, ask: bool = True) -> bool:
        key = _key(lesson_id)
        taken: bool = await self._submit(lambda: self._take(key, ask))
        return taken

    async def release(self, lesson_id: int) -> None:
        await self._submit(lambda: self._release(lesson_id))

    async def close(self) -> None:
        if self._closing:
            return
        self._closing = True
        self._jobs.put(None)
        self._wake()
        await asyncio.to_thread(self._thread.join)
        self._wake_r.close()
        self._wake_w.close()

    async def _submit(self, work: Callable[[], Any]) -> Any:
        if self._closing:
            raise LeaseError("the leases are closed")
        future: asyncio.Future[Any] = self._loop.create_future()
        self._jobs.put(_Job(work, future))
        self._wake()
        return await future

    def _wake(self) -> None:
        with suppress(OSError):
            self._wake_w.send(b"\0")

    # -- the connection's thread -------------------------------------------------------------

    def _connect(self) -> None:
        try:
            conn = psycopg.connect(
                self.url, autocommit=True, application_name=application_name(), **CONNECT_OPTIONS
            )
        except (psycopg.Error, ValueError) as exc:
            raise LeaseError(f"PostgreSQL: cannot connect for leases: {_first_line(exc)}") from exc
        try:
            row = conn.execute(_NAMESPACE).fetchone()
            self.namespace = int(row[0]) if row else 0
            row = conn.execute(_STARTED).fetchone()
            self.backend_start = int(row[0]) if row else 0
            self.channel = f"mattekrig_lessons_{self.namespace & 0xFFFFFFFF:08x}"
            conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
        except psycopg.Error as exc:
            conn.close()
            raise LeaseError(f"PostgreSQL: cannot listen for leases: {_first_line(exc)}") from exc
        self._conn, self._fd, self.backend_pid = conn, conn.fileno(), conn.info.backend_pid

    def _connection(self) -> psycopg.Connection[Any]:
        """The lease connection, opened again after a loss (its leases are gone: none held)."""
        if self._conn is None:
            self._connect()
        assert self._conn is not None
        return self._conn

    def _run(self) -> None:
        beat_at = time.monotonic() + self._heartbeat
        try:
            while self._do_jobs():
                readable = self._wait(max(0.0, beat_at - time.monotonic()))
                if self._wake_r.fileno() in readable:
                    with suppress(OSError):
                        self._wake_r.recv(4096)
                if self._conn is not None and self._fd in readable:
                    self._guard(self._read)
                if time.monotonic() >= beat_at:
                    beat_at = time.monotonic() + self._heartbeat
                    self._beat()
        finally:
            self._shut()

    def _wait(self, timeout: float) -> list[int]:
        fds = [self._wake_r.fileno()] + ([self._fd] if self._conn is not None else [])
        try:
            readable, _, _ = select.select(fds, [], [], timeout)
        except (OSError, ValueError):  # the connection's socket closed under us
            return [self._fd]
        return list(readable)

    def _do_jobs(self) -> bool:
        """Run every job waiting; False once asked to close."""
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                return True
            if job is None:
                return False
            try:
                value, error = job.work(), None
            except Exception as exc:  # handed to the caller, never lost in the thread
                value, error = None, exc
            with suppress(RuntimeError):  # the loop is closed: nobody to answer
                self._loop.call_soon_threadsafe(_settle, job.future, value, error)

    def _guard(self, work: Callable[[], None]) -> None:
        try:
            work()
        except psycopg.Error as exc:
            self._lose(exc)

    def _beat(self) -> None:
        if self._conn is None:
            with suppress(LeaseError):  # still down: the next beat tries again
                self._connect()
            return
        self._guard(lambda: self._execute("SELECT 1"))
        if self._conn is not None:
            self._guard(self._read)  # notifications that came with the answer

    def _read(self) -> None:
        conn = self._conn
        if conn is None:
            return
        for note in conn.notifies(timeout=0):
            self._asked(note.channel, note.payload)
        if conn.broken or conn.closed or conn.pgconn.status != psycopg.pq.ConnStatus.OK:
            raise psycopg.OperationalError("the server closed the lease connection")

    def _asked(self, channel: str, payload: str) -> None:
        try:
            lesson_id = int(payload)
        except ValueError:
            return
        if channel == self.channel and lesson_id in self._held and self._handover is not None:
            self._tell(self._handover, lesson_id)

    def _take(self, key: int, ask: bool) -> bool:
        conn = self._connection()
        if key in self._held:  # a session lock taken twice would need two unlocks
            return True
        try:
            row = conn.execute(
                "SELECT pg_try_advisory_lock(%s, %s)", (self.namespace, key)
            ).fetchone()
            if row is not None and row[0]:
                self._held.add(key)
                assert self.backend_pid is not None  # connected above
                fence = LeaseFence(self.namespace, self.backend_pid, self.backend_start)
                self._snapshot = {**self._snapshot, key: fence}
                return True
            if ask:
                conn.execute("SELECT pg_notify(%s, %s)", (self.channel, str(key)))
        except psycopg.Error as exc:
            self._lose(exc)
            raise LeaseError(
                f"PostgreSQL: the lease connection failed: {_first_line(exc)}"
            ) from exc
        return False

    def _release(self, lesson_id: int) -> None:
        if lesson_id not in self._held or self._conn is None:
            return
        self._held.discard(lesson_id)  # not ours to count on from here, unlocked or not
        self._snapshot = {k: f for k, f in self._snapshot.items() if k != lesson_id}
        self._guard(
            lambda: self._execute("SELECT pg_advisory_unlock(%s, %s)", (self.namespace, lesson_id))
        )

    def _execute(self, statement: LiteralString, params: tuple[Any, ...] = ()) -> None:
        if self._conn is not None:
            self._conn.execute(statement, params)

    def _lose(self, exc: BaseException) -> None:
        """The connection is gone, and with it every lock: drop it and tell the lessons."""
        log.warning(
            "PostgreSQL: the lease connection is gone (%s): %d lesson(s) let go",
            _first_line(exc),
            len(self._held),
        )
        conn, self._conn, self._fd = self._conn, None, -1
        if conn is not None:
            with suppress(psycopg.Error):
                conn.close()
        self._held.clear()
        self._snapshot = {}
        if self._lost is not None:
            self._tell(self._lost)

    def _tell(self, callback: Callable[..., None], *args: Any) -> None:
        with suppress(RuntimeError):  # the loop is closed: nobody to tell
            self._loop.call_soon_threadsafe(_call, callback, *args)

    def _shut(self) -> None:
        conn, self._conn = self._conn, None
        self._held.clear()
        self._snapshot = {}
        if conn is not None:
            with suppress(psycopg.Error):
                conn.execute("SELECT pg_advisory_unlock_all()")
            with suppress(psycopg.Error):
                conn.close()


def _settle(future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    if future.done():  # the caller was cancelled; the work was done whole
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


def _call(callback: Callable[..., None], *args: Any) -> None:
    """A watcher's failure is its own: said in one line, and the leases go on."""
    try:
        callback(*args)
    except Exception as exc:
        log.error("a lease watcher failed: %s", _first_line(exc))


__all__ = ["CONNECT_OPTIONS", "HEARTBEAT_SECONDS", "PgLeases", "application_name"]
