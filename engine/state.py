"""The full game state: a frozen value, replaced (never changed) by every action."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card
from engine.config import GameConfig
from engine.events import Event
from engine.rng import GameRng


class Phase(StrEnum):
    """What the game waits for when it waits for no decision. While it waits for one, the
    state's `phase` is that decision itself (`engine.decision.Decision`, a string named by its
    key: "target", "answer", "bet", …)."""

    FLIP = "flip"  # nothing to decide: any player turns the next cards
    OVER = "over"


class Step(StrEnum):
    """What the next flip plays, in every game (a game may have steps of its own, such as
    intervallkrig's endgame: the state's `step` is any string)."""

    ROUND = "round"
    WAR = "war"


class Termination(StrEnum):
    ALL_CARDS = "all_cards"
    TIME_UP = "time_up"
    MAX_ROUNDS = "max_rounds"
    STALEMATE = "stalemate"
    FORFEIT = "forfeit"  # §1.5: a side gave the game up
    ABANDONED = "abandoned"  # §1.5: nobody played it any more


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: int | None  # None: a draw
    reason: Termination
    side: int | None = None  # a forfeit: the side that gave up


@dataclass(frozen=True, slots=True)
class SideState:
    draw: tuple[Card, ...]  # top first
    collection: tuple[Card, ...]
    out: bool = False

    @property
    def count(self) -> int:
        """RULES §1.3: draw pile + collection pile (cards on the table are nobody's)."""
        return len(self.draw) + len(self.collection)


@dataclass(frozen=True, slots=True)
class GamePart:
    """What one game keeps of its own beyond the piles, the pot and the comparison every game
    shares (its module subclasses it: regnekrig's target and answers, intervallkrig's third
    cards and bets). Frozen, like the state that holds it."""

    def face_up(self) -> tuple[Card, ...]:
        """Its cards that lie face up on the table beside the comparison's (`GameState.up`)."""
        return ()


@dataclass(frozen=True, slots=True)
class GameState:
    config: GameConfig
    seed: int
    rng: GameRng
    sides: tuple[SideState, ...]
    set_aside: tuple[Card, ...]
    pot: tuple[tuple[Card, ...], ...]  # cards on the table, by the side that laid them
    up: tuple[tuple[Card, ...], ...]  # each side's face-up cards in the current comparison
    part: GamePart  # the game's own part of the state
    # The rest starts the same in every game (`engine.game.new_game` gives the above).
    battle: tuple[int, ...] = ()  # the sides in the current comparison (a war: the warring sides)
    # `Phase.FLIP`, `Phase.OVER`, or the decision the game waits for (`engine.decision`).
    phase: str = Phase.FLIP
    step: str = Step.ROUND  # what the next flip plays (`Step`, or a step of the game's own)
    pending: tuple[int, ...] = ()  # sides whose decision is awaited, ascending
    round: int = 0
    time_up: bool = False
    seq: int = 0  # the last event's sequence number
    window: int = 0  # counts the decision windows opened: a button from an older one is stale
    outcome: Outcome | None = None
    # RULES §1.5: each side's answers and bets run out of time in a row (any decision of its
    # own starts the count again); a game nobody plays is abandoned from it.
    misses: tuple[int, ...] = ()
    # What a screen tells about the rounds (`engine.view`): the events since the round in play
    # began (once it is decided, until the next one begins, the decided round), and the round
    # before it. They are the engine's own events, so a restored game has them too.
    story: tuple[Event, ...] = ()
    last_story: tuple[Event, ...] = ()

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(side.count for side in self.sides)

    @property
    def table_count(self) -> int:
        return sum(len(cards) for cards in self.pot)

    @property
    def live_sides(self) -> tuple[int, ...]:
        return tuple(i for i, side in enumerate(self.sides) if not side.out)

    def all_cards(self) -> list[Card]:
        """Every card dealt, wherever it is now (RULES §4 card conservation)."""
        cards: list[Card] = list(self.set_aside)
        for side in self.sides:
            cards.extend(side.draw)
            cards.extend(side.collection)
        for laid in self.pot:
            cards.extend(laid)
        return cards
