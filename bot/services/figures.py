"""The figures the record services compute and the screens show: a page of a leaderboard, a
pupil's statistics, a class session's summary, an assignment's progress, the teacher's class
report. Plain frozen values with no behaviour beyond arithmetic, in a module of their own so
that render draws them while importing no service (tests/test_layers.py)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from classroom.advice import HELP_BELOW, HELP_SHARE
from classroom.advice import HELP_MIN_ANSWERS as HELP_MIN_ANSWERS
from classroom.advice import HELP_MIN_MISTAKES as HELP_MIN_MISTAKES
from classroom.advice import Practice as Practice
from classroom.operations import main_operation
from classroom.tally import BestMove as BestMove
from classroom.tally import best_share, ranked
from engine.registry import GAMES as REGISTRY
from storage.records import (
    BOARD_MIN_ANSWERS,
    BOARD_MIN_GAMES,
    BOARD_SORTS,
    Assignment,
    BoardRow,
    BoardSort,
    BoardVisibility,
    ClassSession,
    OperationTally,
    RatingLine,
    Season,
)

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


SuggestionRule = Literal["start", "next", "stay", "previous", "practise"]


@dataclass(frozen=True, slots=True)
class LevelSuggestion:
    """The level to play next; with `practice` (rule "practise") the mistake it trains."""

    level: int
    current: int | None
    rule: SuggestionRule
    practice: Practice | None = None


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
    # practice notes (RULES §2.6: not_exact, not_simplified) with counts: never mistakes
    notes: tuple[tuple[str, int], ...] = ()

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.finished if self.finished else None


# -- a class session's summary (bot/services/sessions.py) --


@dataclass(frozen=True, slots=True)
class SessionLine:
    """One pupil's part of a Discord class session, shown to that pupil only (the lesson's
    rows are `classroom.summary.PupilLine`). Its answers are counted by the answer tally, as
    the lesson's are (`bot.services.results`)."""

    user_id: int
    name: str
    games: int
    wins: int
    answers: int
    correct: int
    best: int
    missed: int
    exact_hits: int
    gain: float | None  # session accuracy minus the pupil's accuracy before it
    # the pupil's most common mistakes: (operation, the engine's reason code, count)
    mistakes: tuple[tuple[str, str, int], ...] = ()
    # practice notes (RULES §2.6: not_exact, not_simplified) with counts: never mistakes
    notes: tuple[tuple[str, int], ...] = ()

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.answers if self.answers else None


@dataclass(frozen=True, slots=True)
class ClassNote:
    """One practice note (RULES §2.6: rounded, not simplified) over a class: how often it
    came and to how many pupils. Typed again, never a mistake."""

    code: str
    count: int
    pupils: int


@dataclass(frozen=True, slots=True)
class ClassMistake:
    """One kind of mistake (the engine's reason code, RULES §2.2) in one operation, over a
    class: how often it was made and by how many pupils."""

    op: str
    code: str
    count: int
    pupils: int


@dataclass(frozen=True, slots=True)
class SessionSummary:
    session: ClassSession
    games: int
    operations: tuple[OperationTally, ...]  # the class's answers per operation
    pupils: tuple[SessionLine, ...]  # by name: each shown only to its pupil
    most_improved: SessionLine | None
    mistakes: tuple[ClassMistake, ...] = ()  # the class's most common, most first
    notes: tuple[ClassNote, ...] = ()  # the class's practice notes, most first


# -- an assignment's progress (bot/services/assignments.py) --


@dataclass(frozen=True, slots=True)
class AssignmentProgress:
    """One pupil's way to one assignment: the rounds answered at its game and level in its
    time, and how many were the best move."""

    assignment: Assignment
    user_id: int
    name: str
    rounds: int
    best: int

    @property
    def best_rate(self) -> float | None:
        return best_share(self.best, self.rounds)

    @property
    def met(self) -> bool:
        goal = self.assignment
        return self.rounds >= goal.rounds and self.best * 100 >= goal.best_percent * self.rounds


# -- the teacher's detailed report (bot/services/report.py) --


