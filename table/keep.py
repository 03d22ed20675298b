"""A class lesson kept in storage as it happens (`storage.lessons`, through the storage
contract), and brought back after a crash, a reboot or a closed lid.

`Keeper.save` is the lesson's `saver`: after every change, under the lesson's lock, it stores
what changed since the last save in one transaction (the lesson's row, the seats and games
that changed, each game's new actions with the seat that pressed them), so the change is
committed before any page shows it. Ticks that change nothing write nothing.

`restore` builds the lesson again from what was stored: the same code, the digest of the
same teacher's key, every seat on its device, each game dealt from its seed and replayed
action by action (so its state, its tally and the summary are what they were), the goal,
the settings and the pause. Deadlines are stored as wall-clock times: a game's time limit
keeps its time; an answer time that ran out while the server was down (or would before the
devices are back) starts again, so no pupil loses a card to the crash; a paused lesson
stays paused and resumes where it stood.

On a school server the keeper carries its lesson's `LeaseFence` (`fence`): every write is
stored only while this process still holds the lesson's lease, and one refused
(`LeaseLostError`: another process may serve the lesson now) is the pupil's "try again", as a
database fault is; the keeper writes nothing more after it, since its lesson is not the
lesson any more. A laptop and SQLite have no fence: nothing changes there.

The teacher's secret is never stored: the lesson keeps its digest and a nonce, and the
teacher's own machine derives the secret from the nonce and a key of its own
(``teacher.key``, private to the user), so the terminal can print the same teacher's link
again after a restart.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
import secrets
import time
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from aiohttp import web

from classroom.settings import GameSettings
from engine.registry import action_from_json, action_to_json
from storage.contract import LessonStore
from storage.errors import LeaseLostError, LessonCodeTakenError
from storage.faults import database_faults
from storage.records.lessons import (
    LeaseFence,
    LessonAction,
    LessonChange,
    LessonGame,
    LessonSeat,
    NewLesson,
    StoredLesson,
)
from table.games import Clock, TableGame
from table.lesson import Lesson, Seat, digest, new_code
from table.press import Refused
from table.setup import LessonSetup

log = logging.getLogger(__name__)

RESUME_HOURS = 4  # a lesson not ended and used this recently is brought back
DEFAULT_KEEP_DAYS = 14  # an ended lesson's data is deleted this long after it ended
DAY_MS = 86_400_000
HOUR_MS = 3_600_000
# An answer time that would run out before the devices are back starts again after a restart.
RECONNECT_SECONDS = 5
KEY_FILE = "teacher.key"
KEY_BYTES = 32
Wall = Callable[[], float]
Row = tuple[dict[str, Any], dict[str, Any], int | None]  # the lesson's setup, state, pause


def machine_key(folder: Path) -> bytes:
    """This machine's key for teachers' secrets (created once, readable by its user only)."""
    path = folder / KEY_FILE
    try:
        key = path.read_bytes()
        if len(key) == KEY_BYTES:
            return key
    except FileNotFoundError:
        pass
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = secrets.token_bytes(KEY_BYTES)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key)
    return key


def teacher_secret(key: bytes, nonce: str) -> str:
    """The teacher's secret of a lesson: derived, never stored."""
    mac = hmac.new(key, nonce.encode("ascii"), hashlib.sha256).digest()[:24]
    return base64.urlsafe_b64encode(mac).decode("ascii")


