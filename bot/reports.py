"""What the record services report and the screens show: one page of a leaderboard and a
pupil's statistics. Plain frozen values with no behaviour beyond arithmetic, kept out of the
services so that render draws them while importing no service (tests/test_layers.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from bot.storage.records import (
    BOARD_MIN_ANSWERS,
    BOARD_MIN_GAMES,
    BOARD_SORTS,
    BoardRow,
    BoardSort,
    BoardVisibility,
    OperationTally,
    RatingLine,
    Season,
)
from engine.registry import GAMES as REGISTRY

Period = Literal["week", "season", "all"]
PERIODS: tuple[Period, ...] = ("week", "season", "all")
GAMES = tuple(REGISTRY)  # a leaderboard is for one of these, or for every game
SORTS: tuple[BoardSort, ...] = BOARD_SORTS


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """One page of a leaderboard, ready to render. ``rows`` is empty when the server shows members
    only their own rank; ``own`` is the viewer's line (None when not ranked here)."""

    guild_id: int
    game: str | None
    level: int | None
    period: Period
    sort: BoardSort
    page: int  # 0-based
    pages: int
    total: int
    rows: tuple[BoardRow, ...]
    own: BoardRow | None
    visibility: BoardVisibility
    season: Season | None  # the season shown (period "season"), or the running one
    week_start_ms: int | None  # Monday 00:00 of the week shown (period "week")
    min_games: int = BOARD_MIN_GAMES
    min_answers: int = BOARD_MIN_ANSWERS

    @property
    def own_only(self) -> bool:
        return self.visibility == "own_rank" and not self.rows


SuggestionRule = Literal["start", "next", "stay", "previous"]


@dataclass(frozen=True, slots=True)
class LevelSuggestion:
    level: int
    current: int | None
    rule: SuggestionRule


@dataclass(frozen=True, slots=True)
class PlayerStats:
    guild_id: int
    user_id: int
    display_name: str | None
    games: int  # every recorded game, stopped and abandoned included
    finished: int  # ended by the rules
    wins: int
    draws: int
    losses: int
    rated_games: int
    answers: OperationTally  # all answers (op "all")
    missed: int
    exact_hits: int
    rounds_won: int
    wars_won: int
    operations: dict[str, OperationTally] = field(default_factory=dict)
    levels: dict[int, OperationTally] = field(default_factory=dict)  # Regnekrig levels
    ratings: tuple[RatingLine, ...] = ()  # this season's and all-time, per game, with trend
    best_streak: int = 0
    current_streak: int = 0
    suggestion: LevelSuggestion = LevelSuggestion(1, None, "start")

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.finished if self.finished else None


Direction = Literal["down", "stay", "up"]


@dataclass(frozen=True, slots=True)
class PupilSummary:
    """One pupil's end-of-game summary (issue 11 point 3), shown to that pupil only: best
    moves found of the rounds they were asked, exact hits, misses, the mistake kinds that came
    up most, and one suggestion (a level, and the operation to practise)."""

    game_id: int
    game: str
    level: int
    asked: int  # rounds the pupil's side was asked for a value (answers + misses)
    best: int
    exact_hits: int
    missed: int
    mistakes: tuple[tuple[str, int], ...]  # the most frequent first, at most three
    direction: Direction
    suggested_level: int
    practise: str | None  # an operation key (add … root), or None

    @property
    def best_rate(self) -> float:
        return self.best / self.asked if self.asked else 0.0
