"""The dealer: the mutable working copy of one game that a single `apply` plays on, dealing,
laying cards on the table, settling rounds and wars and ending the game.

`apply` copies the frozen `GameState` into a `Dealer`, lets the game's rules move cards and
emit events on it, and freezes the result into a new state; the old state is never touched,
so a refused action changes nothing. This module holds what every game shares: piles,
reshuffles (RULES §1.3), the pot, taking and returning it, sides going out and the end of
the game (§1.5). The games subclass it (`engine.regnekrig`, `engine.intervallkrig`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields
from typing import TypeVar

from engine.cards import Card
from engine.config import GameConfig, Mode
from engine.events import (
    Event,
    GameOver,
    PileReshuffled,
    PotReturned,
    RoundStarted,
    RoundWon,
    SideOut,
)
from engine.rng import GameRng
from engine.state import GamePart, GameState, Outcome, Phase, SideState, Termination

E = TypeVar("E", bound=Event)


class Dealer:
    """One `apply`'s working copy. Piles are copied on write: they start as the frozen state's
    own tuples and become lists only when a rule changes them (`writable`), and `freeze`
    reuses every tuple and `SideState` that did not change. An `apply` touches a few piles of
    a few sides, and copying every pile in and out was a fixed cost on every one (the
    benchmark plays two `apply`s per round at levels 5–7)."""

    # Slots (a round reads and writes these attributes hundreds of times): every field of the
    # state, plus the per-side piles as lists of their own and the apply's events. A game's
    # dealer adds the slots of its own part (`thaw`, `freeze_part`).
    __slots__ = (
        *(f.name for f in fields(GameState)),
        "draw",
        "collection",
        "out",
        "state",
        "events",
        "round_starts",
    )

    # What a game says of itself (its dealer subclass overrides them).
    ONE_CARD_ROUNDS = False  # whether a round may be played one card each (RULES §3.4)

    def __init__(self, state: GameState) -> None:
        self.state = state  # the input, never changed: `freeze` reuses what is still equal
        self.config: GameConfig = state.config
        self.sides = len(state.sides)
        self.seed = state.seed
        self.rng: GameRng = state.rng
        self.draw: list[Sequence[Card]] = [s.draw for s in state.sides]  # top first
        self.collection: list[Sequence[Card]] = [s.collection for s in state.sides]
        self.out: list[bool] = [s.out for s in state.sides]
        self.set_aside = state.set_aside
        self.pot: list[Sequence[Card]] = list(state.pot)
        self.up: list[tuple[Card, ...]] = list(state.up)
        self.battle: tuple[int, ...] = state.battle
        self.phase: str = state.phase
        self.step: str = state.step
        self.pending: list[int] = list(state.pending)
        self.round = state.round
        self.time_up = state.time_up
        self.seq = state.seq
        self.window = state.window
        self.misses: tuple[int, ...] = state.misses  # replaced whole when a count changes
        self.outcome: Outcome | None = state.outcome
        self.events: list[Event] = []
        # Where in `events` a round began: the stories are cut from the events at `freeze`, so
        # an apply that begins no round only appends its events to the story in play.
        self.round_starts: list[int] = []
        self.thaw(state.part)

    # -- the game's own part ----------------------------------------------------------------

    @classmethod
    def new_part(cls, sides: int) -> GamePart:
        """The game's own part of a new game's state."""
        return GamePart()

    def thaw(self, part: GamePart) -> None:
        """Take the game's own part of the state into this dealer's own slots."""
        self.part = part

    def freeze_part(self) -> GamePart:
        """The game's own part as the new state keeps it."""
        return self.part

    def clear_part(self) -> None:
        """Forget the game's own part of the comparison that ended (answers, bets, …)."""

    # -- freezing -----------------------------------------------------------------------

    def freeze(self) -> GameState:
        sides = tuple(
            [
                old
                if d is old.draw and c is old.collection and o == old.out
                else SideState(tuple(d), tuple(c), o)
                for old, d, c, o in zip(
                    self.state.sides, self.draw, self.collection, self.out, strict=True
                )
            ]
        )
        return GameState(
            config=self.config,
            seed=self.seed,
            rng=self.rng,
            sides=sides,
            set_aside=self.set_aside,
            pot=tuple(map(tuple, self.pot)),
            up=tuple(self.up),
            part=self.freeze_part(),
            battle=self.battle,
            phase=self.phase,
            step=self.step,
            pending=tuple(sorted(self.pending)),
            round=self.round,
            time_up=self.time_up,
            seq=self.seq,
            window=self.window,
            outcome=self.outcome,
            misses=self.misses,
            **self._stories(),
        )

    def _stories(self) -> dict[str, tuple[Event, ...]]:
        """The round in play's events and the round's before it (see `GameState.story`)."""
        state, events, starts = self.state, self.events, self.round_starts
        if not starts:
            return {"story": state.story + tuple(events), "last_story": state.last_story}
        last = starts[-1]
        if len(starts) == 1:
            before = state.story + tuple(events[:last])
        else:
            before = tuple(events[starts[-2] : last])
        return {"story": tuple(events[last:]), "last_story": before}

    def emit(self, cls: type[E], **fields: object) -> E:
        self.seq += 1
        event = cls(seq=self.seq, **fields)
        self.events.append(event)
        if cls is RoundStarted:  # a new round: the one before becomes the last told
            self.round_starts.append(len(self.events) - 1)
        return event

    # -- sides and cards ----------------------------------------------------------------

    @property
    def auto(self) -> bool:
        return self.config.mode is Mode.AUTO

    def live(self) -> list[int]:
        return [side for side, out in enumerate(self.out) if not out]

    def count(self, side: int) -> int:
        return len(self.draw[side]) + len(self.collection[side])

    def next_card(self, side: int) -> Card | None:
        """The top card of the side's draw pile, shuffling its collection pile in when the draw
        pile is empty (RULES §1.3); None when the side has no card at all."""
        if not self.draw[side]:
            if not self.collection[side]:
                return None
            self.rng, shuffled = self.rng.shuffle(self.collection[side])
            self.draw[side] = shuffled
            self.collection[side] = ()
            self.emit(
                PileReshuffled,
                side=side,
                cards=len(shuffled),
                order=tuple(c.id for c in shuffled),
            )
        return writable(self.draw, side).pop(0)

    def lay(self, side: int, n: int) -> tuple[Card, ...]:
        """Up to `n` cards from the side's pile onto the table (fewer if it has fewer)."""
        pile = self.draw[side]
        if n == 0:
            return ()
        if n <= len(pile):
            # The common case: no reshuffle on the way, so one slice instead of n pops.
            laid = tuple(pile[:n])
            self.draw[side] = pile[n:]
        else:
            cards: list[Card] = []
            for _ in range(n):
                card = self.next_card(side)
                if card is None:
                    break
                cards.append(card)
            laid = tuple(cards)
        if laid:
            writable(self.pot, side).extend(laid)
        return laid

    def take_pot(self, winner: int) -> None:
        """The winner takes every card on the table, from every side (RULES §1.4)."""
        won = [card for laid in self.pot for card in laid]
        if won:
            writable(self.collection, winner).extend(won)
        self.pot = [()] * self.sides
        self.emit(RoundWon, side=winner, cards=len(won))
        self.between_rounds()

    def return_pot(self) -> None:
        """Every side takes back the cards it laid (RULES §2.4 stalemate, §3.4 three ties)."""
        returned = tuple(len(p) for p in self.pot)
        for side, laid in enumerate(self.pot):
            if laid:
                writable(self.collection, side).extend(laid)
        self.pot = [()] * self.sides
        self.emit(PotReturned, cards=returned)

    def clear_comparison(self) -> None:
        self.up = [()] * self.sides
        self.pending = []
        self.clear_part()

    # -- the end of a round and of the game ------------------------------------------------

    def between_rounds(self) -> None:
        """RULES §1.5: sides with no card are out; one side left, time up or the round cap end
        the game; otherwise the next round is set up."""
        for side in self.live():
            if self.count(side) == 0:
                self.out[side] = True
                self.emit(SideOut, side=side)
        live = self.live()
        if len(live) <= 1:
            self.finish(Termination.ALL_CARDS, winner=live[0] if live else None)
        elif self.time_up:
            self.finish(Termination.TIME_UP)
        elif self.round >= self.config.max_rounds:
            self.finish(Termination.MAX_ROUNDS)
        else:
            self.battle = ()
            self.schedule_round()

    def finish(self, reason: Termination, winner: int | None = None) -> None:
        """End the game; without a given winner the side with the most cards wins, equal most
        is a draw (RULES §1.5)."""
        if reason is not Termination.ALL_CARDS:
            winner = self.most_cards(range(self.sides))
        self.end(reason, winner)

    def most_cards(self, sides: Iterable[int]) -> int | None:
        """The one side among `sides` with the most cards (draw and collection piles, not the
        table); None when several share the most."""
        counts = {s: self.count(s) for s in sides}
        most = max(counts.values())
        leaders = [s for s, c in counts.items() if c == most]
        return leaders[0] if len(leaders) == 1 else None

    def end(self, reason: Termination, winner: int | None, side: int | None = None) -> None:
        self.outcome = Outcome(winner, reason, side)
        self.phase = Phase.OVER
        self.pending = []
        self.emit(GameOver, winner=winner, reason=reason.value, side=side)

    def forfeit(self, side: int) -> None:
        """RULES §1.5: the side gives up and the game ends at once, the cards on the table
        staying where they are: with two sides the other wins, with more the side with the most
        cards among the others (equal most: a draw)."""
        self.end(
            Termination.FORFEIT, self.most_cards(s for s in range(self.sides) if s != side), side
        )

    def stalemate(self) -> None:
        """No side can go on: every side takes back its cards and the game ends as when time
        runs out (RULES §2.4, §3.5)."""
        self.return_pot()
        self.clear_comparison()
        self.finish(Termination.STALEMATE)

    def open_window(self, phase: str, pending: list[int]) -> None:
        """Wait for a new decision (or a flip); buttons of earlier windows become stale."""
        self.phase = phase
        self.pending = pending
        self.window += 1

    def wait_for_flip(self, step: str) -> None:
        self.step = step
        self.open_window(Phase.FLIP, [])

    # -- what each game provides -----------------------------------------------------------

    def schedule_round(self) -> None:
        """Set up the next round: wait for its first decision or for a flip."""
        raise NotImplementedError

    def play_flip(self) -> None:
        """Play the step a flip plays (`step`)."""
        raise NotImplementedError


def writable(piles: list[Sequence[Card]], side: int) -> list[Card]:
    """The side's pile in `piles` as a list the caller may change: a frozen tuple is copied
    into a list of its own on the first change (copy on write, see `Dealer`)."""
    pile = piles[side]
    if isinstance(pile, list):
        return pile
    copy = list(pile)
    piles[side] = copy
    return copy


def ranked(values: Iterable[tuple[int, object]]) -> list[int]:
    """The sides holding the best key in (side, key) pairs (keys compare with >)."""
    best: list[int] = []
    best_key: object = None
    for side, key in values:
        if not best or key > best_key:  # type: ignore[operator]
            best, best_key = [side], key
        elif key == best_key:
            best.append(side)
    return best
