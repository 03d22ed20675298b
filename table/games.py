"""The games a lesson is playing, in memory: each one configuration + seed + action list
(RULES §1.6), so "download this game" is the replay file `python -m engine.replay` plays back.

A game knows which seats play each side (a seat is one pupil's place, held by one device),
which side the computer plays, the time limit's deadline and each side's answer time. What
it remembers of the pupils is only what the lesson's summary counts (the answer tally,
`classroom.tally`, which the Discord results count with too), and nothing outlives the lesson:
the server keeps it in memory only.
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from classroom.settings import GameSettings
from classroom.tally import AnswerRecord, AnswerTally
from engine.actions import Action, Flip, Timeout, TimeUp
from engine.cards import Card
from engine.computer import Strength, choose
from engine.config import Mode
from engine.events import CardsLaid, Event, RoundStarted
from engine.facts import RoundFacts
from engine.game import apply, deciding, new_game
from engine.registry import action_to_json, descriptor
from engine.state import GameState
from engine.view import View, view

CAP = 64  # games kept at once; a new one is refused while they all still run
# A class lesson keeps its finished games for its summary and its class goal (a class of 30
# that gets new partners ten times plays 150 games): only running games count against `CAP`.
KEPT = 1024
EXPIRY_SECONDS = 6 * 3600  # a game untouched this long is forgotten
COMPUTER_SIDE = 1  # one player against the computer: the player is side 0
# WCAG 2.2.1: a pupil may ask for more answer time, at least ten times in a game.
EXTENSIONS = 10
# A game the lesson closes finishes its round in far fewer steps (a war is a few layings).
CLOSE_STEPS = 1000

Clock = Callable[[], float]
# A sentence to put into words in the page's language: (lang) -> text.
Text = Callable[[str], str]


class FullError(Exception):
    """Every game kept is still running: a new one would push one out, so it is refused."""


@dataclass(frozen=True, slots=True)
class Note:
    """A sentence for one seat's page, shown up to the decision window `until` (so "wait for
    the others" is gone once the round is revealed): plain news, or a correction."""

    text: Text
    correction: bool = False
    until: int = 0


# One decision of one seat, as the lesson's summary counts it (RULES §2.6).
Record = AnswerRecord[str]


