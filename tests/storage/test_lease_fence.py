"""A lesson's writes are fenced by its lease (storage/lessons.py, storage/postgres/leases.py).

Issue 32: "Each lesson is served by one process at a time, which holds it by a lease".
A process learns that its lease connection is gone only when it notices (a silent network:
seconds), and meanwhile another process may take the lesson over. So a write carries the
lease's `LeaseFence` and is checked inside its own transaction: it is stored only while the
lesson's advisory lock is granted to that very session; otherwise it is refused whole
(`LeaseLostError`), whatever the writing process believes. The process that took the lesson
over reads it only after every write of it under way has committed.

The lease connection is ended by the server (``pg_terminate_backend``, as a fail-over or a
network cut seen from the server ends it); the writes come from another connection of the
same process (the storage's writer), which stays up, exactly the case the fence is for.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import psycopg
import pytest

from storage import (
    LeaseFence,
    LeaseLostError,
    LessonAction,
    LessonChange,
    LessonGame,
    LessonSeat,
    NewLesson,
    Storage,
)
from storage.leases import LeaseError, open_leases
from storage.postgres import PostgresStorage
from storage.postgres.leases import PgLeases
from storage.postgres.storage import lock_statement
from tests.postgres import fresh_schema_url

PATIENCE_S = 60  # a hang fails the test instead of the whole run; never a measure of speed
T0 = 1_700_000_000_000
SETUP = {"game": "regnekrig", "level": 1}


@pytest.fixture
def pg_url() -> str:
    return fresh_schema_url()  # skips (locally) or fails (in CI) without a server


@pytest.fixture
async def store(pg_url: str) -> AsyncIterator[PostgresStorage]:
    opened = await PostgresStorage.open_url(pg_url)
    try:
        yield opened
    finally:
        await opened.close()


def _act(seq: int) -> LessonAction:
    return LessonAction("g1", seq, {"type": "answer", "side": 0, "text": f"{seq}"}, "s1")


def _change(at: int, *actions: LessonAction) -> LessonChange:
    return LessonChange(at, SETUP, {"goal": at}, None, actions=actions)


async def _lesson(store: Storage) -> int:
    """An open lesson with one game and one seat, its first action stored."""
    lesson_id = await store.create_lesson(NewLesson("123456", "k" * 64, "n", SETUP, {}), T0)
    game = LessonGame("g1", 1, {"engine": {"game": "regnekrig"}}, 42, ("Kari", "Lars"),
                      (("s1",), ("s2",)), {}, False)  # fmt: skip
    seat = LessonSeat("s1", "Kari", "d" * 64, 1, "g1", ())
    first = LessonChange(T0, SETUP, {}, None, seats=(seat,), games=(game,), actions=(_act(0),))
    await store.commit_lesson(lesson_id, first)
    return lesson_id


async def _terminate(url: str, leases: PgLeases, lesson_id: int) -> None:
    """The server ends the lease session, and the test goes on once its lock of the lesson
    is gone (a blocking lock on another connection is granted then: no timeout waited for)."""
    pid, namespace = leases.backend_pid, leases.namespace

    def terminate() -> None:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            admin.execute(f"SET lock_timeout = '{PATIENCE_S}s'".encode())
            admin.execute("SELECT pg_advisory_lock(%s, %s)", (namespace, lesson_id))
            admin.execute("SELECT pg_advisory_unlock(%s, %s)", (namespace, lesson_id))

    await asyncio.to_thread(terminate)


async def _stored(store: Storage, lesson_id: int) -> tuple[int, dict[str, object]]:
    kept = await store.load_lesson(lesson_id)
    return len(kept.actions), dict(kept.state)


async def test_a_write_under_the_lease_held_is_stored(store: PostgresStorage, pg_url: str) -> None:
    """The ordinary case: the process holding the lease writes, and every write lands."""
    lesson_id = await _lesson(store)
    leases = await PgLeases.open(pg_url)
    try:
        assert await leases.take(lesson_id)
        fence = leases.fence(lesson_id)
        assert fence == LeaseFence(leases.namespace, leases.backend_pid or 0, leases.backend_start)
        await store.commit_lesson(lesson_id, _change(T0 + 1, _act(1)), fence=fence)
        await store.commit_lesson(lesson_id, _change(T0 + 2, _act(2)), fence=fence)
        assert await _stored(store, lesson_id) == (3, {"goal": T0 + 2})
        assert not await store.end_lesson(lesson_id, T0 + 3, 1000, fence=fence)
        assert (await store.load_lesson(lesson_id)).info.status == "ended"
    finally:
        await leases.close()


async def test_a_write_after_the_lease_is_lost_is_refused_and_changes_nothing(
    store: PostgresStorage, pg_url: str
) -> None:
    """The lease session is ended and another process takes the lesson over before the first
    notices: the first one's next write (its storage connection still up) is refused whole,
    the new holder's writes land, and the first one's fence stays refused for good, also
    after it connects again: a lesson taken anew is a new lease with a new fence."""
    lesson_id = await _lesson(store)
    first = await PgLeases.open(pg_url)
    second = await PgLeases.open(pg_url)
    try:
        assert await first.take(lesson_id)
        old = first.fence(lesson_id)
        await store.commit_lesson(lesson_id, _change(T0 + 1, _act(1)), fence=old)
        await _terminate(pg_url, first, lesson_id)
        before = await _stored(store, lesson_id)
        with pytest.raises(LeaseLostError):  # nobody holds it now: refused all the same
            await store.commit_lesson(lesson_id, _change(T0 + 2, _act(2)), fence=old)
        assert await second.take(lesson_id)
        new = second.fence(lesson_id)
        with pytest.raises(LeaseLostError):
            await store.commit_lesson(lesson_id, _change(T0 + 2, _act(2)), fence=old)
        with pytest.raises(LeaseLostError):
            await store.end_lesson(lesson_id, T0 + 2, 1000, fence=old)
        with pytest.raises(LeaseLostError):
            await store.delete_lesson(lesson_id, T0 + 2, fence=old)
        with pytest.raises(LeaseLostError):  # the idle sweep's end, too
            await store.end_idle_lesson(lesson_id, T0 + 1000, 1000, fence=old)
        assert await _stored(store, lesson_id) == before
        await store.commit_lesson(lesson_id, _change(T0 + 3, _act(2)), fence=new)
        await store.commit_lesson(lesson_id, _change(T0 + 4, _act(3)), fence=new)
        assert await _stored(store, lesson_id) == (4, {"goal": T0 + 4})
        await second.release(lesson_id)
        assert await first.take(lesson_id)  # the first process again, on a new connection
        assert first.fence(lesson_id) != old
        with pytest.raises(LeaseLostError):
            await store.commit_lesson(lesson_id, _change(T0 + 5, _act(4)), fence=old)
        assert await _stored(store, lesson_id) == (4, {"goal": T0 + 4})
    finally:
        await first.close()
        await second.close()


async def test_a_fence_names_its_session_not_only_its_process_id(
    store: PostgresStorage, pg_url: str
) -> None:
    """The server reuses process ids: a fence whose session started at another time is not
    this session's, whatever its process id."""
    lesson_id = await _lesson(store)
    leases = await PgLeases.open(pg_url)
    try:
        assert await leases.take(lesson_id)
        fence = leases.fence(lesson_id)
        other = LeaseFence(fence.namespace, fence.backend_pid, fence.backend_start + 1)
        with pytest.raises(LeaseLostError):
            await store.commit_lesson(lesson_id, _change(T0 + 1, _act(1)), fence=other)
        elsewhere = LeaseFence(fence.namespace + 1, fence.backend_pid, fence.backend_start)
        with pytest.raises(LeaseLostError):  # another schema's lease of the same id
            await store.commit_lesson(lesson_id, _change(T0 + 1, _act(1)), fence=elsewhere)
        assert await _stored(store, lesson_id) == (1, {})
        await leases.release(lesson_id)
        with pytest.raises(LeaseError):  # not held: no fence to give
            leases.fence(lesson_id)
        with pytest.raises(LeaseLostError):  # released: its fence is refused
            await store.commit_lesson(lesson_id, _change(T0 + 1, _act(1)), fence=fence)
    finally:
        await leases.close()


