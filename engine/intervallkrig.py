"""Intervallkrig and Satsing (RULES.md §3): will the third card land inside your interval?

The two games as units: their part of the state, their dealers, satsing's one decision (the
swap bet) with its actions and choices, how the computer bets, their view facts and their
descriptors.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from types import MappingProxyType
from typing import ClassVar

from engine.actions import Action, Choice, ChoiceKind, Shape, SideAction, Tone, needs_value
from engine.cards import Card
from engine.dealer import Dealer, ranked, writable
from engine.decision import Decision
from engine.descriptor import GameDescriptor
from engine.errors import IllegalActionError, Refusal
from engine.events import (
    BetPlaced,
    CardsLaid,
    Decided,
    EndgameShuffled,
    Passed,
    RoundStarted,
    Swapped,
    ThirdDrawn,
    WarDeclared,
)
from engine.facts import GameFacts, War
from engine.hints import swap_chances
from engine.intervallkrig_story import STORY, interval_play, interval_why
from engine.options import (
    ANSWER_TIME,
    DECK,
    SIDES_OPTION,
    TEAMS,
    TIME_LIMIT,
    WAR_RULE,
    Mode,
    WarRule,
)
from engine.state import GamePart, GameState, Phase, Step
from engine.strength import Strength

BET_CARDS = 2  # §3.3: a bet lays two cards face down into the pot
MIN_CARDS_TO_BET = 4  # §3.3 [decision]: two to bet, one replacement, one third card
ENDGAME_THREE = 3  # §3.4
MAX_THREE_CARD_TIES = 3  # §3.4 [decision]: then the pot goes back to its owners
PASS = -1  # in `IntervalPart.bets`: the side decided not to bet


class EndgameStep(StrEnum):
    """What the next flip plays in the endgame (RULES §3.4), beside a round and a war."""

    THREE_CARD_WAR = "three_card_war"  # exactly three
    ONE_CARD = "one_card"  # two or one (and its ties)


_WAR_KIND: dict[str, str] = {
    Step.WAR: "war",
    EndgameStep.THREE_CARD_WAR: "three_card",
    EndgameStep.ONE_CARD: "one_card",
}
# RULES §3.2: one card face down in a war; §3.4: two of the three played cards; one card each.
_WAR_FACE_DOWN = {"war": 1, "three_card": 2, "one_card": 0}


# -- satsing's actions ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bet(SideAction):
    """RULES §3.3: bet two cards and swap the interval card at index `swap` (0 or 1)."""

    kind: ClassVar[str] = "bet"
    swap: int


@dataclass(frozen=True, slots=True)
class Pass(SideAction):
    """RULES §3.3: no bet this round."""

    kind: ClassVar[str] = "pass"


BET_CHOICE = ChoiceKind(
    "bet",
    Shape.PRESS,
    lambda side, value, text: Bet(side, needs_value(value, "bet")),
    value_labels=MappingProxyType({0: "button.bet_left", 1: "button.bet_right"}),
    tone=Tone.GO,
)
PASS_CHOICE = ChoiceKind(
    "pass", Shape.PRESS, lambda side, value, text: Pass(side), label="button.no_bet"
)


# -- the games' own part of the state ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class IntervalPart(GamePart):
    third: tuple[Card | None, ...]  # each side's third card this round
    bets: tuple[int | None, ...]  # satsing: None undecided, PASS, or the index of the card swapped
    three_card_round: bool = False  # RULES §3.4: the round began with the smallest count three
    ties: int = 0  # RULES §3.4: three-card wars tied in a row

    def face_up(self) -> tuple[Card, ...]:
        return tuple(c for c in self.third if c is not None)


def part_of(state: GameState) -> IntervalPart:
    part = state.part
    assert isinstance(part, IntervalPart)
    return part


def inside(interval: tuple[Card, ...], card: Card) -> bool:
    """§3.1: the closed interval [min, max]; equal to an end counts."""
    low, high = sorted(c.value for c in interval)
    return low <= card.value <= high


class IntervalDealer(Dealer):
    __slots__ = ("bets", "third", "three_card_round", "ties")

    ONE_CARD_ROUNDS = True
    BETTING = False  # §3.3: satsing's swap bets (`SatsingDealer`)

    @classmethod
    def new_part(cls, sides: int) -> IntervalPart:
        return IntervalPart((None,) * sides, (None,) * sides)

    def thaw(self, part: GamePart) -> None:
        assert isinstance(part, IntervalPart)
        self.third: list[Card | None] = list(part.third)
        self.bets: list[int | None] = list(part.bets)
        self.three_card_round = part.three_card_round
        self.ties = part.ties

    def freeze_part(self) -> IntervalPart:
        return IntervalPart(tuple(self.third), tuple(self.bets), self.three_card_round, self.ties)

    def clear_part(self) -> None:
        self.third = [None] * self.sides
        self.bets = [None] * self.sides

    def war_key(self, card: Card) -> int:
        """§3.2: closest to zero wins (option: highest value)."""
        if self.config.war_rule is WarRule.HIGHEST:
            return card.value
        return -abs(card.value)

    @property
    def bets_allowed(self) -> bool:
        return self.BETTING

    def can_bet(self, side: int) -> bool:
        """Checked after the side's two interval cards are laid."""
        return self.count(side) >= MIN_CARDS_TO_BET

    # -- the flow of a round ----------------------------------------------------------------

    def schedule_round(self) -> None:
        self.pending = []
        live = self.live()
        smallest = min(self.count(s) for s in live)
        # A satsing round opens its betting window at once (the bet is the pause); every other
        # round waits for a player to flip, so the board can show each result.
        opens_window = self.bets_allowed and smallest >= ENDGAME_THREE
        if opens_window and any(self.count(s) - 2 >= MIN_CARDS_TO_BET for s in live):
            self.begin_round()
        else:
            self.wait_for_flip(Step.ROUND)

    def play_flip(self) -> None:
        if self.step is Step.ROUND:
            self.begin_round()
        elif self.step is Step.WAR:
            self.fight_war()
        elif self.step is EndgameStep.THREE_CARD_WAR:
            self.three_card_war()
        else:
            self.one_card_battle()

    def begin_round(self) -> None:
        self.clear_comparison()
        self.round += 1
        self.ties = 0
        self.emit(RoundStarted, round=self.round)
        live = self.live()
        self.battle = tuple(live)
        smallest = min(self.count(s) for s in live)
        self.three_card_round = smallest == ENDGAME_THREE
        if smallest < ENDGAME_THREE:
            self.one_card_battle()  # §3.4: two or one card left
            return
        for side in live:
            laid = self.lay(side, 2)
            self.up[side] = tuple(laid)
            self.emit(CardsLaid, side=side, up=tuple(c.value for c in laid), down=0)
        if self.bets_allowed:
            eligible = [s for s in live if self.can_bet(s)]
            if eligible:
                self.open_window(BET, eligible)
                self.bets = [None] * self.sides
                return
        self.draw_thirds()

    # -- swap bets (§3.3) --------------------------------------------------------------------

    def decide_bet(self, side: int, swap: int) -> None:
        self.bets[side] = swap
        self.pending.remove(side)
        self.emit(Decided, side=side)
        if not self.pending:
            self.resolve_bets()

    def resolve_bets(self) -> None:
        """Every side has decided: the bets are revealed and the swaps made, side by side."""
        for side in self.battle:
            swap = self.bets[side]
            if swap is None:
                continue  # not allowed to bet this round
            if swap == PASS:
                self.emit(Passed, side=side)
                continue
            self.lay(side, BET_CARDS)
            replacement = self.next_card(side)
            assert replacement is not None  # guaranteed by MIN_CARDS_TO_BET
            interval = list(self.up[side])
            replaced = interval[swap]
            interval[swap] = replacement
            self.up[side] = tuple(interval)
            pot = writable(self.pot, side)
            pot.remove(replaced)
            pot.append(replacement)
            writable(self.collection, side).append(replaced)  # §3.3: to its own collection pile
            self.emit(BetPlaced, side=side, swap=swap)
            self.emit(Swapped, side=side, out=replaced.value, in_=replacement.value)
        self.pending = []
        self.draw_thirds()

    # -- the third card and the result ---------------------------------------------------------

    def draw_thirds(self) -> None:
        succeeded: list[int] = []
        for side in self.battle:
            laid = self.lay(side, 1)
            if not laid:
                continue
            card = laid[0]
            self.third[side] = card
            hit = inside(self.up[side], card)
            self.emit(ThirdDrawn, side=side, card=card.value, inside=hit)
            if hit:
                succeeded.append(side)
        if len(succeeded) == 1:
            self.take_pot(succeeded[0])
            return
        warring = tuple(succeeded) if succeeded else self.battle
        if self.three_card_round:
            for side in warring:
                third = self.third[side]
                self.up[side] = (*self.up[side], *((third,) if third else ()))
            self.declare_war(warring, EndgameStep.THREE_CARD_WAR)
        else:
            for side in warring:
                third = self.third[side]
                if third is not None:
                    self.up[side] = (third,)  # §3.5: the last face-up card
            self.declare_war(warring, Step.WAR)

    def declare_war(self, sides: tuple[int, ...], step: str) -> None:
        self.emit(WarDeclared, sides=sides, kind=_WAR_KIND[step])
        self.battle = sides
        self.wait_for_flip(step)

    def lay_face_up(self, down: int) -> bool:
        """Each warring side lays `down` face down and one face up; a side with too few cards
        lays face up first, and one with none keeps its last face-up card (§3.5). False when no
        side could lay a new card."""
        laid_any = False
        for side in self.battle:
            n = self.count(side)
            face_down = self.lay(side, down) if n > down else []
            face_up = self.lay(side, 1)
            if face_up:
                self.up[side] = (face_up[0],)
                laid_any = True
            self.emit(CardsLaid, side=side, up=tuple(c.value for c in face_up), down=len(face_down))
        return laid_any

    def settle(self, step: str) -> None:
        winners = ranked((s, self.war_key(self.up[s][-1])) for s in self.battle)
        if len(winners) == 1:
            self.take_pot(winners[0])
        else:
            self.declare_war(tuple(winners), step)

    def fight_war(self) -> None:
        """§3.2: one card face down, one face up; closest to zero (or highest) wins."""
        if not self.lay_face_up(1):
            self.stalemate()  # §3.5: nobody can lay a new card and the tie remains
            return
        self.settle(Step.WAR)

    def one_card_battle(self) -> None:
        """§3.4 two or one: just one card each, face up; ties: another card each."""
        if not self.lay_face_up(0):
            self.stalemate()
            return
        self.settle(EndgameStep.ONE_CARD)

    def three_card_war(self) -> None:
        """§3.4 exactly three: each warring side shuffles its three played cards, lays two face
        down and turns the third. A tie repeats with the same cards, reshuffled; after three
        ties in a row the pot goes back to its owners."""
        for side in self.battle:
            played = list(self.up[side])
            self.rng, shuffled = self.rng.shuffle(played)
            pot = writable(self.pot, side)
            for card in played:
                pot.remove(card)
            pot.extend(shuffled)
            self.up[side] = tuple(shuffled)
            self.emit(EndgameShuffled, side=side, order=tuple(c.id for c in shuffled))
            self.emit(CardsLaid, side=side, up=(shuffled[-1].value,), down=len(shuffled) - 1)
        winners = ranked((s, self.war_key(self.up[s][-1])) for s in self.battle)
        if len(winners) == 1:
            self.ties = 0
            self.take_pot(winners[0])
            return
        self.ties += 1
        if self.ties >= MAX_THREE_CARD_TIES:
            self.ties = 0
            self.return_pot()
            self.between_rounds()
        else:
            self.declare_war(tuple(winners), EndgameStep.THREE_CARD_WAR)