class Keeper:
    """Stores one lesson's changes (`save`, the lesson's saver) and ends it in storage."""

    def __init__(
        self,
        store: LessonStore,
        lesson_id: int,
        lesson: Lesson,
        keep_ms: int,
        wall: Wall,
        fence: LeaseFence | None = None,
    ) -> None:
        self.store = store
        self.lesson_id = lesson_id
        self.keep_ms = keep_ms
        self.wall = wall
        self.fence = fence
        self.owner: str | None = None  # the teacher on a school server (their lessons only)
        self.fenced_out = False  # a write was refused by the fence: nothing more is written
        # Lesson clock seconds + offset = wall-clock seconds; fixed, so a deadline converts
        # to the same milliseconds at every save.
        self.offset = wall() - lesson.clock()
        self.ended = False
        self._row: Row | None = None
        self._seats: dict[str, LessonSeat] = {}
        self._games: dict[str, LessonGame] = {}
        self._actions: dict[str, int] = {}
        self._numbers: dict[str, int] = {}
        self._settings: dict[str, dict[str, Any]] = {}

    def ms(self, at: float) -> int:
        return round((at + self.offset) * 1000)

    def at(self, ms: int) -> float:
        return ms / 1000 - self.offset

    def now_ms(self) -> int:
        return round(self.wall() * 1000)

    async def save(self, lesson: Lesson) -> None:
        """Store what changed since the last save; end the lesson in storage once it ended
        (its data then kept for the retention, or deleted at once for 0)."""
        if self.ended:
            return
        change = self.change(lesson)
        if change is not None:
            await self._commit(change)
        if lesson.ended:
            self._check()
            try:
                await self.store.end_lesson(self.lesson_id, self.now_ms(), self.keep_ms,
                                            **self._fence())  # fmt: skip
            except LeaseLostError as lost:
                raise self._refused(lost) from None
            self.ended = True

    async def save_game(self, lesson: Lesson, game: TableGame) -> None:
        """Store what a press changed of one game (its new actions, its row): presses at
        other tables are saved beside it, each holding its own table (`table.writer`)."""
        if self.ended or self._row is None:
            return
        kept = self.game(game)
        actions = self.actions(game)
        games = (kept,) if self._games.get(game.id) != kept else ()
        if not games and not actions:
            return
        # A press changes nothing of the lesson's own row: only its last use moves.
        change = LessonChange(self.now_ms(), None, None, games=games, actions=actions)
        await self._commit(change)

    async def delete(self) -> None:
        """The teacher deletes this lesson's data now; nothing of it is stored again."""
        self._check()
        try:
            await self.store.delete_lesson(self.lesson_id, self.now_ms(), **self._fence())
        except LeaseLostError as lost:
            raise self._refused(lost) from None
        self.ended = True

    async def _commit(self, change: LessonChange) -> None:
        self._check()
        try:
            await self.store.commit_lesson(self.lesson_id, change, **self._fence())
        except LeaseLostError as lost:
            raise self._refused(lost) from None
        database_faults.worked()  # a database fault under way is over: said once
        self.remember(change)

    # -- the fence -----------------------------------------------------------------------------

    def _fence(self) -> dict[str, LeaseFence]:
        """The fence as the store's keyword (none at all without one: a laptop's store)."""
        return {} if self.fence is None else {"fence": self.fence}

    def _check(self) -> None:
        if self.fenced_out:
            raise Refused("table.error.storage", 503)

    def _refused(self, lost: LeaseLostError) -> Refused:
        """Once refused, refused for good: this process's lesson is not the one stored."""
        if not self.fenced_out:
            log.warning("lesson %d is no longer written here: %s", self.lesson_id, lost)
        self.fenced_out = True
        return Refused("table.error.storage", 503)

    # -- what changed ------------------------------------------------------------------------

    def row(self, lesson: Lesson) -> Row:
        setup = {"settings": lesson.setup.settings.to_json(), "teams": lesson.setup.teams}
        state = {name: getattr(lesson, name) for name in Lesson.KEPT}
        paused = None if lesson.paused_at is None else self.ms(lesson.paused_at)
        return setup, state, paused

    def seats(self, lesson: Lesson) -> list[LessonSeat]:
        kept = [(s, False) for s in lesson.seats.values()]
        kept += [(s, True) for s in lesson.removed.values() if s.id not in lesson.seats]
        return [
            LessonSeat(s.id, s.name, s.device, s.joined, s.game, tuple(sorted(s.met)), removed)
            for s, removed in kept
        ]

    def game(self, game: TableGame) -> LessonGame:
        number = self._numbers.setdefault(game.id, len(self._numbers) + 1)
        clocks = {
            "deadline": None if game.deadline is None else self.ms(game.deadline),
            "answers": {str(k): self.ms(v) for k, v in sorted(game.answer_deadlines.items())},
            "window": game.answer_window,
            "closed_at": game.closed_at,
            "started": game.tally.started_at,  # when it was dealt (wall ms): answer times
            "extensions": {str(k): v for k, v in sorted(game.extensions.items())},
            # Practice notes are refused answers (no action): kept beside the clocks.
            "notes": {
                seat: dict(sorted(c.items())) for seat, c in sorted(game.tally.notes.items())
            },
        }
        settings = self._settings.get(game.id)
        if settings is None:  # a game's settings never change: turned into JSON once
            settings = self._settings[game.id] = game.settings.to_json()
        return LessonGame(
            id=game.id,
            number=number,
            settings=settings,
            seed=game.seed,
            names=game.names,
            seats=game.seats,
            clocks=clocks,
            over=game.over,
        )

    def actions(self, game: TableGame) -> tuple[LessonAction, ...]:
        """The game's actions not stored yet, each with its seat and time."""
        done = self._actions.get(game.id, 0)
        return tuple(
            LessonAction(game.id, seq, action_to_json(game.actions[seq]), *game.pressed[seq])
            for seq in range(done, len(game.actions))
        )

    def change(self, lesson: Lesson) -> LessonChange | None:
        row = self.row(lesson)
        seats = tuple(s for s in self.seats(lesson) if self._seats.get(s.id) != s)
        games: list[LessonGame] = []
        actions: list[LessonAction] = []
        for game in lesson.games:
            if game.shared:
                continue
            kept = self.game(game)
            if self._games.get(game.id) != kept:
                games.append(kept)
            actions += self.actions(game)
        if row == self._row and not seats and not games and not actions:
            return None
        setup, state, paused = row
        return LessonChange(
            self.now_ms(), setup, state, paused, seats, tuple(games), tuple(actions)
        )

    def remember(self, change: LessonChange) -> None:
        if change.setup is not None and change.state is not None:
            self._row = (dict(change.setup), dict(change.state), change.paused_at)
        self._seats.update((s.id, s) for s in change.seats)
        self._games.update((g.id, g) for g in change.games)
        for action in change.actions:
            self._actions[action.game_id] = action.seq + 1


