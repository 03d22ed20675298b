"""A game's deadlines: the answer time of a decision window (each side's own, with an
accommodation), the game's time limit, its idle expiry and autoplay's pace.

They are rows in storage, so they survive a restart. The game service notes them with every
change it commits (`note_deadlines`) and reads them back when it restores a game
(`restore_deadlines`); `GameDeadlines` fires those that have passed (the scheduler asks it),
each as one more action through the game service's one path for actions.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from bot.services.clock import Clock
from bot.services.live import Ending, GameUpdate, LiveGame, UpdateCause
from classroom.settings import IDLE_MINUTES, GameSettings
from engine.actions import FLIP_CHOICE, Action, Flip, Timeout, TimeUp
from engine.events import Event
from engine.game import awaited, choices, idle_ending
from storage import ActionCommit, Deadline, Timer
from storage.contract import GameStore
from storage.faults import is_fault

log = logging.getLogger(__name__)

ANSWER_TIMER = "answer"
TIME_LIMIT_TIMER = "time_limit"
IDLE_TIMER = "idle"
AUTOPLAY_TIMER = "autoplay"
AUTOPLAY_PACE_MS = 3_000  # one flip every three seconds: readable, and far below edit limits

Listener = Callable[[GameUpdate], Awaitable[None]]


def time_limit_due(settings: GameSettings, now: int, session_ends_at: int | None) -> int | None:
    """When a new game's time runs out: its own limit, or the class session's end when that
    comes first (RULES §1.5: every game of a session ends with it)."""
    due = now + settings.minutes * 60_000 if settings.minutes > 0 else None
    if session_ends_at is not None and (due is None or session_ends_at < due):
        due = session_ends_at
    return due


def restore_deadlines(game: LiveGame, timers: Sequence[Timer]) -> None:
    """The deadlines stored for a game, back on the game after a restart."""
    for timer in timers:
        if timer.kind == ANSWER_TIMER:
            game.answer_due_ms = timer.due_at
            game.answer_window = (timer.payload or {}).get("window")
            game.answer_opened_ms = (timer.payload or {}).get("opened")
        elif timer.kind == TIME_LIMIT_TIMER:
            game.time_limit_due_ms = timer.due_at
        elif timer.kind == AUTOPLAY_TIMER:
            game.autoplay = True


def note_deadlines(game: LiveGame, change: ActionCommit) -> None:
    """After a change: the idle expiry moves on, and the answer time is set for what the game
    waits for now (stored with the change, in its transaction)."""
    if game.state.is_over:
        game.answer_due_ms = None
        game.autoplay = False
        return
    now = change.at
    change.timers[IDLE_TIMER] = Deadline(now + IDLE_MINUTES * 60_000)
    deciding = awaited(game.state)  # auto mode: the engine decides, nothing is timed
    window = game.state.window
    opens = bool(deciding) and game.answer_window != window
    if opens:
        game.answer_window = window
        game.answer_opened_ms = now
    opened = game.answer_opened_ms if game.answer_opened_ms is not None else now
    # Each side's time runs from the window's opening (its own, with an accommodation):
    # the timer is set for the first side still to run out.
    deadlines = [
        opened + seconds * 1000
        for side in deciding
        if (seconds := game.settings.seconds_for(side)) > 0
    ]
    if deadlines:
        due = min(deadlines)
        # A window that opens in the same millisecond as the last one has the same due time,
        # but its timer must carry the new window, or it fires for a round that is over.
        if game.answer_due_ms != due or opens:
            game.answer_due_ms = due
            change.timers[ANSWER_TIMER] = Deadline(due, {"window": window, "opened": opened})
    elif game.answer_due_ms is not None:
        game.answer_due_ms = None
        change.timers[ANSWER_TIMER] = None
    if not deciding:
        game.answer_window = None
        game.answer_opened_ms = None


def wakes_the_scheduler(change: ActionCommit) -> bool:
    """Whether a change set a deadline the scheduler may sleep past (the idle deadline only
    ever moves later, and the scheduler looks again at least once a minute)."""
    return any(d is not None and kind != IDLE_TIMER for kind, d in change.timers.items())


class ActionPath(Protocol):
    """What firing a deadline needs of the game service: its live games and its one path for
    an action (lock held by the caller, one transaction, the computer's replies)."""

    games: dict[int, LiveGame]

    def transaction(self, game: LiveGame) -> AbstractAsyncContextManager[ActionCommit]: ...

    def apply_action(
        self, game: LiveGame, change: ActionCommit, action: Action, user_id: int | None
    ) -> list[Event]: ...

    def after_change(self, game: LiveGame, change: ActionCommit) -> list[Event]: ...

    def humans(self, game: LiveGame) -> frozenset[int]: ...

    async def end_game(self, game: LiveGame, ending: Ending, cause: UpdateCause) -> GameUpdate: ...


class GameDeadlines:
    def __init__(
        self,
        games: ActionPath,
        storage: GameStore,
        clock: Clock,
        *,
        listeners: Sequence[Listener] = (),
    ) -> None:
        """``listeners`` are told of every change a deadline made (nobody pressed anything,
        so the board follows them)."""
        self.games = games
        self.storage = storage
        self.clock = clock
        self.listeners: tuple[Listener, ...] = tuple(listeners)

    async def fire_due(self) -> list[GameUpdate]:
        """Run every deadline that has passed (the scheduler calls this; so can tests)."""
        updates = []
        for timer in await self.storage.due_timers(self.clock.now_ms()):
            game = self.games.games.get(timer.game_id)
            if game is None:
                await self.storage.clear_timer(timer.game_id, timer.kind)
                continue
            async with game.lock:
                if timer not in await self.storage.timers_for(game.id):
                    # Moved or fired while this pass waited for the lock (a press, or a second
                    # pass at start-up): firing the old deadline would clear its successor.
                    continue
                try:
                    update = await self._fire(game, timer.kind, timer.payload)
                except Exception as error:
                    if is_fault(error):  # the database, not the deadline: kept for later
                        raise
                    # A deadline that cannot be applied must not fail every pass after it.
                    log.exception("timer %s of game %s failed; dropping it", timer.kind, game.id)
                    await self.storage.clear_timer(game.id, timer.kind)
                    continue
            if update is not None:
                updates.append(update)
                await self._notify(update)
        return updates

    async def _fire(self, game: LiveGame, kind: str, payload: Any) -> GameUpdate | None:
        if game.is_finished:
            return None
        if kind == IDLE_TIMER:
            return await self.games.end_game(game, "abandoned", "abandon")
        apply = self.games.apply_action
        async with self.games.transaction(game) as change:
            events: list[Event] = []
            if kind == ANSWER_TIMER:
                change.timers[ANSWER_TIMER] = None
                game.answer_due_ms = None
                if (payload or {}).get("window") != game.state.window:
                    game.answer_window = None
                    return None  # that window was closed by the players in time
                window = game.state.window
                opened = (payload or {}).get("opened")
                for side in awaited(game.state):
                    if game.state.window != window:
                        break
                    seconds = game.settings.seconds_for(side)
                    if seconds <= 0 or (opened is not None and opened + seconds * 1000 > change.at):
                        continue  # an accommodation: this side's time runs on
                    events.extend(apply(game, change, Timeout(side), None))
                # RULES §1.5: decisions left to run out, in a row, end the game (abandoned,
                # or the idle side forfeits while the others play on).
                ending = idle_ending(game.state, self.games.humans(game))
                if ending is not None:
                    events.extend(apply(game, change, ending, None))
            elif kind == TIME_LIMIT_TIMER:
                change.timers[TIME_LIMIT_TIMER] = None
                game.time_limit_due_ms = None
                if not game.state.time_up:
                    events.extend(apply(game, change, TimeUp(), None))
            elif kind == AUTOPLAY_TIMER:
                if not game.autoplay or not _can_flip(game):
                    game.autoplay = False
                    change.timers[AUTOPLAY_TIMER] = None
                    return GameUpdate(game, (), "timer")
                events.extend(apply(game, change, Flip(0), None))
                if game.state.is_over:
                    game.autoplay = False
                else:
                    due = self.clock.now_ms() + AUTOPLAY_PACE_MS
                    change.timers[AUTOPLAY_TIMER] = Deadline(due)
            else:
                change.timers[kind] = None
                return None
            events.extend(self.games.after_change(game, change))
        game.recent = events
        return GameUpdate(game, tuple(events), "timer")

    async def next_wake_ms(self) -> int | None:
        return await self.storage.next_timer_due()

    async def _notify(self, update: GameUpdate) -> None:
        for listener in self.listeners:
            try:
                await listener(update)
            except Exception:  # a failed board edit must not stop the timers
                log.exception("update listener failed for game %s", update.game.id)


def _can_flip(game: LiveGame) -> bool:
    return any(c.kind is FLIP_CHOICE for c in choices(game.state))
