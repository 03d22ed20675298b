"""A whole class in one lesson, against a real `mattekrig class` (issue "A lesson that holds
a real class of 28", its "Done when"): 28 pupils as HTTP/WebSocket clients and 4 in headless
Chromium join by the code, with a hostile pupil alongside; the teacher pairs them at random
(one against the computer), they play Regnekrig level 5 with a 5 s answer time, the teacher
pauses, gives everybody new partners with Satsing, the server is killed (kill -9) while the
class plays and the same command is run again, and the teacher ends the lesson.

What must hold, read from the server's own stored clock (each action's time) rather than the
test's, and never from how fast anything was:

* no phantom timeouts: every answer that ran out had its whole answer time, counted from
  when its decision was asked and without the pause (RULES §2.2);
* nothing happens in the pause; every device's clocks stand in it;
* after the restart: the same code and teacher's link, every device back at its seat and its
  game as the stored actions replay it, no acknowledged press lost;
* new partners: nobody plays the partner they had;
* after the end no pupil can act, and every page says the lesson ended;
* the summary has a row for every pupil per game and level, with the date;
* the hostile pupil's forged forms, another side's field, flood of joins and look-alike names
  change nothing, and nothing answers with a 500 or writes a traceback.

Real time passes only where the rules need it (the answer time, the pause); every wait on it
is bounded and nothing asserts how long anything took (that is `benchmarks.lesson`'s).
"""

from __future__ import annotations

import asyncio
import csv
import io
import os
import random
import re
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, cast

import aiohttp
import pytest

from classroom.i18n import t
from classroom.settings import GameSettings
from engine.actions import Timeout
from engine.game import apply, new_game
from engine.registry import action_from_json, descriptor
from storage import StoredLesson
from storage.contract import LessonStore
from table.games import COMPUTER_SIDE
from table.keep import restore
from tests.table.browser import launch, need_browser
from tests.table.class_pupils import SEAT_STATES, BrowserPupil, Pupil
from tests.table.process import Server, http_session, stored_lesson
from tests.table.support import FakeClock

pytestmark = pytest.mark.slow

HTTP_NAMES = (
    "Åse", "Ola", "Kari", "Lars", "Ingrid", "Nils", "Sigrid", "Håkon", "Maja", "Jonas",
    "Tuva", "Aksel", "Ella", "Filip", "Live", "Magnus", "Selma", "Oskar", "Frida", "Vetle",
    "Astrid", "Theo", "Linnea", "Elias", "Mathilde", "Sander", "Hedda", "Isak",
)  # fmt: skip
BROWSER_NAMES = ("Nora", "Emil", "Sofie", "Jakob")
HOSTILE = "Robin"
# Names the hostile pupil tries that pose as someone (issue: "Names can pose as someone else").
POSERS = (
    "Åse\u200b",  # a zero-width space beside a real Åse
    "\u041ela",  # "Ola" with a Cyrillic О
    "🤖 Datamaskin (Middels)",  # the computer's label
    "Lærer",
    "A" + "\u0301" * 30,  # stacked accents
    "\ufeffKari",  # a leading byte-order mark
    "Ka\u00adri",  # a soft hyphen
)
ANSWER_SECONDS = 5
PAUSE_SECONDS = ANSWER_SECONDS + 0.5  # longer than an answer time: a running clock would show
PRESSES = 3  # each device's acknowledged presses in each part of the lesson, at the least
BOUND = 120.0  # seconds any one wait may take before the test says what never happened


@dataclass
class Class:
    """The lesson as the test drives it."""

    server: Server
    base: str = ""
    code: str = ""
    link: str = ""
    teacher: aiohttp.ClientSession | None = None
    pupils: list[Pupil] = field(default_factory=list)
    browsers: list[BrowserPupil] = field(default_factory=list)
    go: asyncio.Event = field(default_factory=asyncio.Event)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    pause: tuple[float, float] = (0.0, 0.0)  # wall seconds: the pause acknowledged, resumed
    statuses: Counter[int] = field(default_factory=Counter)  # every answer the hostile got

    async def control(self, what: str, **form: str) -> str:
        assert self.teacher is not None
        async with self.teacher.post(f"/teacher/{what}", data={"lang": "en", **form}) as r:
            assert r.status == 200, (what, r.status)
            return await r.text()

    async def teacher_page(self) -> str:
        assert self.teacher is not None
        async with self.teacher.get("/teacher?lang=en") as response:
            assert response.status == 200
            return await response.text()

    def acked(self) -> dict[str, int]:
        return {p.name: p.acked for p in self.pupils} | {b.name: b.acked for b in self.browsers}


