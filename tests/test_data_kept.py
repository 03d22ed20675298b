"""The periods the texts promise are the code's: a test reads the retention numbers out of
docs/data-kept.md, README, PRIVACY.md, docs/for-schools*.md, the pupils' notice and the data
processing agreement (in every language) and compares each with its setting's default; the
school server's figures (a sign-in link's and a session's days, lessons per teacher, the hours
before an unused lesson ends) likewise, in the pack's school server section and the agreement
of every language. The issue: "a test reads the retention numbers out of the texts and compares
them with the defaults"."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from bot.config import Config
from bot.ops.backup import RESTORE_COPY_DAYS
from bot.services.privacy import WEEKS_KEPT, Retention
from classroom.periods import local_time
from school.sessions import LINK_DAYS, SESSION_DAYS
from school.settings import SchoolSettings
from school.teachers import parser as teachers_parser
from table.keep import DEFAULT_KEEP_DAYS
from table.roster import school_year_start
from tests.test_docs_promises import bullets

ROOT = Path(__file__).resolve().parents[1]
TEXTS = [ROOT / "docs" / "data-kept.md", ROOT / "README.md", ROOT / "PRIVACY.md",
         *sorted(ROOT.glob("PRIVACY.*.md")), *sorted((ROOT / "docs").glob("for-schools*.md")),
         *sorted((ROOT / "docs").glob("data-processing-agreement.*.md")),
         *sorted((ROOT / "docs").glob("data-protection-impact-assessment.*.md"))]  # fmt: skip


def _config_default(name: str) -> int:
    field = next(f for f in dataclasses.fields(Config) if f.name == name)
    assert isinstance(field.default, int)
    return field.default


def defaults() -> dict[str, int]:
    """Each setting's default, in days, from the code (the bot's two places agree)."""
    retention = Retention()
    found = {
        "GAME_LOG_DAYS": retention.game_log_days,
        "RESULT_DAYS": retention.result_days,
        "LEFT_SERVER_DAYS": retention.left_server_days,
        "LESSON_KEEP_DAYS": DEFAULT_KEEP_DAYS,
    }
    for name in ("game_log_days", "result_days", "left_server_days"):
        assert _config_default(name) == getattr(retention, name)
    return found


SETTING = re.compile(r"`(" + "|".join(defaults()) + r")")
ASSIGNED = re.compile(r"`(" + "|".join(defaults()) + r")=\[?(\d+)\]?")
# "30 days", "730 dagar (2 år)", "14 dager", "(default 14", "standard 14"
DAYS = re.compile(r"\b(\d+)\]? ?(?:days?|dager|dagar|dygn)\b|\((?:default|standard) (\d+)\b")
YEARS = re.compile(r"\b(\d+) ?(?:years?|år)\b")
NIGHTS = re.compile(r"\[?(\d+)\]? ?(?:nights|netter|nätter)\b")


def units(text: str) -> list[str]:
    """A text's sentences and table rows, each of which a number belongs to."""
    found: list[str] = []
    for block in re.split(r"\n\s*\n", text):
        lines = block.splitlines()
        rows = [line for line in lines if line.lstrip().startswith("|")]
        found.extend(rows)
        prose = " ".join(line for line in lines if not line.lstrip().startswith("|"))
        found.extend(re.split(r"(?<=[.!?])\s+(?=[A-ZÆØÅÄÖ*`(])", prose))
    return found


def promised(text: str) -> list[tuple[str, int]]:
    """(setting, days) for every period a sentence or row names beside one setting: each
    number of days or years in it after code spans are taken out."""
    found = [(name, int(days)) for name, days in ASSIGNED.findall(text)]
    for unit in units(text):
        names = list(dict.fromkeys(SETTING.findall(unit)))
        if not names:
            continue
        listed = re.fullmatch(
            r"\|\s*((?:`\w+`(?: · )?)+)\s*\|.*\|\s*((?:`\d+`(?: · )?)+)\s*\|", unit.strip()
        )
        if listed:  # README's row: `A` · `B` | … | `1` · `2`
            numbers = re.findall(r"`(\d+)`", listed.group(2))
            assert len(numbers) == len(names), unit
            found += [(name, int(n)) for name, n in zip(names, numbers, strict=True)]
            continue
        plain = re.sub(r"`[^`]*`", " ", unit)
        days = [int(a or b) for a, b in DAYS.findall(plain)]
        days += [int(years) * 365 for years in YEARS.findall(plain)]
        # A sentence naming several settings: each period is the default of one of them.
        own = {defaults()[name]: name for name in names}
        found += [(own.get(n, names[0]), n) for n in days]
    return found


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_period_named_beside_a_setting_is_its_default(path: Path) -> None:
    wrong = [(name, days, defaults()[name]) for name, days in promised(path.read_text("utf-8"))
             if days != defaults()[name]]  # fmt: skip
    assert wrong == []


