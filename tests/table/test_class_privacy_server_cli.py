"""`mattekrig privacy class-…` on a school server, where every teacher may have a class "7B":
whoever runs the server answers a parent's request about one teacher's class by naming the
teacher (``--teacher``, as `mattekrig teachers list` names them, a removed teacher's too while a
class of theirs is kept); a class name that is not one class's alone is refused in one sentence
naming whose classes have it, and nothing changes; `class-list` shows the classes kept (name,
teacher, pupils, until when) and a pupil's name only for one class asked for. Through the real
command line, on SQLite and on PostgreSQL (named, as the server's systemd unit and compose give
it, by a secret file); a database scan finds no trace of what was forgotten or deleted."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.ops.cli import main
from storage.paths import lessons_database
from storage.records.classes import RoundRow
from storage.select import open_storage
from tests.bot.db_scan import scan, scan_postgres
from tests.postgres import fresh_schema_url

T0 = 1_790_000_000_000
BASE = "https://mattekrig.school.example"
# Each teacher's class 7B: its pupils and their cards.
KARI = {"Adalinde": "KARI0000", "Borghild": "KARI0001"}
LARS = {"Cecilie": "LARS0000", "Dagny": "LARS0001"}


@dataclass(frozen=True)
class Server:
    """The school server's database: SQLite (``url`` None) or a PostgreSQL schema."""

    url: str | None

    def scan(self, *needles: object) -> list[tuple[str, str, Any]]:
        if self.url is None:
            return scan(lessons_database(), *needles)
        return scan_postgres(self.url, *needles)

    def rows(self) -> list[tuple[Any, ...]]:
        """Everything kept of the classes and the teachers, to show nothing changed."""

        async def _read() -> list[tuple[Any, ...]]:
            store = await open_storage(lessons_database(), self.url)
            try:
                teachers = await store.school_teachers()
                found: list[tuple[Any, ...]] = [(t.id, t.name) for t in teachers]
                for kept in await store.kept_classes():
                    found.append((kept.info, kept.teacher, kept.teacher_removed_at, kept.pupils))
                    found += [(p,) for p in await store.pupils(kept.info.id)]
                    rounds, notes = await store.class_rounds(kept.info.id)
                    found += [(r,) for r in [*rounds, *notes]]
                return found
            finally:
                await store.close()

        return asyncio.run(_read())


