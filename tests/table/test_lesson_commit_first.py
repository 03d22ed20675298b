"""Every accepted action is committed before anyone sees its result: while a press's commit
is on its way to the disk, neither its own answer, nor the partner's page, nor the teacher's
overview is given; once it is stored, all of them show it."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import pytest_asyncio

from storage import LessonChange, Storage
from storage.contract import LessonStore
from table.keep import Keeper
from tests.table.kept import serve_kept
from tests.table.lessons import best_text, join, side_of, teacher
from tests.table.support import Table


class HeldCommits:
    """The lesson's storage, whose commits wait until the test lets them through."""

    def __init__(self, store: Storage) -> None:
        self.store = store
        self.through = asyncio.Event()
        self.waiting = asyncio.Event()

    async def commit_lesson(self, lesson_id: int, change: LessonChange) -> None:
        self.waiting.set()
        await self.through.wait()
        await self.store.commit_lesson(lesson_id, change)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


@pytest_asyncio.fixture
async def kept(tmp_path: Path) -> AsyncIterator[tuple[Table, Keeper, Storage]]:
    store = await Storage.open(tmp_path / "lessons.db")
    try:
        async with serve_kept(store) as (table, keeper):
            yield table, keeper, store
    finally:
        await store.close()


async def test_nobody_sees_a_press_before_it_is_stored(
    kept: tuple[Table, Keeper, Storage],
) -> None:
    table, keeper, store = kept
    boss = await teacher(table)
    await boss.post("/teacher/settings", game="regnekrig", level="1", minutes="0", lang="en")
    ada, ada_seat = await join(table, "Ada")
    bo, _ = await join(table, "Bo")
    await boss.post("/teacher/pair", how="random", lang="en")
    (game,) = table.lesson.live_games()
    window = game.state.window
    held = HeldCommits(store)
    keeper.store = cast(LessonStore, held)
    side = side_of(game, ada_seat)
    press = asyncio.create_task(
        ada.post("/table/act", window=str(window), choice="answer",
                 answer=best_text(game, side), lang="en")
    )  # fmt: skip
    await held.waiting.wait()  # the press is accepted, and its commit on its way
    partner = asyncio.create_task(bo.get("/table?lang=en"))
    overview = asyncio.create_task(boss.get("/teacher?lang=en"))
    await asyncio.sleep(0.05)
    assert not press.done() and not partner.done() and not overview.done()
    held.through.set()
    status, _ = await press
    assert status == 200
    _, page = await partner
    shown = re.search(r'data-window="(\d+)"', page)
    stored = await store.load_lesson(keeper.lesson_id)
    assert len(stored.actions) == len(game.actions)  # what the partner is shown is stored
    assert shown is not None and int(shown.group(1)) == game.state.window
    assert (await overview)[0] == 200
    for device in (ada, bo, boss):
        await device.close()
