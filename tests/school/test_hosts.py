"""The lessons a school server process serves (school/hosts.py), on real storage with real
lessons brought back by the engine: taken over from the database on the first request, one
process at a time, handed over when asked, let go when quiet, ended when idle.

Issue 32: "Each lesson is served by one process at a time, which holds it by a lease …
when a process dies, the proxy sends its lessons' requests to another, which takes the
lesson over from the database on the first request. … a process restart loses no
acknowledged action." and "a lesson that nobody uses for a day ends by itself and is
deleted after its retention". Two `process` values in one test are two server processes
(each its own storage connections and lease connection); the kill -9 tests kill a real one.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from aiohttp import web

from school.hosts import HOLD_SECONDS, Busy, NoLesson
from storage import NotFoundError
from storage.postgres.leases import PgLeases
from table.keep import DAY_MS, DEFAULT_KEEP_DAYS
from table.press import Refused
from tests.postgres import fresh_schema_url
from tests.school.hosted import OWNER, Hosted, Wall, actions, play, process, stored_lesson

pytestmark = pytest.mark.usefixtures("quiet_log")
ROOT = Path(__file__).resolve().parents[2]
PATIENCE_S = 60  # a hang fails the test instead of the whole run; never a measure of speed


@pytest.fixture(params=["sqlite", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where the lessons live: a SQLite file (one server process) or PostgreSQL (several)."""
    if request.param == "sqlite":
        return str(tmp_path / "lessons.db")
    return fresh_schema_url()  # skips (locally) or fails (in CI) without a server


@pytest.fixture
def pg() -> str:
    return fresh_schema_url()


def _hosted(found: object) -> Hosted:
    assert isinstance(found, Hosted), found
    return found


# -- the first request -----------------------------------------------------------------------


async def test_the_first_request_brings_the_lesson_back_from_the_database(target: str) -> None:
    """The lesson is found by its code and restored whole (every game at its last committed
    action, every seat), its teacher the owner; its host built by the app's factory and
    started; the next request gets the same host."""
    async with process(target) as first:
        lesson = await stored_lesson(first.store, first.wall)
        host = _hosted(await first.hosts.get(lesson.code))
        assert host.started and first.hosts.codes == {lesson.code}
        assert host.lesson is not lesson  # brought back from storage, not this test's copy
        assert actions(host.lesson) == actions(lesson) and sum(actions(lesson).values()) > 0
        assert set(host.lesson.seats) == set(lesson.seats) and host.lesson.goal == 12
        assert host.restored.stored.info.owner == OWNER
        assert host.lesson.teacher_secret is None  # the server's teacher signs in instead
        assert await first.hosts.get(lesson.code) is host
        assert len(first.factory.built) == 1


async def test_concurrent_first_requests_bring_the_lesson_back_once(target: str) -> None:
    async with process(target) as first:
        lesson = await stored_lesson(first.store, first.wall)
        found = await asyncio.gather(*(first.hosts.get(lesson.code) for _ in range(6)))
        assert len({id(_hosted(f)) for f in found}) == 1
        assert len(first.factory.built) == 1


async def test_an_unknown_or_ended_code_is_no_lesson(target: str) -> None:
    """A wrong code, and the code of an ended lesson, are a page that is not there."""
    async with process(target) as first:
        lesson = await stored_lesson(first.store, first.wall)
        assert await first.hosts.get("000000") == NoLesson("000000")
        lesson_id = await first.store.open_lesson_by_code(lesson.code)
        assert lesson_id is not None
        await first.store.end_lesson(lesson_id, round(first.wall() * 1000), DAY_MS)
        assert await first.hosts.get(lesson.code) == NoLesson(lesson.code)
        assert first.leases.held == frozenset() and first.factory.built == []


async def test_a_lesson_ended_while_served_is_let_go(target: str) -> None:
    """The teacher ends the lesson: its code is looked up afresh (another lesson may have it
    now), and the lease is released."""
    async with process(target) as first:
        lesson = await stored_lesson(first.store, first.wall)
        host = _hosted(await first.hosts.get(lesson.code))
        async with host.lesson.lock:
            host.lesson.end()
            await host.lesson.save()
        assert await first.hosts.get(lesson.code) == NoLesson(lesson.code)
        assert host.closed.is_set() and first.leases.held == frozenset()


