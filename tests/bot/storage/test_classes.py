"""A class that remembers (storage/classes.py), on every backend: the roster and its cards, a
card replaced, each pupil's rounds kept across lessons, and forget-pupil and delete-class
leaving no trace of the pupil in the database."""

from __future__ import annotations

import pytest

from storage import LessonChange, LessonGame, LessonSeat, NewLesson, NotFoundError, Storage
from storage.classes import FORGOTTEN
from storage.errors import RosterConflictError
from storage.records.classes import NoteRow, RoundRow
from tests.bot.db_scan import scan

from .conftest import Backend

T0 = 1_790_000_000_000
DAY = 86_400_000


def _round(
    pupil: int, seq: int, kind: str | None = None, lesson: int = 1, at: int = T0
) -> RoundRow:
    return RoundRow(pupil, lesson, at, "g1", seq, at, 1, True, kind is None, kind)


async def test_a_roster_gives_each_pupil_one_card(store: Storage) -> None:
    """Issue: pupils listed by first name or a pseudonym, each with a personal card; a card's
    code opens one pupil only, and a replaced card opens nothing any more."""
    klass = await store.create_class("7B", T0)
    with pytest.raises(RosterConflictError):
        await store.create_class("7B", T0)
    ada = await store.add_pupil(klass.id, "Ada", "AAAA2222", T0)
    await store.add_pupil(klass.id, "Bo", "BBBB3333", T0)
    with pytest.raises(RosterConflictError) as same_name:
        await store.add_pupil(klass.id, "Ada", "CCCC4444", T0)
    assert same_name.value.what == "name"
    with pytest.raises(RosterConflictError) as same_card:
        await store.add_pupil(klass.id, "Cy", "AAAA2222", T0)
    assert same_card.value.what == "card"
    assert [p.name for p in await store.pupils(klass.id)] == ["Ada", "Bo"]
    assert await store.pupil_by_card("AAAA2222") == ada
    replaced = await store.replace_card(ada.id, "DDDD5555")
    assert await store.pupil_by_card("AAAA2222") is None
    assert await store.pupil_by_card("DDDD5555") == replaced
    with pytest.raises(NotFoundError):
        await store.add_pupil(klass.id + 99, "Di", "EEEE6666", T0)
    assert await store.class_named("7B") == klass
    assert [c.name for c in await store.classes()] == ["7B"]


async def test_rounds_are_kept_once_and_read_back_in_order(store: Storage) -> None:
    klass = await store.create_class("7B", T0)
    ada = await store.add_pupil(klass.id, "Ada", "AAAA2222", T0)
    rounds = [_round(ada.id, 0, "sign_slip"), _round(ada.id, 1)]
    notes = [NoteRow(ada.id, 1, T0, "g1", "not_simplified", 2, T0)]
    await store.record_rounds(klass.id, rounds, notes)
    await store.record_rounds(
        klass.id, rounds, [NoteRow(ada.id, 1, T0, "g1", "not_simplified", 3, T0)]
    )
    got, got_notes = await store.class_rounds(klass.id)
    assert got == rounds
    assert [(n.kind, n.n) for n in got_notes] == [("not_simplified", 3)]
    assert await store.class_rounds(klass.id, ada.id + 1) == ([], [])


async def test_results_go_when_the_school_year_ends_or_after_the_days_set(store: Storage) -> None:
    """Issue: kept for the school year by default, then deleted; settable."""
    year = await store.create_class("7B", T0)
    short = await store.create_class("8A", T0, keep_days=30)
    a = await store.add_pupil(year.id, "Ada", "AAAA2222", T0)
    b = await store.add_pupil(short.id, "Bo", "BBBB3333", T0)
    await store.record_rounds(year.id, [_round(a.id, 0, at=T0)], [])
    await store.record_rounds(short.id, [_round(b.id, 0, at=T0)], [])
    gone = await store.purge_class_rounds(T0 + 31 * DAY, school_year_start=T0 - DAY)
    assert gone == 1
    assert len((await store.class_rounds(year.id))[0]) == 1
    assert (await store.class_rounds(short.id))[0] == []
    assert await store.purge_class_rounds(T0 + 400 * DAY, school_year_start=T0 + DAY) == 1


