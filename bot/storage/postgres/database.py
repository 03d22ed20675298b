"""PostgreSQL connections on their own threads: group commit for writes, a reader beside them.

The same shape as the SQLite backend (bot/storage/database.py), for the same reasons: a
transaction is a plain function run whole on the connection's thread, so an action costs
one hand-over from the event loop, not one per statement. Group commit: the writer takes
every write waiting, runs them in one transaction, each inside its own SAVEPOINT (a write
that fails is rolled back alone and fails alone, never the batch), and answers each caller
only after the COMMIT (``synchronous_commit`` on: the WAL is flushed). Reads run on a second
connection, each in one REPEATABLE READ, READ ONLY transaction (one consistent snapshot).

Why psycopg 3's synchronous connection on a thread rather than asyncpg on the event loop:
the storage modules' transaction functions are synchronous (they must be, to run whole on
SQLite's thread); with a synchronous driver the very same functions run on PostgreSQL, and
group commit is the same loop. asyncpg would have meant a second, async copy of every query.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import sqlite3
import threading
from contextlib import suppress
from typing import Any, cast

import psycopg

from bot.storage.database import JobKind, Work, _answer, _call, _Job, _Outcome, take_batch
from bot.storage.errors import StorageError
from bot.storage.postgres.connection import Connection

log = logging.getLogger(__name__)


def connect(url: str) -> psycopg.Connection[Any]:
    """A connection in autocommit mode: the workers write BEGIN and COMMIT themselves."""
    return psycopg.connect(url, autocommit=True, application_name="mattekrig")


class _Worker:
    def __init__(self, name: str, url: str, *, group: bool) -> None:
        self.url = url
        self.conn = Connection(connect(url))
        self.group = group
        self.queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.closed = threading.Event()
        self.batches = 0
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

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
        finally:
            with suppress(psycopg.Error):
                self.conn.raw.close()
            self.closed.set()

    def _reconnect(self) -> None:
        """A connection the server dropped (a restart, a fail-over) is replaced before the
        next batch; the batch it broke has failed whole, so nothing half-done is lost."""
        if not (self.conn.raw.broken or self.conn.raw.closed):
            return
        try:
            self.conn = Connection(connect(self.url))
        except psycopg.Error as exc:
            log.warning("PostgreSQL: cannot reconnect yet (%s)", exc)

    def _process(self, jobs: list[_Job]) -> None:
        self._reconnect()
        for job in jobs:
            if job.kind == "raw":
                _answer([self._call(job)])
            elif job.kind == "read":
                _answer([self._read(job)])
        writes = [j for j in jobs if j.kind == "write"]
        if writes:
            _answer(self._write(writes))

    def _call(self, job: _Job) -> _Outcome:
        # The transaction functions are typed for sqlite3; the adapter answers as it does.
        return _call(job, cast(sqlite3.Connection, self.conn))

    def _sql(self, statement: str) -> None:
        self.conn.raw.execute(statement.encode())

    def _read(self, job: _Job) -> _Outcome:
        try:
            self._sql("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        except psycopg.Error as exc:
            return _Outcome(job, error=StorageError(f"PostgreSQL: {exc}"))
        outcome = self._call(job)
        self._rollback()
        return outcome

    def _write(self, jobs: list[_Job]) -> list[_Outcome]:
        try:
            self._sql("BEGIN")
        except psycopg.Error as exc:
            return [_Outcome(j, error=StorageError(f"PostgreSQL: {exc}")) for j in jobs]
        if len(jobs) == 1:  # alone in its transaction: the transaction is its savepoint
            outcome = self._call(jobs[0])
            if outcome.error is not None:
                self._rollback()
                return [outcome]
            return self._commit([outcome])
        outcomes: list[_Outcome] = []
        for job in jobs:
            try:
                self._sql("SAVEPOINT one_write")
            except psycopg.Error as exc:
                outcomes.append(_Outcome(job, error=StorageError(f"PostgreSQL: {exc}")))
                continue
            outcome = self._call(job)
            with suppress(psycopg.Error):
                if outcome.error is not None:
                    self._sql("ROLLBACK TO SAVEPOINT one_write")
                self._sql("RELEASE SAVEPOINT one_write")
            outcomes.append(outcome)
        return self._commit(outcomes)

    def _commit(self, outcomes: list[_Outcome]) -> list[_Outcome]:
        try:
            self._sql("COMMIT")
        except psycopg.Error as exc:
            self._rollback()
            failed = StorageError(f"PostgreSQL: the commit failed: {exc}")
            return [o if o.error is not None else _Outcome(o.job, error=failed) for o in outcomes]
        self.batches += 1
        return outcomes

    def _rollback(self) -> None:
        with suppress(psycopg.Error):
            if self.conn.raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                self._sql("ROLLBACK")


class PgDatabase:
    """One PostgreSQL database behind a writer thread and a reader thread."""

    def __init__(self, url: str, writer: _Worker) -> None:
        self.url = url
        self._writer: _Worker | None = writer
        self._reader: _Worker | None = None

    @classmethod
    def open(cls, url: str) -> PgDatabase:
        """Connect the writer (raises psycopg.Error when the server cannot be reached)."""
        return cls(url, _Worker("pg-writer", url, group=True))

    def open_reader(self) -> None:
        if self._reader is None:
            self._reader = _Worker("pg-reader", self.url, group=False)

    @property
    def batches(self) -> int:
        return 0 if self._writer is None else self._writer.batches

    def writer_pid(self) -> int | None:
        """The writer's server process (diagnostics; the reconnection test)."""
        return None if self._writer is None else self._writer.conn.raw.info.backend_pid

    async def write(self, work: Work[Any]) -> Any:
        return await self._submit("write", work)

    async def read(self, work: Work[Any]) -> Any:
        return await self._submit("read", work, reader=True)

    async def raw(self, work: Work[Any]) -> Any:
        return await self._submit("raw", work)

    async def _submit(self, kind: JobKind, work: Work[Any], *, reader: bool = False) -> Any:
        worker = self._reader if reader and self._reader is not None else self._writer
        if worker is None:
            raise StorageError("storage is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        worker.submit(_Job(kind, work, loop, future))
        return await future

    async def close(self) -> None:
        workers = [w for w in (self._reader, self._writer) if w is not None]
        self._reader = self._writer = None
        for worker in workers:
            worker.submit(None)
        for worker in workers:
            await asyncio.to_thread(worker.closed.wait)


__all__ = ["PgDatabase", "connect"]
