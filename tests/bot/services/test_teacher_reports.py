"""The teacher's figures from the per-answer records, on hand-built results whose figures
are worked out by hand: the report's lines (the per-answer median, misses and exact hits on
the level's own line, the mistake kinds and "needs help with"), its class overview by mistake
kind, and a class session's most common mistakes (each pupil's own, and the class's)."""

from __future__ import annotations

from dataclasses import replace

from bot.services.figures import HELP_MIN_ANSWERS, HELP_MIN_MISTAKES
from bot.services.report import class_report, report_rows_csv
from bot.services.sessions import session_summary
from storage import OperationTally, PlayerGame
from storage.records import ClassSession
from tests.bot.storage.results_helpers import duel

T0 = 1_767_225_600_000  # 2026-01-01
ALICE, BOB = 11, 12


def _game(
    game_id: int,
    user_id: int,
    level: int,
    ops: tuple[OperationTally, ...],
    *,
    missed: int = 0,
    exact_hits: int = 0,
    at: int = T0,
) -> PlayerGame:
    """One pupil's game against an opponent, as the report reads it."""
    result = duel(game_id, user_id, 999, at=at + 60_000, level=level)
    player = replace(
        result.players[0],
        display_name={ALICE: "Alice", BOB: "Bob"}[user_id],
        exact_hits=exact_hits,
        missed=missed,
        operations=ops,
    )
    return PlayerGame(replace(result, players=(player,)), player)


def _tally(
    op: str, answers: int, correct: int, best: int, times: tuple[int, ...], **kinds: int
) -> OperationTally:
    return OperationTally(
        op,
        answers,
        correct,
        best,
        sum(times),
        mistakes=tuple(sorted(kinds.items(), key=lambda k: (-k[1], k[0]))),
        times=times,
    )


def test_a_line_per_level_and_operation_from_every_answer() -> None:
    """Level 4 (subtraction) over two games: 4 + 3 answers, times 1, 2, 3, 20 and 4, 5, 6 s:
    the median of the seven is 4 s (the games' means, 6.5 and 5 s, would give 5.75); 3 + 1
    misses on the level's line; sign slips 2 + 2 = 4 of 7 + 4 = 11 rounds asked: over a
    quarter, so help with sign slips; the one arithmetic slip is under `HELP_MIN_MISTAKES`.
    Level 6: the square line holds no misses and no exact hits (they sit on ``target``)."""
    games = [
        _game(
            1,
            ALICE,
            4,
            (_tally("subtract", 4, 2, 1, (1_000, 2_000, 3_000, 20_000), sign_slip=2),),
            missed=3,
        ),
        _game(
            2,
            ALICE,
            4,
            (_tally("subtract", 3, 1, 1, (4_000, 5_000, 6_000), sign_slip=2, arithmetic_slip=1),),
            missed=1,
            at=T0 + 86_400_000,
        ),
        _game(
            3,
            ALICE,
            6,
            (
                _tally("target", 5, 5, 4, (3_000,) * 5),
                _tally("square", 2, 2, 2, (8_000, 9_000)),
            ),
            missed=1,
            exact_hits=2,
        ),
    ]
    report = class_report(games)
    lines = {(line.level, line.op): line for line in report.lines}
    subtract = lines[(4, "subtract")]
    assert (subtract.answers, subtract.correct, subtract.best) == (7, 3, 2)
    assert subtract.median_ms == 4_000
    assert (subtract.missed, subtract.asked) == (4, 11)
    assert subtract.mistakes == (("sign_slip", 4), ("arithmetic_slip", 1))
    assert subtract.best_rate == 2 / 11  # best moves of the rounds asked
    assert subtract.help_with == ("sign_slip", "timeout")  # 4 of each, both ≥ 11 / 4
    target, square = lines[(6, "target")], lines[(6, "square")]
    assert (target.missed, target.exact_hits, target.median_ms) == (1, 2, 3_000)
    assert (square.missed, square.exact_hits, square.median_ms) == (0, 0, 8_500)
    assert not target.needs_help and not square.needs_help

    csv = report_rows_csv(report, {"subtract": "Sub"}, lambda code: code.upper(), lang="nb")
    row = next(r for r in csv.splitlines() if ";Sub;" in r).split(";")
    assert row[3:9] == ["7", "42,9", "18,2", "4", "0", "4,0"]  # 3/7, 2/11, median 4 s
    assert row[10:12] == ["SIGN_SLIP (4), ARITHMETIC_SLIP (1)", "SIGN_SLIP, TIMEOUT"]
    assert row[12:] == [""]  # no practice note: the notes column is empty