async def until(check: Callable[[], bool], what: str) -> None:
    """Wait (bounded) until `check` holds."""
    deadline = time.monotonic() + BOUND
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        await asyncio.sleep(0.05)


async def pressed_more(lesson: Class, presses: int) -> None:
    """Every device whose game still runs presses `presses` more times (acknowledged)."""
    start = lesson.acked()
    devices: dict[str, Pupil | BrowserPupil] = {p.name: p for p in lesson.pupils}
    devices |= {b.name: b for b in lesson.browsers}

    def running(name: str) -> bool:
        return devices[name].state in ("playing", "war")

    def done() -> bool:
        now = lesson.acked()
        return all(now[n] - start[n] >= presses or not running(n) for n in now)

    await until(done, f"each device pressed {presses} more times")


def standing(page: str) -> bool:
    """Every clock on the page stands still (the script leaves a marked clock alone)."""
    return all(re.findall(r'<time data-seconds="\d+"( data-stopped="true")?>', page))


def side_of(seat: str, seats: tuple[tuple[str, ...], ...]) -> int:
    return next(side for side, held in enumerate(seats) if seat in held)


def ran_out(stored: StoredLesson, pause: tuple[float, float]) -> list[tuple[str, float]]:
    """Each pupil's answer that ran out (RULES §2.2) before the lesson closed its game: the
    game and the answer time it had, in seconds of the server's own stored clock, from when
    its decision was asked (the action that opened its window, or the deal) to the timeout,
    less the pause. The computer's own "late answer" (one of the pupil's mistakes it plays,
    at once) is no answer time running out."""
    out = []
    for kept in stored.games:
        settings = GameSettings.from_json(dict(kept.settings))
        state, _ = new_game(settings.engine, kept.seed)
        opened = int(kept.clocks.get("started") or 0)
        closed_at = kept.clocks.get("closed_at")
        computer = COMPUTER_SIDE if settings.computer is not None else None
        for action in stored.actions_of(kept.id):
            played = action_from_json(action.action)
            at = action.at or 0
            timed_out = isinstance(played, Timeout) and played.side != computer
            if timed_out and (closed_at is None or action.seq < closed_at):
                stood = max(0.0, min(at / 1000, pause[1]) - max(opened / 1000, pause[0]))
                out.append((kept.id, (at - opened) / 1000 - stood))
            window = state.window
            state, _ = apply(state, played)
            if state.window != window:
                opened = at
    return out


def answer_seconds(stored: StoredLesson, game_id: str) -> int:
    kept = next(g for g in stored.games if g.id == game_id)
    return GameSettings.from_json(dict(kept.settings)).answer_seconds


async def hostile_joins(lesson: Class, robin: Pupil) -> None:
    """Names that pose as someone are refused, and Robin gets a seat of its own name."""
    for name in POSERS:
        status = await robin.join(lesson.code, name)
        lesson.statuses[status] += 1
        assert status == 400, name
        async with robin.session.get("/seat") as response:
            assert (await response.json())["seat"] is False, name
    assert await robin.join(lesson.code, HOSTILE) == 200


async def flood(lesson: Class, code: str, tries: int, marked: bool = False) -> Counter[int]:
    """A script's joins, each from a fresh session: without the join page's mark (its tries
    are its address's), or (`marked`) each after opening the join page, as a browser."""
    seen: Counter[int] = Counter()

    async def one(n: int) -> None:
        async with http_session(lesson.base) as session:
            if marked:
                async with session.get("/?lang=en") as response:
                    await response.read()
            form = {"code": code, "name": f"Bot{n}", "lang": "en"}
            async with session.post("/join", data=form) as response:
                seen[response.status] += 1

    await asyncio.gather(*(one(n) for n in range(tries)))
    lesson.statuses.update(seen)
    return seen