@dataclass
class TableGame:
    """One game. `names` are the sides' names (a team's two names joined); `seats` the
    seats that play each side (none for the computer's)."""

    id: str
    settings: GameSettings
    names: tuple[str, ...]
    seed: int
    state: GameState
    deadline: float | None  # the time limit runs out (clock seconds), None: no limit
    touched: float
    seats: tuple[tuple[str, ...], ...] = ()
    actions: list[Action] = field(default_factory=list)
    # Each action's seat (None: the computer, a clock) and wall-clock time (ms): kept with it.
    pressed: list[tuple[str | None, int]] = field(default_factory=list)
    # The computer's own randomness (engine.computer), seeded from the game's seed so a game
    # is reproducible; never the engine's RNG, which deals the cards.
    rng: random.Random = field(default_factory=random.Random)
    # The computer plays at this best-move rate when set (an adaptive opponent: the pupil's
    # own rate in this lesson), else at the settings' strength.
    best_rate: Callable[[], Fraction] | None = None
    notes: dict[str, Note] = field(default_factory=dict)  # by seat
    # Hot-seat: what an answer counted as is told when the comparison is revealed, not
    # while the others still answer at the same screen (RULES §2.2: revealed together).
    held: list[tuple[str, Note]] = field(default_factory=list)
    # Each awaited side's answer deadline (clock seconds), for the decision window
    # `answer_window`: a new window (the next round, a war, the next target) starts every
    # side's answer time again.
    answer_deadlines: dict[int, float] = field(default_factory=dict)  # by side
    answer_window: int = -1
    # A pause: the clocks stand still from this moment (clock seconds), and the deadlines
    # move on by the time they stood when they go again; None while they run. The time
    # left while they stand is the deadline minus this moment.
    stopped_at: float | None = None
    # The lesson closed the game (its end, new partners): the decisions it made for the
    # sides to finish the round are nobody's misses.
    closed: bool = False
    closed_at: int | None = None  # the first of the actions the lesson's closing made
    extensions: dict[int, int] = field(default_factory=dict)  # more time asked, by side
    # The seats that asked for a hint, with the decision window they asked in: the hint
    # stays on their page (every live update draws it) until they act or the window closes.
    hinted: dict[str, int] = field(default_factory=dict)
    tally: AnswerTally[str] = field(init=False)  # the seats' answers, as the summary counts
    # The time of day, for the summary's date and span and the answers' times (the game's
    # own clock is monotonic: it runs the deadlines).
    wall: Callable[[], float] = time.time
    shared: bool = False  # one screen holds every seat (the one-screen table)
    # The cards each side turned face up in this round and the one before, by round and
    # side, one tuple per laying (`laid_in`).
    laid: dict[int, dict[int, list[tuple[Card, ...]]]] = field(default_factory=dict)
    version: int = 0  # counts the changes: a device's page is drawn again when it moves
    _views: dict[int | None, View] = field(default_factory=dict, repr=False)
    _viewed: GameState | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        config = self.state.config
        targets = descriptor(config.game).has_targets(config.level)
        now = round(self.wall() * 1000)
        self.tally = AnswerTally(
            config.level, targets, members=dict(enumerate(self.seats)), opened_at=now
        )
        self.tally.started_at = now

    @property
    def records(self) -> list[Record]:
        return self.tally.records

    @property
    def found(self) -> tuple[int, int]:
        """The records' best moves and exact hits (the class goal)."""
        return self.tally.found

    def view(self, side: int | None) -> View:
        """`engine.view.view` of the state now for `side` (each drawn once per state: every
        device of a game, and the teacher's overview, look at the same state)."""
        if self._viewed is not self.state:
            self._views = {}
            self._viewed = self.state
        seen = self._views.get(side)
        if seen is None:
            seen = self._views[side] = view(self.state, side)
        return seen

    @property
    def computer(self) -> Strength | None:
        return self.settings.computer

    @property
    def humans(self) -> frozenset[int]:
        """The sides people play (every side but the computer's)."""
        sides = range(self.state.config.sides)
        return frozenset(s for s in sides if self.computer is None or s != COMPUTER_SIDE)

    @property
    def over(self) -> bool:
        return self.state.outcome is not None

    def sides_of(self, seats: frozenset[str] | set[str]) -> tuple[int, ...]:
        """The sides these seats play in this game, in side order."""
        return tuple(s for s, held in enumerate(self.seats) if set(held) & seats)

    @property
    def all_seats(self) -> tuple[str, ...]:
        return tuple(seat for held in self.seats for seat in held)

    def play(self, action: Action, seat: str | None = None, now: float | None = None) -> None:
        """Apply an action (an illegal one raises the engine's error and changes nothing),
        then let the computer make every decision that is now its own."""
        self._apply(action, seat)
        self.computer_moves()
        if now is not None:
            self.time_answers(now)

    def _apply(self, action: Action, seat: str | None) -> None:
        round_before = self.state.round
        state, events = apply(self.state, action)
        self.state = state
        at = round(self.wall() * 1000)
        self.actions.append(action)
        self.pressed.append((seat, at))
        self.version += 1
        self.keep_laid(events, round_before)
        # A game the lesson closed: the decisions it let run out are nobody's misses.
        counted = None if self.closed and isinstance(action, Timeout) else action
        self.tally.add(counted, events, seat, at)

    def keep_laid(self, events: list[Event], round_now: int) -> None:
        """Remember the cards laid face up, as the devices drew them (a round's facts hold
        only their values, and the projector shows the cards themselves). A laying the state
        still shows after `events` is kept with its suits; one the same action also took off
        the table (a round decided at its flip) only by its values."""
        last = {e.side: i for i, e in enumerate(events) if isinstance(e, CardsLaid)}
        for i, event in enumerate(events):
            if isinstance(event, RoundStarted):
                round_now = event.round
                self.laid = {r: v for r, v in self.laid.items() if r >= round_now - 1}
            elif isinstance(event, CardsLaid) and event.up:
                cards = self.state.up[event.side] if last[event.side] == i else ()
                if tuple(c.value for c in cards) != event.up:
                    cards = tuple(Card(-1, value) for value in event.up)
                self.laid.setdefault(round_now, {}).setdefault(event.side, []).append(cards)

    def laid_in(self, facts: RoundFacts) -> dict[int, list[tuple[Card, ...]]]:
        """Each side's face-up cards in a round's comparisons, in order (values only when
        they were not kept, or no longer are)."""
        kept = self.laid.get(facts.round, {})
        out: dict[int, list[tuple[Card, ...]]] = {}
        for play in (p for c in facts.comparisons for p in c.plays if p.up):
            mine = out.setdefault(play.side, [])
            known = kept.get(play.side, [])
            cards = known[len(mine)] if len(mine) < len(known) else ()
            if tuple(c.value for c in cards) != play.up:
                cards = tuple(Card(-1, value) for value in play.up)
            mine.append(cards)
        return out

    def computer_moves(self) -> None:
        """The computer decides as soon as the game waits for it (regn mode; in auto mode
        the engine decides everything at a flip)."""
        strength = self.computer
        if strength is None or self.state.config.mode is Mode.AUTO:
            return
        while True:
            rate = self.best_rate() if self.best_rate is not None else None
            move = choose(self.state, COMPUTER_SIDE, strength, self.rng, rate)
            if move is None:
                return
            self._apply(move, None)

    # -- time ------------------------------------------------------------------------------

    @property
    def answer_seconds(self) -> int:
        return self.settings.answer_seconds

    def time_answers(self, now: float) -> None:
        """Each awaited human side gets the answer time from when its decision was asked (a
        fresh one in every decision window: the computer answering at once must not leave
        the pupil the time left of an earlier round); sides no longer awaited lose theirs.
        A decision asked while the clocks stand gets its whole time once they go again."""
        if self.answer_seconds <= 0 or self.over:
            self.answer_deadlines.clear()
            return
        if self.answer_window != self.state.window:
            self.answer_deadlines.clear()
            self.answer_window = self.state.window
        timed = deciding(self.state) is not None
        awaited = {s for s in self.state.pending if s in self.humans} if timed else set()
        for side in list(self.answer_deadlines):
            if side not in awaited:
                del self.answer_deadlines[side]
        start = self.clock_at(now)
        for side in awaited:
            self.answer_deadlines.setdefault(side, start + self.answer_seconds)

    def clock_at(self, now: float) -> float:
        """The moment the game's clocks show: now, or the moment they stopped."""
        return now if self.stopped_at is None else self.stopped_at

    def time_left(self, now: float) -> float | None:
        """Seconds left of the time limit (None: no limit), standing still in a pause."""
        if self.deadline is None:
            return None
        return self.deadline - self.clock_at(now)

    def answer_left(self, side: int, now: float) -> float | None:
        """Seconds left of the side's answer time (None: none runs), standing in a pause."""
        at = self.answer_deadlines.get(side)
        return None if at is None else at - self.clock_at(now)

    def extend(self, side: int) -> bool:
        """More answer time for a side (WCAG 2.2.1), at most `EXTENSIONS` times a game."""
        if side not in self.answer_deadlines or self.extensions.get(side, 0) >= EXTENSIONS:
            return False
        self.extensions[side] = self.extensions.get(side, 0) + 1
        self.answer_deadlines[side] += self.answer_seconds
        self.version += 1
        return True

    def more_minutes(self, minutes: int) -> bool:
        """The teacher gives the game more time (a game with a time limit that has not run
        out yet)."""
        if self.deadline is None or self.over or self.state.time_up:
            return False
        self.deadline += minutes * 60
        self.version += 1
        return True

    def stop(self, now: float) -> None:
        """A pause: the game time and the answer times stand still."""
        if self.stopped_at is None:
            self.stopped_at = now
            self.version += 1

    def go(self, now: float) -> None:
        """The pause is over: every deadline moves on by the time the clocks stood, so each
        clock goes on from where it stopped."""
        if self.stopped_at is None:
            return
        stood = max(0.0, now - self.stopped_at)
        self.stopped_at = None
        self.shift(stood)
        self.version += 1

    def shift(self, seconds: float) -> None:
        """Every deadline moves on by `seconds` (the time the game stood still)."""
        if self.deadline is not None:
            self.deadline += seconds
        for side in self.answer_deadlines:
            self.answer_deadlines[side] += seconds

    def due(self, now: float) -> bool:
        """Whether `tick` would change anything now (read alone, changing nothing)."""
        if self.stopped_at is not None or self.over:
            return False
        if self.deadline is not None and now >= self.deadline and not self.state.time_up:
            return True
        pending = self.state.pending
        return any(now >= at and side in pending for side, at in self.answer_deadlines.items())

    def tick(self, now: float) -> bool:
        """RULES §1.5: when the time limit has run out, the game is told so (it ends between
        rounds, or after the round in play); an answer whose time ran out counts as none
        (RULES §2.2). Nothing runs out while the clocks stand. Returns whether anything
        changed."""
        if self.stopped_at is not None:
            return False
        changed = False
        due = self.deadline is not None and now >= self.deadline
        if due and not self.state.time_up and not self.over:
            self.play(TimeUp(), now=now)
            changed = True
        for side, at in sorted(self.answer_deadlines.items()):
            if now >= at and side in self.state.pending and not self.over:
                self.play(Timeout(side), now=now)
                changed = True
        if changed:
            self.time_answers(now)
        return changed

    def end_as_time_up(self, now: float) -> None:
        """RULES §1.5: the round in play is finished, then the most cards win."""
        if not self.over and not self.state.time_up:
            self.play(TimeUp(), now=now)

    def close(self, now: float) -> None:
        """The lesson stops the game at once, as when its time runs out (RULES §1.5): the
        round in play is finished with no one deciding any more (each decision still open
        runs out: an answer counts as none, RULES §2.2, and no bet is made), then the most
        cards win. Nobody is counted a miss for what the lesson cut short."""
        if self.over:
            return
        self.closed = True
        self.closed_at = len(self.actions)
        self.stopped_at = None
        self.end_as_time_up(now)
        for _ in range(CLOSE_STEPS):
            if self.over:
                break
            timed = deciding(self.state) is not None and self.state.config.mode is not Mode.AUTO
            if timed and self.state.pending:
                self.play(Timeout(self.state.pending[0]))
            else:
                self.play(Flip(self.state.live_sides[0]))
        self.answer_deadlines.clear()
        self.version += 1

    @property
    def hot_seat(self) -> bool:
        """More than one side is played at one screen, so decisions are made in view of
        the others."""
        return self.shared and len(self.humans) > 1

    def replay(self) -> dict[str, Any]:
        """The game as a SCENARIOS.md replay file: configuration, seed and every action."""
        return {
            **self.state.config.to_json(),
            "seed": self.seed,
            "actions": [action_to_json(a) for a in self.actions],
        }


