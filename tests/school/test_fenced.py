"""A school server process writes a lesson only while it holds the lesson's lease, whether it
has noticed losing it or not (school/hosts.py gives each keeper its lease's fence;
table/keep.py carries it; storage/lessons.py checks it inside every write's transaction).

Issue 32: "Each lesson is served by one process at a time, which holds it by a lease … a
process restart loses no acknowledged action." A process can lose its lease connection and
go on for seconds before it notices (a silent network), while another process takes the
lesson over: a commit it began meanwhile must not land beside the new holder's, or the
lesson would be written by two processes. The commit that meets the fence is refused whole
and the pupil is asked to try again (503), as for any database fault.

Here the first process's lease session is ended by the server, and its keeper commits
directly, as a commit already under way (or begun before the process noticed) does: the
in-memory fence Hosts puts up once it notices is not what is tested.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import psycopg
import pytest

from engine.game import choices
from engine.registry import action_to_json
from storage.postgres.leases import PgLeases
from table.lesson import Lesson
from table.press import Refused
from tests.postgres import fresh_schema_url
from tests.school.hosted import Hosted, Wall, play, process, stored_lesson

pytestmark = pytest.mark.usefixtures("quiet_log")
PATIENCE_S = 60  # a hang fails the test instead of the whole run; never a measure of speed


@pytest.fixture
def pg() -> str:
    return fresh_schema_url()  # skips (locally) or fails (in CI) without a server


def _hosted(found: object) -> Hosted:
    assert isinstance(found, Hosted), found
    return found


def _press(lesson: Lesson, wall: Wall) -> None:
    """One press at the first live game that takes one, not saved (the test saves it)."""
    for game in lesson.live_games():
        offered = [c for c in choices(game.state) if c.side in game.humans]
        if not game.over and offered:
            game.play(offered[0].action, game.seats[offered[0].side][0], lesson.clock())
            wall.now += 1.5
            return
    raise AssertionError("no game takes a press")


def _played(lesson: Lesson) -> dict[str, list[Any]]:
    """Every action of every game of the lesson, as stored."""
    return {g.id: [action_to_json(a) for a in g.actions] for g in lesson.games if not g.shared}


async def _terminate_lease(url: str, leases: PgLeases, lesson_id: int) -> None:
    """The server ends the lease session; the test goes on once its lock of the lesson is
    gone (a blocking lock on another connection is granted then: no timeout waited for)."""
    pid, namespace = leases.backend_pid, leases.namespace

    def terminate() -> None:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            admin.execute(f"SET lock_timeout = '{PATIENCE_S}s'".encode())
            admin.execute("SELECT pg_advisory_lock(%s, %s)", (namespace, lesson_id))
            admin.execute("SELECT pg_advisory_unlock(%s, %s)", (namespace, lesson_id))

    await asyncio.to_thread(terminate)


async def test_a_lesson_taken_over_is_written_by_its_new_holder_alone(pg: str) -> None:
    """Issue 32: one process at a time, and no acknowledged action lost. The first process
    commits under its lease; its lease session ends and the second process takes the lesson
    over; the first one's next commits (a press, a press at one table, the teacher ending
    the lesson) are refused with "try again" and change nothing; the second one's land; and
    the lesson brought back after all of it holds exactly the second one's actions."""
    async with process(pg) as first, process(pg) as second:
        lesson = await stored_lesson(first.store, first.wall)
        lesson_id = await first.store.open_lesson_by_code(lesson.code)
        assert lesson_id is not None
        old = _hosted(await first.hosts.get(lesson.code))
        keeper = old.keeper
        assert isinstance(first.leases, PgLeases)
        assert keeper.fence is not None and keeper.fence.backend_pid == first.leases.backend_pid
        assert await play(old.lesson, first.wall, 1) > 0  # committed under the lease held
        assert _played(old.lesson) == _played(
            _hosted(await first.hosts.get(lesson.code)).lesson
        )  # (the same host)
        stored = (await first.store.load_lesson(lesson_id)).actions
        assert len(stored) == sum(len(a) for a in _played(old.lesson).values())

        await _terminate_lease(pg, first.leases, lesson_id)
        new = _hosted(await second.hosts.get(lesson.code))
        assert _played(new.lesson) == _played(old.lesson)

        _press(old.lesson, first.wall)  # a press the first process still accepts
        with pytest.raises(Refused) as refused:
            await keeper.save(old.lesson)
        assert (refused.value.key, refused.value.status) == ("table.error.storage", 503)
        assert (await first.store.load_lesson(lesson_id)).actions == stored

        assert await play(new.lesson, second.wall, 2) > 0  # the new holder's commits land
        acknowledged = _played(new.lesson)

        (game, *_) = old.lesson.live_games()
        with pytest.raises(Refused):
            await keeper.save_game(old.lesson, game)
        old.lesson.end()
        with pytest.raises(Refused):
            await keeper.save(old.lesson)
        with pytest.raises(Refused):
            await keeper.delete()
        await second.hosts.close_all()  # saved and released

    async with process(pg) as third:
        back = _hosted(await third.hosts.get(lesson.code))
        assert _played(back.lesson) == acknowledged != _played(old.lesson)
        assert not back.lesson.ended
        kept = await third.store.load_lesson(lesson_id)
        assert kept.info.status == "open"


async def test_a_laptop_or_sqlite_lesson_has_no_fence(tmp_path: Path) -> None:
    """On SQLite (one server process on one file) a lease is lost only with its process:
    the keeper carries no fence and commits as `mattekrig class` does."""
    async with process(str(tmp_path / "lessons.db")) as only:
        lesson = await stored_lesson(only.store, only.wall)
        host = _hosted(await only.hosts.get(lesson.code))
        assert host.keeper.fence is None
        assert await play(host.lesson, only.wall, 1) > 0
