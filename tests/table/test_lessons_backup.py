"""`mattekrig backup --lessons` and `mattekrig restore --lessons`: the lessons' database
(`lessons.db`) backed up and restored as the bot's is, and a restore deletes again what was
deleted after the backup was taken. Issue: "a deleted class leaves nothing in backups restored
later (as the bot's forget does)" and "`mattekrig privacy` gains the lesson's classes"."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

import pytest

from bot.ops.backup import restore
from bot.ops.cli import main
from storage import LessonChange, LessonSeat, NewLesson
from storage.paths import lessons_database
from storage.records.classes import NoteRow, RoundRow
from storage.sqlite import Storage
from table.cli import lesson_storage
from tests.bot.db_scan import scan

T0 = 1_790_000_000_000
PUPILS = {"Adalinde": "CARD0000", "Borghild": "CARD0001"}


async def _class() -> None:
    """Class 7B: two pupils with a round of each kind and a practice note, and a lesson of
    the class with both seated."""
    store = await Storage.open(lessons_database())
    try:
        klass = await store.create_class("7B", T0)
        seats, pupils = [], {}
        for n, (name, card) in enumerate(PUPILS.items()):
            pupil = await store.add_pupil(klass.id, name, card, T0)
            pupils[f"s{n}"] = pupil.id
            seats.append(LessonSeat(f"s{n}", name, f"{n}" * 64, n + 1, None, ()))
            rounds = [RoundRow(pupil.id, 1, T0, "g", 0, T0, 1, True, False, "sign_slip"),
                      RoundRow(pupil.id, 1, T0, "g", 1, T0, 1, True, True, None)]  # fmt: skip
            notes = [NoteRow(pupil.id, 1, T0, "g", "not_simplified", 1, T0)]
            await store.record_rounds(klass.id, rounds, notes)
        state = {"class_id": klass.id, "pupils": pupils}
        lesson = await store.create_lesson(NewLesson("7B7B7B", "k" * 64, "n", {}, state), T0)
        change = LessonChange(T0, {}, state, None, tuple(seats), (), ())
        await store.commit_lesson(lesson, change)
    finally:
        await store.close()


def _backup(folder: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    assert main(["backup", "--lessons", f"{folder}/"]) == 0
    assert capsys.readouterr().out.startswith(f"backed up {lessons_database()} to {folder}")
    (copy,) = folder.iterdir()
    assert copy.name.startswith("lessons-") and stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert scan(copy, "Adalinde")  # the backup holds the class, as any backup does
    return copy


def test_a_deleted_class_leaves_nothing_in_a_backup_restored_later(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue: "a deleted class leaves nothing in backups restored later (as the bot's forget
    does)": a class with pupils and rounds, backed up, deleted, the backup restored: a scan
    of every table finds no pupil, no card and no class name, in the database or in the copy
    the restore keeps of the one it replaced."""
    asyncio.run(_class())
    copy = _backup(tmp_path / "backups", capsys)
    assert main(["privacy", "class-delete", "7B", "--yes"]) == 0
    assert main(["restore", "--lessons", str(copy)]) == 0
    out = capsys.readouterr().out
    assert "deleted again 1 class(es), 0 pupil(s) of a class and 0 lesson(s)" in out
    db = lessons_database()
    (kept,) = db.parent.glob("lessons.before-restore-*.db")
    for path in (db, kept):
        assert scan(path, *PUPILS, *PUPILS.values(), "7B") == []


def test_a_forgotten_pupil_stays_forgotten_in_a_backup_restored_later(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue: "export and forget per pupil" and "a deleted class leaves nothing in backups
    restored later": one pupil forgotten after the backup is forgotten again by its restore
    (roster row, card, rounds, notes, the name in the lesson); the classmate stays whole."""
    asyncio.run(_class())
    copy = _backup(tmp_path / "backups", capsys)
    assert main(["privacy", "class-forget", "7B", "Adalinde", "--yes"]) == 0
    assert main(["restore", "--lessons", str(copy)]) == 0
    assert "deleted again 0 class(es), 1 pupil(s) of a class" in capsys.readouterr().out
    db = lessons_database()
    assert scan(db, "Adalinde", "CARD0000") == []
    assert scan(db, "Borghild") and scan(db, "CARD0001")

    async def kept() -> tuple[int, int]:
        async with lesson_storage() as store:
            klass = await store.class_named("7B")
            assert klass is not None
            rounds, notes = await store.class_rounds(klass.id)
            return len(rounds), len(notes)

    assert asyncio.run(kept()) == (2, 1)  # Borghild's round of each kind and her note


def test_no_restore_under_a_running_lesson(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As the bot's restore never runs under a bot: a lesson that has the lessons' database
    open holds it, and the restore refuses in one sentence and changes nothing."""
    asyncio.run(_class())
    copy = _backup(tmp_path / "backups", capsys)
    before = lessons_database().read_bytes()

    async def while_a_lesson_runs() -> int:
        async with lesson_storage():
            return await asyncio.to_thread(main, ["restore", "--lessons", str(copy)])

    assert asyncio.run(while_a_lesson_runs()) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("mattekrig: a lesson (mattekrig class) is running on the database")
    assert "\n" not in err
    assert lessons_database().read_bytes() == before
    assert not list(lessons_database().parent.glob("lessons.before-restore-*"))
    restore(copy, lessons_database())  # stopped: it restores


def test_the_lessons_backups_are_pruned_apart_from_the_bots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--keep N` keeps the newest N of the lessons' dated backups and never touches a dated
    backup of the bot's database in the same folder."""
    asyncio.run(_class())
    folder = tmp_path / "backups"
    folder.mkdir()
    bots = folder / "mattekrig-20260101-000000.db"
    bots.write_bytes(b"")
    old = folder / "lessons-20260101-000000.db"
    old.write_bytes(b"")
    assert main(["backup", "--lessons", f"{folder}/", "--keep", "1"]) == 0
    assert f"deleted 1 older backup(s): {old}" in capsys.readouterr().out
    assert bots.exists() and not old.exists()
    assert len(list(folder.glob("lessons-*.db"))) == 1


def test_lessons_in_postgresql_are_the_schools_to_back_up(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """docs/data-kept.md: backups of the school's database are the school's own routine; the
    command says so in one sentence and makes nothing."""
    monkeypatch.setenv("DATABASE_URL", "postgresql://mattekrig@db.school.example/mattekrig")
    for command in (["backup", "--lessons", f"{tmp_path}/b/"], ["restore", "--lessons", "x.db"]):
        assert main(command) == 2
        err = capsys.readouterr().err.strip()
        assert "PostgreSQL that DATABASE_URL names" in err and "\n" not in err
    assert not (tmp_path / "b").exists()
    assert not os.path.exists(lessons_database())


def test_lessons_in_postgresql_named_by_a_secret_file_are_the_schools_to_back_up(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The school server's systemd unit and compose give the URL as a file
    (DATABASE_URL_FILE): `backup --lessons` copied the unrelated SQLite file beside it."""
    (tmp_path / "database_url").write_text("postgresql://mattekrig@db/mattekrig\n", "utf-8")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("DATABASE_URL_FILE", str(tmp_path / "database_url"))
    assert main(["backup", "--lessons", f"{tmp_path}/b/"]) == 2
    assert "PostgreSQL that DATABASE_URL names" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()
