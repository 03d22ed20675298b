"""Intervallkrig and Satsing (RULES.md §3): will the third card land inside your interval?"""

from __future__ import annotations

from engine.cards import Card
from engine.config import WarRule
from engine.dealer import Dealer, ranked, writable
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
from engine.state import PASS, GameState, Phase, Step

BET_CARDS = 2  # §3.3: a bet lays two cards face down into the pot
MIN_CARDS_TO_BET = 4  # §3.3 [decision]: two to bet, one replacement, one third card
ENDGAME_THREE = 3  # §3.4
MAX_THREE_CARD_TIES = 3  # §3.4 [decision]: then the pot goes back to its owners

_WAR_KIND = {Step.WAR: "war", Step.THREE_CARD_WAR: "three_card", Step.ONE_CARD: "one_card"}


def inside(interval: tuple[Card, ...], card: Card) -> bool:
    """§3.1: the closed interval [min, max]; equal to an end counts."""
    low, high = sorted(c.value for c in interval)
    return low <= card.value <= high


class IntervalDealer(Dealer):
    __slots__ = ()

    ONE_CARD_ROUNDS = True
    BETTING = False  # §3.3: satsing's swap bets (`SatsingDealer`)

    @staticmethod
    def endgame(state: GameState) -> str | None:
        """§3.4: the smallest count among the live sides decides the next round's rule."""
        live = [s.count for s in state.sides if not s.out]
        smallest = min(live) if live else 0
        if smallest < ENDGAME_THREE:
            return "one_card"
        return "three_card" if smallest == ENDGAME_THREE else None

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
        elif self.step is Step.THREE_CARD_WAR:
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
                self.open_window(Phase.BET, eligible)
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
            self.declare_war(warring, Step.THREE_CARD_WAR)
        else:
            for side in warring:
                third = self.third[side]
                if third is not None:
                    self.up[side] = (third,)  # §3.5: the last face-up card
            self.declare_war(warring, Step.WAR)

    def declare_war(self, sides: tuple[int, ...], step: Step) -> None:
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

    def settle(self, step: Step) -> None:
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
        self.settle(Step.ONE_CARD)

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
            self.declare_war(tuple(winners), Step.THREE_CARD_WAR)


class SatsingDealer(IntervalDealer):
    """Satsing (RULES §3.3): intervallkrig with swap bets."""

    __slots__ = ()

    BETTING = True