def test_the_table_names_every_setting_and_its_period() -> None:
    """docs/data-kept.md holds each setting with its period, and the periods without a setting
    (weekly totals, restore copies, backups, the school year) as the code has them."""
    text = (ROOT / "docs" / "data-kept.md").read_text("utf-8")
    named = {name for name, _ in promised(text)}
    assert named == set(defaults())
    assert f"| {WEEKS_KEPT} weeks |" in text
    assert f"| {RESTORE_COPY_DAYS} days |" in text
    assert f"{RESTORE_COPY_DAYS} nights in the recommended set-up" in text
    start = school_year_start(0)  # 1 August 1969, at midnight where the pupils are, in ms
    assert local_time(start).timetuple()[:5] == (1969, 8, 1, 0, 0)
    assert "to the end of the school year (1 August)" in text


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_backups_are_kept_as_many_nights_everywhere(path: Path) -> None:
    """The recommended nightly backups: the same number of nights in every text, the number
    `restore` keeps its own copies for."""
    nights = {int(n) for n in NIGHTS.findall(path.read_text("utf-8"))}
    assert nights <= {RESTORE_COPY_DAYS}


def test_the_reader_finds_the_numbers() -> None:
    """The reader itself, on the forms the texts use (so a text cannot pass by being unread)."""
    sample = (
        "| `RESULT_DAYS` | results | 730 dagar (2 år) |\n\nAn ended lesson is deleted 14 days\n"
        "after it ended (`--keep-days N` or `LESSON_KEEP_DAYS=N`). `GAME_LOG_DAYS=[30]`.\n"
        "Deleted `LESSON_KEEP_DAYS` days after it ended (default 14; `0` deletes)."
    )
    assert sorted(promised(sample)) == [
        ("GAME_LOG_DAYS", 30), ("LESSON_KEEP_DAYS", 14), ("LESSON_KEEP_DAYS", 14),
        ("RESULT_DAYS", 730), ("RESULT_DAYS", 730),
    ]  # fmt: skip
    counted = {path.name: len(promised(path.read_text("utf-8"))) for path in TEXTS}
    assert all(counted[name] >= 3 for name in ("data-kept.md", "for-schools.md",
                                               "for-schools.nn.md", "PRIVACY.md"))  # fmt: skip


LANGUAGES = ("nb", "nn", "sv", "en")
PUPILS = [ROOT / "docs" / f"privacy-pupils.{lang}.md" for lang in LANGUAGES]
# The school year's end, as each language writes it.
SCHOOL_YEAR_END = re.compile(r"\b1\.? (?:August|august|augusti)\b")


@pytest.mark.parametrize("path", PUPILS, ids=lambda p: p.name)
def test_the_pupils_notice_takes_its_figures_from_the_table(path: Path) -> None:
    """The pupils' notice in plain words, in nb, nn, sv and en (the issue: "a pupils' notice in
    plain words … in nb, nn, sv and en"), names the periods of docs/data-kept.md in the order
    a pupil meets them: a lesson, then the bot's moves, results, a removed bot and its backups,
    and the class records' school year."""
    text = path.read_text("utf-8")
    kept = defaults()
    days = [int(a or b) for a, b in DAYS.findall(text)]
    assert days == [kept["LESSON_KEEP_DAYS"], kept["GAME_LOG_DAYS"], kept["LEFT_SERVER_DAYS"]]
    assert [int(n) * 365 for n in YEARS.findall(text)] == [kept["RESULT_DAYS"]]
    assert [int(n) for n in NIGHTS.findall(text)] == [RESTORE_COPY_DAYS]
    assert SCHOOL_YEAR_END.search(text)
    # Every other language's notice is one link away, and so is the full notice.
    for other in PUPILS:
        assert other == path or f"]({other.name})" in text
    assert "](../PRIVACY.md)" in text


