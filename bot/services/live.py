"""A game in play as the services hold it: the stored record, the engine state and what the
last change did. The board is rendered from this and nothing else."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Literal

from classroom.settings import GameSettings
from engine.events import Event
from engine.judge import Verdict
from engine.state import GameState
from storage.records import GameRecord, Player

# Endings outside the rules, none of them a result (RULES §1.5): "stopped" a stop before the
# first round was finished (a cancel), "ended" by a server manager, "abandoned" left idle.
Ending = Literal["stopped", "ended", "abandoned"]
UpdateCause = Literal["start", "action", "timer", "stop", "abandon", "restore"]


@dataclass(eq=False)
class LiveGame:
    record: GameRecord
    settings: GameSettings
    state: GameState
    next_seq: int  # the storage seq of the next accepted action
    recent: list[Event] = field(default_factory=list)  # the events of the last change
    autoplay: bool = False
    ended: Ending | None = None  # ended outside the rules (stop command, idle)
    answer_due_ms: int | None = None  # when the current decision window times out
    answer_window: int | None = None  # the window that deadline belongs to
    answer_opened_ms: int | None = None  # when that window opened (each side's time runs from it)
    time_limit_due_ms: int | None = None  # when the game's time limit runs out
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def players(self) -> tuple[Player, ...]:
        return self.record.players

    @property
    def channel_id(self) -> int:
        """Where the board lives: the game's thread when it has one."""
        return self.record.home_channel_id

    @property
    def board_due_ms(self) -> int | None:
        """The deadline the board shows: the game's own answer time from the window's
        opening. A pupil's accommodation (a longer time, or none) is never shown."""
        seconds = self.settings.answer_seconds
        if self.answer_due_ms is None and self.answer_window is None:
            return None
        if self.answer_opened_ms is None or seconds <= 0:
            return self.answer_due_ms
        return self.answer_opened_ms + seconds * 1000

    @property
    def is_finished(self) -> bool:
        return self.state.is_over or self.ended is not None

    def side_of(self, user_id: int) -> int | None:
        player = self.record.player_for(user_id)
        return None if player is None else player.side

    def players_of(self, side: int) -> list[Player]:
        return [p for p in self.players if p.side == side]

    def computer_sides(self) -> set[int]:
        return {p.side for p in self.players if p.computer is not None}


@dataclass(frozen=True, slots=True)
class GameUpdate:
    """What one change did to a game, for the Discord layer to show."""

    game: LiveGame
    events: tuple[Event, ...]
    cause: UpdateCause
    verdict: Verdict | None = None  # an accepted answer: how the engine judged it
