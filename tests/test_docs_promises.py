"""Every promise the privacy notices make is either proved by a test named here or marked in the
text as the school's duty (the controller's). The issue: "each promise in them tested or marked
as a duty of the school". The texts are read as a pupil or a school reads them: the pupils'
notice bullet by bullet, in the same order in nb, nn, sv and en; the full notice's table of
rights row by row (GDPR art. 15–21)."""

from __future__ import annotations

import ast
import asyncio
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.client import intents
from storage import Storage

ROOT = Path(__file__).resolve().parents[1]
LANGUAGES = ("nb", "nn", "sv", "en")
# How each language's pupils' notice marks a promise as the school's to keep.
SCHOOLS_JOB = {
    "en": "your school's job",
    "nb": "skolens oppgave",
    "nn": "oppgåva til skulen",
    "sv": "skolans uppgift",
}
SCHOOL = "the school's duty"


@dataclass(frozen=True)
class Promise:
    """One bullet of the pupils' notice: a clue found in it in every language (a number, a
    command, a name) or, failing one, in English only; and the tests that prove it, or
    SCHOOL when the text marks it as the school's duty."""

    clue: str
    proofs: tuple[str, ...] | str
    english_only: bool = False


# The pupils' notice, bullet by bullet, in its order.
PUPILS: tuple[Promise, ...] = (
    # A lesson in the browser.
    Promise("nickname", (
        "tests/table/test_lesson_keep.py::test_a_restored_lesson_is_the_lesson_that_was_stored",
    ), english_only=True),
    Promise("14", (
        "tests/table/test_lesson_keep.py::test_an_ended_lesson_is_not_brought_back_and_is_kept_for_its_retention",
        "tests/table/test_lessons_kept.py::test_the_teacher_deletes_a_lesson_at_once_after_being_asked",
        "tests/test_data_kept.py::test_the_pupils_notice_takes_its_figures_from_the_table",
    )),
    Promise("1", (
        "tests/bot/storage/test_classes.py::test_results_go_when_the_school_year_ends_or_after_the_days_set",
        "tests/table/test_class_progress.py::test_three_lessons_of_a_class_show_each_pupils_progress",
    )),
    # The Discord bot.
    Promise("30", (
        "tests/bot/services/test_privacy.py::test_retention_purges_move_logs_then_results",
        "tests/bot/services/test_privacy.py::test_my_data_holds_every_tables_rows_for_the_user",
    )),
    Promise("30", (
        "tests/bot/test_guild_delete_e2e.py::test_a_server_that_removes_the_bot_is_forgotten_after_30_days",
    )),
    Promise("14", (
        "tests/bot/test_backup.py::test_keep_prunes_only_older_dated_backups",
        "tests/test_operations.py::test_the_backup_timer_keeps_a_bounded_number_of_backups",
    )),
    Promise("USA", SCHOOL),
    # What Mattekrig never does.
    Promise("Discord", (
        "tests/test_docs_promises.py::test_the_bot_asks_discord_for_no_message_and_no_member_list",
    )),
    Promise("e-mail", (
        "tests/test_docs_promises.py::test_nothing_stored_asks_for_an_address_or_a_phone_number",
    ), english_only=True),
    Promise("list", (
        "tests/bot/test_teachers_e2e.py::test_the_gentle_leaderboard_never_lists_the_bottom_half_by_name",
        "tests/bot/services/test_leaderboard.py::test_a_member_never_sees_the_bottom_half_by_name",
    ), english_only=True),
    # The rights: see, delete (a command); put right, pause, say no (the school's).
    Promise("`/mattekrig ", (
        "tests/bot/test_records_e2e.py::test_my_data_is_a_private_json_file",
        "tests/table/test_lessons_kept.py::test_the_teacher_sees_every_lesson_kept_and_its_summary",
        "tests/table/test_class_privacy_cli.py::test_a_class_is_exported_and_its_pupil_forgotten_and_the_class_deleted",
    )),
    Promise("`/mattekrig ", (
        "tests/bot/test_records_e2e.py::test_forget_me_asks_then_leaves_no_trace",
        "tests/table/test_lessons_kept.py::test_the_teacher_deletes_a_lesson_at_once_after_being_asked",
        "tests/table/test_class_progress.py::test_three_lessons_of_a_class_show_each_pupils_progress",
    )),
    Promise("Discord", SCHOOL),  # put right
    Promise("Pause", SCHOOL, english_only=True),
    Promise("Discord", SCHOOL),  # say no: the lesson with no account instead of Discord
)  # fmt: skip

# The full notice's table of rights: the article a row names, and how it is kept.
RIGHTS: dict[str, tuple[str, ...] | str] = {
    "15": (
        "tests/bot/test_records_e2e.py::test_my_data_is_a_private_json_file",
        "tests/bot/test_privacy_cli.py::test_export_writes_the_my_data_file",
        "tests/table/test_class_privacy_cli.py::test_a_class_is_exported_and_its_pupil_forgotten_and_the_class_deleted",
        "tests/table/test_class_privacy_server_cli.py::test_each_teachers_7b_is_exported_forgotten_and_deleted_by_teacher_the_other_untouched",
        "tests/table/test_lessons_kept.py::test_the_teacher_sees_every_lesson_kept_and_its_summary",
    ),
    "17": (
        "tests/bot/test_records_e2e.py::test_forget_me_asks_then_leaves_no_trace",
        "tests/bot/test_privacy_cli.py::test_forget_asks_then_leaves_the_pupil_nowhere",
        "tests/bot/test_privacy_cli.py::test_forget_guild_leaves_the_server_nowhere",
        "tests/table/test_class_progress.py::test_three_lessons_of_a_class_show_each_pupils_progress",
        "tests/table/test_class_privacy_server_cli.py::test_each_teachers_7b_is_exported_forgotten_and_deleted_by_teacher_the_other_untouched",
        "tests/table/test_class_privacy_server_cli.py::test_a_removed_teachers_class_is_still_answered_for_by_the_operator",
        "tests/table/test_lessons_kept.py::test_the_teacher_deletes_a_lesson_at_once_after_being_asked",
    ),
    "16": SCHOOL,
    "18": SCHOOL,
    "21": SCHOOL,
}  # fmt: skip
# How each language's full notice marks a row as the school's duty.
SCHOOLS_DUTY = {
    "en": "the school's duty",
    "nb": "skolens plikt",
    "nn": "plikta til skulen",
    "sv": "skolans skyldighet",
}