def test_the_pupils_notice_is_linked_from_privacy_and_the_school_pack() -> None:
    for path in (ROOT / "PRIVACY.md", *sorted((ROOT / "docs").glob("for-schools*.md"))):
        assert "privacy-pupils." in path.read_text("utf-8"), path.name


def letter_to_parents(path: Path) -> str:
    """The pack's letter to parents: the section at the place the English pack has it (every
    language has the same sections in the same order)."""
    english = (ROOT / "docs" / "for-schools.md").read_text("utf-8")
    titles = re.findall(r"^## (.+)$", english, flags=re.M)
    place = next(i for i, title in enumerate(titles) if "letter to parents" in title)
    return re.split(r"^## .+$", path.read_text("utf-8"), flags=re.M)[place + 1]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_letter_to_parents_does_not_overstate_deletion(lang: str) -> None:
    """The issue: the letter overstated deletion and left out "the 14 nightly backups, the boards
    that stay in Discord channels …, the controller's identity, the legal basis, the rights to
    object, to rectification and to restriction, Discord as a separate controller with transfer
    to the USA, and whether a pupil may take the no-account lesson instead"."""
    path = ROOT / "docs" / ("for-schools.md" if lang == "en" else f"for-schools.{lang}.md")
    letter = letter_to_parents(path)
    kept = defaults()
    days = {int(a or b) for a, b in DAYS.findall(letter)}
    assert days == {kept["GAME_LOG_DAYS"], kept["LEFT_SERVER_DAYS"], kept["LESSON_KEEP_DAYS"]}
    assert {int(n) * 365 for n in YEARS.findall(letter) if n != "13"} == {kept["RESULT_DAYS"]}
    assert {int(n) for n in NIGHTS.findall(letter)} == {RESTORE_COPY_DAYS}
    assert SCHOOL_YEAR_END.search(letter)
    prose = re.sub(r"\s*\n>?\s*", " ", letter)
    for article in ("6", "15", "16", "17", "18", "21", "77"):  # basis, the rights, complaint
        assert re.search(rf"art\. {article}\b", prose), article
    assert "USA" in letter and "https://discord.com/privacy" in letter
    assert f"privacy-pupils.{lang}.md" in letter
    # The controller's identity is a field the school fills in.
    number = r"organisation number|organisasjonsnummer|organisationsnummer"
    assert re.search(rf"\[[^\]]*(?:{number})[^\]]*\]", prose)
    # Everything is not deleted "when the class stops": the letter no longer says so.
    assert "stops using the game" not in letter and "slutter å\n> bruke" not in letter


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_data_processing_agreement_is_complete(lang: str) -> None:
    """GDPR art. 28(3): its points (a)–(h) and its last subparagraph (an instruction that
    infringes the GDPR), help with the DPIA and prior consultation (art. 35, 36), an annex of
    measures (art. 32) and a named list of sub-processors, Discord named a separate controller;
    the school owns the Discord application through a team. Its periods are the defaults."""
    path = ROOT / "docs" / f"data-processing-agreement.{lang}.md"
    text = path.read_text("utf-8")
    prose = re.sub(r"\s*\n\s*", " ", text)
    for point in "abcdefgh":
        assert re.search(rf"^{point}\. \*\*", text, flags=re.M), point
    for article in ("28", "32", "33", "34", "35", "36", "44"):
        assert re.search(rf"art\. {article}\b", prose), article
    assert {name for name, _ in promised(text)} == set(defaults())
    assert {int(n) for n in NIGHTS.findall(text)} == {RESTORE_COPY_DAYS}
    assert "--keep 14" in text and "0600" in text and "SHA-256" in text
    assert "DISCORD_TOKEN" in text and "Reset Token" in text
    assert "https://discord.com/developers/docs/topics/teams" in text
    assert "https://eur-lex.europa.eu/eli/reg/2016/679/oj" in text
    assert len(re.findall(r"^## ", text, flags=re.M)) == 7  # 1–5 and the annexes A, B
    for other in LANGUAGES:
        assert other == lang or f"](data-processing-agreement.{other}.md)" in text
    pack = "for-schools.md" if lang == "en" else f"for-schools.{lang}.md"
    assert f"](data-processing-agreement.{lang}.md)" in (ROOT / "docs" / pack).read_text("utf-8")


