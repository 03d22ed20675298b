"""The SQLite connections and their threads: group commit for writes, a reader beside them.

Why our own threads instead of aiosqlite: aiosqlite sends every statement to its thread as a
separate request (a press is 6–8 statements), each answer waits for the interpreter's lock
while the event loop renders boards, and the transaction is held across all of them, so the
transactions queue behind each other. Measured on the flood (docs/performance.md), one
aiosqlite transaction per action gave a quarter or less of this writer's results a second. Here a
transaction is a plain function taking a `sqlite3.Connection`; the thread runs the whole of
it in one call, and the writes waiting share one commit.

Group commit: one writer thread owns the writing connection. It takes every write that is
waiting, runs them in one ``BEGIN IMMEDIATE`` … ``COMMIT``, each inside its own
``SAVEPOINT`` (a write that raises is rolled back alone and fails alone, never the batch),
and only after the COMMIT (one fsync, ``synchronous=FULL``) answers each caller. Writes that
arrive while a commit is in flight form the next batch. Durability is unchanged: no caller
hears "done" before its write is on disk.

A cancelled caller cannot leave a transaction half done: its function runs to the end on
the thread (or not at all); only the answer is dropped.

Reads of a file database run on a second thread with its own connection (WAL lets it read
while the writer commits, so a read never waits for an fsync); each read function runs in
one read transaction, so it sees one consistent snapshot. An in-memory database has only the
one connection, so its reads run on the writer thread, between batches.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import sqlite3
import threading
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from storage.errors import StorageError

log = logging.getLogger(__name__)

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]
JobKind = Literal["write", "read", "raw"]

MEMORY = ":memory:"
BUSY_TIMEOUT_MS = 5_000
MAX_BATCH = 512  # writes per transaction: bounds how long the first one waits for the last
# SQLite's automatic checkpoint runs inside the COMMIT that crosses 1,000 WAL pages, so one
# caller in a thousand waited for it. The writer checkpoints itself instead, after answering,
# when the queue is empty (or, under endless load, at the latest every 10 × this many).
CHECKPOINT_BATCHES = 200


@dataclass(slots=True)
class _Job:
    kind: JobKind
    work: Callable[[sqlite3.Connection], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]


@dataclass(slots=True)
class _Outcome:
    job: _Job
    value: Any = None
    error: BaseException | None = None


def connect(path: str, *, writer: bool) -> sqlite3.Connection:
    """A connection with the project's settings (autocommit mode: transactions are ours)."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    # PostgreSQL's greatest/least, so one statement serves both databases (SQLite's max/min
    # of two values are PostgreSQL's aggregates); NULLs are left out, as PostgreSQL does.
    conn.create_function("greatest", -1, _greatest, deterministic=True)
    conn.create_function("least", -1, _least, deterministic=True)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
    conn.execute("PRAGMA foreign_keys = ON")
    if writer:
        mode = str(conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]).lower()
        if mode != "wal" and path != MEMORY:
            log.warning("SQLite refused WAL for %s (journal_mode=%s)", path, mode)
        # FULL, not WAL's usual NORMAL: an acknowledged action survives a power cut too.
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA wal_autocheckpoint = 0")  # see CHECKPOINT_BATCHES
    else:
        conn.execute("PRAGMA query_only = ON")
    return conn


def _greatest(*values: Any) -> Any:
    return max((v for v in values if v is not None), default=None)


def _least(*values: Any) -> Any:
    return min((v for v in values if v is not None), default=None)