class SatsingDealer(IntervalDealer):
    """Satsing (RULES §3.3): intervallkrig with swap bets."""

    __slots__ = ()

    BETTING = True


# -- satsing's decision: the swap bet (§3.3) -------------------------------------------------


class BetDecision(Decision[IntervalDealer]):
    """RULES §3.3: every side that may bet decides at once, in secret; the bets are revealed
    and the swaps made together. Running out of time, or auto mode, is no bet."""

    actions = (Bet, Pass)
    kinds = (BET_CHOICE, PASS_CHOICE)
    prompt = "board.prompt.bet"
    prompt_auto = "board.prompt.bet"
    statuses = MappingProxyType(
        {
            "awaited": "board.status.deciding",
            "decided": "board.status.decided",
            "cannot_bet": "board.status.cannot_bet",
            "watching": "board.status.watching",
        }
    )

    def check(self, state: GameState, action: SideAction) -> None:
        if isinstance(action, Bet) and action.swap not in (0, 1):
            raise IllegalActionError(
                "swap is 0 (the first card) or 1 (the second)",
                code=Refusal.BAD_SWAP,
                swap=action.swap,
            )

    def apply(self, dealer: IntervalDealer, action: SideAction) -> None:
        dealer.decide_bet(action.side, action.swap if isinstance(action, Bet) else PASS)

    def timeout(self, dealer: IntervalDealer, side: int) -> None:
        dealer.decide_bet(side, PASS)

    def choices(self, state: GameState, side: int) -> tuple[Choice, ...]:
        return _bets(side)

    def asked(self, state: GameState, side: int) -> bool:
        return side in state.pending or part_of(state).bets[side] is not None

    def refuse(self, state: GameState, side: int) -> IllegalActionError:
        if side in state.battle and part_of(state).bets[side] is None:
            return IllegalActionError(
                f"side {side} has too few cards to bet", code=Refusal.CANNOT_BET, side=side
            )
        return super().refuse(state, side)

    def computer(
        self,
        state: GameState,
        side: int,
        strength: Strength,
        rng: random.Random,
        best_rate: Fraction | None,
    ) -> Action:
        if strength is Strength.EASY:
            options: list[Action] = [Bet(side, 0), Bet(side, 1), Pass(side), Pass(side)]
            return rng.choice(options)
        chances = swap_chances(state, side)
        swap = 0 if chances.swap[0] >= chances.swap[1] else 1
        gain = chances.swap[swap] - chances.now
        if strength is Strength.MEDIUM:
            return Bet(side, swap) if gain >= Fraction(1, 4) else Pass(side)
        # Hard: bet when the gain in chance is worth the two cards it costs, valued against the
        # pot the side would take (everything on the table plus its own two bet cards).
        pot_if_won = state.table_count + BET_CARDS
        return Bet(side, swap) if gain * pot_if_won >= BET_CARDS else Pass(side)


