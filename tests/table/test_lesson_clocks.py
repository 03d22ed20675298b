"""The lesson's clocks through HTTP, with the clock the test moves: the answer time starts
again every round, against the computer and at every table."""

from __future__ import annotations

import re

import pytest

from classroom.i18n import t
from engine.game import choices
from engine.regnekrig import Answer
from table.games import CAP, COMPUTER_SIDE, TableGame
from tests.table.lessons import Device, join, settle, side_of, teacher
from tests.table.support import Table, message_of, text_of

pytestmark = pytest.mark.usefixtures("quiet_log")


async def settings(boss: Device, **form: str) -> None:
    status, page = await boss.post("/teacher/settings", lang="en", **form)
    assert status == 200, message_of(page)


def first_choice(game: TableGame, side: int) -> dict[str, str]:
    """The form of the side's first choice now (the best answer where one is typed)."""
    choice = choices(game.state, side)[0]
    form = {"window": str(game.state.window), "lang": "en"}
    if isinstance(choice.action, Answer):
        return form | {"choice": choice.kind.name, "answer": choice.action.text}
    value = f":{choice.value}" if choice.value is not None else ""
    return form | {"choice": choice.kind.name + value}


async def test_a_pupil_who_answers_in_time_against_the_computer_never_times_out(
    lesson: Table,
) -> None:
    """Issue: "A fresh answer time every round, against the computer": 30 rounds with a 5 s
    answer time, every decision made within a second, and not one counted as run out of time
    (RULES §2.2: only an answer that does not come in time counts as none)."""
    boss = await teacher(lesson)
    await settings(boss, game="regnekrig", level="5", answer_seconds="5")
    ada, seat = await join(lesson, "Ada")
    status, _ = await boss.post("/teacher/pair", how="random", lang="en")
    assert status == 200
    rounds = 0
    while rounds < 30:
        game = lesson.lesson.game_of(seat)
        assert game is not None and game.computer is not None
        side = side_of(game, seat)
        assert side != COMPUTER_SIDE
        if game.over:
            rounds += game.state.round
            await boss.post("/teacher/pair", how="random", lang="en")
            continue
        lesson.clock.now += 0.9  # the pupil thinks for most of a second
        lesson.lesson.tick()
        status, page = await ada.post("/table/act", **first_choice(game, side))
        assert status == 200, message_of(page)
        rounds = max(rounds, game.state.round - 1)
    timeouts = [r for r in lesson.lesson.records() if r.mistake == "timeout"]
    assert timeouts == []
    for device in (ada, boss):
        await device.close()


def clocks(page: str) -> list[tuple[int, bool]]:
    """The page's clocks: the seconds each shows, and whether it stands still."""
    found = re.findall(r'<time data-seconds="(\d+)"( data-stopped="true")?>', page)
    return [(int(seconds), bool(stopped)) for seconds, stopped in found]


def last_page(device: Device) -> str:
    pages = [m for m in device.received if "html" in m]
    assert pages
    return str(pages[-1]["html"])


async def test_a_pause_stops_every_clock_on_every_device_and_they_go_on_from_there(
    lesson: Table,
) -> None:
    """Issue: "Pause stops every clock (the game time and the answer time) on every device
    and resumes where it stopped" (the pupils' clocks ran on, 12:44 → 12:37, then jumped
    back). While paused no answer time runs out, each device's clocks stand (the script
    leaves a marked clock alone) at what they showed, a game paired in the pause stands
    too, and the teacher's more time is added to every game; after it each goes on from
    there."""
    boss = await teacher(lesson)
    await settings(boss, game="regnekrig", level="1", answer_seconds="20", minutes="10")
    pupils = [await join(lesson, name) for name in ("Ada", "Bo", "Cy", "Di")]
    await boss.post("/teacher/pair", how="random", lang="en")
    for device, _ in pupils:
        await device.listen()
    lesson.clock.now += 3
    assert lesson.lesson.tick() == []
    status, _ = await boss.post("/teacher/pause", lang="en")
    assert status == 200
    await settle([d for d, _ in pupils])
    for device, _ in pupils:
        assert clocks(last_page(device)) == [(597, True), (17, True)]
    lesson.clock.now += 120
    assert lesson.lesson.tick() == []
    late, late_seat = await join(lesson, "Ed")
    other, _ = await join(lesson, "Flo")
    await boss.post("/teacher/pair", how="random", lang="en")
    await boss.post("/teacher/more-time", lang="en")
    lesson.clock.now += 60
    for device, _ in [*pupils, (late, late_seat)]:
        status, page = await device.get("/table?lang=en")
        assert status == 200
        assert [c for c in clocks(page) if c[0] > 20] in ([(897, True)], [(900, True)])
    assert not [r for r in lesson.lesson.records() if r.mistake == "timeout"]
    await boss.post("/teacher/resume", lang="en")
    await settle([d for d, _ in pupils])
    for device, _ in pupils:
        assert clocks(last_page(device)) == [(897, False), (17, False)]
    status, page = await late.get("/table?lang=en")
    assert clocks(page) == [(900, False), (20, False)]
    lesson.clock.now += 1
    status, page = await pupils[0][0].get("/table?lang=en")
    assert clocks(page) == [(896, False), (16, False)]
    for device in (*[d for d, _ in pupils], late, other, boss):
        await device.close()


