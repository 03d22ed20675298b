"""A class lesson stored as it happens (storage/lessons.py), on every backend: created with
its code, changed whole or not at all, brought back exactly, ended, kept for its retention
and then deleted, or deleted at once."""

from __future__ import annotations

import sqlite3

import pytest

from storage import (
    EventConflictError,
    LessonAction,
    LessonChange,
    LessonClosedError,
    LessonCodeTakenError,
    LessonGame,
    LessonSeat,
    NewLesson,
    NotFoundError,
    Storage,
)

from .conftest import Backend, need_durable

T0 = 1_700_000_000_000
DAY = 86_400_000
SETUP = {"game": "regnekrig", "level": 1}


def _new(code: str = "123456", owner: str | None = None) -> NewLesson:
    return NewLesson(code, "k" * 64, "nonce", SETUP, {"goal": None}, owner=owner)


def _game(game_id: str = "g1", number: int = 1, over: bool = False) -> LessonGame:
    return LessonGame(
        id=game_id,
        number=number,
        settings={"engine": {"game": "regnekrig"}},
        seed=42,
        names=("Kari", "Lars"),
        seats=(("s1",), ("s2",)),
        clocks={"deadline": T0 + 600_000, "answers": {"0": T0 + 30_000}},
        over=over,
    )


def _seats() -> tuple[LessonSeat, ...]:
    return (
        LessonSeat("s1", "Kari", "d" * 64, 1, "g1", ("s2",)),
        LessonSeat("s2", "Lars", "e" * 64, 2, "g1", ("s1",)),
    )


def _act(seq: int, game_id: str = "g1", seat: str | None = "s1") -> LessonAction:
    return LessonAction(game_id, seq, {"type": "answer", "side": 0, "text": f"{seq}"}, seat)


def _change(at: int, **parts: object) -> LessonChange:
    return LessonChange(at, SETUP, {"goal": 5}, None, **parts)  # type: ignore[arg-type]


async def test_a_lesson_is_brought_back_exactly_as_it_was_stored(store: Storage) -> None:
    """Issue: the same code, the teacher's key (its digest), every seat by its device, each
    game at its last committed action, the goal."""
    lesson = await store.create_lesson(_new(), T0)
    await store.commit_lesson(
        lesson, _change(T0 + 1, seats=_seats(), games=(_game(),), actions=(_act(0), _act(1)))
    )
    await store.commit_lesson(lesson, _change(T0 + 2, actions=(_act(2, seat=None),)))
    stored = await store.load_lesson(lesson)
    assert stored.code == "123456"
    assert stored.teacher_key == "k" * 64 and stored.key_nonce == "nonce"
    assert stored.state == {"goal": 5} and stored.setup == SETUP and stored.paused_at is None
    assert stored.seats == _seats()
    assert stored.games == (_game(),)
    assert stored.actions_of("g1") == [_act(0), _act(1), _act(2, seat=None)]
    assert (stored.info.seats, stored.info.games, stored.info.actions) == (2, 1, 3)
    assert stored.info.used_at == T0 + 2 and stored.info.status == "open"


async def test_a_change_is_stored_whole_or_not_at_all(store: Storage) -> None:
    """Every accepted action is committed once: a seq taken is a conflict, a gap an error,
    and neither leaves any part of its change behind."""
    lesson = await store.create_lesson(_new(), T0)
    await store.commit_lesson(
        lesson, _change(T0, seats=_seats(), games=(_game(),), actions=(_act(0),))
    )
    moved = LessonSeat("s1", "Kari", "d" * 64, 1, None, ("s2",))
    with pytest.raises(EventConflictError):
        await store.commit_lesson(lesson, _change(T0 + 5, seats=(moved,), actions=(_act(0),)))
    with pytest.raises(ValueError):
        await store.commit_lesson(lesson, _change(T0 + 5, seats=(moved,), actions=(_act(2),)))
    with pytest.raises(ValueError):
        await store.commit_lesson(lesson, _change(T0 + 5, actions=(_act(0, game_id="nope"),)))
    stored = await store.load_lesson(lesson)
    assert stored.seats == _seats() and len(stored.actions) == 1 and stored.info.used_at == T0