async def test_a_class_goes_with_its_school_year_unless_in_use(store: Storage) -> None:
    """Issue: "what is kept (pseudonyms, …), where, for how long (default: the school year,
    then deleted; settable)": the class and its roster go too, not only the results; a class
    used this school year, or with a lesson open, stays."""
    old = await store.create_class("7B", T0)
    used = await store.create_class("8A", T0)
    running = await store.create_class("9C", T0)
    kept = await store.create_class("10D", T0, keep_days=400)
    short = await store.create_class("6E", T0 + 300 * DAY, keep_days=30)
    pupil = await store.add_pupil(used.id, "Bo", "BBBB3333", T0)
    await store.add_pupil(old.id, "Ada", "AAAA2222", T0)
    start = T0 + 200 * DAY  # the 1 August that began this school year
    await store.record_rounds(used.id, [_round(pupil.id, 0, at=start + DAY)], [])
    await _lesson_of(store, running.id, {})
    assert await store.expire_classes(start + 10 * DAY, school_year_start=start) == 1
    names = {c.name for c in await store.classes()}
    assert names == {"8A", "9C", "10D", "6E"}
    assert await store.pupil_by_card("AAAA2222") is None  # the roster went with it
    assert await store.expire_classes(T0 + 340 * DAY, school_year_start=start) == 1
    assert {c.name for c in await store.classes()} == {"8A", "9C", "10D"}
    assert short.id not in {c.id for c in await store.classes()}
    assert kept.id in {c.id for c in await store.classes()}


async def _lesson_of(store: Storage, class_id: int, seat_pupils: dict[str, int]) -> int:
    lesson = await store.create_lesson(
        NewLesson(f"{class_id:06d}", "k" * 64, "n", {"settings": {}}, {"class_id": class_id}), T0
    )
    game = LessonGame("g1", 1, {"engine": {}}, 1, ("Ada", "Bo & Cy"), (("s1",), ("s2", "s3")),
                      {}, False)  # fmt: skip
    seats = (LessonSeat("s1", "Ada", "d" * 64, 1, "g1", ()),
             LessonSeat("s2", "Bo", "e" * 64, 2, "g1", ()),
             LessonSeat("s3", "Cy", "f" * 64, 3, "g1", ()))  # fmt: skip
    state = {"class_id": class_id, "pupils": seat_pupils}
    await store.commit_lesson(
        lesson, LessonChange(T0, {"settings": {}}, state, None, seats, (game,), ())
    )
    return lesson


async def test_forgetting_a_pupil_leaves_no_trace(store: Storage, backend: Backend) -> None:
    """Issue: forget-pupil leaves no trace (a database scan): the roster row and card, every
    round and note, and the pupil's name in the class's lessons still kept."""
    klass = await store.create_class("7B", T0)
    ada = await store.add_pupil(klass.id, "Adalinde", "AAAA2222", T0)
    bo = await store.add_pupil(klass.id, "Borghild", "BBBB3333", T0)
    lesson = await _lesson_of(store, klass.id, {"s1": ada.id, "s2": bo.id})
    state = {"class_id": klass.id, "pupils": {"s1": ada.id, "s2": bo.id}}
    seat = LessonSeat("s1", "Adalinde", "d" * 64, 1, "g1", ())
    change = LessonChange(T0, {"settings": {}}, state, None, (seat,), (), ())
    await store.commit_lesson(lesson, change)
    await store.record_rounds(klass.id, [_round(ada.id, 0, "sign_slip"), _round(bo.id, 0)],
                              [NoteRow(ada.id, 1, T0, "g1", "not_simplified", 1, T0)])  # fmt: skip
    assert await store.forget_pupil(ada.id, T0 + DAY)
    assert not await store.forget_pupil(ada.id, T0 + DAY)
    assert await store.pupil_by_card("AAAA2222") is None
    rounds, notes = await store.class_rounds(klass.id)
    assert [r.pupil_id for r in rounds] == [bo.id] and notes == []
    kept = await store.load_lesson(lesson)
    assert {s.id: s.name for s in kept.seats}["s1"] == FORGOTTEN
    assert kept.state["pupils"] == {"s2": bo.id}
    if backend.path is not None:
        assert scan(backend.path, "Adalinde", "AAAA2222") == []
        assert scan(backend.path, "Borghild")