async def test_the_end_stops_play_at_once_on_every_device(lesson: Table) -> None:
    """Issue: "End stops play at once on every device (games end as when time runs out,
    §1.5), and each pupil's page says the lesson ended and shows their own result" (pupils
    played on, into a war). RULES §1.5: the round in play is finished (an answer not given
    counts as none, RULES §2.2, and is nobody's mistake), then the most cards win; after it
    nobody can act."""
    boss = await teacher(lesson)
    await settings(boss, game="regnekrig", level="1", answer_seconds="0")
    ada, ada_seat = await join(lesson, "Ada")
    bo, _ = await join(lesson, "Bo")
    await boss.post("/teacher/pair", how="random", lang="en")
    (game,) = lesson.lesson.live_games()
    for device in (ada, bo):
        await device.listen()
    window = str(game.state.window)
    status, _ = await ada.post("/table/act", **first_choice(game, side_of(game, ada_seat)))
    assert status == 200
    status, _ = await boss.post("/teacher/end", lang="en")
    assert status == 200
    assert game.over and game.state.outcome is not None
    assert game.state.outcome.reason.value == "time_up"
    await settle([ada, bo])
    for device in (ada, bo):
        page = last_page(device)
        assert t("lesson.ended", "en") in text_of(page)
        assert t("lesson.after_game", "en") not in text_of(page)
        assert t("table.summary.heading", "en") in text_of(page)  # their own game's result
    assert not [r for r in game.records if r.mistake == "timeout"]
    actions = len(game.actions)
    for device in (ada, bo):
        status, page = await device.post("/table/act", window=window, choice="answer",
                                         answer="1", lang="sv")  # fmt: skip
        assert status == 403 and message_of(page) == t("lesson.error.over", "sv")
    for control in ("pair", "new-partners"):
        status, page = await boss.post(f"/teacher/{control}", how="random", lang="en")
        assert status == 403
    assert len(game.actions) == actions and len(lesson.lesson.live_games()) == 1
    for device in (ada, bo, boss):
        await device.close()


async def test_new_partners_give_everybody_someone_new(lesson: Table) -> None:
    """Issue: "New partners gives everybody someone new whenever anyone new is free" (Kari
    and Lars were paired again with 26 others waiting). A class of 28 gets new partners
    three times in the middle of its games: every game stops at once and nobody meets a
    partner met before."""
    boss = await teacher(lesson)
    await settings(boss, game="regnekrig", level="1", answer_seconds="0")
    devices = [(await join(lesson, f"P{i}"))[0] for i in range(28)]
    await boss.post("/teacher/pair", how="random", lang="en")
    seen: set[frozenset[str]] = set()
    for _ in range(4):
        games = [g for g in lesson.lesson.live_games() if not g.over]
        assert len(games) == 14
        for game in games:
            pair = frozenset(game.all_seats)
            assert pair not in seen
            seen.add(pair)
        status, _ = await boss.post("/teacher/new-partners", lang="en")
        assert status == 200
        assert all(g.over for g in games)
    for device in (*devices, boss):
        await device.close()


async def test_new_partners_again_and_again_keep_every_game_for_the_summary(
    lesson: Table,
) -> None:
    """A class of 28 that gets new partners five times plays 84 games, more than the games
    running at once are limited to: every finished game stays in the lesson (its summary and
    its class goal count them all), and new partners are never refused as "full"."""
    boss = await teacher(lesson)
    await settings(boss, game="regnekrig", level="1", answer_seconds="0")
    devices = [(await join(lesson, f"P{i}"))[0] for i in range(28)]
    await boss.post("/teacher/pair", how="random", lang="en")
    first = {g.id for g in lesson.lesson.live_games()}
    for _ in range(5):
        status, _ = await boss.post("/teacher/new-partners", lang="en")
        assert status == 200
    games = lesson.lesson.live_games()
    assert len(games) == 14 * 6 > CAP
    assert first <= {g.id for g in games}
    for device in (*devices, boss):
        await device.close()
