"""A class that remembers, deleted for good (issue: "a deleted class leaves nothing in backups
restored later (as the bot's forget does)"): deleting a class, forgetting a pupil of a class
and deleting a lesson are remembered as keyed fingerprints, and a database holding what was
deleted (a backup restored) deletes it again, on SQLite and PostgreSQL.

Two databases are filled the same way: the one in use, and its backup. What is deleted in the
first after the backup was taken is applied to the backup as `mattekrig restore` applies it
(`reapply_forgotten` with the entries the backup does not hold); then a scan of every table
of the backup finds no trace."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from storage import LessonChange, LessonGame, LessonSeat, NewLesson, NotFoundError, Storage
from storage.classes import FORGOTTEN
from storage.records.classes import NoteRow, RoundRow
from tests.bot.db_scan import scan, scan_postgres
from tests.postgres import fresh_schema_url

T0 = 1_790_000_000_000
LATER = T0 + 86_400_000
CARDS = {"Adalinde": "AAAA2222", "Borghild": "BBBB3333", "Kari": "KKKK7777"}


@dataclass(frozen=True)
class Database:
    """A SQLite file (``path``) or a PostgreSQL schema (``url``)."""

    path: Path | None = None
    url: str | None = None

    async def open(self) -> Storage:
        if self.url is None:
            assert self.path is not None
            return await Storage.open(self.path)
        from storage.postgres import PostgresStorage

        return await PostgresStorage.open_url(self.url)

    def scan(self, *needles: object) -> list[tuple[str, str, Any]]:
        """Every table's every value holding one of the needles."""
        if self.url is None:
            assert self.path is not None
            return scan(self.path, *needles)
        return scan_postgres(self.url, *needles)


@pytest.fixture(params=["sqlite", "postgres"])
def pair(request: pytest.FixtureRequest, tmp_path: Path) -> list[Database]:
    """The database in use and its backup: two SQLite files, or two PostgreSQL schemas."""
    if request.param == "sqlite":
        return [Database(path=tmp_path / f"{name}.db") for name in ("in-use", "backup")]
    return [Database(url=fresh_schema_url()) for _ in range(2)]


@dataclass(frozen=True)
class Filled:
    klass: int
    other: int
    pupils: dict[str, int]
    lesson: int  # a lesson of 7B, Adalinde in seat s1 and Borghild in s2
    free: int  # a lesson without a class


async def _fill(store: Storage) -> Filled:
    """Class 7B (Adalinde, Borghild) with rounds, notes and a lesson; class 7C (Kari); a
    lesson without a class. The same calls give the same ids in a fresh database."""
    klass = await store.create_class("7B", T0)
    other = await store.create_class("7C", T0 + 1)
    pupils = {}
    for n, name in enumerate(CARDS):
        owner = other.id if name == "Kari" else klass.id
        pupils[name] = (await store.add_pupil(owner, name, CARDS[name], T0 + n)).id
    for name, pupil in pupils.items():
        owner = other.id if name == "Kari" else klass.id
        rounds = [RoundRow(pupil, 1, T0, "g1", s, T0 + s, 1, True, s > 0, "sign_slip" if s == 0
                           else None) for s in range(3)]  # fmt: skip
        notes = [NoteRow(pupil, 1, T0, "g1", "not_simplified", 1, T0)]
        await store.record_rounds(owner, rounds, notes)
    lesson = await _lesson(store, "7B0001", {"class_id": klass.id, "pupils": {
        "s1": pupils["Adalinde"], "s2": pupils["Borghild"]}}, ("Adalinde", "Borghild"))  # fmt: skip
    free = await _lesson(store, "FREE01", {}, ("Tuva", "Ulrik"))
    return Filled(klass.id, other.id, pupils, lesson, free)


async def _lesson(store: Storage, code: str, state: dict[str, Any], names: tuple[str, str]) -> int:
    lesson = await store.create_lesson(NewLesson(code, "k" * 64, "n", {"settings": {}}, state), T0)
    game = LessonGame("g1", 1, {"engine": {}}, 1, names, (("s1",), ("s2",)), {}, False)
    seats = (LessonSeat("s1", names[0], "d" * 64, 1, "g1", ()),
             LessonSeat("s2", names[1], "e" * 64, 2, "g1", ()))  # fmt: skip
    change = LessonChange(T0, {"settings": {}}, state, None, seats, (game,), ())
    await store.commit_lesson(lesson, change)
    return lesson


