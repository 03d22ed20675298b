"""RULES §2.6 "One wrong answer, one mistake. Every count (the summary, statistics, the report,
the CSVs) counts a wrong answer once, under one kind; an area (squares, targets) is a way to
group them, never a second count." A pupil who works 6 squares wrong at level 6 has made 6
slips: the class session lists "arithmetic slip in squares: 6" once (not also "in target: 6"),
and the teacher's report names the pupil once under whom to help."""

from __future__ import annotations

from bot.services.games import GameService
from bot.services.report import class_report, report_rows_csv
from bot.services.results import ResultsService
from bot.services.sessions import session_summary
from engine.game import awaited, choices
from engine.regnekrig import ANSWER, ANSWER_CHOICE, TARGET_CHOICE, Answer
from storage.records import ClassSession
from tests.bot.clock import FakeClock
from tests.bot.services.conftest import ALICE, BOB
from tests.bot.services.results_support import (  # noqa: F401 - fixtures
    GUILD,
    people,
    results_fixture,
    start,
)

SLIPS = 6


async def test_six_slips_in_squares_at_level_6_count_six_times_not_twelve(
    games: GameService, clock: FakeClock, results: ResultsService
) -> None:
    game_id = await start(games, people(ALICE, BOB), mode="regn", level=6, answer_seconds=0)
    game = games.live(game_id)
    slips = 0
    while slips < SLIPS and not game.is_finished:
        clock.advance(2)
        (side,) = awaited(game.state)[:1]
        user = (ALICE, BOB)[side]
        if game.state.phase is not ANSWER:
            await games.choose(game_id, user, game.state.window, TARGET_CHOICE, 5)
            continue
        for side in awaited(game.state):
            if side == 0:  # a square worked one too high: the pupil's own calculation
                a, b = (c.value for c in game.state.up[0])
                text = f"({a})^2+({b})={a * a + b + 1}"
                slips += 1
            else:
                text = next(
                    c.action.text for c in choices(game.state, 1) if isinstance(c.action, Answer)
                )
            await games.choose(
                game_id, (ALICE, BOB)[side], game.state.window, ANSWER_CHOICE, text=text
            )
    await games.stop(game_id, BOB)
    result = await results.record(game_id)
    assert result is not None
    alice = next(p for p in result.players if p.user_id == ALICE)
    ops = {o.op: o for o in alice.operations}
    assert ops["target"].answers == ops["square"].answers == SLIPS  # both group the answers

    played = await results.storage.guild_player_games(GUILD)
    session = ClassSession(1, GUILD, 2, "en", result.started_at, result.ended_at + 1)
    summary = session_summary(session, played, [])
    assert [(m.op, m.code, m.count) for m in summary.mistakes] == [
        ("square", "arithmetic_slip", SLIPS)
    ]
    (line,) = [p for p in summary.pupils if p.user_id == ALICE]
    assert line.mistakes == (("square", "arithmetic_slip", SLIPS),)

    report = class_report(played)
    groups = report.struggling()
    named = [(g.op, g.code) for g in groups for s in g.lines if s.user_id == ALICE]
    assert named == [("square", "arithmetic_slip")]  # once, not under the target too
    mine = [s for s in report.lines if s.user_id == ALICE]
    assert sum(n for s in mine for _, n in s.mistakes) == SLIPS
    rows = report_rows_csv(report, {}, lambda code: code, lang="en").splitlines()[1:]
    assert sum(row.count("arithmetic_slip") for row in rows) == 2  # its count, its help: once
