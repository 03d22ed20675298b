"""The rows of games, their events and deadlines, and of challenges and lobbies.

Times are integers, milliseconds since the Unix epoch, always supplied by the caller
(storage never reads the clock, so tests are deterministic).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

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
    # The seq of the next action when the board was last written to Discord (None: not
    # known): a live game whose log is ahead of it has a board behind its game.
    shown_seq: int | None = None

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
        """The ``seq`` the next stored action must use (events are numbered from 0)."""
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
