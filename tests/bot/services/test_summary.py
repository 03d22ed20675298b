"""The end-of-game summary's suggestion: one game's best moves and misses
say whether to go down, stay or go up a level, and which operation to practise."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.services.figures import PupilSummary
from bot.services.summary import summarise
from storage import OperationTally
from tests.bot.storage.results_helpers import duel

A, B = 201, 202


def _summary(
    level: int, answers: int, best: int, missed: int = 0, *ops: OperationTally
) -> PupilSummary:
    result = duel(1, A, B, level=level)
    players = tuple(
        replace(p, answers=answers, best=best, missed=missed, operations=ops, exact_hits=2)
        if p.user_id == A
        else p
        for p in result.players
    )
    summary = summarise(replace(result, players=players), A, (("sign_slip", 4),))
    assert summary is not None
    return summary


@pytest.mark.parametrize(
    ("level", "answers", "best", "missed", "direction", "suggested"),
    [
        (5, 18, 10, 0, "stay", 5),  # 56 %: keep going
        (5, 10, 3, 0, "down", 4),  # struggling: one level down
        (3, 2, 2, 6, "down", 2),  # more misses than answers
        (1, 10, 2, 0, "stay", 1),  # nothing below level 1
        (4, 10, 9, 0, "up", 5),  # 90 % over ten rounds
        (7, 10, 10, 0, "stay", 7),  # the top
        (4, 3, 3, 0, "stay", 4),  # too few rounds to tell
    ],
)
def test_the_suggestion_follows_best_moves_and_misses(
    level: int, answers: int, best: int, missed: int, direction: str, suggested: int
) -> None:
    summary = _summary(level, answers, best, missed)
    assert (summary.direction, summary.suggested_level) == (direction, suggested)
    assert summary.asked == answers + missed and summary.best == best


def test_what_to_practise() -> None:
    """The weakest operation played, going down too: a pupil of subtraction (level 4) who goes
    down to level 3 still practises subtraction, not division (the lower level's own)."""
    down = _summary(4, 10, 3, 0, OperationTally("subtract", 10, 10, 3))
    assert (down.direction, down.suggested_level, down.practise) == ("down", 3, "subtract")
    assert _summary(5, 10, 3).practise is None  # nothing known about its operations
    staying = _summary(
        6, 10, 6, 0, OperationTally("target", 10, 10, 6), OperationTally("square", 4, 4, 1)
    )
    assert staying.practise == "square" and staying.exact_hits == 2
    assert staying.mistakes == (("sign_slip", 4),)
    assert _summary(2, 10, 9).exact_hits == 0  # no targets below level 5


def test_someone_who_did_not_play_has_no_summary() -> None:
    assert summarise(duel(1, A, B), 999) is None
