"""A school's server under a school's load, as its operator runs it (the issue "Lessons served
for a whole school", its "Done when"): Debian's nginx (docs/operations.md's sample) in front of
two `mattekrig serve` processes on one PostgreSQL, "a test plays 4 lessons of 28 simulated
pupils (HTTP/WebSocket clients) and 2 teachers signed in through the mock OpenID Connect
provider; kill -9 of one process mid-lesson: every pupil back at their table through the
proxy …, 0 acknowledged actions lost, 0 duplicated; a teacher cannot open another teacher's
lesson; a pupil cannot open a teacher's page".

* Each teacher is added by the operator (`mattekrig teachers add`), binds their account by the
  one-time link (SERVE.md: "a teacher's first OIDC sign-in goes through their link (the link
  binds the subject)"), signs out, and signs in again with the provider alone; each starts two
  lessons on their own page.
* 28 pupils a lesson arrive as a class does: the front page, the code on the board, a name,
  the live connection; their teacher pairs them at random and they play Regnekrig.
* The process that holds a lesson (PostgreSQL's own `pg_locks`: its lease) is killed with
  kill -9 while every class plays. The proxy sends that process's lessons to the other, which
  takes each over from the database; every pupil whose connection dropped knocks again as
  the page's script does and its first page is its own seat's, and every pupil plays on.
* Every acknowledged press is stored, once, read from PostgreSQL after the run (more only by
  a press whose pupil never learnt it was taken: in flight at the kill, or "try again" while
  the database failed, stored by the first save that works); a hostile pupil's forged presses and a
  cross-site POST change nothing; no process writes a traceback; the proxy's log names no
  sign-in token, no provider's code and no device's address.

Every wait is bounded and nothing asserts how long anything took (`benchmarks.school` measures
the takeover).
"""

from __future__ import annotations

import asyncio
import random
import re
import ssl
import subprocess
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from storage.contract import LessonStore
from storage.postgres import PostgresStorage
from storage.records.lessons import LessonInfo
from table.keep import restore
from tests.nginx_run import (
    free_port,
    make_certificate,
    need_nginx,
    running_nginx,
    school_conf,
    school_dns,
)
from tests.postgres import fresh_schema_url
from tests.school.cluster import (
    BASE,
    SchoolPupil,
    ServeProcess,
    device,
    lease_holders,
    serve_env,
)
from tests.school.provider import running_provider, sign_in_at
from tests.table.class_pupils import SEAT_STATES
from tests.table.support import FakeClock, text_of

pytestmark = pytest.mark.slow

TEACHERS = {"Kari Lærer": "kari-at-feide", "Lars Lektor": "lars-at-feide"}
LESSONS_EACH = 2
NAMES = (
    "Åse", "Ola", "Kari", "Lars", "Ingrid", "Nils", "Sigrid", "Håkon", "Maja", "Jonas",
    "Tuva", "Aksel", "Ella", "Filip", "Live", "Magnus", "Selma", "Oskar", "Frida", "Vetle",
    "Astrid", "Theo", "Linnea", "Elias", "Mathilde", "Sander", "Hedda", "Isak",
)  # fmt: skip
PRESSES = 2  # each pupil's acknowledged presses before the kill and after it, at the least
BOUND = 60.0  # seconds any one wait may take before the test says what never happened
LINK = re.compile(re.escape(BASE) + r"/signin/link/([A-Za-z0-9_-]{20,})")
EVIL = {"Origin": "https://evil.example"}


@dataclass
class Teacher:
    name: str
    session: aiohttp.ClientSession
    codes: list[str] = field(default_factory=list)


@dataclass
class School:
    """The school's server as the test drives it, and what must never be logged."""

    url: str  # the database's (the test's own schema)
    issuer: str
    processes: list[ServeProcess]
    connector: aiohttp.BaseConnector
    folder: Path
    teachers: list[Teacher] = field(default_factory=list)
    pupils: list[SchoolPupil] = field(default_factory=list)
    secrets: set[str] = field(default_factory=set)
    go: asyncio.Event = field(default_factory=asyncio.Event)
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    def acked(self) -> dict[tuple[str, str], int]:
        return {(p.code, p.name): p.acked for p in self.pupils}