async def test_deleting_a_class_leaves_nothing_of_it(store: Storage, backend: Backend) -> None:
    """Issue: delete-class leaves no trace: its pupils, their results and its lessons."""
    klass = await store.create_class("7B", T0)
    other = await store.create_class("7C", T0)
    ada = await store.add_pupil(klass.id, "Adalinde", "AAAA2222", T0)
    kari = await store.add_pupil(other.id, "Kari", "KKKK7777", T0)
    lesson = await _lesson_of(store, klass.id, {"s1": ada.id})
    kept = await _lesson_of(store, other.id, {"s1": kari.id})
    await store.record_rounds(klass.id, [_round(ada.id, 0, "sign_slip")], [])
    await store.record_rounds(other.id, [_round(kari.id, 0)], [])
    assert await store.delete_class(klass.id, T0 + DAY)
    with pytest.raises(NotFoundError):
        await store.load_lesson(lesson)
    assert (await store.load_lesson(kept)).info.id == kept
    assert await store.class_named("7B") is None
    assert len((await store.class_rounds(other.id))[0]) == 1
    if backend.path is not None:
        assert scan(backend.path, "Adalinde", "AAAA2222", "7B") == []


async def test_the_rounds_are_counted_per_pupil_lesson_level_and_kind(store: Storage) -> None:
    """What the progress pages read: the database counts a school year's rounds."""
    klass = await store.create_class("7B", T0)
    ada = await store.add_pupil(klass.id, "Ada", "AAAA2222", T0)
    rounds = [_round(ada.id, i, "sign_slip" if i < 3 else None) for i in range(8)]
    notes = [NoteRow(ada.id, 1, T0, "g1", "not_simplified", 2, T0),
             NoteRow(ada.id, 1, T0, "g2", "not_simplified", 1, T0)]  # fmt: skip
    await store.record_rounds(klass.id, rounds, notes)
    tallies, counted = await store.class_tallies(klass.id)
    got = {(r.kind, r.asked, r.answered, r.best) for r in tallies}
    assert got == {("sign_slip", 3, 3, 0), (None, 5, 5, 5)}
    assert [(n.kind, n.n) for n in counted] == [("not_simplified", 3)]
    assert await store.class_tallies(klass.id, ada.id + 1) == ([], [])


async def test_forget_and_delete_leave_no_trace_in_postgresql() -> None:
    """The same database scan on PostgreSQL: every table of the schema, JSON as text."""
    from storage.postgres import PostgresStorage
    from tests.bot.db_scan import scan_postgres
    from tests.postgres import fresh_schema_url

    url = fresh_schema_url()
    store = await PostgresStorage.open_url(url)
    try:
        klass = await store.create_class("7B", T0)
        ada = await store.add_pupil(klass.id, "Adalinde", "AAAA2222", T0)
        bo = await store.add_pupil(klass.id, "Borghild", "BBBB3333", T0)
        await _lesson_of(store, klass.id, {"s1": ada.id, "s2": bo.id})
        await store.record_rounds(klass.id, [_round(ada.id, 0, "sign_slip"), _round(bo.id, 0)], [])
        await store.forget_pupil(ada.id, T0 + DAY)
        assert scan_postgres(url, "Adalinde", "AAAA2222") == []
        assert scan_postgres(url, "Borghild")
        await store.delete_class(klass.id, T0 + DAY)
        assert scan_postgres(url, "Borghild", "BBBB3333", "7B", "Bo & Cy") == []
    finally:
        await store.close()