class JobThread:
    """One thread, one connection, a queue of jobs: the loop both backends share. A
    subclass says how a batch is run (`_process`), what follows it (`_after_batch`) and how
    its connection is closed (`_close`)."""

    def __init__(self, name: str, *, group: bool) -> None:
        self.group = group
        self.queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.closed = threading.Event()
        self.batches = 0  # transactions committed (diagnostics, the benchmark)

    def submit(self, job: _Job | None) -> None:
        self.queue.put(job)

    def _run(self) -> None:
        try:
            while True:
                job = self.queue.get()
                if job is None:
                    return
                jobs, stop = take_batch(self.queue, job)
                self._process(jobs)
                if stop:
                    return
                self._after_batch()
        finally:
            self._close()
            self.closed.set()

    def _process(self, jobs: list[_Job]) -> None:
        raise NotImplementedError

    def _after_batch(self) -> None:
        """Between batches (SQLite checkpoints its WAL here)."""

    def _close(self) -> None:
        raise NotImplementedError


class _Worker(JobThread):
    def __init__(self, name: str, conn: sqlite3.Connection, *, group: bool) -> None:
        super().__init__(name, group=group)
        self.conn = conn
        self._since_checkpoint = 0
        self.thread.start()

    def _close(self) -> None:
        with suppress(sqlite3.Error):
            self.conn.close()

    def _after_batch(self) -> None:
        self._checkpoint()

    def _process(self, jobs: list[_Job]) -> None:
        writes = [j for j in jobs if j.kind == "write"]
        for job in jobs:
            if job.kind == "raw":
                _answer([_call(job, self.conn)])
            elif job.kind == "read":
                _answer([self._read(job)])
        if writes:
            _answer(self._write(writes))

    def _checkpoint(self) -> None:
        """Copy committed WAL pages into the database file, off every caller's path."""
        if not self.group or self._since_checkpoint < CHECKPOINT_BATCHES:
            return
        if not self.queue.empty() and self._since_checkpoint < 10 * CHECKPOINT_BATCHES:
            return
        self._since_checkpoint = 0
        with suppress(sqlite3.Error):  # a reader holding old pages: the next one catches up
            self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def _read(self, job: _Job) -> _Outcome:
        conn = self.conn
        if self.group:  # the writer thread (in-memory database): nothing else is in flight
            return _call(job, conn)
        try:
            conn.execute("BEGIN DEFERRED")
        except sqlite3.Error as exc:
            return _Outcome(job, error=exc)
        outcome = _call(job, conn)
        _rollback(conn)  # a read-only transaction: ending it is all COMMIT would do
        return outcome

    def _write(self, jobs: list[_Job]) -> list[_Outcome]:
        conn = self.conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            return [_Outcome(j, error=exc) for j in jobs]
        if len(jobs) == 1:  # alone in its transaction: the transaction is its savepoint
            outcome = _call(jobs[0], conn)
            if outcome.error is not None:
                _rollback(conn)
                return [outcome]
            outcomes = [outcome]
        else:
            outcomes = []
            for job in jobs:
                conn.execute("SAVEPOINT one_write")
                outcome = _call(job, conn)
                if outcome.error is not None:
                    conn.execute("ROLLBACK TO one_write")
                conn.execute("RELEASE one_write")
                outcomes.append(outcome)
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            _rollback(conn)
            return [o if o.error is not None else _Outcome(o.job, error=exc) for o in outcomes]
        self.batches += 1
        self._since_checkpoint += 1
        return outcomes


def take_batch(jobs: queue.SimpleQueue[_Job | None], first: _Job) -> tuple[list[_Job], bool]:
    """``first`` and every job already waiting behind it (up to MAX_BATCH): one batch. True
    when the close signal (None) was among them: the worker stops after this batch. Shared
    with the PostgreSQL backend's workers."""
    batch = [first]
    while len(batch) < MAX_BATCH:
        try:
            more = jobs.get_nowait()
        except queue.Empty:
            return batch, False
        if more is None:
            return batch, True
        batch.append(more)
    return batch, False


def _call(job: _Job, conn: sqlite3.Connection) -> _Outcome:
    try:
        return _Outcome(job, value=job.work(conn))
    except BaseException as exc:  # handed to the caller, never lost in the thread
        return _Outcome(job, error=exc)