def test_needs_help_only_with_enough_rounds_and_a_kind_that_comes_back() -> None:
    """From `HELP_MIN_ANSWERS` rounds asked; a kind made `HELP_MIN_MISTAKES` times in a
    quarter of them. Under half correct with no kind that stands out: the commonest kind."""
    few = class_report([_game(1, ALICE, 1, (_tally("add", 4, 2, 2, (1_000,) * 4, sign_slip=2),))])
    assert HELP_MIN_ANSWERS == 5 and not few.lines[0].needs_help
    spread = _tally("add", 12, 5, 5, (1_000,) * 12, sign_slip=2, arithmetic_slip=2, wrong_value=3)
    low = class_report([_game(1, BOB, 1, (spread,))]).lines[0]
    assert HELP_MIN_MISTAKES == 2 and low.help_with == ("wrong_value",)  # 3 ≥ 12 / 4
    even = _tally("add", 14, 5, 5, (1_000,) * 14, a=3, b=3, c=3)  # none ≥ 14 / 4, 5/14 right
    assert class_report([_game(1, BOB, 1, (even,))]).lines[0].help_kinds == ("a",)


def test_the_class_overview_groups_pupils_by_mistake_kind() -> None:
    """The overview: "2 pupils: sign slip in subtraction (level 4)", the largest group first."""
    slips = _tally("subtract", 6, 3, 3, (1_000,) * 6, sign_slip=3)
    games = [
        _game(1, ALICE, 4, (slips,)),
        _game(2, BOB, 4, (slips,)),
        _game(3, BOB, 1, (_tally("add", 5, 3, 3, (1_000,) * 5, arithmetic_slip=2),)),
    ]
    groups = class_report(games).struggling()
    assert [(g.level, g.op, g.code, [line.name for line in g.lines]) for g in groups] == [
        (4, "subtract", "sign_slip", ["Alice", "Bob"]),
        (1, "add", "arithmetic_slip", ["Bob"]),
    ]


def test_a_sessions_mistakes_are_the_classs_and_each_pupils_own() -> None:
    """The class: sign slips in subtraction 3 + 1 = 4 times by 2 pupils, before Alice's 2
    arithmetic slips in addition; each pupil's line has only their own kinds."""
    session = ClassSession(1, 1, 2, "nb", T0, T0 + 3_600_000)
    during = [
        _game(1, ALICE, 4, (_tally("subtract", 5, 2, 2, (1_000,) * 5, sign_slip=3),)),
        _game(2, ALICE, 1, (_tally("add", 4, 2, 2, (1_000,) * 4, arithmetic_slip=2),)),
        _game(3, BOB, 4, (_tally("subtract", 5, 4, 4, (1_000,) * 5, sign_slip=1),)),
    ]
    summary = session_summary(session, during, [])
    assert [(m.op, m.code, m.count, m.pupils) for m in summary.mistakes] == [
        ("subtract", "sign_slip", 4, 2),
        ("add", "arithmetic_slip", 2, 1),
    ]
    mine = {line.name: line.mistakes for line in summary.pupils}
    assert mine == {
        "Alice": (("subtract", "sign_slip", 3), ("add", "arithmetic_slip", 2)),
        "Bob": (("subtract", "sign_slip", 1),),
    }
