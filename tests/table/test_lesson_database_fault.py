"""A database the lesson cannot write (a read-only file, a full disk, an I/O error) is not a
bug: a press that meets it gets a short localised "try again" (503), never the server-error
page or a 500, and the operator reads one line when the fault starts and one when it is over,
never a traceback per press. What was pressed is stored by the first save that works."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from classroom.i18n import t
from engine.actions import Timeout
from engine.registry import action_from_json
from storage import LessonChange, Storage
from storage.faults import database_faults
from table.keep import Keeper
from tests.table.kept import serve_kept
from tests.table.lessons import best_text, join, side_of, teacher
from tests.table.support import Table

PATIENCE_S = 60


class FailingDisk:
    """The lesson's storage on a disk that refuses writes while `failing` (SQLite's own
    error, as a read-only file or a full disk gives it), and takes them again after."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self.failing = False

    async def commit_lesson(self, lesson_id: int, change: LessonChange) -> None:
        if self.failing:
            raise sqlite3.OperationalError("attempt to write a readonly database")
        await self.store.commit_lesson(lesson_id, change)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


@pytest_asyncio.fixture
async def kept(tmp_path: Path) -> AsyncIterator[tuple[Table, Keeper, FailingDisk]]:
    store = await Storage.open(tmp_path / "lessons.db")
    disk = FailingDisk(store)
    try:
        async with serve_kept(store, disk=lambda _: disk) as (table, keeper):
            yield table, keeper, disk
    finally:
        await store.close()
        database_faults.current = None


async def test_a_press_on_a_failing_disk_is_asked_again_with_one_line_for_the_operator(
    kept: tuple[Table, Keeper, FailingDisk], caplog: pytest.LogCaptureFixture
) -> None:
    table, keeper, disk = kept
    boss = await teacher(table)
    await boss.post("/teacher/settings", game="regnekrig", level="1", minutes="0", lang="en")
    ada, ada_seat = await join(table, "Ada")
    bo, _ = await join(table, "Bo")
    await boss.post("/teacher/pair", how="random", lang="en")
    (game,) = table.lesson.live_games()
    side = side_of(game, ada_seat)
    disk.failing = True
    caplog.set_level(logging.INFO)
    answer = best_text(game, side)
    status, page = await ada.post(
        "/table/act", window=str(game.state.window), choice="answer", answer=answer, lang="en"
    )
    assert status == 503 and t("table.error.storage", "en") in page
    status, page = await boss.post("/teacher/more-time", lang="en")  # the teacher, meanwhile
    assert status == 503 and t("table.error.storage", "en") in page
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is None  # one line, no traceback
    assert "readonly" in errors[0].getMessage()
    disk.failing = False
    status, _ = await boss.post("/teacher/pause", lang="en")
    assert status == 200
    over = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(over) == 1  # the fault is over: said once
    assert not any(r.exc_info for r in caplog.records)
    stored = await disk.store.load_lesson(keeper.lesson_id)
    assert answer in str([a.action for a in stored.actions_of(game.id)])  # nothing lost
    for device in (boss, ada, bo):
        await device.close()


async def test_an_answer_time_that_runs_out_on_a_failing_disk_is_stored_once_it_works(
    kept: tuple[Table, Keeper, FailingDisk], caplog: pytest.LogCaptureFixture
) -> None:
    """RULES §2.2: an answer that does not come in time counts as none, and the lesson's clock
    stores that before any device sees it. The clock's save meets a failing disk: one line
    for the operator, the clock goes on, and the first save that works stores the timeout
    (then the devices see it); nothing of it is lost and nothing raises when the lesson
    closes (a server stopping, a lesson handed over)."""
    table, keeper, disk = kept
    boss = await teacher(table)
    await boss.post("/teacher/settings", game="regnekrig", level="1", answer_seconds="5",
                    minutes="0", lang="en")  # fmt: skip
    ada, _ = await join(table, "Ada")
    bo, _ = await join(table, "Bo")
    await boss.post("/teacher/pair", how="random", lang="en")
    (game,) = table.lesson.live_games()
    window = game.state.window
    caplog.set_level(logging.INFO)
    disk.failing = True
    table.clock.now += 6  # the answer time runs out; the lesson's clock sees it at its tick
    await until(lambda: game.state.window != window, "the answer time ran out")
    await until(lambda: any(r.levelno >= logging.ERROR for r in caplog.records), "said")
    disk.failing = False

    async def timeouts() -> int:
        stored = await disk.store.load_lesson(keeper.lesson_id)
        played = [action_from_json(a.action) for a in stored.actions_of(game.id)]
        return sum(isinstance(action, Timeout) for action in played)

    deadline = asyncio.get_running_loop().time() + PATIENCE_S
    while not await timeouts():  # the clock's next try stores it
        assert asyncio.get_running_loop().time() < deadline, "the timeout was never stored"
        await asyncio.sleep(0.05)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is None  # one line, no traceback
    for device in (boss, ada, bo):
        await device.close()


async def until(check: Callable[[], bool], what: str) -> None:
    """Wait (bounded: a hang fails, never a measure of speed) until ``check`` holds."""
    deadline = asyncio.get_running_loop().time() + PATIENCE_S
    while not check():
        assert asyncio.get_running_loop().time() < deadline, f"never: {what}"
        await asyncio.sleep(0.05)