FULL = {lang: ROOT / ("PRIVACY.md" if lang == "en" else f"PRIVACY.{lang}.md") for lang in LANGUAGES}
WEEKS = re.compile(r"\| (\d+) (?:weeks|uker|veker|veckor) \|")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_full_notice_in_every_language_holds_every_period(lang: str) -> None:
    """PRIVACY.md is the full notice in nb, nn, sv and en (the issue: "PRIVACY.md as the full
    notice in the four languages"): each names every setting beside its default, the weekly
    leaderboard's weeks, the backups' nights and the school year's end, as data-kept.md has
    them; each links to the other three and to the pupils' notice in all four."""
    text = FULL[lang].read_text("utf-8")
    found = promised(text)
    assert {name for name, _ in found} == set(defaults())
    assert all(days == defaults()[name] for name, days in found)
    assert [int(n) for n in WEEKS.findall(text)] == [WEEKS_KEPT]
    assert {int(n) for n in NIGHTS.findall(text)} == {RESTORE_COPY_DAYS}
    assert SCHOOL_YEAR_END.search(text)
    assert "(docs/data-kept.md)" in text
    for other, path in FULL.items():
        assert other == lang or f"]({path.name})" in text
    for pupils in PUPILS:
        assert f"](docs/{pupils.name})" in text


def test_the_full_notices_have_the_same_parts() -> None:
    """The translations have the English notice's parts in its order; only the English one has
    the annex of the database's tables (the schema test reads it), and the others link to it."""
    notice, annex = FULL["en"].read_text("utf-8").split("\n## Annex")
    english = re.findall(r"^##+ ", notice, flags=re.M)
    assert "`games`" in annex and "`school_sessions`" in annex
    for lang in ("nb", "nn", "sv"):
        text = FULL[lang].read_text("utf-8")
        assert re.findall(r"^##+ ", text, flags=re.M) == english, lang
        assert "`games`" not in text and "](PRIVACY.md)" in text


# A one-time sign-in link (`mattekrig teachers add`) and a teacher's session, in days.
SIGN_IN_LINK_DAYS = LINK_DAYS


def test_the_school_server_keeps_what_its_settings_say() -> None:
    """docs/data-kept.md's school server: lessons per teacher, the hours after which an unused
    lesson ends and the days an ended one is kept are the school server's defaults; a sign-in
    link and a session last the days the server gives them; the teachers' ids are named."""
    text = (ROOT / "docs" / "data-kept.md").read_text("utf-8")
    server = text.split("## A school server")[1]
    (row,) = [line for line in server.splitlines() if "`LESSONS_PER_TEACHER`" in line]
    school = SchoolSettings()
    assert f"at most {school.lessons_per_teacher} open lessons per teacher" in row
    assert f"a lesson unused for {school.idle_hours} hours ends" in row
    assert f"deleted {school.keep_days} days after it ended" in row
    assert school.keep_days == defaults()["LESSON_KEEP_DAYS"]
    (link,) = [line for line in server.splitlines() if "one-time sign-in link" in line]
    assert f"or {SIGN_IN_LINK_DAYS} days" in link
    (session,) = [line for line in server.splitlines() if "a signed-in browser's session" in line]
    assert f"or {SESSION_DAYS} days after signing in" in session
    for kept in ("OpenID Connect", "SHA-256 digest of its cookie", "(`DATABASE_URL`)"):
        assert kept in server
    annex = (ROOT / "PRIVACY.md").read_text("utf-8").split("\n## Annex")[1]
    (links,) = [line for line in annex.splitlines() if line.startswith("| `school_links`")]
    (sessions,) = [line for line in annex.splitlines() if line.startswith("| `school_sessions`")]
    assert f"({SIGN_IN_LINK_DAYS} days)" in links and f"{SESSION_DAYS} days after" in sessions
    for path in FULL.values():  # the plain words of every language: how long a link lasts
        assert re.search(rf"\b{SIGN_IN_LINK_DAYS} (?:days|dager|dagar)\b", path.read_text("utf-8"))