async def until(check: Callable[[], bool], what: str | Callable[[], str]) -> None:
    """Wait (bounded) until `check` holds."""
    deadline = time.monotonic() + BOUND
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what if isinstance(what, str) else what()}")
        await asyncio.sleep(0.05)


async def pressed_more(school: School, presses: int) -> None:
    """Every pupil whose game still runs presses `presses` more times (acknowledged)."""
    start = school.acked()

    def behind() -> list[SchoolPupil]:
        return [
            p
            for p in school.pupils
            if p.acked - start[(p.code, p.name)] < presses and p.state in ("playing", "war")
        ]

    def said() -> str:
        return f"each pupil pressed {presses} more times: " + "; ".join(
            f"{p.code} {p.name}: {p.state}, {p.acked - start[(p.code, p.name)]} more, "
            f"pages {p.pages}, acted {p.acted}, connected {p.connected}, {dict(p.refused)}, "
            f"{p.decision()}, {re.sub(r'<[^>]+>', ' ', p.html)[-300:]!r}"
            for p in behind()[:5]
        )

    await until(lambda: not behind(), said)


# -- the operator and the teachers ---------------------------------------------------------------


async def add_teacher(school: School, name: str) -> str:
    """`mattekrig teachers add NAME`: the one-time link it prints."""
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "school", "teachers", "add", name, "--base-url", BASE],
        capture_output=True, text=True, env=serve_env(school.url, school.issuer),
        cwd=school.folder, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    found = LINK.search(done.stdout)
    assert found is not None, done.stdout
    school.secrets.add(found.group(1))
    return found.group(1)


async def back_from_provider(school: School, teacher: Teacher, where: str, subject: str) -> None:
    """Sign in at the provider as ``subject``; its answer reaches a process through nginx."""
    callback = await sign_in_at(where, subject)
    assert callback.startswith(f"{BASE}/signin/callback?"), callback
    query = parse_qs(urlsplit(callback).query)
    school.secrets.update((query["code"][0], query["state"][0]))
    async with teacher.session.get(callback, allow_redirects=False) as answer:
        assert answer.status == 303, text_of(await answer.text())
        assert answer.headers["Location"] == "/mine?lang=en"
    async with teacher.session.get("/mine?lang=en") as mine:
        assert mine.status == 200 and teacher.name in text_of(await mine.text())


async def signed_in_teacher(school: School, name: str, subject: str) -> Teacher:
    """Added, bound by the link, signed out, signed in again by the provider alone."""
    token = await add_teacher(school, name)
    teacher = Teacher(name, device(school.connector))
    async with teacher.session.get(f"/signin/link/{token}?lang=en") as page:
        assert page.status == 200 and "Sign in with Feide" in text_of(await page.text())
    form = {"lang": "en"}
    async with teacher.session.post(
        f"/signin/link/{token}", data=form, allow_redirects=False
    ) as bound:
        assert bound.status == 303, text_of(await bound.text())
        await back_from_provider(school, teacher, bound.headers["Location"], subject)
    async with teacher.session.post("/signout", data=form, allow_redirects=False) as out:
        assert out.status == 303
    async with teacher.session.get("/mine?lang=en", allow_redirects=False) as mine:
        assert mine.status == 303  # signed out: to the sign-in page
    async with teacher.session.get("/signin/oidc?lang=en", allow_redirects=False) as leaving:
        assert leaving.status == 303
        await back_from_provider(school, teacher, leaving.headers["Location"], subject)
    return teacher


async def start_lesson(teacher: Teacher) -> str:
    async with teacher.session.post(
        "/mine/new", data={"lang": "en"}, allow_redirects=False
    ) as made:
        assert made.status == 303, text_of(await made.text())
        found = re.fullmatch(r"/l/(\d{6})/teacher\?lang=en", made.headers["Location"])
        assert found is not None, made.headers["Location"]
    async with teacher.session.get(made.headers["Location"]) as page:
        assert page.status == 200, text_of(await page.text())
    teacher.codes.append(found.group(1))
    return found.group(1)


