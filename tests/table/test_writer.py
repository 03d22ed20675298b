"""The lesson's one writer (table/writer.py): presses at different tables are held together,
one table's presses one at a time, and the lesson held alone by nobody else meanwhile."""

from __future__ import annotations

import asyncio

from table.writer import LessonLock


async def test_two_tables_are_held_together_and_one_table_one_at_a_time() -> None:
    lock = LessonLock()
    inside: list[str] = []
    release = asyncio.Event()

    async def press(table: str, name: str) -> None:
        async with lock.table(lambda: table):
            inside.append(name)
            await release.wait()
            inside.remove(name)

    tasks = [asyncio.create_task(press(t, n)) for t, n in (("A", "a1"), ("B", "b1"), ("A", "a2"))]
    await asyncio.sleep(0.01)
    assert sorted(inside) == ["a1", "b1"]  # a2 waits for a1: the same table
    release.set()
    await asyncio.gather(*tasks)
    assert inside == []


async def test_held_alone_waits_for_the_tables_and_goes_before_new_ones() -> None:
    """Nobody sees a lobby change half made, and a busy class never starves the teacher."""
    lock = LessonLock()
    order: list[str] = []
    first_in = asyncio.Event()
    go_on = asyncio.Event()

    async def press(name: str, hold: asyncio.Event | None = None) -> None:
        async with lock.table(lambda: name):
            order.append(name)
            first_in.set()
            if hold is not None:
                await hold.wait()

    async def teacher() -> None:
        async with lock:
            order.append("teacher")

    first = asyncio.create_task(press("first", go_on))
    await first_in.wait()
    alone = asyncio.create_task(teacher())
    await asyncio.sleep(0.01)
    late = asyncio.create_task(press("late"))
    await asyncio.sleep(0.01)
    assert order == ["first"]  # the teacher waits for the table in flight, the late press too
    go_on.set()
    await asyncio.gather(first, alone, late)
    assert order == ["first", "teacher", "late"]