async def test_the_new_holder_reads_the_lesson_after_a_write_under_way(
    store: PostgresStorage, pg_url: str
) -> None:
    """A write that passed its fence just before the lease was lost may still be committing
    when the new holder reads the lesson: the read waits for it (the lesson's write lock),
    so the new holder serves the lesson with that write in it, never beside it. Here the
    write under way is held open on a connection of its own, as the old holder's writer
    holds it between its fence and its commit."""
    lesson_id = await _lesson(store)
    with psycopg.connect(pg_url) as old_writer:  # a transaction until commit()
        statement, key = lock_statement(f"lesson:{lesson_id}")
        old_writer.execute(statement.replace("?", "%s"), (key,))
        old_writer.execute("UPDATE lessons SET state = '{\"goal\": 7}' WHERE id = %s", (lesson_id,))
        reading = asyncio.create_task(store.load_lesson(lesson_id))
        async with asyncio.timeout(PATIENCE_S):
            while not reading.done() and not await _waiting(pg_url, store):
                await asyncio.sleep(0.01)
        assert not reading.done(), "the read did not wait for the write under way"
        old_writer.commit()
    async with asyncio.timeout(PATIENCE_S):
        kept = await reading
    assert dict(kept.state) == {"goal": 7}


async def _waiting(url: str, store: PostgresStorage) -> bool:
    """Whether the store's writer waits for an advisory lock (the lesson's) now."""
    pid = store._db.writer_pid()  # type: ignore[attr-defined]

    def look() -> bool:
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                " AND pid = %s",
                (pid,),
            ).fetchone()
            return bool(row and row[0])

    return await asyncio.to_thread(look)


async def test_sqlite_needs_no_fence(tmp_path: Path) -> None:
    """SQLite is one server process on one file (its lease a file lock, lost only with the
    process): its leases give no fence, and a fence handed to it is a mistake said plainly."""
    target = str(tmp_path / "lessons.db")
    store = await Storage.open(target)
    leases = await open_leases(target)
    try:
        lesson_id = await _lesson(store)
        assert await leases.take(lesson_id)
        assert leases.fence(lesson_id) is None
        await store.commit_lesson(lesson_id, _change(T0 + 1, _act(1)))
        with pytest.raises(ValueError):
            await store.commit_lesson(
                lesson_id, _change(T0 + 2, _act(2)), fence=LeaseFence(1, 2, 3)
            )
        assert await _stored(store, lesson_id) == (2, {"goal": T0 + 1})
    finally:
        await leases.close()
        await store.close()
