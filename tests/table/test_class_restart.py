"""A lesson of a class brought back after a crash (`mattekrig class` again): still the class's
lesson, its pupils in their seats as themselves, the cards opening only their own seats, and
the rounds played before the crash counted once."""

from __future__ import annotations

from pathlib import Path

from engine.game import choices
from storage.sqlite import Storage
from table.cli import class_of_lesson
from table.keep import open_lesson
from table.lesson import Lesson
from table.roster import add_pupils, load_roster
from tests.table.classes import KEY, LEVEL_ONE, Wall
from tests.table.support import FakeClock, Seeds


async def _play(lesson: Lesson, presses: int) -> None:
    """Each game takes its first choice (a flip, the best answer) `presses` times, each press
    saved as the server saves it."""
    for _ in range(presses):
        for game in lesson.live_games():
            offered = [c for c in choices(game.state) if c.side in game.humans]
            if game.over or not offered:
                continue
            game.play(offered[0].action, game.seats[offered[0].side][0], lesson.clock())
            await lesson.save_game(game)


async def test_a_class_lesson_comes_back_as_the_class_lesson(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "lessons.db")
    wall = Wall()
    try:
        lesson, keeper, _ = await open_lesson(store, FakeClock(), key=KEY, wall=wall,
                                              seeds=Seeds([3]))  # fmt: skip
        lesson.setup = LEVEL_ONE
        klass = await class_of_lesson(store, lesson, keeper, "7B")
        info = klass.info
        assert info is not None
        pupils = await add_pupils(store, info.id, ["Ada", "Bo"], 1)
        await load_roster(store, lesson)
        cookies = {p.name: lesson.join(None, p.card, "")[0] for p in pupils}
        lesson.pair("random")
        await lesson.save()
        await _play(lesson, 12)
        before = (await store.class_rounds(info.id))[0]
        assert len(before) >= 4
        # The crash: the lesson brought back from storage by `mattekrig class` again.
        wall.now += 60
        back, keeper2, resumed = await open_lesson(store, FakeClock(), key=KEY, wall=wall)
        assert resumed and back.class_id == info.id
        again = await class_of_lesson(store, back, keeper2, None)
        assert again is not None and again.info == info
        assert sorted(s.name for s in back.seats.values()) == ["Ada", "Bo"]
        assert set(back.pupils.values()) == {p.id for p in pupils}
        ada = pupils[0]
        _, seat = back.join(back.device(cookies["Ada"]), ada.card, "")
        assert seat.name == "Ada"  # the same seat, as herself
        assert (await store.class_rounds(info.id))[0] == before  # counted once
        await _play(back, 6)
        assert len((await store.class_rounds(info.id))[0]) > len(before)
    finally:
        await store.close()
