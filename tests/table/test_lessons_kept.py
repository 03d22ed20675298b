"""The teacher's page lists the lessons kept, with their summaries, and deletes a lesson's
data at once (PRIVACY.md; issue: "the teacher's page lists earlier lessons and their
summaries", "the teacher can delete a lesson at once")."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from storage import Storage
from table.keep import Keeper, open_lesson
from tests.table.kept import KEY, serve_kept
from tests.table.lessons import Device, join, teacher
from tests.table.support import FakeClock, Table


@pytest_asyncio.fixture
async def kept(tmp_path: Path) -> AsyncIterator[tuple[Table, Storage, Keeper]]:
    """A lesson kept in storage, as `mattekrig class` serves it, with an earlier one ended."""
    store = await Storage.open(tmp_path / "lessons.db")
    clock = FakeClock()
    earlier, _, _ = await open_lesson(store, clock, key=KEY)
    earlier.join(None, earlier.code, "Oda")
    earlier.end()
    await earlier.save()
    try:
        async with serve_kept(store) as (table, keeper):
            yield table, store, keeper
    finally:
        await store.close()


async def test_the_teacher_sees_every_lesson_kept_and_its_summary(
    kept: tuple[Table, Storage, Keeper],
) -> None:
    table, store, keeper = kept
    boss = await teacher(table)
    _, page = await boss.get("/teacher?lang=en")
    assert 'href="/teacher/lessons?lang=en"' in page
    status, page = await boss.get("/teacher/lessons?lang=en")
    assert status == 200 and "14 days" in page and "this lesson" in page and "ended" in page
    earlier = next(i for i in await store.lessons() if i.id != keeper.lesson_id)
    status, page = await boss.get(f"/teacher/lessons/{earlier.id}?lang=en")
    assert status == 200 and "Oda" in page  # the earlier lesson's own summary
    assert f"/teacher/lessons/{earlier.id}/summary.csv" in page
    status, csv = await boss.get(f"/teacher/lessons/{earlier.id}/summary.csv?lang=en")
    assert status == 200 and "Oda" in csv
    pupil = Device.new(table)
    for path in ("/teacher/lessons", f"/teacher/lessons/{earlier.id}"):
        status, _ = await pupil.get(path)
        assert status == 403  # the teacher's alone
    await boss.close()
    await pupil.close()


async def test_the_teacher_deletes_a_lesson_at_once_after_being_asked(
    kept: tuple[Table, Storage, Keeper],
) -> None:
    table, store, keeper = kept
    boss = await teacher(table)
    earlier = next(i for i in await store.lessons() if i.id != keeper.lesson_id)
    status, page = await boss.post(f"/teacher/lessons/{earlier.id}/delete", lang="en")
    assert status == 200 and "cannot be undone" in page
    assert len(await store.lessons()) == 2  # only asked
    await boss.post(f"/teacher/lessons/{earlier.id}/delete", confirm="yes", lang="en")
    assert [i.id for i in await store.lessons()] == [keeper.lesson_id]
    # This lesson's own data: the lesson ends, and nothing of it is kept or stored again.
    ada, _ = await join(table, "Ada")
    await boss.post(f"/teacher/lessons/{keeper.lesson_id}/delete", confirm="yes", lang="en")
    assert await store.lessons() == [] and table.lesson.ended
    await table.lesson.save()
    assert await store.lessons() == []
    await ada.close()
    await boss.close()


@pytest.mark.parametrize(
    ("keep_days", "said"),
    [(1, "deleted 1 day after it ended"), (0, "deleted as soon as it ends")],
)
async def test_the_lessons_page_says_how_long_as_the_teacher_set_it(
    tmp_path: Path, keep_days: int, said: str
) -> None:
    """One day is "1 day", never "1 days"; a lesson kept 0 days is deleted as it ends."""
    store = await Storage.open(tmp_path / "lessons.db")
    try:
        async with serve_kept(store, keep_days=keep_days) as (table, _):
            boss = await teacher(table)
            status, page = await boss.get("/teacher/lessons?lang=en")
            assert status == 200 and said in page
            await boss.close()
    finally:
        await store.close()
