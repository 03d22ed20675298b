"""Velg ("choose"): a toy game with a decision of its own, registered only by the tests.

It measures how much of the product a new game touches (docs/architecture.md, "How to add a
game"): this module and its catalogues (`toy.<lang>.json` beside it) are all it brings. The
shared engine deals, reshuffles, takes and returns the pot, wars and endgames are its own
flow on the shared dealer, and every screen (the Discord board, the browser table) offers
its decision from its `ChoiceKind` alone.

The rules: each round every side lays two cards face up and *keeps* one of them, in secret
(a press: the left card or the right one; running out of time keeps the left one). The kept
cards are revealed together: the highest takes every card on the table. A tie is a war: each
warring side lays one card face down and one face up, and the highest face-up card wins.

The round's story tells each side's decision in the toy's own words (`Kept`, `toy_play`):
every screen's round summary says it without a line about the toy.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import ClassVar

from engine.actions import Action, Choice, ChoiceKind, Shape, SideAction, Tone, needs_value
from engine.cards import Card
from engine.dealer import Dealer, ranked
from engine.decision import Decision
from engine.descriptor import GameDescriptor
from engine.errors import IllegalActionError, Refusal
from engine.events import CardsLaid, Decided, Event, RoundStarted, WarDeclared
from engine.facts import Comparison, Faces, GameFacts, Phrase, Play, PlayDraft, Why
from engine.options import ANSWER_TIME, DECK, MODE, SIDES_OPTION, TIME_LIMIT, Mode
from engine.state import GamePart, GameState, Step
from engine.strength import Strength

KEY = "toy"


@dataclass(frozen=True, slots=True)
class Keep(SideAction):
    """Keep the card at `index` (0: the left one, 1: the right one) of the two laid."""

    kind: ClassVar[str] = "keep"
    index: int


KEEP_CHOICE = ChoiceKind(
    "keep",
    Shape.PRESS,
    lambda side, value, text: Keep(side, needs_value(value, "keep")),
    value_labels=MappingProxyType({0: "toy.button.keep_left", 1: "toy.button.keep_right"}),
    tone=Tone.GO,
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Kept(Event):
    """A side's kept card, revealed with the others' (the toy's own event)."""

    type: ClassVar[str] = "toy_kept"
    side: int
    card: int


@dataclass(frozen=True, slots=True)
class ToyPart(GamePart):
    kept: tuple[int | None, ...]  # each side's kept card this round (its index), None: not yet


def part_of(state: GameState) -> ToyPart:
    part = state.part
    assert isinstance(part, ToyPart)
    return part


class ToyDealer(Dealer):
    __slots__ = ("kept",)

    @classmethod
    def new_part(cls, sides: int) -> ToyPart:
        return ToyPart((None,) * sides)

    def thaw(self, part: GamePart) -> None:
        assert isinstance(part, ToyPart)
        self.kept: list[int | None] = list(part.kept)

    def freeze_part(self) -> ToyPart:
        return ToyPart(tuple(self.kept))

    def clear_part(self) -> None:
        self.kept = [None] * self.sides

    def schedule_round(self) -> None:
        self.wait_for_flip(Step.ROUND)

    def play_flip(self) -> None:
        if self.step is Step.ROUND:
            self.begin_round()
        else:
            self.fight_war()

    def begin_round(self) -> None:
        self.clear_comparison()
        self.round += 1
        self.emit(RoundStarted, round=self.round)
        self.battle = tuple(self.live())
        choosing = []
        for side in self.battle:
            laid = self.lay(side, 2)
            self.up[side] = laid
            self.emit(CardsLaid, side=side, up=tuple(c.value for c in laid), down=0)
            if len(laid) == 2:
                choosing.append(side)
            else:
                self.kept[side] = 0  # one card left: nothing to choose
        if choosing:
            self.open_window(KEEP, choosing)
        else:
            self.reveal()

    def keep(self, side: int, index: int) -> None:
        self.kept[side] = index
        self.pending.remove(side)
        self.emit(Decided, side=side)
        if not self.pending:
            self.reveal()

    def reveal(self) -> None:
        for side in self.battle:
            cards = self.up[side]
            if cards:
                kept = cards[self.kept[side] or 0]
                self.up[side] = (kept,)
                self.emit(Kept, side=side, card=kept.value)
        self.settle()

    def settle(self) -> None:
        winners = ranked((s, self.up[s][-1].value) for s in self.battle if self.up[s])
        if len(winners) == 1:
            self.take_pot(winners[0])
            return
        self.emit(WarDeclared, sides=tuple(winners))
        self.battle = tuple(winners)
        self.wait_for_flip(Step.WAR)

    def fight_war(self) -> None:
        laid_any = False
        for side in self.battle:
            down = self.lay(side, 1) if self.count(side) > 1 else ()
            up = self.lay(side, 1)
            if up:
                self.up[side] = up
                laid_any = True
            self.emit(CardsLaid, side=side, up=tuple(c.value for c in up), down=len(down))
        if laid_any:
            self.settle()
        else:
            self.stalemate()


class KeepDecision(Decision[ToyDealer]):
    """Every side with two cards keeps one, in secret; revealed together."""

    actions = (Keep,)
    kinds = (KEEP_CHOICE,)
    prompt = "toy.prompt.keep"
    prompt_auto = "toy.prompt.keep"
    statuses = MappingProxyType(
        {"awaited": "board.status.deciding", "decided": "board.status.decided"}
    )

    def check(self, state: GameState, action: SideAction) -> None:
        if isinstance(action, Keep) and action.index not in (0, 1):
            raise IllegalActionError(
                "keep 0 (the left card) or 1 (the right)", code=Refusal.MALFORMED_ACTION
            )

    def apply(self, dealer: ToyDealer, action: SideAction) -> None:
        assert isinstance(action, Keep)
        dealer.keep(action.side, action.index)

    def timeout(self, dealer: ToyDealer, side: int) -> None:
        dealer.keep(side, 0)

    def choices(self, state: GameState, side: int) -> tuple[Choice, ...]:
        return tuple(Choice(KEEP_CHOICE, side, Keep(side, i), i) for i in (0, 1))

    def asked(self, state: GameState, side: int) -> bool:
        return side in state.pending or part_of(state).kept[side] is not None

    def computer(
        self,
        state: GameState,
        side: int,
        strength: Strength,
        rng: random.Random,
        best_rate: Fraction | None,
    ) -> Action:
        left, right = state.up[side]
        if strength is Strength.EASY:
            return Keep(side, rng.randrange(2))
        return Keep(side, 0 if left.value >= right.value else 1)


KEEP = KeepDecision("keep")


def toy_facts(state: GameState, viewer: int | None) -> GameFacts:
    """The viewer's own kept card before the reveal, in the toy's own words."""
    if state.phase is not KEEP or viewer is None:
        return GameFacts()
    kept = part_of(state).kept[viewer]
    if kept is None:
        return GameFacts()
    card: Card = state.up[viewer][kept]
    return GameFacts(notes=(Phrase("toy.note.kept", (("card", card.value),)),))


def toy_play(draft: PlayDraft, target: int | None, short: bool) -> Play:
    """A side's play told in the toy's words: its two cards, and the one it kept."""
    kept = next((e for e in draft.own if isinstance(e, Kept)), None)
    if kept is None or len(draft.up) < 2:
        return Play(draft.side, draft.up, draft.down, short, revealed=kept is not None)
    cards = Phrase("result.play.cards", (("cards", Faces(draft.up)),))
    kept_card = Phrase("toy.play.kept", (("card", kept.card),))
    told = ((cards, kept_card),)
    return Play(draft.side, draft.up, draft.down, short, told, revealed=True, brief=(kept_card,))


def toy_why(comparisons: Sequence[Comparison], winner: int, bonus: bool, target: int | None) -> str:
    return Why.HIGHER


TOY = GameDescriptor(
    key=KEY,
    dealer=ToyDealer,
    emoji="🪀",
    colour=0xA855F7,
    options=(DECK, MODE, SIDES_OPTION, TIME_LIMIT, ANSWER_TIME),
    decisions=(KEEP,),
    modes=(Mode.REGN, Mode.AUTO),
    rated_modes=(Mode.REGN,),
    rules=(("rules.heading.round", "toy.rules.round"),),
    facts=toy_facts,
    why=toy_why,
    story=(Kept,),
    play=toy_play,
)


@contextmanager
def toy_registered() -> Iterator[GameDescriptor]:
    """The toy in the registry for as long as the block runs: it is how a product game is
    listed (one entry in `engine.registry.GAMES`)."""
    from engine.registry import GAMES

    GAMES[KEY] = TOY
    try:
        yield TOY
    finally:
        del GAMES[KEY]
