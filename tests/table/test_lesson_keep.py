"""The lesson kept as it happens (table/keep.py) and brought back: what `mattekrig class`
after a crash restores, checked value by value in one process (the kill -9 of a real server is
tests/table/test_lesson_restart.py)."""

from __future__ import annotations

from pathlib import Path

from engine.game import choices
from storage import Storage
from table.keep import DAY_MS, RECONNECT_SECONDS, open_lesson
from table.lesson import Lesson
from table.summary import summarise
from tests.table.support import FakeClock, Seeds

KEY = b"k" * 32
NAMES = ("Ada", "Bo", "Cy", "Di", "Ed")


class Wall:
    """Wall-clock seconds, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


async def _play(lesson: Lesson, wall: Wall, presses: int) -> None:
    """Every game takes its first choice (an answer, a flip …) `presses` times over, each
    press saved as the server saves it."""
    for _ in range(presses):
        for game in lesson.live_games():
            offered = [c for c in choices(game.state) if c.side in game.humans]
            if game.over or not offered:
                continue
            seat = game.seats[offered[0].side][0]
            game.play(offered[0].action, seat, lesson.clock())
            wall.now += 1.5
            await lesson.save()


async def test_a_restored_lesson_is_the_lesson_that_was_stored(tmp_path: Path) -> None:
    """Issue: the same code, the same teacher's link, every device's seat by its cookie, each
    game at its last committed action, the goal and the summary so far."""
    store = await Storage.open(tmp_path / "lessons.db")
    wall = Wall()
    try:
        lesson, _, back = await open_lesson(
            store, FakeClock(), key=KEY, wall=wall, seeds=Seeds([3, 5, 8])
        )
        assert not back
        secrets = {name: lesson.join(None, lesson.code, name)[0] for name in NAMES}
        lesson.goal = 12
        lesson.pair("random")
        await lesson.save()
        await _play(lesson, wall, 12)
        removed = next(iter(lesson.seats))
        lesson.remove(removed)
        await lesson.save()

        wall.now += 60  # the crash, and `mattekrig class` again a minute later
        again, _, back = await open_lesson(store, FakeClock(50.0), key=KEY, wall=wall)
        assert back
        assert (again.code, again.teacher_secret) == (lesson.code, lesson.teacher_secret)
        assert again.goal == 12
        for name, secret in secrets.items():
            assert secret is not None
            device = again.device(secret)
            assert device == lesson.device(secret), name
            before, after = lesson.seat_of(device), again.seat_of(device)
            assert (before and before.id) == (after and after.id)
        assert set(again.removed) == {removed} and again.devices_removed == lesson.devices_removed
        for game in lesson.live_games():
            back_game = again.games.get(game.id)
            assert back_game is not None
            assert back_game.state == game.state and back_game.actions == game.actions
            assert back_game.records == game.records
        assert summarise(again) == summarise(lesson)
        assert again.found() == lesson.found()
    finally:
        await store.close()


async def test_no_pupil_loses_a_card_to_the_crash(tmp_path: Path) -> None:
    """An answer time that ran out while the server was down starts again; a game's time
    limit keeps its wall-clock time."""
    store = await Storage.open(tmp_path / "lessons.db")
    wall = Wall()
    try:
        lesson, _, _ = await open_lesson(store, FakeClock(), key=KEY, wall=wall)
        for name in NAMES[:2]:
            lesson.join(None, lesson.code, name)
        lesson.pair("random")
        await lesson.save()
        game = lesson.live_games()[0]
        assert game.answer_deadlines or game.deadline is not None
        wall.now += 3600  # an hour down: every answer time has run out
        clock = FakeClock(10.0)
        again, _, _ = await open_lesson(store, clock, key=KEY, wall=wall)
        back = again.games.get(game.id)
        assert back is not None
        for at in back.answer_deadlines.values():
            assert at >= clock.now + RECONNECT_SECONDS
        if game.deadline is not None:  # the time limit ran on: it is in the past now
            assert back.deadline is not None and back.deadline < clock.now
        again.tick()  # the time limit that ran out ends the game; nobody is timed out
        assert not [r for g in again.live_games() for r in g.records if r.mistake == "timeout"]
    finally:
        await store.close()


async def test_a_paused_lesson_comes_back_paused(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "lessons.db")
    wall = Wall()
    try:
        lesson, _, _ = await open_lesson(store, FakeClock(), key=KEY, wall=wall)
        for name in NAMES[:2]:
            lesson.join(None, lesson.code, name)
        lesson.pair("random")
        lesson.pause()
        await lesson.save()
        again, _, _ = await open_lesson(store, FakeClock(10.0), key=KEY, wall=wall)
        assert again.paused and all(g.stopped_at is not None for g in again.live_games())
    finally:
        await store.close()


async def test_an_ended_lesson_is_not_brought_back_and_is_kept_for_its_retention(
    tmp_path: Path,
) -> None:
    """Issue: an ended lesson's data is kept for its retention (14 days by default), then
    deleted; `mattekrig class` after the end starts a fresh lesson."""
    store = await Storage.open(tmp_path / "lessons.db")
    wall = Wall()
    try:
        lesson, keeper, _ = await open_lesson(store, FakeClock(), key=KEY, wall=wall)
        lesson.join(None, lesson.code, "Ada")
        lesson.end()
        await lesson.save()
        assert keeper.ended
        (info,) = await store.lessons()
        assert info.status == "ended" and info.ended_at is not None
        assert info.keep_until == info.ended_at + 14 * DAY_MS
        fresh, _, back = await open_lesson(store, FakeClock(), key=KEY, wall=wall)
        assert not back and fresh is not lesson
        wall.now += 15 * 86_400
        await open_lesson(store, FakeClock(), key=KEY, wall=wall, fresh=True)
        assert info.id not in [i.id for i in await store.lessons()]
    finally:
        await store.close()


async def test_keep_days_0_keeps_nothing_once_the_lesson_ends(tmp_path: Path) -> None:
    """Issue: `0` keeps nothing once the lesson ends."""
    store = await Storage.open(tmp_path / "lessons.db")
    try:
        lesson, _, _ = await open_lesson(store, FakeClock(), key=KEY, keep_days=0, wall=Wall())
        lesson.join(None, lesson.code, "Ada")
        await lesson.save()
        lesson.end()
        await lesson.save()
        assert await store.lessons() == []
    finally:
        await store.close()


async def test_a_lesson_left_for_hours_is_not_brought_back(tmp_path: Path) -> None:
    """Issue: only a lesson used in the last hours comes back; `--new` starts a fresh one."""
    store = await Storage.open(tmp_path / "lessons.db")
    wall = Wall()
    try:
        await open_lesson(store, FakeClock(), key=KEY, wall=wall)
        _, _, back = await open_lesson(store, FakeClock(), key=KEY, wall=wall, fresh=True)
        assert not back
        wall.now += 5 * 3600
        latest, _, back = await open_lesson(store, FakeClock(), key=KEY, wall=wall)
        assert not back
        assert [i.status for i in await store.lessons()] == ["open", "ended", "ended"]
        assert latest.code
    finally:
        await store.close()