@pytest.fixture(params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, lesson_data: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Server]:
    monkeypatch.chdir(lesson_data)
    for name in ("OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "DATABASE_URL_FILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MATTEKRIG_BASE_URL", BASE)
    if request.param == "sqlite":
        yield Server(None)
        return
    url = fresh_schema_url()
    secret = lesson_data / "database_url"  # the school server's way: a secret file
    secret.write_text(url + "\n", encoding="utf-8")
    monkeypatch.setenv("DATABASE_URL_FILE", str(secret))
    yield Server(url)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


async def _class_of(
    server: Server, teacher: str, pupils: dict[str, str], keep_days: int | None = None
) -> None:
    """The teacher's class 7B, its pupils each with a round played."""
    store = await open_storage(lessons_database(), server.url)
    try:
        owner = await store.school_teacher_named(teacher)
        assert owner is not None
        klass = await store.create_class("7B", T0, owner.id, keep_days)
        for name, card in pupils.items():
            pupil = await store.add_pupil(klass.id, name, card, T0)
            row = RoundRow(pupil.id, 1, T0, "g", 0, T0, 1, True, False, "sign_slip")
            await store.record_rounds(klass.id, [row], [])
    finally:
        await store.close()


def two_teachers(server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    """Kari N and Lars H, added as the operator adds them, each with a class 7B (Lars's
    results kept 30 days, Kari's to the end of the school year)."""
    for teacher, pupils, days in (("Kari N", KARI, None), ("Lars H", LARS, 30)):
        assert run(capsys, "teachers", "add", teacher)[0] == 0
        asyncio.run(_class_of(server, teacher, pupils, days))


def exported(capsys: pytest.CaptureFixture[str], tmp_path: Path, *argv: str) -> dict[str, Any]:
    out = tmp_path / "export.json"
    code, said, err = run(capsys, "privacy", "class-export", "7B", *argv, "-o", str(out))
    assert code == 0, err
    assert said.startswith("wrote ")
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def test_each_teachers_7b_is_exported_forgotten_and_deleted_by_teacher_the_other_untouched(
    server: Server, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The gap: `class_named("7B")` found only a laptop's class, so a server class could not be
    answered for at all. Now `--teacher` names the class: its export holds its pupils only;
    forgetting and deleting reach it alone, and leave no trace of it in the database."""
    two_teachers(server, capsys)
    code, listed, _ = run(capsys, "privacy", "class-list")
    assert code == 0
    kari_line, lars_line = (line.split("\t") for line in listed.splitlines())
    assert kari_line[:3] == ["7B", "Kari N", "2 pupil(s)"]
    assert re.fullmatch(r"results kept to \d{4}-08-01 \(the school year's end\)", kari_line[3])
    assert lars_line == ["7B", "Lars H", "2 pupil(s)", "results kept 30 day(s) after each round"]
    assert not any(name in listed for name in (*KARI, *LARS))  # never a pupil's name
    code, one, _ = run(capsys, "privacy", "class-list", "7B", "--teacher", "Lars H")
    assert code == 0 and [line.strip() for line in one.splitlines()[1:]] == list(LARS)
    assert not any(name in one for name in KARI)

    kari = exported(capsys, tmp_path, "--teacher", "Kari N")
    assert [p["name"] for p in kari["pupils"]] == list(KARI) and kari["teacher"] == "Kari N"
    assert len(kari["rounds"]) == 2
    ada = exported(capsys, tmp_path, "--teacher", "Kari N", "--pupil", "Adalinde")
    assert [p["name"] for p in ada["pupils"]] == ["Adalinde"] and len(ada["rounds"]) == 1
    lars = exported(capsys, tmp_path, "--teacher", " Lars   H ")  # spaces as `teachers` tidies
    assert [p["name"] for p in lars["pupils"]] == list(LARS)

    code, said, _ = run(
        capsys, "privacy", "class-forget", "7B", "Adalinde", "--teacher", "Kari N", "--yes"
    )
    assert code == 0 and said.strip() == "forgot Adalinde of class 7B of Kari N"
    assert server.scan("Adalinde", "KARI0000") == []
    assert server.scan("Borghild") and server.scan("Cecilie")
    assert exported(capsys, tmp_path, "--teacher", "Lars H") == lars  # untouched

    code, said, _ = run(capsys, "privacy", "class-delete", "7B", "--teacher", "Lars H", "--yes")
    assert code == 0 and said.strip() == "deleted class 7B of Lars H"
    assert server.scan(*LARS, *LARS.values()) == []
    kari_now = exported(capsys, tmp_path, "--teacher", "Kari N")
    assert [p["name"] for p in kari_now["pupils"]] == ["Borghild"]
    # with one teacher's 7B left, the name still belongs to a teacher: still refused without
    code, _, err = run(capsys, "privacy", "class-delete", "7B", "--yes")
    assert code == 2 and "Kari N" in err and "--teacher" in err
    assert run(capsys, "privacy", "class-delete", "7B", "--teacher", "Kari N", "--yes")[0] == 0
    assert server.scan("Borghild", "KARI0001", "7B") == []
    assert run(capsys, "privacy", "class-list")[1].strip() == "No class is kept."


@pytest.mark.parametrize(
    "argv",
    [
        ("class-export", "7B"),
        ("class-export", "7B", "--pupil", "Adalinde"),
        ("class-forget", "7B", "Adalinde", "--yes"),
        ("class-delete", "7B", "--yes"),
        ("class-list", "7B"),
    ],
    ids=lambda argv: argv[0],
)
def test_a_class_name_two_teachers_have_is_refused_and_nothing_changes(
    server: Server, capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...]
) -> None:
    """The brief: "without `--teacher` on a database where the name is ambiguous or belongs to
    a teacher, one sentence says which teachers have a class of that name and to give
    `--teacher` (exit 2, nothing changed)"."""
    two_teachers(server, capsys)
    before = server.rows()
    output = tmp_path / "out.json"
    extra = ("-o", str(output)) if argv[0] == "class-export" else ()
    code, out, err = run(capsys, "privacy", *argv, *extra)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "Kari N" in err and "Lars H" in err and "--teacher NAME" in err
    assert server.rows() == before and not output.exists()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("class-delete", "7B", "--teacher", "Nobody", "--yes"), "no teacher named 'Nobody'"),
        (("class-delete", "8A", "--teacher", "Kari N", "--yes"), "no class named '8A'"),
        (("class-delete", "7B", "--no-teacher", "--yes"), "no class named '7B' is kept without"),
        (("class-forget", "7B", "Nobody", "--teacher", "Kari N"), "no pupil named 'Nobody'"),
        (("class-export", "7B", "--teacher", "Kari N", "--pupil", "Cecilie"), "no pupil named"),
    ],
)
def test_a_teacher_class_or_pupil_not_kept_is_one_sentence_and_nothing_changes(
    server: Server, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], said: str
) -> None:
    """Bad input: one sentence, exit 2, nothing changed (a pupil not in the class is refused
    before the command asks to confirm)."""
    two_teachers(server, capsys)
    before = server.rows()
    code, out, err = run(capsys, "privacy", *argv)
    assert code == 2 and out == ""
    assert said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert server.rows() == before