async def control(teacher: Teacher, code: str, what: str, **form: str) -> int:
    """A teacher's control of a lesson: 303 to the teacher's page when done."""
    async with teacher.session.post(
        f"/l/{code}/teacher/{what}", data={"lang": "en", **form}, allow_redirects=False
    ) as answer:
        await answer.read()
        return answer.status


# -- what nobody may do -------------------------------------------------------------------------


async def others_refused(school: School) -> None:
    """ "A teacher cannot open another teacher's lesson; a pupil cannot open a teacher's page";
    a cross-site POST with a signed-in teacher's cookie changes nothing."""
    first, second = school.teachers
    for teacher, other in ((first, second), (second, first)):
        for code in other.codes:
            async with teacher.session.get(f"/l/{code}/teacher?lang=en") as page:
                assert page.status == 403, code
            assert await control(teacher, code, "pause") == 403
            assert await control(teacher, code, "end") == 403
        async with teacher.session.get("/mine?lang=en") as mine:
            listed = await mine.text()
        assert all(f"/l/{code}/" in listed for code in teacher.codes)
        assert not [code for code in other.codes if code in listed]
    for pupil in (school.pupils[0], school.pupils[-1]):
        async with pupil.session.get(f"{pupil.root}/teacher?lang=en") as page:
            assert page.status == 403
        async with pupil.session.post(f"{pupil.root}/teacher/end", data={"lang": "en"}) as end:
            assert end.status == 403
    # a page of another site posts with the teacher's cookie: refused, nothing started
    async with first.session.post("/mine/new", data={"lang": "en"}, headers=EVIL) as forged:
        assert forged.status == 403
    code = first.codes[0]
    async with first.session.post(
        f"/l/{code}/teacher/end", data={"lang": "en"}, headers=EVIL
    ) as forged:
        assert forged.status == 403
    async with first.session.get("/mine?lang=en") as mine:
        listed = await mine.text()
    assert len(re.findall(r'<a href="/l/\d{6}/teacher', listed)) == LESSONS_EACH


async def forged_presses(pupil: SchoolPupil) -> Counter[int]:
    """A hostile pupil's forged presses, and one from another site: each refused in words."""
    window = pupil.window or "1"
    forms = [
        {"window": "abc", "choice": "answer", "answer": "1"},
        {"window": window, "choice": "no-such-thing:1"},
        {"window": window, "choice": "answer", "answer": "__import__('os').system('id')"},
        {"window": str(int(window) + 40), "choice": "pass"},
        {"window": window, "choice": "answer", "answer": "1" * 5000},
    ]
    seen: Counter[int] = Counter()
    for form in forms:
        async with pupil.session.post(
            f"{pupil.root}/table/act", data=form | {"lang": "en"}
        ) as answer:
            seen[answer.status] += 1
    async with pupil.session.post(
        f"{pupil.root}/table/act", data=forms[1] | {"lang": "en"}, headers=EVIL
    ) as answer:
        assert answer.status == 403  # a cross-site press
        seen[answer.status] += 1
    return seen


# -- the test ------------------------------------------------------------------------------------


async def open_school(
    stack: AsyncExitStack, folder: Path, issuer: str, url: str
) -> tuple[School, Path]:
    """Two serve processes (the first's migrations done before the second starts) and nginx
    in front of them; the school's devices share one connector (its DNS, its certificate)."""
    need_nginx()
    env = serve_env(url, issuer)
    processes = [
        ServeProcess(f"{host}:{free_port(host)}", folder / f"serve-{n}.err")
        for n, host in enumerate(("127.0.0.2", "127.0.0.3"))
    ]
    stack.callback(lambda: [p.stop() for p in processes])
    for process in processes:
        await process.start(env, folder)
    https, http = free_port(), free_port()
    make_certificate(folder)
    conf = school_conf(folder, [p.address for p in processes], https, http)
    stack.enter_context(running_nginx(folder, conf, https))
    trust = ssl.create_default_context(cafile=str(folder / "cert.pem"))
    connector = aiohttp.TCPConnector(resolver=school_dns(https, http), ssl=trust, limit=0)
    stack.push_async_callback(connector.close)
    return School(url, issuer, processes, connector, folder), folder / "school.log"


