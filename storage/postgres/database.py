"""PostgreSQL connections on their own threads: group commit for writes, a reader beside them.

The same shape as the SQLite backend (storage/database.py), for the same reasons: a
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

import logging
import sqlite3
from contextlib import suppress
from typing import Any, cast

import psycopg

from storage.database import JobThread, Workers, _answer, _call, _Job, _Outcome
from storage.errors import StorageError
from storage.postgres.connection import Connection

log = logging.getLogger(__name__)


def connect(url: str) -> psycopg.Connection[Any]:
    """A connection in autocommit mode: the workers write BEGIN and COMMIT themselves."""
    return psycopg.connect(url, autocommit=True, application_name="mattekrig")


class _Worker(JobThread):
    def __init__(self, name: str, url: str, *, group: bool) -> None:
        super().__init__(name, group=group)
        self.url = url
        self.conn = Connection(connect(url))
        self.thread.start()

    def _close(self) -> None:
        with suppress(psycopg.Error):
            self.conn.raw.close()

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


class PgDatabase(Workers):
    """One PostgreSQL database behind a writer thread and a reader thread."""

    def __init__(self, url: str, writer: _Worker) -> None:
        super().__init__(writer, None)
        self.url = url

    @classmethod
    def open(cls, url: str) -> PgDatabase:
        """Connect the writer (raises psycopg.Error when the server cannot be reached)."""
        return cls(url, _Worker("pg-writer", url, group=True))

    def open_reader(self) -> None:
        if self._reader is None:
            self._reader = _Worker("pg-reader", self.url, group=False)

    def writer_pid(self) -> int | None:
        """The writer's server process (diagnostics; the reconnection test)."""
        writer = self._writer
        return writer.conn.raw.info.backend_pid if isinstance(writer, _Worker) else None


__all__ = ["PgDatabase", "connect"]
