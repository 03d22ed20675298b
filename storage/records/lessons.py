"""The rows of a class lesson in the browser: the lesson, its seats, its games and each
game's actions (a game is its settings, its seed and its actions, as a bot's game is).

Times are integers, milliseconds since the Unix epoch, always supplied by the caller. Ids of
seats and games are the lesson's own tokens (text): they are what its pages carry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

LessonStatus = Literal["open", "ended"]


@dataclass(frozen=True, slots=True)
class NewLesson:
    """A lesson to create: its join code, the digest of the teacher's secret and what the
    secret is derived from on the teacher's own machine (`key_nonce`), the class's game
    (`setup`) and its state (goal, challenges …: JSON the lesson reads back).
    `owner` is the teacher on a school server (None: the one teacher of a laptop)."""

    code: str
    teacher_key: str
    key_nonce: str
    setup: Mapping[str, Any]
    state: Mapping[str, Any]
    owner: str | None = None


@dataclass(frozen=True, slots=True)
class LeaseFence:
    """Proof that a write of a lesson comes from the process that holds its lease now: the
    lesson's advisory lock (the lease's `namespace`, the lesson's id) granted to this session
    of the database server (`backend_pid`, started at `backend_start`, microseconds since the
    epoch: a process id alone could be a later session's). PostgreSQL's leases give one;
    SQLite's need none (one process on one file)."""

    namespace: int
    backend_pid: int
    backend_start: int


@dataclass(frozen=True, slots=True)
class LessonSeat:
    """A pupil's place: the nickname typed, the digest of the device cookie that holds it,
    its place in the order of joining, the game it plays (or last played), the seats it has
    met, and whether the teacher removed it (its work stays in the summary)."""

    id: str
    name: str
    device: str
    joined: int
    game_id: str | None = None
    met: tuple[str, ...] = ()
    removed: bool = False


@dataclass(frozen=True, slots=True)
class LessonGame:
    """One game of the lesson, without its actions: its settings (the engine's configuration
    inside), seed, the sides' names and seats, and its clocks (deadlines as wall-clock
    milliseconds, so they mean the same after a restart)."""

    id: str
    number: int  # the order games were started in
    settings: Mapping[str, Any]
    seed: int
    names: tuple[str, ...]
    seats: tuple[tuple[str, ...], ...]
    clocks: Mapping[str, Any]
    over: bool = False
    created_at: int | None = field(default=None, compare=False)  # set when read back


@dataclass(frozen=True, slots=True)
class LessonAction:
    """One accepted action of a game (seq from 0, no gaps) and the seat that pressed it
    (None: the computer, a clock, the teacher)."""

    game_id: str
    seq: int
    action: Mapping[str, Any]
    seat_id: str | None = None
    at: int | None = field(default=None, compare=False)  # when it was pressed (None: the change's)


@dataclass(frozen=True, slots=True)
class LessonChange:
    """Everything one change of a lesson stores, in one transaction: the lesson's own row as
    it is now (None: unchanged, as after a press; only its last use moves), the seats and
    games that changed (written whole), and the actions accepted (after their games)."""

    at: int
    setup: Mapping[str, Any] | None
    state: Mapping[str, Any] | None
    paused_at: int | None = None
    seats: tuple[LessonSeat, ...] = ()
    games: tuple[LessonGame, ...] = ()
    actions: tuple[LessonAction, ...] = ()


@dataclass(frozen=True, slots=True)
class LessonInfo:
    """A lesson as a list shows it: when, how big, and when its data goes."""

    id: int
    code: str
    owner: str | None
    status: LessonStatus
    created_at: int
    used_at: int
    ended_at: int | None
    keep_until: int | None
    seats: int
    games: int
    actions: int


@dataclass(frozen=True, slots=True)
class StoredLesson:
    """A whole lesson as stored: enough to bring it back exactly (its actions by game, in
    seq order)."""

    info: LessonInfo
    teacher_key: str
    key_nonce: str
    setup: Mapping[str, Any]
    state: Mapping[str, Any]
    paused_at: int | None
    seats: tuple[LessonSeat, ...]
    games: tuple[LessonGame, ...]
    actions: tuple[LessonAction, ...]

    @property
    def id(self) -> int:
        return self.info.id

    @property
    def code(self) -> str:
        return self.info.code

    def actions_of(self, game_id: str) -> list[LessonAction]:
        return [a for a in self.actions if a.game_id == game_id]


__all__ = [
    "LessonAction",
    "LessonChange",
    "LessonGame",
    "LessonInfo",
    "LessonSeat",
    "LessonStatus",
    "NewLesson",
    "StoredLesson",
]
