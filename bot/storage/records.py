"""The rows storage hands out: frozen dataclasses with JSON already decoded.

Times are integers, milliseconds since the Unix epoch, always supplied by the caller
(storage never reads the clock, so tests are deterministic).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from statistics import median
from typing import Any, Literal, get_args

GameStatus = Literal["live", "over", "abandoned", "stopped"]
FINAL_GAME_STATUSES: tuple[GameStatus, ...] = ("over", "abandoned", "stopped")

InvitationKind = Literal["challenge", "lobby"]
InvitationStatus = Literal["open", "started", "declined", "withdrawn", "cancelled", "expired"]
FINAL_INVITATION_STATUSES: tuple[InvitationStatus, ...] = (
    "started",
    "declined",
    "withdrawn",
    "cancelled",
    "expired",
)
MemberState = Literal["invited", "accepted", "declined", "joined"]


@dataclass(frozen=True, slots=True)
class Player:
    """One seat of a game: a Discord user, or the computer (``user_id`` None, ``computer`` set).

    ``side`` is the engine's side index; teammates share a side. ``seat`` orders the players
    (0 = the one who started the game).
    """

    seat: int
    side: int
    display_name: str
    user_id: int | None = None
    computer: str | None = None

    def __post_init__(self) -> None:
        if (self.user_id is None) == (self.computer is None):
            raise ValueError("a player is either a user (user_id) or the computer (computer)")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game's row and players, without its events (cheap enough to list)."""

    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    message_id: int | None
    game: str
    config: Any
    seed: int
    status: GameStatus
    created_at: int
    updated_at: int
    players: tuple[Player, ...]

    @property
    def home_channel_id(self) -> int:
        """Where the game is played: its thread when it has one, else its channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    def player_for(self, user_id: int) -> Player | None:
        return next((p for p in self.players if p.user_id == user_id), None)


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One accepted action and the engine events it produced."""

    seq: int
    action: Any
    events: list[Any]
    created_at: int
    user_id: int | None = None


@dataclass(frozen=True, slots=True)
class StoredGame(GameRecord):
    """Everything needed to replay a game: its record plus its events in ``seq`` order."""

    events: tuple[StoredEvent, ...] = ()

    @property
    def next_seq(self) -> int:
        """The ``seq`` the next `append_event` must use (events are numbered from 0)."""
        return self.events[-1].seq + 1 if self.events else 0


@dataclass(frozen=True, slots=True)
class Timer:
    """A deadline that must survive a restart (answer time, time limit, idle expiry)."""

    game_id: int
    kind: str
    due_at: int
    payload: Any = None


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game to create: where it is played, what it is, who plays it."""

    guild_id: int | None
    channel_id: int
    game: str
    config: Any
    seed: int
    players: tuple[Player, ...]
    thread_id: int | None = None
    message_id: int | None = None

    @property
    def home_channel_id(self) -> int:
        return self.thread_id if self.thread_id is not None else self.channel_id


@dataclass(frozen=True, slots=True)
class NewEvent:
    """One accepted action to store as ``seq`` with the engine events it produced."""

    seq: int
    action: Any
    events: list[Any]
    user_id: int | None = None


@dataclass(frozen=True, slots=True)
class Deadline:
    """A timer to set: when it falls due and what it carries."""

    due_at: int
    payload: Any = None


@dataclass(slots=True)
class ActionCommit:
    """Everything one accepted press (or deadline) changes, stored in one transaction: its
    actions (the player's and the computer's replies, numbered on from the game's next
    seq), the deadlines it sets (`Deadline`) or clears (None) by kind, and the game's end
    (``status``: its timers go with it). Built up by the service, then committed whole."""

    at: int
    events: list[NewEvent] = field(default_factory=list)
    timers: dict[str, Deadline | None] = field(default_factory=dict)
    status: GameStatus | None = None

    def __bool__(self) -> bool:
        return bool(self.events or self.timers or self.status)


@dataclass(frozen=True, slots=True)
class Member:
    user_id: int
    state: MemberState


@dataclass(frozen=True, slots=True)
class Invitation:
    """A challenge (named players must accept) or a lobby (anyone joins) before its game.

    Both live in one table so their ids never collide; custom_ids still mark which is which.
    """

    id: int
    kind: InvitationKind
    guild_id: int | None
    channel_id: int
    message_id: int | None
    host_id: int
    options: Any
    status: InvitationStatus
    game_id: int | None
    created_at: int
    updated_at: int
    expires_at: int
    members: tuple[Member, ...]

    def user_ids(self, *states: MemberState) -> tuple[int, ...]:
        """Member ids in invitation/join order, optionally only those in ``states``."""
        return tuple(m.user_id for m in self.members if not states or m.state in states)

    @property
    def all_accepted(self) -> bool:
        """A challenge whose every invited player has accepted (never true for an empty one)."""
        return bool(self.members) and all(m.state == "accepted" for m in self.members)

    def involves(self, user_id: int) -> bool:
        return user_id == self.host_id or any(m.user_id == user_id for m in self.members)


# --------------------------------------------------------------------- results and boards

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
        """Share of the rounds asked answered with a best move (issue 11: the honest figure,
        not "legal": a miss counts against it); None before the first round asked."""
        return self.best / self.asked if self.asked else None

    @property
    def mean_ms(self) -> int | None:
        return self.answer_ms // self.answers if self.answers else None


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


ANSWER_FORMS = ("number", "expression")  # RULES §2.2; engine.levels.AnswerForm's values


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """The teacher's settings; a server that never set them gets these defaults."""

    guild_id: int
    board: BoardVisibility = "visible"
    channels: tuple[int, ...] = ()  # channels games may be played in; empty = any
    language: str | None = None  # None: the server's own locale
    threads: bool = True
    pings: bool = True  # mention the player a game waits for (issue 10)
    answer_form: str = "number"  # RULES §2.2: a new game's answer form unless its starter picks
    updated_at: int | None = None
    public_board: BoardSort = "rating"  # the leaderboard members see by default and may share
    pictures: bool = True  # boards show the card table as a picture (issue 12); off: text only