@contextlib.asynccontextmanager
async def restored(
    pair: list[Database], delete: Callable[[Storage, Filled], Awaitable[object]]
) -> AsyncIterator[tuple[Storage, Filled, dict[str, int]]]:
    """Fill both, delete in the one in use, then clean the backup as a restore does: the
    backup (still open), what both were filled with (the same ids) and what was deleted
    again."""
    in_use, backup = await pair[0].open(), await pair[1].open()
    try:
        filled = await _fill(in_use)
        assert await _fill(backup) == filled
        await delete(in_use, filled)
        key, entries = await in_use.forgotten_entries()
        held = set((await backup.forgotten_entries())[1])
        new = [entry for entry in entries if entry not in held]
        counts = await backup.reapply_forgotten(key, new, LATER)
        assert counts["users"] == counts["guilds"] == 0
        again = await backup.reapply_forgotten(key, new, LATER + 1)  # a second time: nothing
        assert (again["classes"], again["pupils"], again["lessons"]) == (0, 0, 0)
        assert (await backup.forgotten_entries())[1] == entries  # recorded once, not twice
        yield backup, filled, counts
    finally:
        await in_use.close()
        await backup.close()


async def test_a_deleted_class_leaves_nothing_in_a_backup_restored_later(
    pair: list[Database],
) -> None:
    """Issue: "a deleted class leaves nothing in backups restored later (as the bot's forget
    does)": its pupils, their cards, rounds and notes, and its lessons; class 7C and the
    lesson without a class stay."""

    async def delete(store: Storage, filled: Filled) -> object:
        return await store.delete_class(filled.klass, LATER)

    async with restored(pair, delete) as (backup, filled, counts):
        assert (counts["classes"], counts["pupils"], counts["lessons"]) == (1, 0, 0)
        assert await backup.class_named("7B") is None
        with pytest.raises(NotFoundError):
            await backup.load_lesson(filled.lesson)
        assert (await backup.load_lesson(filled.free)).info.id == filled.free
        assert len((await backup.class_rounds(filled.other))[0]) == 3
    gone = pair[1].scan("Adalinde", "Borghild", "AAAA2222", "BBBB3333", "7B", "7B0001")
    assert gone == []
    assert pair[1].scan("Kari") and pair[1].scan("Tuva")


async def test_a_pupil_forgotten_stays_forgotten_in_a_backup_restored_later(
    pair: list[Database],
) -> None:
    """Issue: "forget per pupil", and a backup restored later forgets the pupil again: the
    roster row and card, every round and note, the name in the class's lessons still kept;
    the classmate keeps everything."""

    async def forget(store: Storage, filled: Filled) -> object:
        return await store.forget_pupil(filled.pupils["Adalinde"], LATER)

    async with restored(pair, forget) as (backup, filled, counts):
        assert (counts["classes"], counts["pupils"], counts["lessons"]) == (0, 1, 0)
        assert [p.name for p in await backup.pupils(filled.klass)] == ["Borghild"]
        rounds, notes = await backup.class_rounds(filled.klass)
        assert (
            {r.pupil_id for r in rounds}
            == {n.pupil_id for n in notes}
            == {filled.pupils["Borghild"]}
        )
        kept = await backup.load_lesson(filled.lesson)
        assert {s.id: s.name for s in kept.seats} == {"s1": FORGOTTEN, "s2": "Borghild"}
        assert kept.state["pupils"] == {"s2": filled.pupils["Borghild"]}
    assert pair[1].scan("Adalinde", "AAAA2222") == []
    assert pair[1].scan("Borghild") and pair[1].scan("BBBB3333")


async def test_a_deleted_lesson_stays_deleted_in_a_backup_restored_later(
    pair: list[Database],
) -> None:
    """PRIVACY.md: the teacher's page deletes a lesson at once; a backup restored later
    deletes it again (its nicknames, seats and games), and the other lesson stays."""

    async def delete(store: Storage, filled: Filled) -> object:
        return await store.delete_lesson(filled.free, LATER)

    async with restored(pair, delete) as (backup, filled, counts):
        assert (counts["classes"], counts["pupils"], counts["lessons"]) == (0, 0, 1)
        with pytest.raises(NotFoundError):
            await backup.load_lesson(filled.free)
        assert (await backup.load_lesson(filled.lesson)).info.id == filled.lesson
    assert pair[1].scan("Tuva", "Ulrik", "FREE01") == []
    assert pair[1].scan("Adalinde")


async def test_a_deletion_made_before_the_backup_is_not_applied_again(
    pair: list[Database],
) -> None:
    """As the bot's forget: only what was deleted after the backup was taken is deleted again;
    a class made since with the deleted one's name is another class and stays."""
    in_use, backup = await pair[0].open(), await pair[1].open()
    try:
        for store in (in_use, backup):
            klass = await store.create_class("7B", T0)
            await store.delete_class(klass.id, T0 + 1)
            again = await store.create_class("7B", T0 + 2)
            await store.add_pupil(again.id, "Adalinde", "AAAA2222", T0 + 2)
        key, entries = await in_use.forgotten_entries()
        assert [kind for kind, _, _ in entries] == ["class"]
        counts = await backup.reapply_forgotten(key, entries, LATER)
        assert counts["classes"] == counts["pupils"] == 0
        assert [p.name for p in await backup.pupils(again.id)] == ["Adalinde"]
    finally:
        await in_use.close()
        await backup.close()