PACKS = {lang: ROOT / "docs" / ("for-schools.md" if lang == "en" else f"for-schools.{lang}.md")
         for lang in LANGUAGES}  # fmt: skip
HOURS = re.compile(r"\b(\d+) (?:hours|timer|timar|timmar)\b")
# The controller and the data processor, in bold, as each language names them.
ROLES = {
    "en": ("controller", "data processor"),
    "nb": ("behandlingsansvarlig", "databehandler"),
    "nn": ("behandlingsansvarleg", "databehandlar"),
    "sv": ("personuppgiftsansvarig", "personuppgiftsbiträde"),
}


def pack_section(path: Path, clue: str) -> str:
    """A section of a pack, at the place the English pack has the section whose title holds
    `clue` (every language has the same sections in the same order)."""
    titles = re.findall(r"^## (.+)$", PACKS["en"].read_text("utf-8"), flags=re.M)
    place = next(i for i, title in enumerate(titles) if clue in title)
    return re.split(r"^## .+$", path.read_text("utf-8"), flags=re.M)[place + 1]


def table_rows(text: str) -> list[list[str]]:
    """The first table's rows, without its header and rule, each as its cells."""
    block = next(b for b in re.split(r"\n\s*\n", text) if b.lstrip().startswith("|"))
    rows = [line.strip().strip("|").split("|") for line in block.splitlines()[2:]]
    return [[cell.strip() for cell in row] for row in rows]