def defined(proof: str) -> bool:
    """A proof "path::name" names a test function that exists in that file."""
    path, name = proof.split("::")
    tree = ast.parse((ROOT / path).read_text("utf-8"))
    return any(
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name
        for node in tree.body
    )


def bullets(text: str) -> list[str]:
    """The text's bullets, each with its continuation lines, as one line."""
    found: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("* "):
            found.append(line[2:])
            inside = True
        elif inside and line.startswith("  ") and line.strip():
            found[-1] += " " + line.strip()
        else:
            inside = False
    return found


def pupils_notice(lang: str) -> str:
    return (ROOT / "docs" / f"privacy-pupils.{lang}.md").read_text("utf-8")


def test_every_proof_named_is_a_test_that_exists() -> None:
    named = [p for promise in PUPILS if isinstance(promise.proofs, tuple) for p in promise.proofs]
    named += [p for proofs in RIGHTS.values() if isinstance(proofs, tuple) for p in proofs]
    assert [proof for proof in named if not defined(proof)] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_promise_to_a_pupil_is_tested_or_the_schools_job(lang: str) -> None:
    """Each bullet of the pupils' notice is a promise: the product's, proved by a named test, or
    the school's, and then the bullet itself says so in the pupil's language."""
    found = bullets(pupils_notice(lang))
    assert len(found) == len(PUPILS), found
    for bullet, promise in zip(found, PUPILS, strict=True):
        if lang == "en" or not promise.english_only:
            assert promise.clue in bullet, (promise.clue, bullet)
        says_school = SCHOOLS_JOB[lang] in bullet
        assert says_school == (promise.proofs == SCHOOL), bullet


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rights_a_command_keeps_name_the_command(lang: str) -> None:
    """To see and to delete are the pupil's own commands in Discord, in the pupil's language
    (the localised command names of the catalogues)."""
    see, delete = [b for b in bullets(pupils_notice(lang)) if "`/mattekrig " in b]
    commands = {"en": ("my-data", "forget-me"), "nb": ("mine-data", "glem-meg"),
                "nn": ("mine-data", "glem-meg"), "sv": ("mina-data", "glöm-mig")}  # fmt: skip
    assert f"`/mattekrig {commands[lang][0]}`" in see
    assert f"`/mattekrig {commands[lang][1]}`" in delete


def rights_rows(text: str) -> dict[str, str]:
    """The full notice's table of rights: each row by the first article it names."""
    rows: dict[str, str] = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and (article := re.search(r"art\. (\d+)", cells[0])):
            rows.setdefault(article.group(1), line)
    return rows


def full_notices() -> list[tuple[str, Path]]:
    return [
        (lang, ROOT / ("PRIVACY.md" if lang == "en" else f"PRIVACY.{lang}.md"))
        for lang in LANGUAGES
        if lang == "en" or (ROOT / f"PRIVACY.{lang}.md").exists()
    ]


@pytest.mark.parametrize("lang, path", full_notices(), ids=lambda x: getattr(x, "name", x))
def test_every_right_in_the_full_notice_is_a_command_or_the_schools_duty(
    lang: str, path: Path
) -> None:
    """GDPR art. 15–21 as they are in practice: access and erasure by a command the product
    has (its tests named above), rectification, restriction and objection the school's duty
    (the controller's), said in the row itself."""
    rows = rights_rows(path.read_text("utf-8"))
    assert set(rows) == set(RIGHTS)
    for article, proofs in RIGHTS.items():
        row = rows[article]
        if proofs == SCHOOL:
            assert SCHOOLS_DUTY[lang] in row, row
        else:
            assert SCHOOLS_DUTY[lang] not in row and "`mattekrig privacy " in row, row


def test_the_bot_asks_discord_for_no_message_and_no_member_list() -> None:
    """The notice: "it reads no chat messages"; PRIVACY.md: no privileged intents, no message
    content, no member list, no presence."""
    chosen = intents()
    assert not chosen.message_content and not chosen.members and not chosen.presences
    assert not chosen.messages and not chosen.guild_messages and not chosen.dm_messages


def test_nothing_stored_asks_for_an_address_or_a_phone_number(tmp_path: Path) -> None:
    """The notice: "it never asks for your e-mail, your home address or your phone number": no
    table of the database (the bot's and the lessons' are one schema) has a place for one."""
    path = tmp_path / "kept.db"

    async def make() -> None:
        store = await Storage.open(path)
        await store.close()

    asyncio.run(make())
    conn = sqlite3.connect(path)
    try:
        tables = [
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        ]
        columns = [
            f"{t}.{row[1]}" for t in tables for row in conn.execute(f"PRAGMA table_info({t})")
        ]
    finally:
        conn.close()
    assert len(tables) > 20  # the whole schema, the lessons' tables among them
    assert any(c.startswith("class_pupils.") for c in columns)
    unwanted = re.compile(r"mail|phone|address|birth|surname|\bip\b|_ip\b", re.I)
    assert [c for c in columns if unwanted.search(c)] == []
