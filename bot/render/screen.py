"""What a screen draws of one game: the engine's view of the table, plus what only the bot
knows about the table — who sits on each side, which sides the computer plays, the deadlines,
autoplay, and an ending outside the rules (stopped, abandoned). Renderers take this and nothing
else, so a board, a picture or a browser table all show the same game the same way."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.view import View


@dataclass(frozen=True, slots=True)
class GameScreen:
    game_id: int
    view: View  # the table's view (`engine.view.view(state, None)`)
    names: Mapping[int, str]  # each side's name, already safe to show
    humans: frozenset[int]  # the sides people play (the computer decides on its own)
    autoplay: bool = False
    ended: str | None = None  # "stopped" or "abandoned": ended outside the rules
    answer_due_ms: int | None = None  # when the decision the game waits for times out
    time_limit_due_ms: int | None = None  # when the game's time limit runs out
    preset: bool = False  # started with the teacher's class preset

    @property
    def finished(self) -> bool:
        return self.view.is_over or self.ended is not None