def test_a_removed_teachers_class_is_still_answered_for_by_the_operator(
    server: Server, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A teacher removed with `teachers remove` leaves classes nobody can open from the pages;
    the operator still finds them by the teacher's name (`teachers list` no longer shows it;
    `class-list` does, with the day of the removal), exports and deletes them, and the removed
    teacher, of whom nothing is kept any more, goes with their last class. When the name was
    given to a new teacher with a 7B of their own, the name alone is refused and the removed
    teacher is named as `class-list` names them."""
    two_teachers(server, capsys)
    assert run(capsys, "teachers", "remove", "Kari N")[0] == 0
    assert "Kari N" not in run(capsys, "teachers", "list")[1]
    assert run(capsys, "teachers", "add", "Kari N")[0] == 0  # a new Kari N, with a 7B too
    asyncio.run(_class_of(server, "Kari N", {"Eirin": "KARI0002"}))
    code, listed, _ = run(capsys, "privacy", "class-list", "--teacher", "Kari N")
    teachers = [line.split("\t")[1] for line in listed.splitlines()]
    assert code == 0 and len(teachers) == 2 and "Kari N" in teachers
    (removed,) = [name for name in teachers if name != "Kari N"]
    assert removed.startswith("Kari N (removed 20")

    code, _, err = run(capsys, "privacy", "class-delete", "7B", "--teacher", "Kari N", "--yes")
    assert code == 2 and removed in err and "nothing was changed" in err
    assert server.scan("Adalinde") and server.scan("Eirin")
    old = exported(capsys, tmp_path, "--teacher", removed)
    assert [p["name"] for p in old["pupils"]] == list(KARI)
    code, said, _ = run(capsys, "privacy", "class-delete", "7B", "--teacher", removed, "--yes")
    assert code == 0 and said.strip() == f"deleted class 7B of {removed}"
    assert server.scan(*KARI, *KARI.values()) == []
    # The removed teacher went with their last class; the new Kari N and Lars H are untouched.
    assert [row[2] for row in server.scan("Kari N") if row[1] == "name"] == ["Kari N"]
    assert server.scan("Eirin") and server.scan(*LARS)
    listed = run(capsys, "privacy", "class-list")[1]
    assert [line.split("\t")[1] for line in listed.splitlines()] == ["Kari N", "Lars H"]


def test_a_secret_file_that_cannot_be_read_is_refused_not_the_sqlite_file_instead(
    lesson_data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The school server names its PostgreSQL by a secret file (DATABASE_URL_FILE); a file that
    cannot be read is one sentence, and the lessons' SQLite file is neither read nor made in
    its place (where every class would read as "not kept")."""
    monkeypatch.chdir(lesson_data)
    monkeypatch.setenv("DATABASE_URL_FILE", str(lesson_data / "absent"))
    for argv in (("class-list",), ("class-delete", "7B", "--teacher", "Kari N", "--yes")):
        code, out, err = run(capsys, "privacy", *argv)
        assert code == 2 and out == "" and err.count("\n") == 1
        assert "DATABASE_URL_FILE names" in err
    assert not lessons_database().exists()
