"""A database fault while the bot runs (a read-only file or mount, a full disk, an I/O error)
is one clear line for the operator when it starts and one when it is over, never a traceback
for every press; each press meanwhile is refused with the apology and changes nothing."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from classroom.i18n import t
from storage.faults import database_faults, is_fault
from tests.bot.e2e import Table, private_reply, seed_deals


@pytest.fixture(autouse=True)
def no_fault_under_way() -> Iterator[None]:
    """The process's fault tracker starts and ends each test with no fault."""
    database_faults.current, database_faults.refused = None, 0
    yield
    database_faults.current, database_faults.refused = None, 0


async def _writes(table: Table, allowed: bool) -> None:
    """The bot's own SQLite connection refuses every write (as on a read-only mount), or
    takes them again."""
    storage: Any = table.bot.storage
    await storage._db.raw(lambda conn: conn.execute(f"PRAGMA query_only = {int(not allowed)}"))


async def test_a_read_only_database_is_one_line_then_one_line_when_it_is_over(
    table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.DEBUG)
    seed_deals(monkeypatch, 8)
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    await table.settle()
    await _writes(table, allowed=False)
    caplog.clear()
    seq = table.state(gid).seq
    for _ in range(4):
        press = await table.flip("alice", gid)
        assert await private_reply(table.fake, press) == t("error.generic", "nb")
        assert table.state(gid).seq == seq  # nothing changed, in memory or stored
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage().split(".")[0] for r in errors] == [
        "the database cannot be used: attempt to write a readonly database (OperationalError)"
    ]
    assert not any(r.exc_info or r.exc_text for r in caplog.records), "a traceback was logged"
    caplog.clear()
    await _writes(table, allowed=True)
    press = await table.flip("alice", gid)
    assert press.answered and not press.rejected
    await table.settle()
    assert table.state(gid).seq > seq
    over = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(over) == 1 and over[0].startswith("the database works again after ")
    assert over[0].endswith("4 press(es) were refused meanwhile")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize(
    ("error", "fault"),
    [
        (sqlite3.OperationalError("database or disk is full"), True),
        (sqlite3.OperationalError("disk I/O error"), True),
        (sqlite3.DatabaseError("database disk image is malformed"), True),
        (sqlite3.IntegrityError("UNIQUE constraint failed"), False),  # a bug, not a fault
        (sqlite3.ProgrammingError("closed"), False),
        (RuntimeError("boom"), False),
    ],
)
def test_what_counts_as_a_database_fault(error: Exception, fault: bool) -> None:
    assert is_fault(error) is fault


def test_a_postgresql_server_gone_is_a_fault() -> None:
    psycopg = pytest.importorskip("psycopg")
    assert is_fault(psycopg.OperationalError("server closed the connection unexpectedly"))
    assert is_fault(psycopg.errors.ReadOnlySqlTransaction("read-only transaction"))
    assert not is_fault(psycopg.errors.UniqueViolation("duplicate key"))
