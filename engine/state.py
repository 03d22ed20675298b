"""The full game state: a frozen value, replaced (never changed) by every action."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card
from engine.config import GameConfig
from engine.events import Event
from engine.judge import Verdict
from engine.rng import GameRng


class Phase(StrEnum):
    FLIP = "flip"  # nothing to decide: any player turns the next cards
    TARGET = "target"  # the naming side names the round's target (regnekrig 5–7, regn mode)
    ANSWER = "answer"  # the sides in the comparison give their answers (regn mode)
    BET = "bet"  # satsing: the betting window, decided secretly and revealed together
    OVER = "over"


class Step(StrEnum):
    """What the next flip plays."""

    ROUND = "round"
    WAR = "war"
    THREE_CARD_WAR = "three_card_war"  # RULES §3.4, exactly three
    ONE_CARD = "one_card"  # RULES §3.4, two or one (and its ties)


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


PASS = -1  # in `GameState.bets`: the side decided not to bet


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
class GameState:
    config: GameConfig
    seed: int
    rng: GameRng
    sides: tuple[SideState, ...]
    set_aside: tuple[Card, ...]
    pot: tuple[tuple[Card, ...], ...]  # cards on the table, by the side that laid them
    up: tuple[tuple[Card, ...], ...]  # each side's face-up cards in the current comparison
    third: tuple[Card | None, ...]  # intervallkrig: each side's third card this round
    answers: tuple[Verdict | None, ...]
    bets: tuple[int | None, ...]  # None undecided, PASS, or the index of the card to swap
    # The rest starts the same in every game (`engine.game.new_game` gives the above).
    battle: tuple[int, ...] = ()  # the sides in the current comparison (a war: the warring sides)
    phase: Phase = Phase.FLIP
    step: Step = Step.ROUND
    pending: tuple[int, ...] = ()  # sides whose decision is awaited, ascending
    round: int = 0
    target: int | None = None
    namer: int = 0  # the side that names the next target (§2.5: the starter names the first)
    three_card_round: bool = False  # RULES §3.4: the round began with the smallest count three
    ties: int = 0  # RULES §3.4: three-card wars tied in a row
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