async def open_lesson(
    store: LessonStore,
    clock: Clock,
    *,
    key: bytes | None,
    keep_days: int = DEFAULT_KEEP_DAYS,
    fresh: bool = False,
    wall: Wall = time.time,
    seeds: Callable[[], int] | None = None,
) -> tuple[Lesson, Keeper, bool]:
    """The lesson to serve: the one used in the last `RESUME_HOURS` that has not ended (unless
    `fresh`), else a new one; returns it, its keeper and whether it was brought back. Lessons
    left open longer are ended as of their last use, and those past their retention deleted."""
    now = round(wall() * 1000)
    keep_ms = keep_days * DAY_MS
    await store.purge_lessons(now)
    since = now - RESUME_HOURS * HOUR_MS
    await store.end_idle_lessons(now + 1 if fresh else since, keep_ms)
    found = None if fresh else await store.resumable_lesson(since)
    if found is not None:
        stored = await store.load_lesson(found)
        lesson, keeper = restore(
            stored, store, clock, key=key, keep_ms=keep_ms, wall=wall, seeds=seeds
        )
        return lesson, keeper, True
    lesson, keeper = await new_lesson(store, clock, key=key, keep_days=keep_days, wall=wall,
                                      seeds=seeds)  # fmt: skip
    return lesson, keeper, False


async def new_lesson(
    store: LessonStore,
    clock: Clock,
    *,
    key: bytes | None = None,
    owner: str | None = None,
    keep_days: int = DEFAULT_KEEP_DAYS,
    wall: Wall = time.time,
    seeds: Callable[[], int] | None = None,
) -> tuple[Lesson, Keeper]:
    """A new lesson, stored before anyone can join it, under a code no open lesson has: a
    laptop's (its teacher's secret derived from the machine's `key`) or, on a school server,
    `owner`'s (the signed-in teacher: no secret travels at all)."""
    lesson = Lesson("class", clock, seeds)
    nonce = secrets.token_urlsafe(16)
    lesson.teacher_secret = teacher_secret(key, nonce) if key else lesson.teacher_secret
    lesson.teacher_key = digest(lesson.teacher_secret or "")
    while True:
        keeper = Keeper(store, 0, lesson, keep_days * DAY_MS, wall)
        keeper.owner = owner
        setup, state, _ = keeper.row(lesson)
        new = NewLesson(lesson.code, lesson.teacher_key, nonce, setup, state, owner)
        try:
            keeper.lesson_id = await store.create_lesson(new, round(wall() * 1000))
        except LessonCodeTakenError:
            lesson.code = new_code()
            continue
        keeper._row = keeper.row(lesson)  # as created
        lesson.saver, lesson.game_saver = keeper.save, keeper.save_game
        return lesson, keeper


