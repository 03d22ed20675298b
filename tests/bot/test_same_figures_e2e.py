"""The same games, the same figures, on both screens: "the Discord report and the lesson summary
give the same best-move rate and mistake counts for the same games (a test plays the same
scripted games through both)".

Two pupils play Regnekrig with the same deal through the Discord bot (the fake Discord: slash
commands, buttons and modals) and through the browser lesson (HTTP, as the pupils' devices
post), each typing by one script: the best move, a sign slip, a slip in the sum or product,
a number no card gives, or nothing until the answer time is up. The teacher's report on
Discord (its CSV file) and the lesson's summary (its CSV file) then give each pupil the same
best-move rate (a miss counts against it), the same misses and the same mistakes by kind."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from classroom.i18n import t
from classroom.summary import COLUMNS
from engine.regnekrig import ANSWER, TARGET, part_of
from engine.solver import best
from engine.state import GameState, Phase
from table.lesson import Seat
from tests.bot.e2e import Table, best_answer, cards, seed_deals, speak
from tests.table.lessons import Device, join, side_of, teacher
from tests.table.support import Table as Lesson
from tests.table.support import serve

ANSWERS = 6  # answers each pupil gives
TARGET_VALUE = 5
ANSWER_SECONDS = 60
# What each side types for its n-th answer, in turn ("late": nothing, until the time is up).
SCRIPT = {
    0: ("best", "sign", "best", "sum", "late", "far"),
    1: ("sum", "best", "late", "far", "sign", "sign"),
}


def late(side: int, n: int) -> bool:
    return SCRIPT[side][n % len(SCRIPT[side])] == "late"


PUPILS = ("alice", "bob")


def typed(state: GameState, side: int, n: int) -> str:
    """The side's n-th answer by the script (RULES §2.6 names each slip's kind)."""
    a, b = cards(state, side)
    level = state.config.level
    play = best(a, b, level, part_of(state).target)
    how = SCRIPT[side][n % len(SCRIPT[side])]
    if how == "best" or play.value is None:
        return best_answer(state, side)
    if how == "sign":
        return str(-play.value) if play.value != 0 else str(-(abs(a) + abs(b)) or 1)
    if how == "sum":
        return str(play.value + 1)
    return "97"


def _csv(data: bytes, lang: str) -> list[dict[str, str]]:
    text = data.decode("utf-8").removeprefix("\ufeff")
    header, *rows = list(csv.reader(io.StringIO(text), delimiter="," if lang == "en" else ";"))
    return [dict(zip(header, row, strict=True)) for row in rows]


async def _discord(table: Table, level: int) -> tuple[int, dict[str, Any], list[str]]:
    """Alice challenges Bob and both play the script; the game's seed, its engine settings and
    the names of its sides, as the records keep them."""
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=level)
    assert table.game(gid).settings.answer_seconds == ANSWER_SECONDS
    given = {0: 0, 1: 0}
    while min(given.values()) < ANSWERS:
        state = table.state(gid)
        assert not state.is_over
        if state.phase is Phase.FLIP:
            await table.flip("alice", gid)
            continue
        waiting = False
        for side in table.human_pending(gid):
            who = table.players_of(gid, side)[0]
            if table.state(gid).phase is TARGET:
                await table.target(who, gid, TARGET_VALUE)
            elif table.state(gid).phase is ANSWER and late(side, given[side]):
                waiting = True
            elif table.state(gid).phase is ANSWER:
                _, sent = await table.answer(who, gid, typed(table.state(gid), side, given[side]))
                assert sent is not None and sent.answered
                given[side] += 1
        if waiting:  # RULES §2.2: no answer in time counts as no value
            late_sides = [s for s in table.human_pending(gid) if late(s, given[s])]
            table.clock.advance(ANSWER_SECONDS + 1)
            await table.bot.scheduler.run_due()
            for side in late_sides:
                given[side] += 1
        await table.settle()
    stored = await table.stored(gid)
    await table.bot.games.stop(gid, table.user("alice").id)
    await table.bot.results.drain()
    await table.settle()
    names = [next(p.display_name or "" for p in stored.players if p.side == s) for s in (0, 1)]
    return stored.seed, stored.config["engine"], names


async def _browser(lesson: Lesson, level: int, engine: dict[str, Any]) -> Device:
    """Ada and Bo join the lesson and play the same script with the same deal."""
    boss = await teacher(lesson)
    status, _ = await boss.post("/teacher/settings", game="regnekrig", level=str(level),
                                answer_seconds=str(ANSWER_SECONDS), lang="en")  # fmt: skip
    assert status == 200
    pupils = [await join(lesson, name) for name in ("Ada", "Bo")]
    await boss.post("/teacher/pair", how="random", lang="en")
    (game,) = lesson.lesson.live_games()
    assert game.state.config.to_json() == engine  # the same game, dealt alike
    by_side: dict[int, tuple[Device, Seat]] = {side_of(game, s): (d, s) for d, s in pupils}
    given = {0: 0, 1: 0}
    while min(given.values()) < ANSWERS:
        assert not game.over
        state = game.state
        pending = [s for s in (0, 1) if s in state.pending]
        if not pending or state.phase is TARGET:
            device = by_side[pending[0] if pending else 0][0]
            form = {"choice": f"target:{TARGET_VALUE}" if pending else "flip"}
            status, page = await device.post(
                "/table/act", window=str(state.window), lang="en", **form
            )
            assert status == 200, page
            continue
        for side in pending:
            if not late(side, given[side]):
                answer = typed(game.state, side, given[side])
                status, page = await by_side[side][0].post(
                    "/table/act", window=str(game.state.window), lang="en", choice="answer",
                    answer=answer,
                )  # fmt: skip
                assert status == 200, page
                given[side] += 1
        late_sides = [s for s in pending if s in game.state.pending and late(s, given[s])]
        if late_sides and game.state.window == state.window:
            lesson.clock.now += ANSWER_SECONDS + 1
            lesson.lesson.tick()
            for side in late_sides:
                given[side] += 1
    for device, _ in pupils:
        await device.close()
    return boss


@pytest.mark.parametrize("level", [1, 5])
async def test_the_same_games_give_the_same_figures_on_discord_and_in_the_lesson(
    table: Table, level: int, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_deals(monkeypatch, 11)
    await speak(table, "en")  # the teacher's files in English, as the lesson's below
    seed, engine, names = await _discord(table, level)
    report = await table.driver.slash("teacher", "mattekrig admin report")
    await table.settle()
    assert report.original is not None
    _, detail, _ = report.original.attachments
    lines = _csv(detail.data, "en")
    pupil, column = t("report.csv.pupil", "en"), t("report.csv.skills.mistakes", "en")
    discord: dict[int, tuple[str, str, str]] = {}
    for side, name in enumerate(names):
        (line,) = [row for row in lines if row[pupil] == name]  # one level, one operation
        best_rate = line[t("report.csv.best", "en")]
        discord[side] = (best_rate, line[column], line[t("report.csv.missed", "en")])
    assert all(kinds for _, kinds, _ in discord.values())  # the script's slips are there
    assert not {rate for rate, _, _ in discord.values()} & {"0.0", "100.0", ""}
    assert all(missed == "1" for _, _, missed in discord.values())  # one miss each

    async for lesson in serve(seeds=[seed], kind="class"):
        boss = await _browser(lesson, level, engine)
        async with boss.session.get("/teacher/summary.csv?lang=en") as response:
            rows = _csv(await response.read(), "en")
        await boss.close()
        (game,) = lesson.lesson.live_games()
        named = {c: t(f"lesson.summary.column.{c}", "en") for c in COLUMNS}
        for side in (0, 1):
            (seat,) = game.seats[side]
            (row,) = [r for r in rows if r[named["name"]] == lesson.lesson.seats[seat].name]
            asked = int(row[named["answers"]]) + int(row[named["missed"]])
            rate = f"{int(row[named['best']]) / asked * 100:.1f}"
            assert rate == discord[side][0], (side, row, discord[side])
            assert row[named["mistakes"]] == discord[side][1], (side, row, discord[side])
            assert row[named["missed"]] == discord[side][2]
