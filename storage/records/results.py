"""The rows of results, ratings, seasons and boards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from statistics import median
from typing import Literal, get_args

from classroom.tally import best_share

ResultReason = Literal[
    "all_cards",
    "time_up",
    "max_rounds",
    "stalemate",
    "forfeit",
    "stopped",
    "abandoned",
]
RESULT_REASONS: tuple[ResultReason, ...] = get_args(ResultReason)
PlayerKind = Literal["user", "computer", "anonymous"]
PlayerOutcome = Literal["win", "loss", "draw", "none"]
BoardVisibility = Literal["visible", "hidden", "own_rank"]
BOARD_VISIBILITIES: tuple[BoardVisibility, ...] = ("visible", "hidden", "own_rank")
BoardSort = Literal["rating", "wins", "win_rate", "accuracy", "effort", "improved"]
# Gentle leaderboards: "effort" ranks answers given (practice counts, not only winning);
# "improved" the gain in correct answers over the period before (`BoardQuery.previous_scope`).
BOARD_SORTS: tuple[BoardSort, ...] = (
    "rating",
    "wins",
    "win_rate",
    "accuracy",
    "effort",
    "improved",
)
ALL_GAMES = "*"  # board_totals.game for "every game"
ALL_LEVELS = 0  # board_totals.level for "every level"
ALL_TIME = "all"  # the scope that is never reset
BOARD_MIN_GAMES = 5  # win rate is ranked from this many rated games (0004_results.sql)
BOARD_MIN_ANSWERS = 10  # accuracy is ranked from this many answers (0004_results.sql)


def season_scope(season: int) -> str:
    """The scope key of a season's ratings and board totals."""
    return f"s{season}"


def week_scope(week: int) -> str:
    """The scope key of an ISO week (``week`` = ISO year * 100 + week number)."""
    return f"w{week}"


