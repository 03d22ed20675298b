"""A lesson is served by one process at a time (storage/leases.py, storage/postgres/leases.py).

Issue 32: "Each lesson is served by one process at a time, which holds it by a lease in
PostgreSQL (a session advisory lock is released when its process dies) … when a process
dies, the proxy sends its lessons' requests to another, which takes the lesson over from the
database on the first request." SERVE.md: "SQLite (a single server process): … a second
process on the same file is refused. A process whose lease connection is lost drops every
lesson it holds. A process asked for a lesson another process holds … asks the holder to
hand it over (NOTIFY)."

Two holders are two lease connections (PostgreSQL) or two open lease files (SQLite), in one
test process; the kill -9 tests kill a real second process.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import psycopg
import pytest

from storage.leases import FileLeases, LeaseError, Leases, open_leases
from storage.postgres.leases import PgLeases
from tests.postgres import fresh_schema_url

Pair = tuple[PgLeases, PgLeases]
ROOT = Path(__file__).resolve().parents[2]
PATIENCE_S = 60  # a hang fails the test instead of the whole run; never a measure of speed

# A second process that takes a lesson's lease, says so, and waits to be killed.
HOLDER = """
import asyncio, sys
from storage.leases import open_leases

async def main() -> None:
    leases = await open_leases(sys.argv[1])
    assert await leases.take(int(sys.argv[2]))
    print("held", flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""


@pytest.fixture
def pg_url() -> str:
    return fresh_schema_url()  # skips (locally) or fails (in CI) without a server


@pytest.fixture
async def pg_pair(pg_url: str) -> AsyncIterator[Pair]:
    first = await PgLeases.open(pg_url)
    second = await PgLeases.open(pg_url)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


def _held_by_a_killed_process(target: str, lesson_id: int) -> subprocess.Popen[str]:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, target, str(lesson_id)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    return holder


async def _until_held(holder: subprocess.Popen[str]) -> None:
    assert holder.stdout is not None
    line = await asyncio.to_thread(holder.stdout.readline)
    assert line.strip() == "held"


async def _kill(holder: subprocess.Popen[str]) -> None:
    os.kill(holder.pid, signal.SIGKILL)
    await asyncio.to_thread(holder.wait)
    assert holder.stdout is not None
    holder.stdout.close()


# -- PostgreSQL ------------------------------------------------------------------------------


async def test_two_processes_cannot_hold_the_same_lesson(pg_pair: Pair) -> None:
    """Issue 32: "each lesson is served by one process at a time": the second is refused the
    lesson the first holds, and takes any other lesson beside it."""
    first, second = pg_pair
    assert await first.take(1)
    assert await first.take(1)  # asked again by the same process: still its own
    assert not await second.take(1)
    assert await second.take(2)
    assert first.held == {1} and second.held == {2}


async def test_a_released_lesson_is_taken_by_the_other(pg_pair: Pair) -> None:
    """A lease taken twice by one process is released by one release (PostgreSQL counts a
    session's locks; the lease counts it once)."""
    first, second = pg_pair
    assert await first.take(1) and await first.take(1)
    await first.release(1)
    assert first.held == frozenset()
    assert await second.take(1)
    assert not await first.take(1)


async def test_closing_releases_every_lease(pg_pair: Pair) -> None:
    first, second = pg_pair
    assert await first.take(1) and await first.take(2)
    await first.close()
    assert await second.take(1) and await second.take(2)
    with pytest.raises(LeaseError):
        await first.take(3)


async def test_the_refused_process_asks_the_holder_to_hand_the_lesson_over(
    pg_pair: Pair,
) -> None:
    """SERVE.md: "asks the holder to hand it over (NOTIFY); the holder saves, closes its live
    connections and releases": the holder is told which lesson, and once it releases it the
    process that asked takes it. Only the holder is asked: a process that does not hold the
    lesson is never told."""
    first, second = pg_pair
    asked: asyncio.Queue[int] = asyncio.Queue()
    bystander: list[int] = []
    first.watch(handover=asked.put_nowait, lost=lambda: None)
    second.watch(handover=bystander.append, lost=lambda: None)
    assert await first.take(7) and await first.take(8)
    assert not await second.take(8, ask=False)  # a look only (the idle sweep's): nobody asked
    assert not await second.take(7)
    async with asyncio.timeout(PATIENCE_S):
        assert await asked.get() == 7
    await first.release(7)
    assert await second.take(7)
    assert bystander == []


async def test_a_lost_lease_connection_loses_every_lease(pg_url: str) -> None:
    """SERVE.md: "A process whose lease connection is lost drops every lesson it holds": the
    server ends the session (as a restart or a fail-over does); the holder is told, holds
    nothing, the other process takes its lessons, and the holder's next take connects again."""
    first = await PgLeases.open(pg_url)
    second = await PgLeases.open(pg_url)
    lost = asyncio.Event()
    first.watch(handover=lambda _: None, lost=lost.set)
    try:
        assert await first.take(1) and await first.take(2)
        pid = first.backend_pid
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        async with asyncio.timeout(PATIENCE_S):
            await lost.wait()
        assert first.held == frozenset()
        assert await second.take(1) and await second.take(2)
        assert await first.take(3)  # a new lease connection
        assert first.backend_pid != pid
    finally:
        await first.close()
        await second.close()


async def test_two_schemas_never_share_a_lease(pg_url: str) -> None:
    """Advisory locks are the database's: the lessons of two schemas (two servers' data on
    one database, the tests' schemas) are kept apart by the namespace."""
    other_url = fresh_schema_url()
    first = await open_leases(pg_url)
    second = await open_leases(other_url)
    try:
        assert await first.take(1)
        assert await second.take(1)
    finally:
        await first.close()
        await second.close()


@pytest.mark.slow
async def test_a_process_killed_with_sigkill_frees_its_lessons_at_once(pg_url: str) -> None:
    """Issue 32: "a session advisory lock is released when its process dies": a holder
    killed with kill -9 runs no code of ours, and PostgreSQL releases its lock as the session
    ends (a blocking lock on another connection is granted: no waiting for a timeout), so the
    other process takes the lesson on its next request."""
    other = await PgLeases.open(pg_url)
    holder = _held_by_a_killed_process(pg_url, 9)
    try:
        await _until_held(holder)
        assert not await other.take(9)
        await _kill(holder)
        namespace = other.namespace

        def until_free() -> None:
            with psycopg.connect(pg_url, autocommit=True) as conn:
                conn.execute(f"SET lock_timeout = '{PATIENCE_S}s'".encode())
                conn.execute("SELECT pg_advisory_lock(%s, 9)", (namespace,))
                conn.execute("SELECT pg_advisory_unlock(%s, 9)", (namespace,))

        await asyncio.to_thread(until_free)
        assert await other.take(9)
    finally:
        if holder.poll() is None:
            await _kill(holder)
        await other.close()


async def test_a_lesson_id_beyond_the_key_is_refused_plainly(pg_pair: Pair) -> None:
    first, _ = pg_pair
    with pytest.raises(ValueError):
        await first.take(2**31)


# -- SQLite ----------------------------------------------------------------------------------


async def test_a_second_process_on_the_same_sqlite_file_is_refused(tmp_path: Path) -> None:
    """SERVE.md: "SQLite (a single server process): … a second process on the same file is
    refused": every lesson, as long as the first one runs; once it closes, the second serves."""
    path = str(tmp_path / "mattekrig.db")
    first: Leases = await open_leases(path)
    second: Leases = await open_leases(path)
    try:
        assert await first.take(1) and await first.take(2)
        assert not await second.take(1)
        assert not await second.take(3)
        await first.close()
        assert await second.take(1) and await second.take(3)
        assert second.held == {1, 3}
    finally:
        await first.close()
        await second.close()


async def test_another_sqlite_file_is_another_server(tmp_path: Path) -> None:
    first = await open_leases(str(tmp_path / "a.db"))
    second = await open_leases(str(tmp_path / "b.db"))
    try:
        assert await first.take(1) and await second.take(1)
    finally:
        await first.close()
        await second.close()


async def test_an_in_memory_database_is_this_process_alone() -> None:
    leases = await open_leases(":memory:")
    assert isinstance(leases, FileLeases)
    assert await leases.take(1)
    await leases.release(1)
    assert leases.held == frozenset()
    await leases.close()


@pytest.mark.slow
async def test_a_sqlite_server_killed_with_sigkill_frees_the_file_at_once(tmp_path: Path) -> None:
    """The kernel releases a killed process's file lock: once it is gone (waited for), the
    next process serves the lessons."""
    path = str(tmp_path / "mattekrig.db")
    other = await open_leases(path)
    holder = _held_by_a_killed_process(path, 4)
    try:
        await _until_held(holder)
        assert not await other.take(4)
        await _kill(holder)
        assert await other.take(4)
    finally:
        if holder.poll() is None:
            await _kill(holder)
        await other.close()