# -- one process at a time -------------------------------------------------------------------


async def test_another_process_is_busy_and_the_holder_hands_the_lesson_over(pg: str) -> None:
    """SERVE.md: "A process asked for a lesson another process holds answers 503 +
    Retry-After … and asks the holder to hand it over (NOTIFY); the holder saves, closes its
    live connections and releases": the other process then serves the lesson, with every
    press the first one committed; the first one commits nothing more of it."""
    async with process(pg) as first, process(pg) as second:
        lesson = await stored_lesson(first.store, first.wall)
        held = _hosted(await first.hosts.get(lesson.code))
        assert await play(held.lesson, first.wall, 2) > 0
        first.clock.now += HOLD_SECONDS  # held a while: no longer just taken
        assert await second.hosts.get(lesson.code) == Busy(lesson.code, retry_after=1)
        async with asyncio.timeout(PATIENCE_S):
            await held.closed.wait()
            await first.hosts.settled()
        assert first.hosts.codes == frozenset() and first.leases.held == frozenset()
        taken = _hosted(await second.hosts.get(lesson.code))
        assert actions(taken.lesson) == actions(held.lesson)
        with pytest.raises(Refused):  # fenced: a page that still held it is told to retry
            await held.lesson.save()


async def test_a_lesson_just_taken_is_not_thrown_back_at_once(pg: str) -> None:
    """A proxy that sends a lesson's requests now to one process, now to the other must not
    have them throw the lesson back and forth: asked for a lesson it took seconds ago, the
    holder keeps it (the asker's pages are told to try again); asked once it has held it a
    while, it hands it over."""
    async with process(pg) as first, process(pg) as second:
        told = asyncio.Event()
        asked, lost = first.hosts._asked, first.hosts._lost

        def handover(lesson_id: int) -> None:  # the holder's own answer, and a mark it came
            asked(lesson_id)
            told.set()

        first.leases.watch(handover=handover, lost=lost)
        lesson = await stored_lesson(first.store, first.wall)
        held = _hosted(await first.hosts.get(lesson.code))
        assert await second.hosts.get(lesson.code) == Busy(lesson.code, retry_after=1)
        async with asyncio.timeout(PATIENCE_S):
            await told.wait()
        await first.hosts.settled()
        assert first.hosts.codes == {lesson.code} and not held.closed.is_set()
        first.clock.now += HOLD_SECONDS
        told.clear()
        assert await second.hosts.get(lesson.code) == Busy(lesson.code, retry_after=1)
        async with asyncio.timeout(PATIENCE_S):
            await told.wait()
            await held.closed.wait()
            await first.hosts.settled()
        taken = _hosted(await second.hosts.get(lesson.code))
        assert actions(taken.lesson) == actions(held.lesson)


async def test_a_lost_lease_connection_lets_every_lesson_go(pg: str) -> None:
    """SERVE.md: "A process whose lease connection is lost drops every lesson it holds": it
    saves nothing more (another process may serve them already), and the other process takes
    them over with every committed press."""
    async with process(pg) as first, process(pg) as second:
        lessons = [await stored_lesson(first.store, first.wall) for _ in range(2)]
        held = [_hosted(await first.hosts.get(lesson.code)) for lesson in lessons]
        assert isinstance(first.leases, PgLeases)
        with psycopg.connect(pg, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (first.leases.backend_pid,))
        async with asyncio.timeout(PATIENCE_S):
            for host in held:
                await host.closed.wait()
        assert first.hosts.codes == frozenset()
        for host in held:
            with pytest.raises(Refused):
                await host.lesson.save()
            taken = _hosted(await second.hosts.get(host.lesson.code))
            assert actions(taken.lesson) == actions(host.lesson)