async def forged(lesson: Class, robin: Pupil) -> None:
    """Robin's forged presses: each refused in words (or, for another side's field, played
    as Robin's own side: the server takes the side from the device's seat)."""
    window = robin.window or "1"
    forms = [
        {"window": "abc", "choice": "answer", "answer": "1"},
        {"window": window, "choice": "target:99"},
        {"window": window, "choice": "no-such-thing:1"},
        {"window": window, "choice": "answer", "answer": "__import__('os').system('id')"},
        {"window": str(int(window or 1) + 40), "choice": "pass"},
        {"window": window, "choice": "answer", "answer": "1" * 5000},
    ]
    side = re.search(r'name="side" value="(\d)"', robin.html)
    if side is not None:  # the other side's number in the form, with Robin's own choice
        form = robin.decision()
        if form is not None:
            forms.append(form | {"side": str(1 - int(side.group(1)))})
    for form in forms:
        async with robin.session.post("/table/act", data=form | {"lang": "en"}) as response:
            lesson.statuses[response.status] += 1
            if response.status == 200:
                robin.acked += 1
    async with robin.session.post("/teacher/end", data={"lang": "en"}) as response:
        lesson.statuses[response.status] += 1
        assert response.status == 403  # a pupil is not the teacher
    evil = {"Origin": "http://evil.example"}
    async with robin.session.post("/table/act", data=forms[1], headers=evil) as response:
        lesson.statuses[response.status] += 1
        assert response.status == 403  # a cross-site press


@dataclass
class Crash:
    """A kill -9 and the same command again: the lesson as stored when the server died,
    when it was started again and each device's first page after it (wall-clock seconds)."""

    stored: StoredLesson
    started: float
    firsts: dict[str, tuple[float, dict[str, Any]]]

    @property
    def back_in(self) -> float:
        return max(at for at, _ in self.firsts.values()) - self.started


async def kill_and_restart(lesson: Class, data: Path) -> Crash:
    """kill -9 while every device keeps pressing, then `mattekrig class` again: the same
    code and teacher's link, every device back in its seat (the browsers by their own
    script), and no acknowledged press lost. The devices press again once all are back."""
    lesson.server.kill()
    lesson.go.clear()
    stored = await stored_lesson(None, data)
    names = {s.id: s.name for s in stored.seats}
    by_seat = Counter(names[a.seat_id] for a in stored.actions if a.seat_id)
    for name, count in lesson.acked().items():  # each acknowledged press stored, once
        assert count <= by_seat[name] <= count + 1, (name, count, by_seat[name])
    started = time.time()
    knocking = [asyncio.create_task(p.reconnect(started + BOUND)) for p in lesson.pupils]
    again = await asyncio.to_thread(lesson.server.start)  # the devices knock meanwhile
    assert again == (lesson.base, lesson.code, lesson.link)  # the same code and link
    await asyncio.gather(*knocking)
    await until(lambda: all(b.back_after(started) for b in lesson.browsers), "browsers back")
    firsts = {p.name: p.back for p in lesson.pupils if p.back is not None}
    for b in lesson.browsers:
        firsts[b.name] = cast(tuple[float, dict[str, Any]], b.back_after(started))
    assert sorted(firsts) == sorted(names.values())
    lesson.go.set()
    return Crash(stored, started, firsts)


def check_back(crash: Crash, final: StoredLesson) -> None:
    """Each device's first page after the restart was its seat's, at its game as the stored
    actions replay it: the same decision window, unless a press of that game (one a browser
    had queued while the server was down) was taken after the restart before that page."""
    replayed, _ = restore(crash.stored, cast(LessonStore, None), FakeClock(), key=None, keep_ms=0)
    for seat in crash.stored.seats:
        game = replayed.games.get(seat.game_id or "")
        assert game is not None, seat.name
        at, first = crash.firsts[seat.name]
        assert first["state"] in SEAT_STATES, seat.name
        window = int(first["data"].get("window", -1))
        moved = [
            a
            for a in final.actions
            if a.game_id == game.id and crash.started * 1000 <= (a.at or 0) <= at * 1000
        ]
        if moved:
            assert window >= game.state.window, seat.name
        else:
            assert window == game.state.window, seat.name


@pytest.fixture
async def lesson(lesson_data: Path) -> AsyncIterator[Class]:
    need_browser()
    server = Server(dict(os.environ))
    served = Class(server)
    try:
        yield served
    finally:
        served.stop.set()
        served.go.set()
        for pupil in served.pupils:
            await pupil.close()
        if served.teacher is not None:
            await served.teacher.close()
        err = server.stop()
        assert "Traceback" not in err, err