def _dealt(
    game_id: str,
    settings: GameSettings,
    names: tuple[str, ...],
    seats: tuple[tuple[str, ...], ...],
    seed: int,
    now: float,
    wall: Callable[[], float] = time.time,
) -> TableGame:
    """A game as its seed deals it, before anyone acts (a new game, or one replayed)."""
    state, events = new_game(settings.engine, seed)
    game = TableGame(
        wall=wall,
        id=game_id,
        settings=settings,
        names=names,
        seed=seed,
        state=state,
        deadline=None,
        touched=now,
        seats=seats,
        rng=random.Random(seed),
    )
    game.keep_laid(events, 0)
    game.tally.add(None, events, None)
    return game


def _at(ms: int) -> Callable[[], float]:
    """A wall clock stopped at `ms` (a stored action's time, while it is replayed)."""
    return lambda: ms / 1000


class Games:
    """The games in memory, by id (an unguessable token, so a stale tab cannot reach a
    newer game by counting)."""

    def __init__(
        self, clock: Clock, seeds: Callable[[], int] | None = None, *, keep: bool = False
    ) -> None:
        self.clock = clock
        self._seeds = seeds or (lambda: secrets.randbits(32))
        self._games: dict[str, TableGame] = {}
        self._keep = keep  # finished games stay (up to `KEPT`): a class lesson's summary

    def __len__(self) -> int:
        return len(self._games)

    def __iter__(self) -> Any:
        return iter(list(self._games.values()))

    def start(
        self,
        settings: GameSettings,
        names: tuple[str, ...],
        seats: tuple[tuple[str, ...], ...],
        best_rate: Callable[[], Fraction] | None = None,
        shared: bool = False,
    ) -> TableGame:
        """A new game; raises `FullError` when `CAP` games run (a finished or forgotten one
        makes room, a running one never; kept finished games make room only at `KEPT`)."""
        now = self.clock()
        self._forget(now)
        if self._keep and sum(not g.over for g in self._games.values()) >= CAP:
            raise FullError
        while len(self._games) >= (KEPT if self._keep else CAP):
            over = [g for g in self._games.values() if g.over]
            if not over:
                raise FullError
            del self._games[min(over, key=lambda g: g.touched).id]
        game = _dealt(secrets.token_urlsafe(9), settings, names, seats, self._seeds(), now)
        game.best_rate = best_rate
        game.shared = shared
        if settings.minutes:
            game.deadline = now + settings.minutes * 60
        game.computer_moves()
        game.time_answers(now)
        self._games[game.id] = game
        return game

    def restore(
        self,
        game_id: str,
        settings: GameSettings,
        names: tuple[str, ...],
        seats: tuple[tuple[str, ...], ...],
        seed: int,
        played: list[tuple[Action, str | None, int]],
        closed_at: int | None = None,
        started: int | None = None,
    ) -> TableGame:
        """A stored game brought back: dealt from its seed as it was, then every stored
        action replayed with the seat that pressed it and when (wall-clock ms; RULES §1.6),
        so its state, tally (answer times too) and cards laid are what they were. Its clocks
        are the caller's to set."""
        at = started if started is not None else round(time.time() * 1000)
        game = _dealt(game_id, settings, names, seats, seed, self.clock(), _at(at))
        for seq, (action, seat, when) in enumerate(played):
            if seq == closed_at:
                game.closed, game.closed_at = True, closed_at
            game.wall = _at(when)
            game._apply(action, seat)
        game.wall = time.time
        self._games[game.id] = game
        return game

    def get(self, game_id: str) -> TableGame | None:
        now = self.clock()
        self._forget(now)
        game = self._games.get(game_id)
        if game is not None:
            game.touched = now
        return game

    def _forget(self, now: float) -> None:
        for gid in [g.id for g in self._games.values() if now - g.touched > EXPIRY_SECONDS]:
            del self._games[gid]
