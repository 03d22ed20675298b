"""GameService: lock the game → engine.apply → store → (computer moves, deadlines) → report.

Every accepted action is committed to storage before anyone is shown its result, and a
refused one changes nothing (the engine's states are frozen values; the in-memory game is
replaced only after the write succeeded). The deadlines (answer time, time limit, idle
expiry, autoplay) are noted with each change and fired by `bot.services.deadlines`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

from bot.services.clock import Clock
from bot.services.deadlines import (
    AUTOPLAY_PACE_MS,
    AUTOPLAY_TIMER,
    TIME_LIMIT_TIMER,
    note_deadlines,
    restore_deadlines,
    time_limit_due,
    wakes_the_scheduler,
)
from bot.services.live import Ending, GameUpdate, LiveGame, UpdateCause
from classroom.errors import UserFacingError
from classroom.settings import GameSettings
from engine.actions import Action, ChoiceKind, Forfeit, choice_action
from engine.computer import Strength, choose
from engine.errors import EngineError
from engine.events import Event, event_from_json
from engine.game import apply, awaited, new_game, restore, rounds_finished
from engine.hints import SwapChances, swap_chances
from engine.registry import action_from_json, action_to_json
from engine.regnekrig import (
    Answer,
    judge_answer,
)
from engine.state import GameState, Termination
from engine.view import view
from storage import (
    ActionCommit,
    ChannelBusyError,
    ConflictError,
    Deadline,
    GameClosedError,
    GameRecord,
    GameStatus,
    NewEvent,
    NewGame,
    Player,
    StoredGame,
    Timer,
)
from storage.contract import GameStore
from storage.faults import database_faults
from storage.records import PRACTICE_NOTE_CODES

log = logging.getLogger(__name__)

DEAL_ACTION = {"type": "deal"}  # storage seq 0: the deal itself
_REFUSED = "answer.rejected."  # an unreadable answer's catalogue key (`UserFacingError`)
RECENT_END_MS = 15 * 60_000  # boards of games ended this recently are redrawn at start-up


def _nothing(*args: object) -> None:
    """The collaborator a service runs without (tests of one service alone)."""


class GameService:
    def __init__(
        self,
        storage: GameStore,
        clock: Clock,
        *,
        timers_changed: Callable[[], None] = _nothing,
        on_finished: Callable[[int], object] = _nothing,
        while_committing: Callable[[LiveGame], object] = _nothing,
    ) -> None:
        """``timers_changed`` wakes the scheduler when a deadline moved;
        ``on_finished`` gets a game's id once its ending is stored (its result is recorded
        in the background from there); ``while_committing`` gets the changed game while its
        write is on the database's thread (the board renders its text then, so the press's
        answer waits for the commit, not for the commit and then the render)."""
        self.storage = storage
        self.clock = clock
        self.games: dict[int, LiveGame] = {}
        self.timers_changed = timers_changed
        self.on_finished = on_finished
        self.while_committing = while_committing

    # -- start, restore, look-up --------------------------------------------------------------

    async def start(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        settings: GameSettings,
        players: Sequence[Player],
        thread_id: int | None = None,
        seed: int | None = None,
    ) -> GameUpdate:
        """Deal a new game and store it; raises `error.channel_busy` if one is live here."""
        if seed is None:
            seed = secrets.randbits(31)
        if guild_id is not None:
            settings = await self._accommodate(guild_id, settings, players)
        now = self.clock.now_ms()
        state, events = new_game(settings.engine, seed)
        # Nothing is lost: the game, its deal, any computer replies and its deadlines are
        # stored in one transaction. Until then the game has a provisional record (id 0)
        # that nobody sees.
        new = NewGame(
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            game=settings.engine.game,
            config=settings.to_json(),
            seed=seed,
            players=tuple(players),
        )
        record = GameRecord(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            message_id=None,
            game=new.game,
            config=new.config,
            seed=seed,
            status="live",
            created_at=now,
            updated_at=now,
            players=new.players,
        )
        game = LiveGame(record=record, settings=settings, state=state, next_seq=1)
        change = ActionCommit(now, [NewEvent(0, DEAL_ACTION, [e.to_json() for e in events])])
        session = await self.storage.running_session(guild_id, now) if guild_id else None
        due = time_limit_due(settings, now, session.ends_at if session is not None else None)
        if due is not None:
            game.time_limit_due_ms = due
            change.timers[TIME_LIMIT_TIMER] = Deadline(due)
        events.extend(self.after_change(game, change))
        try:
            game.record = await self.storage.start_game(new, change)
        except ChannelBusyError:
            raise UserFacingError("error.channel_busy") from None
        self.games[game.id] = game
        game.recent = list(events)
        self._committed(game, change)
        return GameUpdate(game, tuple(events), "start")

    async def _accommodate(
        self, guild_id: int, settings: GameSettings, players: Sequence[Player]
    ) -> GameSettings:
        """Each side's answer time with its pupils' accommodations (a teacher's setting,
        `/mattekrig admin accommodation`): a side of several pupils gets the longest, and
        "no answer timer" beats any time. A table without an answer time stays without."""
        base = settings.answer_seconds
        users = {p.user_id: p.side for p in players if p.user_id is not None}
        if base <= 0 or not users:
            return settings
        percents = await self.storage.accommodations(guild_id, users)
        sides: dict[int, int] = {}
        for user_id, percent in percents.items():
            side = users[user_id]
            seconds = 0 if percent == 0 else max(1, base * percent // 100)
            current = sides.get(side)
            if current is None or seconds == 0 or (current != 0 and seconds > current):
                sides[side] = seconds
        return replace(settings, side_seconds=sides) if sides else settings

    async def restore_all(self) -> list[LiveGame]:
        """Bring every live game back after a restart, from its stored actions and the chance
        outcomes recorded in its events (RULES §1.6)."""
        restored = []
        # One read for every game and one for every deadline: a restart with 1,000 live
        # games stays under a second.
        timers: dict[int, list[Timer]] = {}
        for timer in await self.storage.live_timers():
            timers.setdefault(timer.game_id, []).append(timer)
        for stored in await self.storage.load_live_games():
            try:
                game = self._replay(stored, timers.get(stored.id, []))
            except Exception:  # a game that cannot be replayed must not stop the bot
                log.exception("game %s could not be restored; marking it abandoned", stored.id)
                await self.storage.set_status(stored.id, "abandoned", self.clock.now_ms())
                continue
            self.games[game.id] = game
            restored.append(game)
        self.timers_changed()
        return restored

    def _replay(self, stored: StoredGame, timers: list[Timer]) -> LiveGame:
        settings = GameSettings.from_json(stored.config)
        actions = [action_from_json(e.action) for e in stored.events[1:]]
        recorded = [event for e in stored.events for event in e.events]
        state = restore(settings.engine, stored.seed, actions, recorded)
        game = LiveGame(record=stored, settings=settings, state=state, next_seq=stored.next_seq)
        restore_deadlines(game, timers)
        last = stored.events[-1].events if stored.events else []
        game.recent = [event_from_json(data) for data in last]
        return game

    async def for_board(self, game_id: int) -> LiveGame:
        """The game as its board should show it: live from memory, or rebuilt from storage
        when it has ended (its result and Rematch). NotFoundError once it was deleted."""
        game = self.games.get(game_id)
        if game is not None:
            return game
        game = self._replay(await self.storage.load_game(game_id), [])  # ended: no timers
        status = game.record.status
        if status in ("stopped", "abandoned"):
            game.ended = status
        return game

    async def ended_lately(self, within_ms: int = RECENT_END_MS) -> list[LiveGame]:
        """Games that ended in the last moments before this start, with a board: a crash
        between the last commit and its edit leaves their boards showing buttons."""
        since = self.clock.now_ms() - within_ms
        ended = []
        for game_id in await self.storage.ended_since(since):
            try:
                ended.append(await self.for_board(game_id))
            except Exception:  # deleted meanwhile, or not replayable: nothing to redraw
                log.warning("ended game %s could not be loaded to redraw its board", game_id)
        return ended

    async def drain(self, within_s: float) -> None:
        """Wait (at most ``within_s``) until no action is under way: each live game's lock is
        taken once, so every action that started has been committed or refused."""
        try:
            async with asyncio.timeout(within_s):
                for game in list(self.games.values()):
                    async with game.lock:
                        pass
        except TimeoutError:
            log.warning("stopping with actions still under way after %.0f s", within_s)

    def live(self, game_id: int) -> LiveGame:
        """The game for a button press; finished or unknown games are refused politely."""
        game = self.games.get(game_id)
        if game is None:
            raise UserFacingError("error.game_over")
        return game

    def in_channel(self, channel_id: int) -> LiveGame | None:
        for game in self.games.values():
            if game.channel_id == channel_id and not game.is_finished:
                return game
        return None

    def in_threads_of(self, channel_id: int) -> list[LiveGame]:
        """The live games played in threads of a channel (a class channel's games each have
        a thread of their own), oldest first."""
        return sorted(
            (
                g
                for g in self.games.values()
                if g.record.thread_id is not None
                and g.record.channel_id == channel_id
                and not g.is_finished
            ),
            key=lambda g: g.id,
        )

    async def set_board(
        self, game: LiveGame, message_id: int, thread_id: int | None = None
    ) -> None:
        # Memory first: a press that arrives while the id is being stored already
        # finds its board. A refused write (the thread has a live game) puts it back.
        before = game.record
        game.record = replace(
            game.record,
            message_id=message_id,
            thread_id=thread_id if thread_id is not None else game.record.thread_id,
        )
        try:
            await self.storage.set_board_message(
                game.id, message_id, self.clock.now_ms(), thread_id=thread_id
            )
        except BaseException:
            game.record = before
            raise

    async def store_shown_seqs(self, seqs: Mapping[int, int]) -> None:
        """Remember what the games' boards show (game id → the seq of the next action when
        each was last written): after a crash, `GameRecord.shown_seq` says which are behind."""
        await self.storage.set_shown_seqs(seqs)

    # -- player actions ----------

    async def choose(
        self,
        game_id: int,
        user_id: int,
        window: int | None,
        kind: ChoiceKind,
        value: int | None = None,
        text: str = "",
    ) -> GameUpdate:
        """A press (a button, a pick, a typed answer) as the engine action it means for the
        presser's side: any game's choice of any kind (`engine.actions.ChoiceKind`), a flip
        too. Whether it is legal now is the engine's to say, and its refusal is what they are
        told."""
        return await self._act(
            game_id, user_id, window, lambda side: choice_action(kind, side, value, text)
        )

    def check(self, game_id: int, user_id: int, window: int | None, kind: ChoiceKind) -> int:
        """Whether the presser may make this choice now, asked before a form opens (the answer
        modal): the engine tries the choice on the current state, which it never changes, and
        its refusal is raised. Returns the presser's side."""
        game = self.live(game_id)
        side = self._side(game, user_id, window)
        try:
            apply(game.state, choice_action(kind, side, 0, "0"))
        except EngineError as error:
            raise UserFacingError.from_engine(error) from None
        return side

    async def hint(self, game_id: int, user_id: int, window: int | None) -> SwapChances:
        """The presser's chances now and after each swap (nothing changes)."""
        game = self.live(game_id)
        side = self._side(game, user_id, window)
        if side not in view(game.state, side).hints:
            raise UserFacingError("error.no_hint")
        return swap_chances(game.state, side)

    async def toggle_autoplay(self, game_id: int, user_id: int, window: int | None) -> GameUpdate:
        """Autoplay flips rounds that need no decision at a readable pace until toggled off."""
        game = self.live(game_id)
        async with game.lock:
            self._side(game, user_id, window)
            game.autoplay = not game.autoplay
            if game.autoplay:
                await self.storage.set_timer(
                    game.id, AUTOPLAY_TIMER, self.clock.now_ms() + AUTOPLAY_PACE_MS
                )
            else:
                await self.storage.clear_timer(game.id, AUTOPLAY_TIMER)
            self.timers_changed()
            return GameUpdate(game, (), "action")

    async def stop(self, game_id: int, user_id: int) -> GameUpdate:
        """`/mattekrig stop` by a player: RULES §1.5, the player's side forfeits (the others
        win, and it counts); before the first round is finished it cancels the game instead
        (counted for nobody)."""
        game = self.live(game_id)
        async with game.lock:
            side = game.side_of(user_id)
            if side is None or game.is_finished:
                raise UserFacingError("error.stop_not_allowed")
            if rounds_finished(game.state) == 0:
                return await self.end_game(game, "stopped", "stop")
            async with self.transaction(game) as change:
                events = self.apply_action(game, change, Forfeit(side), user_id)
                events.extend(self.after_change(game, change))
            game.recent = events
            return GameUpdate(game, tuple(events), "stop")

    async def end(self, game_id: int, user_id: int) -> GameUpdate:
        """`/mattekrig admin end`: a server manager ends any game with no result (logged, so
        a teacher's intervention can be traced)."""
        game = self.live(game_id)
        async with game.lock:
            log.info("game %s ended by manager %s with no result", game.id, user_id)
            return await self.end_game(game, "ended", "stop")

    # -- the one path every action takes ----------

    @staticmethod
    def humans(game: LiveGame) -> frozenset[int]:
        return frozenset(range(game.state.config.sides)) - game.computer_sides()

    def _side(self, game: LiveGame, user_id: int, window: int | None) -> int:
        if game.is_finished:
            raise UserFacingError("error.game_over")
        side = game.side_of(user_id)
        if side is None:
            raise UserFacingError("error.not_a_player")
        if window is not None and window != game.state.window:
            raise UserFacingError("error.round_over")
        return side

    async def _act(
        self,
        game_id: int,
        user_id: int,
        window: int | None,
        build: Callable[[int], Action],
    ) -> GameUpdate:
        game = self.live(game_id)
        async with game.lock:
            side = self._side(game, user_id, window)
            action = build(side)
            before = game.state
            try:
                async with self.transaction(game) as change:
                    events = self.apply_action(game, change, action, user_id)
                    events.extend(self.after_change(game, change))
            except UserFacingError as refused:
                if isinstance(action, Answer):
                    await self._note(game, user_id, refused)
                raise
            game.recent = events
            verdict = None
            if isinstance(action, Answer):
                # How the engine judged it (accepted: it is readable), for the pupil's reply.
                verdict = judge_answer(before, side, action.text)
            return GameUpdate(game, tuple(events), "action", verdict)

    async def _note(self, game: LiveGame, user_id: int, refused: UserFacingError) -> None:
        """A refused answer that is a practice note (RULES §2.6: rounded, or a fraction not
        simplified) is counted for the pupil, stored before they are told to type it again.
        The game's move log is untouched: the refusal is no action, and replays stay the
        same."""
        code = refused.key.removeprefix(_REFUSED)
        guild_id = game.record.guild_id
        if code not in PRACTICE_NOTE_CODES or guild_id is None:
            return
        await self.storage.add_practice_note(game.id, guild_id, user_id, code)

    @asynccontextmanager
    async def transaction(self, game: LiveGame) -> AsyncIterator[ActionCommit]:
        """One accepted press (or deadline) = one transaction. The body applies the
        actions to the in-memory game and notes what to store in the `ActionCommit`; on
        leaving, it is committed whole. If anything fails the game is put back as it was,
        so the in-memory game never runs ahead of storage."""
        before = _snapshot(game)
        change = ActionCommit(self.clock.now_ms())
        try:
            yield change
            if change:
                commit = asyncio.ensure_future(self.storage.commit_action(game.id, change))
                # After the commit's first step (which hands the write to the database's
                # thread), before the loop hears it is done: the two overlap. Nothing is
                # shown here; a write that fails puts the game back, and the text rendered
                # from the state it undoes is never used (the board renders by state).
                asyncio.get_running_loop().call_soon(self._meanwhile, game)
                try:
                    await asyncio.shield(commit)
                except asyncio.CancelledError:
                    # The write runs to its end on the database thread regardless: wait for
                    # it, so the game in memory matches what was stored, then stop.
                    await asyncio.wait([commit])
                    if commit.cancelled() or commit.exception() is not None:
                        _restore(game, before)
                    raise
                database_faults.worked()  # a database fault under way is over: said once
        except asyncio.CancelledError:
            raise
        except GameClosedError:
            _restore(game, before)
            raise UserFacingError("error.game_over") from None
        except ConflictError:
            _restore(game, before)
            raise UserFacingError("error.conflict") from None
        except BaseException:
            _restore(game, before)
            raise
        self._committed(game, change)

    def _meanwhile(self, game: LiveGame) -> None:
        try:
            self.while_committing(game)
        except Exception:  # the press's own render after the commit meets it again
            log.debug("work during the commit of game %s failed", game.id)

    def _committed(self, game: LiveGame, change: ActionCommit) -> None:
        """After the commit: a game that ended leaves the live set and its result is
        recorded; the scheduler is woken only when a deadline it may sleep past was set
        (waking it on every press was per-press work for nothing)."""
        if change.status is not None:
            self.games.pop(game.id, None)  # its board keeps the final state; presses get "over"
            self.on_finished(game.id)
        elif wakes_the_scheduler(change):
            self.timers_changed()

    def apply_action(
        self, game: LiveGame, change: ActionCommit, action: Action, user_id: int | None
    ) -> list[Event]:
        """Apply one action and note it in ``change`` (stored by `transaction` on leaving)."""
        try:
            state, events = apply(game.state, action)
        except EngineError as error:
            raise UserFacingError.from_engine(error) from None
        change.events.append(
            NewEvent(game.next_seq, action_to_json(action), [e.to_json() for e in events], user_id)
        )
        if state.is_over:
            change.status = _status(state)
        game.state = state
        game.next_seq += 1
        return list(events)

    def after_change(self, game: LiveGame, change: ActionCommit) -> list[Event]:
        """Let the computer move, then note the deadlines for what the game waits for now."""
        events: list[Event] = []
        computers = {p.side: p.computer for p in game.players if p.computer is not None}
        while not game.state.is_over:
            waiting = [s for s in awaited(game.state) if s in computers]
            if not waiting:
                break
            side = waiting[0]
            rng = random.Random(f"computer:{game.record.seed}:{game.next_seq}:{side}")
            action = choose(game.state, side, Strength(computers[side]), rng)
            if action is None:
                break
            events.extend(self.apply_action(game, change, action, None))
        note_deadlines(game, change)
        return events

    async def end_game(self, game: LiveGame, ending: Ending, cause: UpdateCause) -> GameUpdate:
        status: GameStatus = "abandoned" if ending == "abandoned" else "stopped"
        try:
            await self.storage.set_status(game.id, status, self.clock.now_ms())
        except GameClosedError:
            raise UserFacingError("error.game_over") from None
        game.ended = ending
        game.autoplay = False
        game.answer_due_ms = None
        game.recent = []
        self.games.pop(game.id, None)
        self.on_finished(game.id)
        return GameUpdate(game, (), cause)


def _status(state: GameState) -> GameStatus:
    """The stored status of an ended game: RULES §1.5, an abandoned game is no result."""
    abandoned = state.outcome is not None and state.outcome.reason is Termination.ABANDONED
    return "abandoned" if abandoned else "over"


_Snapshot = tuple[Any, ...]
_SNAPSHOT_FIELDS = (
    "state",
    "next_seq",
    "recent",
    "autoplay",
    "answer_due_ms",
    "answer_window",
    "time_limit_due_ms",
)


def _snapshot(game: LiveGame) -> _Snapshot:
    """What an action may change in memory (engine states are frozen values)."""
    return tuple(getattr(game, f) for f in _SNAPSHOT_FIELDS)


def _restore(game: LiveGame, snapshot: _Snapshot) -> None:
    for name, value in zip(_SNAPSHOT_FIELDS, snapshot, strict=True):
        setattr(game, name, value)