async def test_a_class_of_32_plays_a_whole_lesson_through_a_crash(
    lesson: Class, lesson_data: Path
) -> None:
    """Issue "A lesson that holds a real class of 28", Done when: the class simulation."""
    from playwright.async_api import async_playwright

    rng = random.Random(36)
    lesson.base, lesson.code, lesson.link = lesson.server.start()
    lesson.teacher = http_session(lesson.base)
    async with lesson.teacher.get(lesson.link[len(lesson.base) - 1 :]) as response:
        assert response.status == 200

    # -- joining, by the code ------------------------------------------------------------
    lesson.pupils = [Pupil(n, lesson.base, random.Random(rng.random())) for n in HTTP_NAMES]
    assert await asyncio.gather(*(p.join(lesson.code) for p in lesson.pupils)) == [200] * 28
    robin = Pupil(HOSTILE, lesson.base, random.Random(rng.random()))
    await hostile_joins(lesson, robin)
    lesson.pupils.append(robin)
    wrong = f"{(int(lesson.code) + 1) % 1_000_000:06d}"

    async with async_playwright() as playwright:
        browser = await launch(playwright)
        for name in BROWSER_NAMES:
            context = await browser.new_context(viewport={"width": 1280, "height": 800})
            page = await context.new_page()
            lesson.browsers.append(BrowserPupil(name, context, page, random.Random(rng.random())))
        # The browsers join while a script floods the join with wrong codes.
        flooded, _ = await asyncio.gather(
            flood(lesson, wrong, 40),
            asyncio.gather(*(b.join(lesson.base, lesson.code) for b in lesson.browsers)),
        )
        assert 429 in flooded and 200 not in flooded, flooded  # guessing is limited
        await lesson.control("lock")  # "Steng timen for nye": closed to latecomers
        late = await flood(lesson, lesson.code, 20, marked=True)
        assert late == Counter({403: 20}), late
        teacher_page = await lesson.teacher_page()
        assert teacher_page.count("data-seat=") == 33  # 32 pupils and Robin, no bot

        # -- Regnekrig level 5, a 5 s answer time, paired at random -------------------------
        for pupil in lesson.pupils:
            await pupil.connect()
        await lesson.control("pair", how="random", game="regnekrig", level="5",
                             answer_seconds=str(ANSWER_SECONDS), minutes="0")  # fmt: skip
        await until(lambda: all(p.page.get("state") != "waiting" for p in lesson.pupils),
                    "every pupil at a table")  # fmt: skip
        players: list[Pupil | BrowserPupil] = [*lesson.pupils, *lesson.browsers]
        tasks = [asyncio.create_task(p.play(lesson.go, lesson.stop)) for p in players]
        lesson.go.set()
        await pressed_more(lesson, PRESSES)
        await forged(lesson, robin)

        # -- the pause: every clock stands, nothing runs out -------------------------------
        before = {p.name: p.pages for p in lesson.pupils}
        await lesson.control("pause")
        paused_at = time.time()
        await until(
            lambda: all(p.pages > before[p.name] and standing(p.html) for p in lesson.pupils),
            "every device's clocks standing",
        )  # fmt: skip
        await asyncio.sleep(PAUSE_SECONDS)
        paused = sum(p.refused[f"409 {t('lesson.paused', 'en')}"] for p in lesson.pupils)
        resumed_at = time.time()
        lesson.pause = (paused_at, resumed_at)
        await lesson.control("resume")
        await pressed_more(lesson, PRESSES)

        # -- new partners, Satsing --------------------------------------------------------
        await lesson.control("new-partners", game="satsing", minutes="0")
        await pressed_more(lesson, PRESSES)

        # -- kill -9 while the class plays, and the same command again ----------------------
        crash = await kill_and_restart(lesson, lesson_data)
        lesson.go.set()
        await pressed_more(lesson, 1)

        # -- the end ------------------------------------------------------------------------
        await lesson.control("end")
        lesson.stop.set()
        await asyncio.gather(*tasks)
        ended = t("lesson.ended", "en")
        await until(lambda: all(ended in p.html for p in lesson.pupils), "every page ended")
        for pupil in lesson.pupils:
            form = {"window": pupil.window or "1", "choice": "pass", "lang": "en"}
            assert await pupil.press(form) == 403, pupil.name
        for b in lesson.browsers:
            await b.page.wait_for_function(
                f"() => document.body.textContent.includes({ended!r})", timeout=BOUND * 1000
            )
            assert await b.page.locator('form[action="/table/act"]').count() == 0, b.name
        for b in lesson.browsers:
            await b.context.close()
        await browser.close()

    # -- the summary: every pupil per game and level, with the date ---------------------------
    assert lesson.teacher is not None
    async with lesson.teacher.get("/teacher/summary.csv?lang=en") as response:
        assert response.status == 200
        rows = list(csv.reader(io.StringIO((await response.read()).decode("utf-8-sig"))))
    head = {t(f"lesson.summary.column.{c}", "en"): i for i, c in enumerate(
        ("name", "games", "rounds", "answers", "best", "rate", "exact", "mistakes", "game",
         "level", "missed", "notes", "next", "when"))}  # fmt: skip
    assert list(head) == rows[0]
    parts = {(r[0], r[head[t("lesson.summary.column.game", "en")]],
              r[head[t("lesson.summary.column.level", "en")]]) for r in rows[1:]}  # fmt: skip
    regnekrig = t(descriptor("regnekrig").name_key, "en")
    satsing = t(descriptor("satsing").name_key, "en")
    for name in (*HTTP_NAMES, *BROWSER_NAMES, HOSTILE):
        assert (name, regnekrig, "5") in parts, name
        assert any(n == name and g == satsing for n, g, _ in parts), name
    today = date.today().isoformat()
    assert all(today in r[head[t("lesson.summary.column.when", "en")]] for r in rows[1:])
    async with lesson.teacher.get("/teacher/summary?lang=en") as response:
        assert response.status == 200 and today in await response.text()
    err = lesson.server.stop()
    assert "Traceback" not in err, err

    final = await stored_lesson(None, lesson_data)
    # 0 phantom timeouts: each answer that ran out had its whole answer time.
    short = [(g, s) for g, s in ran_out(final, lesson.pause) if s < answer_seconds(final, g) - 0.3]
    assert short == []
    # Nothing happened in the pause (no press was taken, no answer time ran out).
    stood = (lesson.pause[0] * 1000, lesson.pause[1] * 1000)
    assert [a for a in final.actions if stood[0] < (a.at or 0) < stood[1]] == []
    # Every acknowledged press is stored, once.
    names = {s.id: s.name for s in final.seats}
    by_seat = Counter(names[a.seat_id] for a in final.actions if a.seat_id)
    for name, count in lesson.acked().items():
        assert count <= by_seat[name] <= count + 1, (name, count, by_seat[name])
    # Robin's presses are Robin's own side's, whatever side the form named.
    games = {g.id: g for g in final.games}
    robin_seat = next(s.id for s in final.seats if s.name == HOSTILE)
    for action in final.actions:
        if action.seat_id == robin_seat and "side" in action.action:
            assert action.action["side"] == side_of(robin_seat, games[action.game_id].seats)
    # Paired at random, the odd pupil against the computer, in each pairing.
    played = [GameSettings.from_json(dict(kept.settings)) for kept in final.games]
    for game in ("regnekrig", "satsing"):
        assert [s.computer is not None for s in played if s.engine.game == game].count(True) == 1
    # New partners: nobody plays the partner they had.
    first_game: dict[str, frozenset[str]] = {}
    for kept in sorted(final.games, key=lambda g: g.number):
        everyone = frozenset(s for held in kept.seats for s in held)
        for seat in everyone:
            if seat not in first_game:
                first_game[seat] = everyone
            elif GameSettings.from_json(dict(kept.settings)).engine.game == "satsing":
                assert not (everyone - {seat}) & (first_game[seat] - {seat}), names[seat]
    # The hostile pupil got refusals in words, never a 500.
    assert not [s for s in lesson.statuses if s >= 500], lesson.statuses
    check_back(crash, final)
    timed_out = ran_out(final, lesson.pause)
    print(
        f"class simulation: {len(final.games)} games, {len(final.actions)} actions, "
        f"{sum(lesson.acked().values())} presses acknowledged, {len(timed_out)} answers ran "
        f"out (none short), {paused} presses refused in the pause, every device back "
        f"{crash.back_in:.2f} s after the command was run again"
    )