def _holder(target: str, code: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.school.hosted", target, code],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )


def _lines(holder: subprocess.Popen[str]) -> Iterator[str]:
    assert holder.stdout is not None
    yield from (line.strip() for line in holder.stdout)


async def _until_free(pg: str, leases: PgLeases, lesson_id: int) -> None:
    """Until PostgreSQL has released the killed process's lease: a blocking lock on another
    connection is granted the moment it is (an event, not a wait of a guessed length)."""

    def wait() -> None:
        with psycopg.connect(pg, autocommit=True) as conn:
            conn.execute(f"SET lock_timeout = '{PATIENCE_S}s'".encode())
            conn.execute("SELECT pg_advisory_lock(%s, %s)", (leases.namespace, lesson_id))
            conn.execute("SELECT pg_advisory_unlock(%s, %s)", (leases.namespace, lesson_id))

    await asyncio.to_thread(wait)


@pytest.mark.slow
async def test_a_process_killed_mid_lesson_loses_no_acknowledged_press(target: str) -> None:
    """Issue 32: "when a process dies … another takes the lesson over from the database on the
    first request", and "a process restart loses no acknowledged action": a process serving
    the lesson presses on and is killed with kill -9 between or during commits; the other
    process is refused while it lives, and then brings back every press it acknowledged."""
    async with process(target) as other:
        lesson = await stored_lesson(other.store, other.wall, presses=1)
        lesson_id = await other.store.open_lesson_by_code(lesson.code)
        assert lesson_id is not None
        holder = _holder(target, lesson.code)
        try:
            lines = _lines(holder)
            acked = 0
            async with asyncio.timeout(PATIENCE_S):
                assert await asyncio.to_thread(next, lines) == "held"
                while acked < 8:
                    line = await asyncio.to_thread(next, lines)
                    if line == "over":
                        break
                    acked = int(line.split()[1])
            assert await other.hosts.get(lesson.code) == Busy(lesson.code)
            os.kill(holder.pid, signal.SIGKILL)  # presses still going: mid-commit, likely
            await asyncio.to_thread(holder.wait)
            if isinstance(other.leases, PgLeases):
                await _until_free(target, other.leases, lesson_id)
            taken = _hosted(await other.hosts.get(lesson.code))
        finally:
            if holder.poll() is None:
                holder.kill()
                holder.wait()
            if holder.stdout is not None:
                holder.stdout.close()
        stored = await other.store.load_lesson(lesson_id)
        assert sum(actions(taken.lesson).values()) >= acked > sum(actions(lesson).values())
        assert sum(actions(taken.lesson).values()) == len(stored.actions)


# -- quiet and idle lessons ------------------------------------------------------------------


async def test_a_quiet_lesson_is_let_go_and_comes_back_on_its_next_request(target: str) -> None:
    """Memory is for the lessons in use: a lesson nobody asked for in 10 minutes is saved,
    closed and released, still open in the database; its next request brings it back."""
    async with process(target) as first:
        lesson = await stored_lesson(first.store, first.wall)
        host = _hosted(await first.hosts.get(lesson.code))
        first.clock.now += 9 * 60
        await first.hosts.sweep()
        assert first.hosts.codes == {lesson.code}
        assert await first.hosts.get(lesson.code) is host  # asked again: quiet from now
        first.clock.now += 10 * 60
        await first.hosts.sweep()
        assert host.closed.is_set()
        assert first.hosts.codes == frozenset() and first.leases.held == frozenset()
        lesson_id = await first.store.open_lesson_by_code(lesson.code)
        assert lesson_id is not None
        assert (await first.store.load_lesson(lesson_id)).info.status == "open"
        again = _hosted(await first.hosts.get(lesson.code))
        assert again is not host and actions(again.lesson) == actions(host.lesson)


async def test_a_lesson_let_go_is_saved_only_while_its_lease_is_held(target: str) -> None:
    """Letting a lesson go saves what changed since its last commit; a lesson whose lease is
    gone is not this process's to save any more (another may serve it already)."""
    async with process(target) as first:
        kept, lost = [await stored_lesson(first.store, first.wall) for _ in range(2)]
        for lesson in (kept, lost):
            host = _hosted(await first.hosts.get(lesson.code))
            host.lesson.goal = 99  # changed, not saved yet
        lost_id = await first.store.open_lesson_by_code(lost.code)
        kept_id = await first.store.open_lesson_by_code(kept.code)
        assert lost_id is not None and kept_id is not None
        await first.leases.release(lost_id)
        await first.hosts.drop(lost.code)
        await first.hosts.drop(kept.code)
        assert (await first.store.load_lesson(kept_id)).state["goal"] == 99
        assert (await first.store.load_lesson(lost_id)).state["goal"] == 12


async def test_a_lesson_with_a_page_connected_is_not_quiet(target: str) -> None:
    """The projector's page (or a pupil's) connected live is the lesson in use, though it
    asks for nothing: it stays until the page goes, and is let go when quiet after that."""
    async with process(target) as first:
        lesson = await stored_lesson(first.store, first.wall)
        host = _hosted(await first.hosts.get(lesson.code))
        projector = web.WebSocketResponse()
        host.hub.add(None, projector, "en")
        first.clock.now += 30 * 60
        await first.hosts.sweep()
        assert first.hosts.codes == {lesson.code} and not host.closed.is_set()
        host.hub.drop(None, projector)  # the page is closed
        await first.hosts.sweep()
        assert host.closed.is_set() and first.hosts.codes == frozenset()


async def test_a_lesson_nobody_used_for_a_day_ends_and_is_deleted_after_its_retention(
    target: str,
) -> None:
    """Issue 32: "a lesson that nobody uses for a day ends by itself and is deleted after its
    retention": ended as of its last use (its code opens nothing more), deleted once its
    retention has run out. A lesson used within the day stays open."""
    async with process(target) as first:
        idle = await stored_lesson(first.store, first.wall)
        idle_id = await first.store.open_lesson_by_code(idle.code)
        host = _hosted(await first.hosts.get(idle.code))
        first.clock.now += 10 * 60
        first.wall.now += 10 * 60
        await first.hosts.sweep()  # quiet: let go, still open
        assert host.closed.is_set() and first.leases.held == frozenset()
        first.wall.now += 20 * 3600
        used = await stored_lesson(first.store, first.wall)
        first.wall.now += 4 * 3600
        await first.hosts.sweep()  # a day since its last use: ended
        assert await first.hosts.get(idle.code) == NoLesson(idle.code)
        assert _hosted(await first.hosts.get(used.code)).lesson.code == used.code
        assert idle_id is not None
        assert (await first.store.load_lesson(idle_id)).info.status == "ended"
        first.wall.now += DEFAULT_KEEP_DAYS * DAY_MS / 1000
        await first.hosts.sweep()
        with pytest.raises(NotFoundError):
            await first.store.load_lesson(idle_id)


async def test_an_idle_lesson_another_process_serves_is_not_ended(pg: str) -> None:
    """A lesson served elsewhere is in use there, whatever its last change: the sweep ends
    only what nobody serves."""
    wall = Wall()
    async with process(pg, wall) as first, process(pg, wall) as second:
        lesson = await stored_lesson(first.store, wall)
        host = _hosted(await second.hosts.get(lesson.code))
        wall.now += 25 * 3600
        await first.hosts.sweep()
        assert second.hosts.codes == {lesson.code} and not host.closed.is_set()
        lesson_id = await first.store.open_lesson_by_code(lesson.code)
        assert lesson_id is not None and lesson_id not in first.leases.held


async def test_shutdown_saves_and_releases_every_lesson(target: str) -> None:
    async with process(target) as first:
        lessons = [await stored_lesson(first.store, first.wall) for _ in range(2)]
        held = [_hosted(await first.hosts.get(lesson.code)) for lesson in lessons]
        await first.hosts.close_all()
        assert all(host.closed.is_set() for host in held)
        assert first.hosts.codes == frozenset() and first.leases.held == frozenset()
        assert await first.hosts.get(lessons[0].code) == Busy(lessons[0].code)
