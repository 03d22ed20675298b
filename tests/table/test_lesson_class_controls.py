"""A class of 27 as HTTP and WebSocket clients, each pupil a device of its own, with the
clock the test moves: Regnekrig level 5 with a 5 s answer time (one pupil against the
computer), a pause, new partners into Satsing, more time and the end of the lesson."""

from __future__ import annotations

import re

import pytest

from classroom.i18n import t
from engine.game import choices
from engine.regnekrig import Answer
from table.games import TableGame
from table.lesson import Seat
from tests.table.lessons import Device, join, settle, teacher
from tests.table.support import Table, message_of, text_of

pytestmark = pytest.mark.usefixtures("quiet_log")

PUPILS = 27


def last_page(device: Device) -> str:
    pages = [m for m in device.received if "html" in m]
    assert pages
    return str(pages[-1]["html"])


async def one_step(lesson: Table, pupils: list[tuple[Device, Seat]]) -> int:
    """Every pupil asked for a decision makes it within a second (the best answer, the first
    choice otherwise); returns how many did."""
    lesson.clock.now += 0.9
    lesson.lesson.tick()
    made = 0
    for device, seat in pupils:
        game = lesson.lesson.game_of(seat)
        if game is None or game.over:
            continue
        side = next(i for i, held in enumerate(game.seats) if seat.id in held)
        if side not in game.state.pending:
            continue
        choice = choices(game.state, side)[0]
        form = {"window": str(game.state.window), "lang": "nb", "choice": choice.kind.name}
        if isinstance(choice.action, Answer):
            form["answer"] = choice.action.text
        elif choice.value is not None:
            form["choice"] += f":{choice.value}"
        status, page = await device.post("/table/act", **form)
        assert status == 200, message_of(page)
        made += 1
    return made


def running(lesson: Table) -> list[TableGame]:
    return [g for g in lesson.lesson.live_games() if not g.over]


async def test_a_class_of_27_plays_a_lesson_with_every_control(lesson: Table) -> None:
    """Issue: "A fresh answer time every round, against the computer and in every pairing";
    "Pause stops every clock … on every device and resumes where it stopped"; "New partners
    gives everybody someone new"; "More time adds to every game"; "End stops play at once
    on every device … and each pupil's page says the lesson ended"; "after 'end' no pupil
    can act". Nobody who answers within a second is ever counted out of time."""
    boss = await teacher(lesson)
    status, _ = await boss.post("/teacher/settings", lang="en", game="regnekrig", level="5",
                                answer_seconds="5", minutes="30")  # fmt: skip
    assert status == 200
    pupils = [await join(lesson, f"Elev {n}") for n in range(1, PUPILS + 1)]
    for device, _ in pupils:
        await device.listen(lang="nb")
    await boss.post("/teacher/pair", how="random", lang="en")
    games = running(lesson)
    assert len(games) == 14 and sum(g.computer is not None for g in games) == 1
    for _ in range(12):
        assert await one_step(lesson, pupils) > 0
    # A pause: no clock runs, however long it lasts; every device's clocks stand.
    await boss.post("/teacher/pause", lang="en")
    await settle([d for d, _ in pupils])
    stood = {seat.id: re.findall(r'data-seconds="(\d+)"', last_page(d)) for d, seat in pupils}
    lesson.clock.now += 300
    assert lesson.lesson.tick() == []
    await boss.post("/teacher/more-time", lang="en")
    await settle([d for d, _ in pupils])
    for device, seat in pupils:
        page = last_page(device)
        assert 'data-stopped="true"' in page
        game_time = re.findall(r'data-seconds="(\d+)"', page)[0]
        assert int(game_time) == int(stood[seat.id][0]) + 300  # five more minutes, standing
    await boss.post("/teacher/resume", lang="en")
    for _ in range(6):
        await one_step(lesson, pupils)
    # New partners, into Satsing: every game stops at once; nobody meets an old partner.
    met = {seat.id: set(seat.met) for _, seat in pupils}
    await boss.post("/teacher/settings", lang="en", game="satsing", answer_seconds="5")
    status, _ = await boss.post("/teacher/new-partners", lang="en")
    assert status == 200 and all(g.over for g in games)
    fresh = running(lesson)
    assert len(fresh) == 14
    for game in fresh:
        assert game.state.config.game == "satsing"
        people = game.all_seats
        assert not any(b in met[a] for a in people for b in people if a != b)
    for _ in range(12):
        await one_step(lesson, pupils)
    # The end: every game stops at once, every device says so, nobody can act any more.
    await boss.post("/teacher/end", lang="en")
    assert running(lesson) == []
    await settle([d for d, _ in pupils])
    for device, _ in pupils:
        assert t("lesson.ended", "nb") in text_of(last_page(device))
    device, seat = pupils[0]
    last = lesson.lesson.game_of(seat)
    assert last is not None
    status, page = await device.post("/table/act", window=str(last.state.window),
                                     choice="pass", lang="nb")  # fmt: skip
    assert status == 403 and message_of(page) == t("lesson.error.over", "nb")
    assert [r for r in lesson.lesson.records() if r.mistake == "timeout"] == []
    for device, _ in pupils:
        await device.close()
    await boss.close()