def _rollback(conn: sqlite3.Connection) -> None:
    with suppress(sqlite3.Error):
        if conn.in_transaction:
            conn.execute("ROLLBACK")


def _answer(outcomes: list[_Outcome]) -> None:
    """Wake the callers on their event loop (the thread may not touch futures directly):
    one wake-up per loop for the whole batch, not one per caller."""
    by_loop: dict[asyncio.AbstractEventLoop, list[_Outcome]] = {}
    for outcome in outcomes:
        by_loop.setdefault(outcome.job.loop, []).append(outcome)
    for loop, settled in by_loop.items():
        with suppress(RuntimeError):  # the caller's loop is already closed: nobody to tell
            loop.call_soon_threadsafe(_settle, settled)


def _settle(outcomes: list[_Outcome]) -> None:
    for outcome in outcomes:
        future = outcome.job.future
        if future.done():  # the caller was cancelled; the work was done (or not) whole
            continue
        if outcome.error is not None:
            future.set_exception(outcome.error)
        else:
            future.set_result(outcome.value)


class Workers:
    """A writer thread and, once opened, a reader thread: how a caller on the event loop
    hands a transaction to them (both backends)."""

    def __init__(self, writer: JobThread, reader: JobThread | None) -> None:
        self._writer: JobThread | None = writer
        self._reader = reader

    @property
    def batches(self) -> int:
        """Write transactions committed so far: fewer than writes means group commit worked."""
        return 0 if self._writer is None else self._writer.batches

    async def write(self, work: Work[T]) -> T:
        """Run ``work`` inside the next group transaction; returns after its COMMIT."""
        return await self._submit("write", work)

    async def read(self, work: Work[T]) -> T:
        """Run ``work`` in one read transaction (a consistent snapshot)."""
        return await self._submit("read", work, reader=True)

    async def raw(self, work: Work[T]) -> T:
        """Run ``work`` on the writer's connection outside any transaction (migrations,
        pragmas): it opens and ends its own transactions."""
        return await self._submit("raw", work)

    async def _submit(self, kind: JobKind, work: Work[T], *, reader: bool = False) -> T:
        worker = self._reader if reader and self._reader is not None else self._writer
        if worker is None:
            raise StorageError("storage is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        worker.submit(_Job(kind, work, loop, future))
        return await future

    async def close(self) -> None:
        """Finish what is queued, then close both connections; safe to call twice.

        One at a time, the reader first: SQLite checkpoints the WAL into the file and deletes
        it only when the connection closing is the last one (it must get the file's exclusive
        lock). Two connections closing at once on their own threads can each still see the
        other and both leave the WAL behind; the writer closing last always removes it."""
        workers = [w for w in (self._reader, self._writer) if w is not None]
        self._reader = self._writer = None
        for worker in workers:
            worker.submit(None)
            await asyncio.to_thread(worker.closed.wait)


class Database(Workers):
    """A SQLite file (or ``":memory:"``) behind a writer thread and, for a file, a reader."""

    def __init__(self, path: str, writer: _Worker, reader: _Worker | None) -> None:
        super().__init__(writer, reader)
        self.path = path

    @classmethod
    def open(cls, path: str) -> Database:
        """Connect (the caller runs migrations with `raw` before reading or writing)."""
        name = path.replace("/", "_")[-40:]
        writer = _Worker(f"sqlite-writer{name}", connect(path, writer=True), group=True)
        return cls(path, writer, None)

    def open_reader(self) -> None:
        """Start the reader beside the writer (after migrations: it never sees a half schema)."""
        if self.path != MEMORY and self._reader is None:
            name = self.path.replace("/", "_")[-40:]
            conn = connect(self.path, writer=False)
            self._reader = _Worker(f"sqlite-reader{name}", conn, group=False)


__all__ = ["MEMORY", "Database", "JobThread", "Work", "Workers", "connect"]