def restore(
    stored: StoredLesson,
    store: LessonStore,
    clock: Clock,
    *,
    key: bytes | None,
    keep_ms: int,
    wall: Wall = time.time,
    seeds: Callable[[], int] | None = None,
    fence: LeaseFence | None = None,
) -> tuple[Lesson, Keeper]:
    """The stored lesson, in memory again as it was (see the module's docstring); its
    writes carry ``fence`` (a school server's lease of it)."""
    lesson = Lesson("class", clock, seeds, code=stored.code)
    lesson.teacher_key = stored.teacher_key
    derived = teacher_secret(key, stored.key_nonce) if key else None
    lesson.teacher_secret = derived if derived and digest(derived) == stored.teacher_key else None
    keeper = Keeper(store, stored.id, lesson, keep_ms, wall, fence)
    keeper.owner = stored.info.owner
    setup = stored.setup
    lesson.setup = LessonSetup(
        GameSettings.from_json(dict(setup["settings"])), bool(setup["teams"])
    )
    for name in Lesson.KEPT:
        if name in stored.state:
            setattr(lesson, name, stored.state[name])
    paused = stored.paused_at is not None
    if stored.paused_at is not None:
        lesson.paused_at = keeper.at(stored.paused_at)
    for kept in stored.games:
        _restore_game(lesson, keeper, kept, stored.actions_of(kept.id), paused)
    for s in stored.seats:
        seat = Seat(s.id, s.name, s.device, s.joined, s.game_id, set(s.met))
        held = lesson.devices.setdefault(s.device, set())
        if s.removed:
            lesson.removed[s.id] = seat
        else:
            lesson.seats[s.id] = seat
            held.add(s.id)
    lesson.devices_removed = {d for d, held in lesson.devices.items() if not held}
    lesson.joins = max((s.joined for s in stored.seats), default=0)
    # What was stored is what the keeper has: the next save writes only what changes.
    keeper.remember(
        LessonChange(0, *keeper.row(lesson), seats=stored.seats, games=stored.games,
                     actions=stored.actions)
    )  # fmt: skip
    keeper._numbers = {g.id: g.number for g in stored.games}
    lesson.saver, lesson.game_saver = keeper.save, keeper.save_game
    return lesson, keeper


def _restore_game(
    lesson: Lesson, keeper: Keeper, kept: LessonGame, actions: list[LessonAction], paused: bool
) -> None:
    settings = GameSettings.from_json(dict(kept.settings))
    now_ms = keeper.now_ms()
    played = [(action_from_json(a.action), a.seat_id, a.at or now_ms) for a in actions]
    clocks: Mapping[str, Any] = kept.clocks
    closed_at = clocks.get("closed_at")
    game = lesson.games.restore(
        kept.id, settings, kept.names, kept.seats, kept.seed, played, closed_at,
        clocks.get("started", kept.created_at),
    )  # fmt: skip
    if settings.computer is not None and kept.seats and kept.seats[0]:
        game.best_rate = lesson.adaptive(kept.seats[0][0])
    deadline = clocks.get("deadline")
    game.deadline = None if deadline is None else keeper.at(int(deadline))
    game.answer_window = int(clocks.get("window", -1))
    game.extensions = {int(k): int(v) for k, v in clocks.get("extensions", {}).items()}
    now = lesson.clock()
    if paused and not game.over:
        game.stopped_at = lesson.paused_at  # stands still as every game of a paused lesson
    for side, ms in clocks.get("answers", {}).items():
        at = keeper.at(int(ms))
        if not paused and at < now + RECONNECT_SECONDS:
            at = now + game.answer_seconds  # the crash is nobody's slow answer
        game.answer_deadlines[int(side)] = at
    for seat, counts in clocks.get("notes", {}).items():
        for code, n in counts.items():
            game.tally.notes.setdefault(seat, Counter())[code] = int(n)


KEEPER = web.AppKey("keeper", Keeper)

__all__ = [
    "DEFAULT_KEEP_DAYS",
    "KEEPER",
    "RESUME_HOURS",
    "Keeper",
    "machine_key",
    "new_lesson",
    "open_lesson",
    "restore",
    "teacher_secret",
]