BET = BetDecision("bet")


@cache
def _bets(side: int) -> tuple[Choice, ...]:
    return (
        Choice(BET_CHOICE, side, Bet(side, 0), 0),
        Choice(BET_CHOICE, side, Bet(side, 1), 1),
        Choice(PASS_CHOICE, side, Pass(side)),
    )


# -- what a screen shows of them ---------------------------------------------------------------


def endgame(state: GameState) -> str | None:
    """§3.4: the smallest count among the live sides decides the next round's rule."""
    live = [s.count for s in state.sides if not s.out]
    smallest = min(live) if live else 0
    if smallest < ENDGAME_THREE:
        return "one_card"
    return "three_card" if smallest == ENDGAME_THREE else None


def interval_facts(state: GameState, viewer: int | None) -> GameFacts:
    """The war waiting for its flip, the endgame the next round is played by, each side's
    third card, and in a betting window who may ask for a hint and the viewer's own bet."""
    part = part_of(state)
    war = endgame_next = None
    if state.phase is Phase.FLIP and state.outcome is None:
        if state.step is Step.ROUND:
            endgame_next = endgame(state)
        else:
            kind = _WAR_KIND[state.step]
            war = War(kind, state.battle, _WAR_FACE_DOWN[kind])
    betting = state.phase is BET
    hints = state.pending if betting else ()
    return GameFacts(
        war=war,
        endgame=endgame_next,
        thirds=part.third,
        hints=hints,
        own_bet=part.bets[viewer] if betting and viewer is not None else None,
    )