def mistake_counts(kinds: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """Reason codes with their counts, the most frequent first (then by code)."""
    return tuple(sorted(((k, n) for k, n in kinds.items() if n), key=lambda m: (-m[1], m[0])))


@dataclass(frozen=True, slots=True)
class OperationTally:
    """One player's answers for one operation in one game (or summed over many).

    ``op`` is add, multiply, divide, subtract (levels 1–4) or target, square, root (5–7).
    """

    op: str
    answers: int = 0
    correct: int = 0
    best: int = 0
    answer_ms: int = 0
    missed: int = 0  # rounds asked and not answered in time (summed from the players' misses)
    # The kinds of mistake (the engine's reason codes, RULES §2.2) with their counts, the most
    # frequent first, and every answer's time in ms (for the median).
    mistakes: tuple[tuple[str, int], ...] = ()
    times: tuple[int, ...] = ()

    def __add__(self, other: OperationTally) -> OperationTally:
        kinds = Counter(dict(self.mistakes))
        kinds.update(dict(other.mistakes))
        return OperationTally(
            self.op,
            self.answers + other.answers,
            self.correct + other.correct,
            self.best + other.best,
            self.answer_ms + other.answer_ms,
            self.missed + other.missed,
            mistake_counts(kinds),
            self.times + other.times,
        )

    @property
    def median_ms(self) -> int | None:
        """The median time to answer (None before the first timed answer)."""
        return round(median(self.times)) if self.times else None

    @property
    def accuracy(self) -> float | None:
        """Share of answers accepted (legal), 0–1; None before the first answer."""
        return self.correct / self.answers if self.answers else None

    @property
    def asked(self) -> int:
        """Rounds a value was asked for: answers given plus misses."""
        return self.answers + self.missed

    @property
    def best_rate(self) -> float | None:
        """Share of the rounds asked answered with a best move (the honest figure,
        not "legal": a miss counts against it); None before the first round asked."""
        return best_share(self.best, self.asked)


@dataclass(frozen=True, slots=True)
class PlayerResult:
    """One seat's result. Side facts (rounds and wars won, exact hits, cards at the end) are
    shared by a team's members; answers are each member's own."""

    seat: int
    side: int
    kind: PlayerKind
    display_name: str | None
    outcome: PlayerOutcome
    user_id: int | None = None
    computer: str | None = None
    team: int | None = None
    cards_end: int | None = None
    rounds_won: int = 0
    wars_won: int = 0
    exact_hits: int = 0
    answers: int = 0
    correct: int = 0
    best: int = 0
    missed: int = 0
    answer_ms: int = 0
    operations: tuple[OperationTally, ...] = ()

    @property
    def mean_answer_ms(self) -> int | None:
        return self.answer_ms // self.answers if self.answers else None


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game as the results tables keep it.

    ``season``, ``rated`` and ``unrated`` are settled when the result is recorded;
    ``day`` and ``week`` are the local calendar keys of ``ended_at`` (the caller's time zone).
    """

    game_id: int
    guild_id: int
    channel_id: int
    game: str
    level: int
    deck: str
    mode: str
    sides: int
    teams: bool
    computer: bool
    winner: int | None
    reason: ResultReason
    rounds: int
    started_at: int
    ended_at: int
    players: tuple[PlayerResult, ...]
    day: int = 0
    week: int = 0
    season: int = 0
    rated: bool = False
    unrated: str | None = None
    recorded_at: int = 0
    voided_at: int | None = None

    @property
    def duration_ms(self) -> int:
        return max(0, self.ended_at - self.started_at)

    @property
    def finished(self) -> bool:
        """Ended by the rules, a forfeit included (old rows: not stopped or abandoned)."""
        return self.reason not in ("stopped", "abandoned")

    def user_ids(self) -> tuple[int, ...]:
        return tuple(p.user_id for p in self.players if p.user_id is not None)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one rated game did to one player's rating in one scope."""

    user_id: int
    scope: str
    before: int
    delta: int

    @property
    def after(self) -> int:
        return self.before + self.delta


@dataclass(frozen=True, slots=True)
class RatingPlan:
    """The rating decision for a game: rated or why not, and the changes to store."""

    rated: bool
    unrated: str | None = None
    changes: tuple[RatingChange, ...] = ()


@dataclass(frozen=True, slots=True)
class Season:
    guild_id: int
    season: int
    started_at: int
    ended_at: int | None = None

    @property
    def scope(self) -> str:
        return season_scope(self.season)


@dataclass(frozen=True, slots=True)
class BoardQuery:
    """One leaderboard page, in storage terms (the service maps periods to scopes).

    ``scope`` holds the totals (games, wins, accuracy) shown and ranked; ``rating_scope`` the
    ratings. ``active_only`` keeps a rating board to players with rated games in ``scope``
    at ``level`` (a week's board, or one level's).
    """

    guild_id: int
    scope: str
    game: str = ALL_GAMES
    level: int = ALL_LEVELS
    sort: BoardSort = "wins"
    rating_scope: str | None = None
    active_only: bool = False
    limit: int = 10
    offset: int = 0
    previous_scope: str | None = None  # "improved": the period compared with (its totals)


@dataclass(frozen=True, slots=True)
class BoardRow:
    rank: int
    user_id: int
    display_name: str | None
    games: int = 0
    wins: int = 0
    draws: int = 0
    answers: int = 0
    correct: int = 0
    rating: int | None = None
    rated_games: int = 0
    improvement: float | None = None  # "improved": accuracy now minus in the period before

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.answers if self.answers else None


@dataclass(frozen=True, slots=True)
class BoardPage:
    rows: tuple[BoardRow, ...]
    total: int  # players ranked on this board
    own: BoardRow | None  # the viewer's row with their rank, when ranked


@dataclass(frozen=True, slots=True)
class RatingLine:
    """A player's rating in one game and scope, with its most recent changes (oldest first)."""

    game: str
    scope: str
    rating: int
    games: int
    trend: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One game from one player's point of view (stats, the teacher's report)."""

    result: GameResult  # the game's facts; ``players`` holds only this player's seat
    player: PlayerResult


PRACTICE_NOTE_CODES = ("not_exact", "not_simplified")  # RULES §2.6: typed again, no mistake


@dataclass(frozen=True, slots=True)
class PracticeNote:
    """How often a pupil's answer in one game was refused as rounded (``not_exact``) or as a
    fraction not simplified (``not_simplified``): typed again, never counted as a mistake."""

    game_id: int
    user_id: int
    code: str
    n: int
