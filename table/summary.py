"""The lesson's summary: the class summary (`classroom.summary`, counted by the answer tally
the Discord results count with) of the lesson's games, for every seat that joined, the removed
ones marked as such."""

from __future__ import annotations

from classroom.summary import ClassSummary, Played, Pupil
from classroom.summary import summarise as summarise_class
from table.lesson import Lesson


def summarise(lesson: Lesson) -> ClassSummary:
    everyone = [*lesson.seats.values(), *lesson.removed.values()]
    pupils = [
        Pupil(seat.id, seat.name, seat.id in lesson.removed)
        for seat in sorted(everyone, key=lambda s: s.joined)
    ]
    games = [
        Played(g.state.config.game, g.state.config.level, g.seats, g.tally)
        for g in lesson.live_games()
    ]
    return summarise_class(games, pupils)
