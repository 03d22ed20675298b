"""Issue: "in a lesson the teacher may let each table play at its pupils' own level": with it
on, each new table plays the class's game at the level suggested for its pupils (the lowest of
a table's, `classroom.progress`), with it off at the class's level."""

from __future__ import annotations

from pathlib import Path

from classroom.i18n import t
from storage.records.classes import RoundRow
from storage.sqlite import Storage
from tests.table.classes import (
    Wall,
    add_pupils,
    cards_of,
    class_lesson,
    join_by_card,
    seat_named,
    teacher_of,
)
from tests.table.lessons import Device
from tests.table.support import message_of

T0 = 1_789_000_000_000
# Each pupil's last lesson: (level, best moves of 10) -> the level suggested next.
HISTORY = {"Ada": (2, 9), "Bo": (2, 2), "Cy": (4, 9), "Di": (4, 6)}
SUGGESTED = {"Ada": 3, "Bo": 1, "Cy": 5, "Di": 4}


async def test_each_table_plays_at_its_pupils_own_level(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "lessons.db")
    try:
        async with class_lesson(store, Wall()) as served:
            table, lesson = served.table, served.lesson
            teacher = await teacher_of(table)
            cards = cards_of(await add_pupils(teacher, *HISTORY))
            class_id = lesson.class_id or 0
            for p in await store.pupils(class_id):
                level, best = HISTORY[p.name]
                rows = [RoundRow(p.id, 1, T0, "g", i, T0, level, True, i < best, None)
                        for i in range(10)]  # fmt: skip
                await store.record_rounds(class_id, rows, [])
            status, page = await teacher.post("/teacher/class/levels", own="on", lang="en")
            assert status == 200 and message_of(page) == t("class.levels.on_note", "en")
            for name, level in SUGGESTED.items():
                assert t("class.levels.pupil", "en", name=name, level=level) in page
            devices = [Device.new(table) for _ in HISTORY]
            for device, name in zip(devices, HISTORY, strict=True):
                status, _ = await join_by_card(table, cards[name], device)
                assert status == 200
            await teacher.post("/teacher/pair", how="random", lang="en")
            games = lesson.live_games()
            assert len(games) == 2
            for game in games:
                names = [n for n in HISTORY if seat_named(lesson, n).id in game.all_seats]
                assert game.state.config.level == min(SUGGESTED[n] for n in names)
            # Off again: the next tables play the class's level.
            await teacher.post("/teacher/class/levels", own="off", lang="en")
            await teacher.post("/teacher/new-partners", lang="en")
            assert {g.state.config.level for g in lesson.live_games() if not g.over} == {1}
            for device in (teacher, *devices):
                await device.close()
    finally:
        await store.close()