@dataclass(frozen=True, slots=True)
class SkillLine:
    """One pupil at one level and operation, over the report's dates, from the
    per-answer records: answers, the mistake kinds of the wrong ones, every answer's time.
    Misses and exact hits are recorded per game (a miss has no operation: nothing was typed),
    so they sit on the level's own line: its operation at levels 1–4, ``target`` at 5–7."""

    user_id: int
    name: str
    level: int
    op: str
    answers: int
    correct: int
    best: int
    missed: int  # rounds left unanswered at this level (timeouts), on the level's own line
    exact_hits: int  # at this level, on the level's own line
    median_ms: int | None  # the median of every answer's time
    weeks: tuple[tuple[int, int, int], ...]  # (ISO week, answers, best), oldest first
    mistakes: tuple[tuple[str, int], ...] = ()  # reason codes with counts, most first
    # practice notes (RULES §2.6), never mistakes: per game, so on the level's own line
    notes: tuple[tuple[str, int], ...] = ()

    @property
    def asked(self) -> int:
        return self.answers + self.missed

    @property
    def best_rate(self) -> float | None:
        """Best moves of the rounds asked (the honest figure: a miss counts against it,
        as in `/mattekrig stats`)."""
        return best_share(self.best, self.asked)

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.answers if self.answers else None

    @property
    def help_with(self) -> tuple[str, ...]:
        """The mistake kinds to help with (reason codes; ``timeout`` for misses), most
        first: from `HELP_MIN_ANSWERS` rounds asked, a kind made at least
        `HELP_MIN_MISTAKES` times and in at least `HELP_SHARE` of the rounds asked."""
        if self.asked < HELP_MIN_ANSWERS:
            return ()
        kinds = [*self.mistakes, *((("timeout", self.missed),) if self.missed else ())]
        ranked = sorted(kinds, key=lambda k: (-k[1], k[0]))
        return tuple(
            code
            for code, count in ranked
            if count >= HELP_MIN_MISTAKES and count >= HELP_SHARE * self.asked
        )

    @property
    def needs_help(self) -> bool:
        """A mistake kind that keeps coming back (`help_with`), or, with enough answers,
        under half of them correct."""
        rate = self.accuracy
        low = self.answers >= HELP_MIN_ANSWERS and rate is not None and rate < HELP_BELOW
        return bool(self.help_with) or low

    @property
    def help_kinds(self) -> tuple[str, ...]:
        """The "needs help with" column: `help_with`, or for a pupil under half correct
        with no kind that stands out, their most frequent kind."""
        if not self.needs_help:
            return ()
        return self.help_with or tuple(code for code, _ in self.mistakes[:1]) or ("wrong_value",)


@dataclass(frozen=True, slots=True)
class HelpGroup:
    """The class overview's line: the pupils who need help with one mistake kind at one
    level and operation ("5 pupils: sign slips in subtraction")."""

    level: int
    op: str
    code: str
    lines: tuple[SkillLine, ...]  # by name


@dataclass(frozen=True, slots=True)
class ClassReport:
    lines: tuple[SkillLine, ...]  # by pupil name, then level, then operation
    start_ms: int | None
    end_ms: int | None
    # The class's kinds × weeks: each kind (the most frequent first) with, per week (ISO year
    # * 100 + week), its count and the answers given that week (`report.kinds_by_week`).
    trend: tuple[tuple[str, tuple[tuple[int, int, int], ...]], ...] = ()

    def help_of(self) -> dict[tuple[int, int, str], tuple[str, ...]]:
        """Each line's "needs help with", by (pupil, level, operation): RULES §2.6, areas
        group and never count twice, so a kind is named once per pupil and level, on the most
        particular line that shows it (a square before the target), and a pupil under half
        right with no kind that stands out gets their commonest kind once per level."""
        out: dict[tuple[int, int, str], tuple[str, ...]] = {}
        levels: dict[tuple[int, int], list[SkillLine]] = {}
        for line in self.lines:
            levels.setdefault((line.user_id, line.level), []).append(line)
        for (user_id, level), lines in levels.items():
            lines.sort(key=lambda line: (line.op == main_operation(level), line.op))
            seen: set[str] = set()
            for line in lines:
                kinds = tuple(code for code in line.help_with if code not in seen)
                seen.update(kinds)
                out[(user_id, level, line.op)] = kinds
            low = next((line for line in lines if line.needs_help), None)
            if not seen and low is not None:
                counts: Counter[str] = Counter()
                for line in lines:
                    counts.update(dict(line.mistakes))
                common = ranked(counts)[:1] or (("wrong_value", 0),)
                out[(user_id, level, low.op)] = (common[0][0],)
        return out

    def struggling(self) -> tuple[HelpGroup, ...]:
        """The class overview: for each (level, operation, mistake kind) the pupils who need
        help with it (`help_of`: each pupil once per kind and level), the largest group
        first."""
        groups: dict[tuple[int, str, str], list[SkillLine]] = {}
        helped = self.help_of()
        for line in self.lines:
            for code in helped.get((line.user_id, line.level, line.op), ()):
                groups.setdefault((line.level, line.op, code), []).append(line)
        return tuple(
            HelpGroup(level, op, code, tuple(found))
            for (level, op, code), found in sorted(
                groups.items(), key=lambda kv: (-len(kv[1]), kv[0])
            )
        )


Direction = Literal["down", "stay", "up", "practise"]


@dataclass(frozen=True, slots=True)
class PupilSummary:
    """One pupil's end-of-game summary, shown to that pupil only: best
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
    practice: Practice | None = None  # a mistake that kept coming back, and how to train it
    missed_best: tuple[BestMove, ...] = ()  # the best moves of the pupil's last rounds missed

    @property
    def best_rate(self) -> float:
        return best_share(self.best, self.asked) or 0.0
