"""The lesson's clocks through HTTP, with the clock the test moves: the answer time starts
again every round, against the computer and at every table."""

from __future__ import annotations

import pytest

from engine.game import choices
from engine.regnekrig import Answer
from table.games import COMPUTER_SIDE, TableGame
from tests.table.lessons import Device, join, side_of, teacher
from tests.table.support import Table, message_of

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