async def test_seats_and_games_are_written_whole_when_they_change(store: Storage) -> None:
    lesson = await store.create_lesson(_new(), T0)
    await store.commit_lesson(lesson, _change(T0, seats=_seats(), games=(_game(),)))
    gone = LessonSeat("s2", "Lars", "e" * 64, 2, "g1", ("s1",), removed=True)
    await store.commit_lesson(
        lesson,
        LessonChange(T0 + 9, SETUP, {"goal": 7}, T0 + 8, seats=(gone,), games=(_game(over=True),)),
    )
    stored = await store.load_lesson(lesson)
    assert stored.seats[1].removed and stored.games[0].over
    assert stored.paused_at == T0 + 8 and stored.state == {"goal": 7}


async def test_an_open_code_opens_one_lesson(store: Storage) -> None:
    first = await store.create_lesson(_new("111111"), T0)
    with pytest.raises(LessonCodeTakenError):
        await store.create_lesson(_new("111111"), T0)
    assert await store.open_lesson_by_code("111111") == first
    await store.end_lesson(first, T0 + 1, 14 * DAY)
    assert await store.open_lesson_by_code("111111") is None
    second = await store.create_lesson(_new("111111"), T0 + 2)  # free again once it ended
    assert second != first


async def test_the_lesson_used_in_the_last_hours_is_the_one_resumed(store: Storage) -> None:
    """Issue: `mattekrig class` again brings back a lesson that has not ended and was used
    in the last hours; an ended one or an old one is not resumed."""
    old = await store.create_lesson(_new("100000"), T0)
    recent = await store.create_lesson(_new("200000"), T0 + 10)
    ended = await store.create_lesson(_new("300000"), T0 + 20)
    await store.end_lesson(ended, T0 + 30, DAY)
    await store.create_lesson(_new("400000", owner="teacher-7"), T0 + 40)
    assert await store.resumable_lesson(T0 + 5) == recent
    await store.commit_lesson(old, _change(T0 + 50))
    assert await store.resumable_lesson(T0 + 5) == old  # the one used last
    assert await store.resumable_lesson(T0 + 60) is None
    assert [i.code for i in await store.lessons()] == ["300000", "200000", "100000"]
    assert [i.code for i in await store.lessons(owner="teacher-7")] == ["400000"]


async def test_an_ended_lesson_takes_no_more_changes(store: Storage) -> None:
    lesson = await store.create_lesson(_new(), T0)
    assert await store.end_lesson(lesson, T0 + 1, DAY) is False
    with pytest.raises(LessonClosedError):
        await store.commit_lesson(lesson, _change(T0 + 2))
    with pytest.raises(NotFoundError):
        await store.commit_lesson(9999, _change(T0 + 2))
    info = (await store.load_lesson(lesson)).info
    assert (info.status, info.ended_at, info.keep_until) == ("ended", T0 + 1, T0 + 1 + DAY)


async def test_an_ended_lesson_is_deleted_when_its_retention_runs_out(store: Storage) -> None:
    """Issue: an ended lesson's data is deleted after its retention (default 14 days)."""
    lesson = await store.create_lesson(_new(), T0)
    await store.commit_lesson(
        lesson, _change(T0, seats=_seats(), games=(_game(),), actions=(_act(0),))
    )
    await store.end_lesson(lesson, T0 + 1, 14 * DAY)
    assert await store.purge_lessons(T0 + 14 * DAY) == 0
    assert await store.purge_lessons(T0 + 1 + 14 * DAY) == 1
    with pytest.raises(NotFoundError):
        await store.load_lesson(lesson)
    assert await _rows(store) == 0


async def test_a_retention_of_0_keeps_nothing_once_the_lesson_ends(store: Storage) -> None:
    """Issue: `0` keeps nothing once the lesson ends."""
    lesson = await store.create_lesson(_new(), T0)
    await store.commit_lesson(
        lesson, _change(T0, seats=_seats(), games=(_game(),), actions=(_act(0),))
    )
    assert await store.end_lesson(lesson, T0 + 1, 0) is True
    assert await store.lessons() == [] and await _rows(store) == 0