# -- the teacher's class presets and accommodations (bot/storage/teachers_sql.py) --

SERVER_WIDE = 0  # the channel id of a preset that holds for every channel of the server


@dataclass(frozen=True, slots=True)
class ClassPreset:
    """What ``/mattekrig start`` gets when the pupil says nothing (or, locked, whatever they
    say): start options by name, as `settings_from_options` takes them."""

    guild_id: int
    channel_id: int  # SERVER_WIDE: the whole server
    options: Mapping[str, Any] = field(default_factory=dict)
    locked: bool = False
    updated_at: int | None = None
    name: str | None = None  # the named preset it is (a class session's), else None


PRESET_NAME_MAX = 50  # characters of a named preset's name (0010_named_presets.sql)


@dataclass(frozen=True, slots=True)
class NamedPreset:
    """A preset the teacher saved under a name ("brøk uke 12", migration 0010) to pick when a
    class session opens or a channel's preset is set: the options and lock of a
    `ClassPreset`, for no channel in particular."""

    guild_id: int
    name: str
    options: Mapping[str, Any] = field(default_factory=dict)
    locked: bool = False
    updated_at: int | None = None

    @property
    def key(self) -> str:
        """The name as storage finds it: one preset per name, whatever its capitals."""
        return preset_key(self.name)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "options": dict(self.options), "locked": self.locked}

    @classmethod
    def from_json(cls, guild_id: int, data: Mapping[str, Any]) -> NamedPreset:
        return cls(guild_id, str(data["name"]), dict(data["options"]), bool(data["locked"]))


def preset_key(name: str) -> str:
    """A preset's name, case-folded and with its spaces tidied (the lookup key)."""
    return " ".join(name.split()).casefold()


# The options a preset may hold, in the order a screen lists them.
PRESET_KEYS = (
    "game",
    "level",
    "deck",
    "mode",
    "answer_form",
    "answer_seconds",
    "war_size",
    "minutes",
    "computer",
)


@dataclass(frozen=True, slots=True)
class ClassSession:
    """A timed class round: games started in the server between ``started_at`` and
    ``ends_at`` end at ``ends_at`` (time up); the summary goes to ``channel_id`` in ``lang``.
    ``preset``: the named preset it was opened with (a copy), which every game started in
    it gets; None: each channel's preset, else the server's, as outside a session."""

    id: int
    guild_id: int
    channel_id: int
    lang: str
    started_at: int
    ends_at: int
    summarized_at: int | None = None
    preset: NamedPreset | None = None


@dataclass(frozen=True, slots=True)
class Assignment:
    """A teacher's goal: ``rounds`` answers at ``level`` of ``game`` with at least
    ``best_percent`` % best moves, played between ``created_at`` and ``due_at``."""

    id: int
    guild_id: int
    game: str
    level: int
    rounds: int
    best_percent: int
    created_at: int
    due_at: int