# Satsing is intervallkrig with bets: the same options and the same wars, endgame and end.
_INTERVAL_OPTIONS = (DECK, SIDES_OPTION, TEAMS, WAR_RULE, TIME_LIMIT)
_INTERVAL_RULES_END = (
    ("rules.heading.war", "rules.intervallkrig.war"),
    ("rules.heading.endgame", "rules.intervallkrig.endgame"),
    ("rules.heading.end", "rules.common.end"),
)
INTERVALLKRIG = GameDescriptor(
    key="intervallkrig",
    dealer=IntervalDealer,
    emoji="↔️",
    colour=0x22C55E,  # green
    options=_INTERVAL_OPTIONS,
    decisions=(),  # nothing to decide: a flip plays every step
    modes=(),  # nothing to decide: the mode changes nothing
    # rated_modes empty: the cards alone decide plain intervallkrig
    rules=(
        ("rules.heading.round", "rules.intervallkrig.round"),
        ("rules.heading.example", "rules.intervallkrig.example"),
        *_INTERVAL_RULES_END,
    ),
    facts=interval_facts,
    why=interval_why,
    story=STORY,
    play=interval_play,
)
SATSING = GameDescriptor(
    key="satsing",
    dealer=SatsingDealer,  # RULES §3.3: the swap bets
    emoji="🎲",
    colour=0xF59E0B,  # amber
    options=(*_INTERVAL_OPTIONS, ANSWER_TIME),  # the bets are timed
    decisions=(BET,),
    modes=(Mode.REGN,),  # the bets are the game: a screen always asks for them
    rated_modes=(Mode.REGN,),  # choosing when to bet is the skill
    rules=(
        ("rules.heading.round", "rules.satsing.round"),
        ("rules.heading.bet", "rules.satsing.bet"),
        ("rules.heading.hint", "rules.satsing.hint"),
        ("rules.heading.example", "rules.satsing.example"),
        *_INTERVAL_RULES_END,
    ),
    facts=interval_facts,
    why=interval_why,
    story=STORY,
    play=interval_play,
)