async def close_devices(school: School) -> None:
    school.stop.set()
    school.go.set()
    for pupil in school.pupils:
        await pupil.close()
    for teacher in school.teachers:
        await teacher.session.close()


@pytest.fixture
async def school(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lesson_data: Path
) -> AsyncIterator[School]:
    url = fresh_schema_url()
    async with AsyncExitStack() as stack:
        issuer = stack.enter_context(running_provider(monkeypatch))
        opened, _ = await open_school(stack, tmp_path, issuer, url)
        stack.push_async_callback(close_devices, opened)
        yield opened


async def test_four_lessons_of_28_on_two_processes_through_a_kill_9(school: School) -> None:
    rng = random.Random(32)
    # -- two teachers sign in through the provider and start two lessons each ----------------
    for name, subject in TEACHERS.items():
        school.teachers.append(await signed_in_teacher(school, name, subject))
    for teacher in school.teachers:
        for _ in range(LESSONS_EACH):
            await start_lesson(teacher)
    codes = [code for teacher in school.teachers for code in teacher.codes]
    assert len(set(codes)) == 4
    owner = {code: teacher for teacher in school.teachers for code in teacher.codes}

    # -- 28 pupils a lesson arrive by the front page, and their teachers pair them -------------
    school.pupils = [
        SchoolPupil(name, f"{BASE}/", random.Random(rng.random()), root=f"/l/{code}",
                    code=code, connector=school.connector)
        for code in codes
        for name in NAMES
    ]  # fmt: skip
    await asyncio.gather(*(p.arrive() for p in school.pupils))
    await asyncio.gather(*(p.connect() for p in school.pupils))
    for code in codes:
        paired = await control(owner[code], code, "pair", how="random", game="regnekrig",
                               level="5", answer_seconds="5", minutes="0")  # fmt: skip
        assert paired == 303
    await until(lambda: all(p.state in ("playing", "war") for p in school.pupils),
                "every pupil at a table")  # fmt: skip
    tasks = [asyncio.create_task(p.play(school.go, school.stop)) for p in school.pupils]
    school.go.set()
    await pressed_more(school, PRESSES)

    await others_refused(school)
    hostile = school.pupils[rng.randrange(len(school.pupils))]
    refused = await forged_presses(hostile)
    assert all(400 <= status < 500 for status in refused), refused

    # -- kill -9 of a process that holds lessons, while every class plays ------------------------
    pids = [p.pid for p in school.processes]
    handed = sum(p.drops for p in school.pupils)  # (a lesson handed over between processes)
    started = time.time()
    holders = await asyncio.to_thread(lease_holders, school.url, pids)
    assert sorted(holders) == sorted(codes)  # each lesson held, by one process
    victim = next(p for p in school.processes if p.pid in holders.values())
    moved = {code for code, pid in holders.items() if pid == victim.pid}
    victim.kill()
    dropped = [p for p in school.pupils if p.code in moved]

    def back() -> bool:
        return all(p.lost or (p.back is not None and p.back[0] > started) for p in dropped)

    await until(back, "the dead process's pages knocked again")
    assert not [p.name for p in school.pupils if p.lost]
    compared = 0
    for pupil in dropped:  # back at its own seat, not the join page, and not behind
        assert pupil.back is not None and pupil.back[1]["state"] in SEAT_STATES, pupil.name
        window = str(pupil.back[1].get("data", {}).get("window", ""))
        if pupil.seen and window:  # (what it saw was stored: the game is never set back)
            assert int(window) >= int(pupil.seen), (pupil.name, pupil.seen, window)
            compared += 1
    for teacher in school.teachers:  # the session works on the process that took over
        for code in teacher.codes:
            async with teacher.session.get(f"/l/{code}/teacher?lang=en") as page:
                assert page.status == 200, code
    survivor = next(p for p in school.processes if p is not victim)
    holders = await asyncio.to_thread(lease_holders, school.url, [survivor.pid])
    assert sorted(holders) == sorted(codes)  # taken over, each on its first request
    await pressed_more(school, PRESSES)

    # -- the end ------------------------------------------------------------------------------
    assert all(p.connected for p in school.pupils) and not [p for p in school.pupils if p.lost]
    school.stop.set()
    await asyncio.gather(*tasks)
    acked = school.acked()
    for pupil in school.pupils:  # the pages closed: ending the lessons brings no knocking
        await pupil.close()
    for teacher in school.teachers:
        for code in teacher.codes:
            assert await control(teacher, code, "end") == 303
    assert survivor.stop() == 0
    for process in school.processes:
        assert "Traceback" not in process.stderr(), process.stderr()

    # -- every acknowledged press stored, once ---------------------------------------------------
    store = await PostgresStorage.open_url(school.url)
    try:
        found: dict[str, LessonInfo] = {}
        for teacher in school.teachers:
            record = await store.school_teacher_named(teacher.name)
            assert record is not None and record.bound, teacher.name
            found |= {info.code: info for info in await store.lessons(record.id)}
        assert sorted(found) == sorted(codes)
        stored_by: Counter[tuple[str, str]] = Counter()
        actions = 0
        for code in codes:
            lesson = await store.load_lesson(found[code].id)
            assert lesson.info.status == "ended"
            names = {s.id: s.name for s in lesson.seats}
            assert sorted(names.values()) == sorted(NAMES)
            for game in lesson.games:  # each game's actions: seq 0, 1, 2 … once each
                seqs = [a.seq for a in lesson.actions_of(game.id)]
                assert seqs == list(range(len(seqs))), game.id
            restore(lesson, cast(LessonStore, None), FakeClock(), key=None, keep_ms=0)
            stored_by.update((code, names[a.seat_id]) for a in lesson.actions if a.seat_id)
            actions += len(lesson.actions)
    finally:
        await store.close()
    for pupil in school.pupils:
        count, stored = acked[(pupil.code, pupil.name)], stored_by[(pupil.code, pupil.name)]
        assert count <= stored <= count + pupil.unknown(), (pupil.name, count, stored)
    # Never a 500: a press refused in words, nginx's 502 for one in flight at the kill, or
    # (503) "try again" while the database or the lesson's process changed.
    for pupil in school.pupils:
        others = [what for what in pupil.refused if not what.startswith(("4", "502 ", "503 "))]
        assert others == [], others
        if pupil.code not in moved:
            assert not [what for what in pupil.refused if what.startswith("502 ")]

    # -- the proxy's log: no token, no provider's code, no device's address ------------------------
    for session in [t.session for t in school.teachers] + [p.session for p in school.pupils]:
        school.secrets.update(c.value for c in session.cookie_jar if len(c.value) >= 16)
    assert len(school.secrets) > len(school.pupils)  # each device's cookies, the sign-ins'
    logged = (school.folder / "school.log").read_text(encoding="utf-8")
    errors = school.folder / "school.error.log"
    for text in (logged, errors.read_text(encoding="utf-8") if errors.exists() else ""):
        assert not [secret for secret in school.secrets if secret in text]
        assert "?" not in text and "127.0.0.1" not in text
    print(
        f"school cluster: {len(codes)} lessons, {len(school.pupils)} pupils, {actions} actions "
        f"stored, {sum(acked.values())} presses acknowledged, {len(moved)} lesson(s) taken over "
        f"after the kill -9 ({compared} pages back at or past the window they showed), "
        f"{handed} live connections dropped before it (each knocked again)"
    )
