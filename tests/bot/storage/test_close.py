"""Closing a SQLite file database leaves no WAL behind (the promise `docker stop` relies on:
the bot drains, checkpoints and leaves one file).

SQLite checkpoints the WAL into the file and deletes it only in the connection that closes
last, when it gets the file's exclusive lock. The writer and the reader close on threads of
their own: closed at the same moment, each could still see the other, both gave up, and the
WAL stayed (one close in eight or so on a busy machine). So the reader closes first, and the
writer only once the reader is gone.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from storage.database import Database, _Worker

# How long the reader's close waits to see whether the writer starts closing beside it; the
# writer never does now, so every run of this test waits this long once.
OVERLAP_S = 0.2


def _stored(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO pile VALUES (randomblob(9000))")


def _count(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM pile").fetchone()[0])


async def test_the_writer_closes_after_the_reader_and_removes_the_wal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []
    writer_closing = threading.Event()
    close = _Worker._close

    def watched(worker: _Worker) -> None:
        if worker.group:  # the writer
            order.append("writer begins closing")
            writer_closing.set()
            close(worker)
        else:  # the reader: would the writer's close run beside its own?
            writer_closing.wait(OVERLAP_S)
            close(worker)
            order.append("reader closed")

    monkeypatch.setattr(_Worker, "_close", watched)
    path = tmp_path / "mattekrig.db"
    db = Database.open(str(path))
    await db.raw(lambda conn: conn.execute("CREATE TABLE pile (card BLOB)"))
    db.open_reader()
    await db.write(_stored)
    assert await db.read(_count) == 1  # the reader has the WAL open too
    await db.close()
    assert order == ["reader closed", "writer begins closing"]
    assert not path.with_name(path.name + "-wal").exists()
