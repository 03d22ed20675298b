"""RULES §2.6 "Practice notes": an answer refused as not simplified (`12/8`) is typed again and
is never a mistake, but Discord keeps it for the pupil (the issue: "practice notes (`not_exact`,
`not_simplified`) recorded per pupil, never counted as mistakes"). The refusal is stored
before the pupil is told, the game's move log is untouched (a replay stays the same), and
the teacher's report and the session summary name the note apart from the mistakes."""

from __future__ import annotations

import pytest

from bot.services.games import GameService
from bot.services.report import class_report
from bot.services.results import ResultsService
from bot.services.sessions import session_summary
from classroom.errors import UserFacingError
from engine.game import awaited
from engine.regnekrig import ANSWER, ANSWER_CHOICE, TARGET_CHOICE
from engine.solver import best, number_answer
from storage.records import ClassSession, PracticeNote
from tests.bot.clock import FakeClock
from tests.bot.services.conftest import ALICE, BOB
from tests.bot.services.results_support import (  # noqa: F401 - fixtures
    GUILD,
    people,
    results_fixture,
    start,
)

TIMES = 3


async def test_a_fraction_not_simplified_is_a_note_never_a_mistake(
    games: GameService, clock: FakeClock, results: ResultsService
) -> None:
    game_id = await start(games, people(ALICE, BOB), mode="regn", level=3, answer_seconds=0)
    game = games.live(game_id)
    noted = 0
    while noted < TIMES and not game.is_finished:
        clock.advance(2)
        if game.state.phase is not ANSWER:
            side = awaited(game.state)[0]
            await games.choose(game_id, (ALICE, BOB)[side], game.state.window, TARGET_CHOICE, 5)
            continue
        for side in awaited(game.state):
            a, b = (c.value for c in game.state.up[side])
            value = best(a, b, 3).value
            assert value is not None
            right = number_answer(value)
            user = (ALICE, BOB)[side]
            if side == 0 and value != 0:
                logged = (await games.storage.load_game(game_id)).events
                doubled = f"{2 * value.numerator}/{2 * value.denominator}"
                with pytest.raises(UserFacingError) as refused:
                    window = game.state.window
                    await games.choose(game_id, user, window, ANSWER_CHOICE, text=doubled)
                assert refused.value.key == "answer.rejected.not_simplified"
                noted += 1
                # stored before the pupil is told; no action, so the move log is as it was
                assert await games.storage.practice_notes(GUILD, ALICE) == [
                    PracticeNote(game_id, ALICE, "not_simplified", noted)
                ]
                assert (await games.storage.load_game(game_id)).events == logged
            await games.choose(game_id, user, game.state.window, ANSWER_CHOICE, text=right)
    assert noted == TIMES
    await games.stop(game_id, BOB)
    assert await results.record(game_id) is not None

    played = await results.storage.guild_player_games(GUILD)
    notes = await results.storage.practice_notes(GUILD)
    (line,) = [s for s in class_report(played, notes=notes).lines if s.user_id == ALICE]
    assert line.notes == (("not_simplified", TIMES),)
    assert "not_simplified" not in dict(line.mistakes) and not line.help_with

    session = ClassSession(1, GUILD, 10, "en", 0, clock.now_ms() + 1)
    summary = session_summary(session, played, (), notes)
    alice = next(p for p in summary.pupils if p.user_id == ALICE)
    assert alice.notes == (("not_simplified", TIMES),)
    assert all(code != "not_simplified" for _, code, _ in alice.mistakes)
    assert [(n.code, n.count, n.pupils) for n in summary.notes] == [("not_simplified", TIMES, 1)]