def kept_figures(cell: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", cell)]


def days_in(text: str) -> list[int]:
    """The days a text names, wherever its lines break."""
    return [int(a or b) for a, b in DAYS.findall(re.sub(r"\s+", " ", text))]


def data_kept_server() -> list[list[str]]:
    text = (ROOT / "docs" / "data-kept.md").read_text("utf-8")
    return table_rows(text.split("## A school server")[1])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pack_keeps_the_school_servers_periods_row_by_row(lang: str) -> None:
    """The issue: "the for-schools pack says what the school server keeps (teachers' ids,
    classes, pupils' nicknames or cards, results)". The pack's table is data-kept.md's school
    server, row by row with the same figures in its "kept for" column; and the figures are
    the code's: a sign-in link's and a session's days, the lessons a teacher may keep open,
    the hours after which an unused lesson ends, the days an ended one is kept, 1 August."""
    section = pack_section(PACKS[lang], "school server")
    rows, kept = table_rows(section), data_kept_server()
    assert len(rows) == len(kept)
    assert [kept_figures(row[2]) for row in rows] == [kept_figures(row[2]) for row in kept]
    place = {clue: next(i for i, row in enumerate(kept) if clue in row[0])
             for clue in ("each teacher", "one-time sign-in link", "session", "lessons, each",
                          "classes, each")}  # fmt: skip
    assert days_in(rows[place["one-time sign-in link"]][2]) == [SIGN_IN_LINK_DAYS]
    assert days_in(rows[place["session"]][2]) == [SESSION_DAYS]
    school = SchoolSettings()
    lessons = rows[place["lessons, each"]][2]
    for setting in ("`LESSONS_PER_TEACHER`", "`LESSON_IDLE_HOURS`", "`LESSON_KEEP_DAYS`"):
        assert setting in lessons, setting
    assert re.search(rf"\b{school.lessons_per_teacher}\b", lessons)
    assert [int(n) for n in HOURS.findall(lessons)] == [school.idle_hours]
    assert days_in(lessons) == [school.keep_days] == [defaults()["LESSON_KEEP_DAYS"]]
    assert SCHOOL_YEAR_END.search(rows[place["classes, each"]][2])
    assert re.search(r"opaque|ugjennomsiktige|ogenomskinliga", rows[place["each teacher"]][0])
    assert "SHA-256" in rows[place["session"]][0]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pack_names_the_controller_the_processor_and_the_schools_duties(lang: str) -> None:
    """The pack says who is the controller (the school owner) and who the data processor
    (whoever runs the server), where the data lives (the school's PostgreSQL) and what the
    school does, with the commands the server has: a teacher added gets a link valid for the
    days the code gives it; backups by `pg_dump`, deleted after the days operations.md's
    sample keeps them; the step-by-step setup and the table the figures come from one link
    away."""
    section = pack_section(PACKS[lang], "school server")
    prose = re.sub(r"\s+", " ", section)
    controller, processor = ROLES[lang]
    assert f"**{controller}**" in section and f"**{processor}**" in section
    assert "PostgreSQL" in section and "(`DATABASE_URL`)" in section
    assert "Feide" in section and "`openid`" in section
    for link in ("](operations.md#a-school-server-step-by-step)", "](data-kept.md)"):
        assert link in section, link
    operations = (ROOT / "docs" / "operations.md").read_text("utf-8")
    assert "### A school server, step by step" in operations
    commands = re.findall(r"`mattekrig (teachers [^`]+)`", prose)
    assert {words.split()[1] for words in commands} == {"add", "remove"}
    for words in commands:  # each one the command line really takes
        teachers_parser().parse_args([*words.split()[1:2], "Kari Nordmann"])
    (add,) = [item for item in bullets(section) if "`mattekrig teachers add" in item]
    assert days_in(add) == [SIGN_IN_LINK_DAYS]
    (dumps,) = [item for item in bullets(section) if "`pg_dump`" in item]
    (kept,) = re.findall(r"-mtime \+(\d+) -delete", operations)
    assert days_in(dumps) == [int(kept)]


SCHOOL_SERVER = re.compile(r"school server|skoleserver|skuleserver|skolserver")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_data_processing_agreement_covers_the_school_server(lang: str) -> None:
    """The school server is a way the processor runs Mattekrig: the agreement's instructions
    give its settings with the code's defaults, the days a sign-in link and a session last
    and how long its `pg_dump` dumps are kept (operations.md's sample); its annex of measures
    names what the server does (HTTPS, a cookie HttpOnly and SameSite, OpenID Connect asking
    for `openid` only, digests, a lease in PostgreSQL) and its list of sub-processors says
    the server adds none beyond the hosting."""
    text = (ROOT / "docs" / f"data-processing-agreement.{lang}.md").read_text("utf-8")
    school = SchoolSettings()
    assert dict(re.findall(r"`(LESSONS_PER_TEACHER|LESSON_IDLE_HOURS)=\[(\d+)\]`", text)) == {
        "LESSONS_PER_TEACHER": str(school.lessons_per_teacher),
        "LESSON_IDLE_HOURS": str(school.idle_hours),
    }
    (instruction,) = [unit for unit in units(text) if "`LESSONS_PER_TEACHER=" in unit]
    operations = (ROOT / "docs" / "operations.md").read_text("utf-8")
    (dumps,) = re.findall(r"-mtime \+(\d+) -delete", operations)
    assert days_in(instruction) == [SIGN_IN_LINK_DAYS, SESSION_DAYS, int(dumps)]
    assert "`pg_dump`" in instruction and "`mattekrig serve`" in instruction
    annex_a, annex_b = (re.sub(r"\s+", " ", annex) for annex in text.split("\n## ")[-2:])
    for measure in ("`mattekrig serve`", "HTTPS", "HttpOnly", "SameSite", "OpenID Connect",
                    "`openid`", "SHA-256", "PostgreSQL", "`pg_dump`"):  # fmt: skip
        assert measure in annex_a, measure
    assert SCHOOL_SERVER.search(annex_b)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_letter_to_parents_says_what_the_school_server_keeps(lang: str) -> None:
    """The letter to parents said nothing of the school server: one paragraph says the lessons
    may run on it, what it keeps with data-kept.md's figures (the hours after which an unused
    lesson ends, the days an ended one is kept, 1 August for a class's records) and who is
    responsible for it and runs it (fields the school fills in)."""
    letter = letter_to_parents(PACKS[lang])
    (paragraph,) = [part for part in re.split(r"\n>\s*\n", letter) if SCHOOL_SERVER.search(part)]
    school = SchoolSettings()
    assert "`mattekrig serve`" in paragraph
    assert [int(n) for n in HOURS.findall(paragraph)] == [school.idle_hours]
    assert days_in(paragraph) == [school.keep_days] == [defaults()["LESSON_KEEP_DAYS"]]
    assert SCHOOL_YEAR_END.search(paragraph)
    assert re.search(r"responsible|ansvaret|ansvarar", paragraph)
    assert len(re.findall(r"\[[^\]]+\]", paragraph)) >= 2  # whether, and who runs it