async def test_the_teacher_deletes_a_lesson_at_once(store: Storage) -> None:
    """Issue: the teacher can delete a lesson at once (open or ended)."""
    lesson = await store.create_lesson(_new(), T0)
    await store.commit_lesson(
        lesson, _change(T0, seats=_seats(), games=(_game(),), actions=(_act(0),))
    )
    assert await store.delete_lesson(lesson, T0) is True
    assert await store.delete_lesson(lesson, T0) is False
    assert await _rows(store) == 0


async def test_a_lesson_left_open_is_ended_as_of_its_last_use(store: Storage) -> None:
    """A lesson nobody resumed is ended as of its last use, so its retention runs too."""
    idle = await store.create_lesson(_new("100000"), T0)
    fresh = await store.create_lesson(_new("200000"), T0 + 5 * DAY)
    assert await store.end_idle_lessons(T0 + DAY, 14 * DAY) == 1
    info = (await store.load_lesson(idle)).info
    assert (info.status, info.ended_at, info.keep_until) == ("ended", T0, T0 + 14 * DAY)
    assert (await store.load_lesson(fresh)).info.status == "open"
    assert await store.end_idle_lessons(T0 + 6 * DAY, 0) == 1  # 0: nothing kept
    assert [i.id for i in await store.lessons()] == [idle]


async def test_a_school_server_ends_idle_lessons_one_by_one(store: Storage) -> None:
    """Issue 32: "a lesson that nobody uses for a day ends by itself": a server lists the
    idle lessons and ends each one it holds the lease of; a lesson pressed in since the list
    was read (or ended meanwhile) is left as it is."""
    idle = await store.create_lesson(_new("100000"), T0)
    pressed = await store.create_lesson(_new("200000"), T0 + 1)
    fresh = await store.create_lesson(_new("300000"), T0 + 5 * DAY)
    assert await store.idle_lessons(T0 + DAY) == [(idle, "100000"), (pressed, "200000")]
    assert await store.idle_lessons(T0 + DAY, limit=1) == [(idle, "100000")]
    await store.commit_lesson(pressed, LessonChange(T0 + 2 * DAY, None, None))
    assert not await store.end_idle_lesson(pressed, T0 + DAY, 14 * DAY)
    assert not await store.end_idle_lesson(fresh, T0 + DAY, 14 * DAY)
    assert await store.end_idle_lesson(idle, T0 + DAY, 14 * DAY)
    assert not await store.end_idle_lesson(idle, T0 + DAY, 14 * DAY)  # ended already
    info = (await store.load_lesson(idle)).info
    assert (info.status, info.ended_at, info.keep_until) == ("ended", T0, T0 + 14 * DAY)
    assert (await store.load_lesson(pressed)).info.status == "open"
    assert await store.idle_lessons(T0 + DAY) == []


async def test_a_lesson_outlives_its_connection(backend: Backend) -> None:
    """The crash: what was committed is there when the database is opened again."""
    need_durable(backend)
    first = await backend.open()
    lesson = await first.create_lesson(_new(), T0)
    await first.commit_lesson(
        lesson, _change(T0, seats=_seats(), games=(_game(),), actions=(_act(0),))
    )
    await first.close()
    again = await backend.open()
    try:
        assert (await again.load_lesson(lesson)).actions == (_act(0),)
    finally:
        await again.close()


async def _rows(store: Storage) -> int:
    """Every row of every lesson table: what a deleted lesson must leave none of."""

    def _tx(conn: sqlite3.Connection) -> int:
        tables = ("lessons", "lesson_seats", "lesson_games", "lesson_actions")
        return sum(int(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in tables)

    return await store._read(_tx)


async def test_a_press_moves_only_the_lessons_last_use(store: Storage) -> None:
    """A change without the lesson's row (a press) keeps the row as it is."""
    lesson = await store.create_lesson(_new(), T0)
    await store.commit_lesson(lesson, _change(T0, seats=_seats(), games=(_game(),)))
    await store.commit_lesson(lesson, LessonChange(T0 + 7, None, None, actions=(_act(0),)))
    stored = await store.load_lesson(lesson)
    assert stored.state == {"goal": 5} and stored.info.used_at == T0 + 7
    assert stored.actions == (_act(0),) and stored.games == (_game(),)
