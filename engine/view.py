"""One view of the game for every screen (OpenSpiel's observation, grown into what a screen
shows): `view(state, side)`.

A screen — the Discord board, a picture, the browser table, a teacher's report — draws only
from a `View` and offers only its `choices`, so what may happen now is decided here, once,
from `legal_actions`. A view never holds a pile's order, nor a side's answer or bet before
they are revealed together (RULES §2.2, §3.3): only its own side sees its own decision.
The round's outcome is told as facts (`RoundFacts`): who won what and why, each side's cards
and play, the war and its face-down count, the bonus, the endgame, the swap and the new
interval; screens put those facts into words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from engine.actions import Choice
from engine.cards import Card
from engine.config import GameConfig, Mode
from engine.events import (
    BonusPaid,
    CardsLaid,
    Event,
    GameOver,
    Passed,
    PileReshuffled,
    PotReturned,
    RoundStarted,
    RoundWon,
    SideOut,
    Swapped,
    ThirdDrawn,
    TimeUpNoted,
    ValueShown,
    WarDeclared,
)
from engine.game import choices
from engine.registry import descriptor
from engine.state import GameState, Outcome, Phase, Step, Termination


class Now(StrEnum):
    """What the game waits for."""

    NAME_TARGET = "name_target"  # RULES §2.5: the naming side names the round's target
    ANSWER = "answer"  # §2.2: the sides in the comparison give their values
    BET = "bet"  # §3.3: the betting window
    FLIP = "flip"  # a flip plays the next round
    WAR = "war"  # a flip plays the next step of the war (or of the endgame's tie)
    OVER = "over"


class Status(StrEnum):
    """Where one side stands in what the game waits for."""

    NAMING = "naming"  # names this round's target
    AWAITED = "awaited"  # its answer or bet is awaited
    DECIDED = "decided"  # it has answered or decided (what, stays secret until the reveal)
    WATCHING = "watching"  # not in this comparison (a war between others)
    CANNOT_BET = "cannot_bet"  # §3.3: too few cards to bet this round
    OUT = "out"  # §1.5: no cards left


class Why(StrEnum):
    """How a round's winner won it."""

    HIGHER = "higher"  # §2.1 levels 1–4: the highest value
    CLOSER = "closer"  # §2.1 levels 5–7: the value closest to the target
    EXACT_HIT = "exact_hit"  # §2.5: exactly the target, and the others pay the bonus
    NO_VALUE = "no_value"  # §2.2: every other side had no value
    TOO_FEW_CARDS = "too_few_cards"  # §2.4: the others could not turn two cards
    INSIDE = "inside"  # §3.1: the only third card inside its interval
    WAR_CARD = "war_card"  # §3.2, §3.4: the best war card by the war rule


@dataclass(frozen=True, slots=True)
class Play:
    """What one side showed in one comparison."""

    side: int
    up: tuple[int, ...]  # the card values it turned face up
    down: int  # cards it laid face down before them
    # Regnekrig (§2.2): what was played, its value, the best it could have played.
    value: Fraction | None = None
    played: str | None = None  # the typed text or the engine's expression; "" no answer
    best: str | None = None
    best_value: Fraction | None = None
    reason: str | None = None  # why the answer counted as no value
    distance: Fraction | None = None  # levels 5–7: how far the value is from the target
    # Intervallkrig and satsing (§3).
    swap: tuple[int, int] | None = None  # §3.3: (the card given away, the card taken)
    passed: bool = False  # §3.3: decided not to bet
    interval: tuple[int, int] | None = None  # (low, high), after a swap
    third: int | None = None
    inside: bool | None = None


@dataclass(frozen=True, slots=True)
class Comparison:
    kind: str  # "round", "war", "three_card" (§3.4 exactly three), "one_card" (§3.4 two or one)
    plays: tuple[Play, ...]
    war: tuple[int, ...]  # the sides that went on to war from it; empty when it decided
    war_kind: str | None = None  # the war it led to: "war", "three_card" or "one_card"


@dataclass(frozen=True, slots=True)
class Bonus:
    giver: int
    taker: int
    cards: int


@dataclass(frozen=True, slots=True)
class RoundFacts:
    round: int
    target: int | None
    named_by: int | None  # None with a target: drawn at random (§2.5)
    comparisons: tuple[Comparison, ...]
    winner: int | None
    cards: int  # the cards the winner took
    why: Why | None
    bonus: tuple[Bonus, ...]
    returned: tuple[int, ...] | None  # §2.4, §3.4: the cards each side took back
    reshuffled: tuple[int, ...]  # sides whose collection pile was shuffled in (§1.3)
    out: tuple[int, ...]  # sides that went out (§1.5)
    time_up: bool
    over: Outcome | None  # the game ended with this round

    @property
    def decided(self) -> bool:
        return self.winner is not None or self.returned is not None or self.over is not None


@dataclass(frozen=True, slots=True)
class War:
    kind: str  # "war", "three_card", "one_card"
    sides: tuple[int, ...]
    face_down: int  # the cards each warring side lays face down for it


@dataclass(frozen=True, slots=True)
class SideView:
    side: int
    count: int  # draw pile + collection pile
    draw: int  # cards in the draw pile (their order and values are hidden)
    collection: int
    out: bool
    face_up: tuple[Card, ...]  # its face-up cards in the comparison in play
    third: Card | None  # intervallkrig: its third card this round
    on_table: int  # every card it has on the table, face up or down
    face_down: int  # its cards on the table that are not face up now
    decided: bool  # answered (regnekrig) or decided on a bet (satsing) this comparison
    status: Status | None


@dataclass(frozen=True, slots=True)
class View:
    viewer: int | None  # None: the table as everyone sees it
    config: GameConfig
    round: int  # the round in play, or the one about to begin
    now: Now
    auto: bool  # the engine makes the decisions; players only flip
    target: int | None  # the target of the comparison in play
    namer: int | None  # games with targets: the side that names this or the next target
    war: War | None
    endgame: str | None  # §3.4 "three_card" or "one_card": the next round's endgame
    window: int  # the decision window: a choice offered in an earlier one is stale
    awaited: tuple[int, ...]  # the sides whose decision the game waits for
    battle: tuple[int, ...]  # the sides in the comparison in play
    sides: tuple[SideView, ...]
    pot: int
    time_up: bool
    outcome: Outcome | None
    result: RoundFacts | None  # the round shown: the one in play once it showed something
    choices: tuple[Choice, ...]  # the viewer's (for the table: every side's, each named)
    hints: tuple[int, ...]  # sides that may ask for a betting hint now (§3.3)
    own_answer: str | None  # the viewer's own answer before the reveal
    own_bet: int | None  # the viewer's own decision (PASS or the swapped index)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def choices_of(self, side: int) -> tuple[Choice, ...]:
        return tuple(c for c in self.choices if c.side == side)


def view(state: GameState, side: int | None) -> View:
    """The game as `side` sees it (`None`: the table, with every side's choices)."""
    game = descriptor(state.config.game)
    now = _now(state)
    auto = state.config.mode is Mode.AUTO and now in (Now.NAME_TARGET, Now.ANSWER, Now.BET)
    viewer = side if side is not None and 0 <= side < len(state.sides) else None
    in_play = now in (Now.ANSWER, Now.BET, Now.WAR)
    sides = tuple(_side_view(state, i, now, auto, in_play) for i in range(len(state.sides)))
    own_answer = own_bet = None
    if viewer is not None:
        if state.phase is Phase.ANSWER and (verdict := state.answers[viewer]) is not None:
            own_answer = verdict.text
        if state.phase is Phase.BET:
            own_bet = state.bets[viewer]
    hints = state.pending if state.phase is Phase.BET else ()
    return View(
        viewer=viewer,
        config=state.config,
        round=_display_round(state),
        now=now,
        auto=auto,
        target=state.target if now is Now.ANSWER else None,
        namer=state.namer if game.has_targets(state.config.level) else None,
        war=_war(state, now),
        endgame=game.dealer.endgame(state) if now is Now.FLIP else None,
        window=state.window,
        awaited=state.pending,
        battle=state.battle,
        sides=sides,
        pot=state.table_count,
        time_up=state.time_up,
        outcome=state.outcome,
        result=shown_round(state),
        choices=choices(state, viewer if side is not None else None),
        hints=tuple(s for s in hints if side is None or s == side),
        own_answer=own_answer,
        own_bet=own_bet,
    )


# -- where the game stands --------------------------------------------------------------------

_NOW = {Phase.TARGET: Now.NAME_TARGET, Phase.ANSWER: Now.ANSWER, Phase.BET: Now.BET}
_WAR_STEPS = {Step.WAR: "war", Step.THREE_CARD_WAR: "three_card", Step.ONE_CARD: "one_card"}
# RULES §3.2: one card face down in a war; §3.4: two of the three played cards; one card each.
_WAR_FACE_DOWN = {"war": 1, "three_card": 2, "one_card": 0}


def _now(state: GameState) -> Now:
    if state.outcome is not None:
        return Now.OVER
    if state.phase is Phase.FLIP:
        return Now.FLIP if state.step is Step.ROUND else Now.WAR
    return _NOW[state.phase]


def _display_round(state: GameState) -> int:
    """The round in play, or the one about to begin when the game waits for a target or a
    flip between rounds."""
    between = state.phase is Phase.TARGET or (
        state.phase is Phase.FLIP and state.step is Step.ROUND
    )
    return max(1, state.round + 1 if between and state.outcome is None else state.round)


def _war(state: GameState, now: Now) -> War | None:
    if now is Now.WAR:
        kind = _WAR_STEPS[state.step]
        return War(kind, state.battle, _WAR_FACE_DOWN[kind])
    if now is not Now.ANSWER:
        return None
    # Regnekrig §2.3: a war is answered like a round; it began at the story's last war.
    declared = None
    down = 0
    for event in state.story:
        if isinstance(event, WarDeclared):
            declared = event
            down = 0
        elif isinstance(event, CardsLaid) and declared is not None and event.side in state.battle:
            down = event.down
    if declared is None:
        return None
    return War("war", state.battle, down)


def _side_view(state: GameState, i: int, now: Now, auto: bool, in_play: bool) -> SideView:
    """`in_play`: the face-up cards belong to the comparison in play (between rounds they are
    the last round's, which its facts tell)."""
    s = state.sides[i]
    deciding = now in (Now.ANSWER, Now.BET)
    if now is Now.ANSWER:
        decided = i in state.battle and i not in state.pending
    elif now is Now.BET:
        decided = state.bets[i] is not None and i not in state.pending
    else:
        decided = False
    up = state.up[i] if in_play else ()
    third = state.third[i] if in_play else None
    pot = state.pot[i]
    face_down = 0
    if pot:
        visible = {c.id for c in up}
        if third is not None:
            visible.add(third.id)
        face_down = sum(1 for c in pot if c.id not in visible)
    return SideView(
        side=i,
        count=s.count,
        draw=len(s.draw),
        collection=len(s.collection),
        out=s.out,
        face_up=up,
        third=third,
        on_table=len(state.pot[i]),
        face_down=face_down,
        decided=decided and deciding,
        status=_status(state, i, now, auto, decided),
    )


def _status(state: GameState, i: int, now: Now, auto: bool, decided: bool) -> Status | None:
    if state.sides[i].out:
        return Status.OUT
    if now is Now.NAME_TARGET:
        return Status.NAMING if i == state.namer and not auto else None
    if now not in (Now.ANSWER, Now.BET):
        return None
    if i in state.pending:
        return None if auto else Status.AWAITED
    if decided:
        return Status.DECIDED
    if now is Now.BET and i in state.battle:
        return Status.CANNOT_BET
    return Status.WATCHING


# -- the round's story as facts ---------------------------------------------------------------

_REVEALING = (ValueShown, ThirdDrawn, RoundWon, PotReturned, GameOver, WarDeclared, TimeUpNoted)


def shown_round(state: GameState) -> RoundFacts | None:
    """The round a screen tells about: the one in play once it has revealed something (a value,
    a third card, a war, its end), else the one before it."""
    facts, revealed = _remembered(state.story, state.config)
    if revealed:
        return facts
    return _remembered(state.last_story, state.config)[0]


# The facts of a story, remembered for the stories looked at last: every side's view of one
# state, and every state of a round's waiting windows, tell the same story (its tuple is
# carried unchanged from state to state until the round goes on). Keyed by identity and
# holding the story itself, so an id is never mistaken for another's.
_REMEMBERED: dict[int, tuple[tuple[Event, ...], RoundFacts | None, bool]] = {}
_REMEMBER_AT_MOST = 1024


def _remembered(story: tuple[Event, ...], config: GameConfig) -> tuple[RoundFacts | None, bool]:
    """The story's facts, and whether it has revealed anything yet."""
    known = _REMEMBERED.get(id(story))
    if known is not None and known[0] is story:
        return known[1], known[2]
    facts = round_facts(story, config) if story else None
    revealed = any(isinstance(e, _REVEALING) for e in story)
    if len(_REMEMBERED) >= _REMEMBER_AT_MOST:
        _REMEMBERED.clear()
    _REMEMBERED[id(story)] = (story, facts, revealed)
    return facts, revealed


@dataclass(slots=True)
class _PlayDraft:
    side: int
    up: tuple[int, ...] = ()
    down: int = 0
    shown: ValueShown | None = None
    swap: tuple[int, int] | None = None
    passed: bool = False
    third: ThirdDrawn | None = None

    def freeze(self, target: int | None) -> Play:
        value = best_value = distance = None
        played = best = reason = None
        if self.shown is not None:
            value = _fraction(self.shown.value)
            best_value = _fraction(self.shown.best_value)
            played, best, reason = self.shown.expr, self.shown.best, self.shown.reason
            if value is not None and target is not None:
                distance = abs(value - target)
        interval = None
        if len(self.up) == 2:
            cards = list(self.up)
            if self.swap is not None and self.swap[0] in cards:
                cards[cards.index(self.swap[0])] = self.swap[1]
            low, high = sorted(cards)
            interval = (low, high)
        shown_interval = interval if self.third is not None or self.swap or self.passed else None
        third, inside = (self.third.card, self.third.inside) if self.third else (None, None)
        # Positional, in `Play`'s field order: the regnekrig part, then the intervallkrig part.
        regnekrig = (value, played, best, best_value, reason, distance)
        return Play(
            self.side,
            self.up,
            self.down,
            *regnekrig,
            self.swap,
            self.passed,
            shown_interval,
            third,
            inside,
        )


def _fraction(text: str | None) -> Fraction | None:
    """A value as the events carry it ("12", "-7/2"); whole numbers skip Fraction's parser."""
    if text is None:
        return None
    return Fraction(text) if "/" in text else Fraction(int(text))


def round_facts(story: Sequence[Event], config: GameConfig) -> RoundFacts | None:
    """The facts of one round from its events (None when the story holds no round)."""
    start = next((e for e in story if isinstance(e, RoundStarted)), None)
    if start is None:
        return None
    target = start.target
    one_card_rounds = descriptor(config.game).dealer.ONE_CARD_ROUNDS
    comparisons: list[Comparison] = []
    drafts: dict[int, _PlayDraft] = {}
    kind = "round"
    winner: int | None = None
    cards = 0
    bonus: list[Bonus] = []
    returned: tuple[int, ...] | None = None
    reshuffled: list[int] = []
    out: list[int] = []
    time_up = False
    over: Outcome | None = None

    def close(war: tuple[int, ...] = (), war_kind: str | None = None) -> None:
        nonlocal drafts
        if drafts:
            plays = tuple(d.freeze(target) for d in sorted(drafts.values(), key=_by_side))
            comparisons.append(Comparison(kind, plays, war, war_kind))
        drafts = {}

    for event in story:
        if isinstance(event, CardsLaid):
            draft = drafts.get(event.side)
            if draft is not None and (draft.up or draft.third):
                close()  # a new comparison begins without a declared war (never, in fact)
                draft = None
            if draft is None:
                first = not comparisons and not drafts
                if first and one_card_rounds and len(event.up) == 1 and not event.down:
                    kind = "one_card"  # §3.4: a round of one card each
                draft = drafts[event.side] = _PlayDraft(event.side)
            draft.up, draft.down = event.up, event.down
        elif isinstance(event, ValueShown):
            drafts.setdefault(event.side, _PlayDraft(event.side)).shown = event
        elif isinstance(event, Swapped):
            drafts.setdefault(event.side, _PlayDraft(event.side)).swap = (event.out, event.in_)
        elif isinstance(event, Passed):
            drafts.setdefault(event.side, _PlayDraft(event.side)).passed = True
        elif isinstance(event, ThirdDrawn):
            drafts.setdefault(event.side, _PlayDraft(event.side)).third = event
        elif isinstance(event, WarDeclared):
            close(event.sides, event.kind)
            kind = event.kind
        elif isinstance(event, BonusPaid):
            bonus.append(Bonus(event.from_, event.to, event.cards))
        elif isinstance(event, RoundWon):
            winner, cards = event.side, event.cards
        elif isinstance(event, PotReturned):
            returned = event.cards
        elif isinstance(event, PileReshuffled):
            reshuffled.append(event.side)
        elif isinstance(event, SideOut):
            out.append(event.side)
        elif isinstance(event, TimeUpNoted):
            time_up = True
        elif isinstance(event, GameOver):
            over = Outcome(event.winner, Termination(event.reason), event.side)
    close()
    why = _why(comparisons, winner, bool(bonus), target) if winner is not None else None
    return RoundFacts(
        round=start.round,
        target=target,
        named_by=start.named_by,
        comparisons=tuple(comparisons),
        winner=winner,
        cards=cards,
        why=why,
        bonus=tuple(bonus),
        returned=returned,
        reshuffled=tuple(reshuffled),
        out=tuple(out),
        time_up=time_up,
        over=over,
    )


def _by_side(draft: _PlayDraft) -> int:
    return draft.side


def _why(comparisons: list[Comparison], winner: int, bonus: bool, target: int | None) -> Why:
    last = comparisons[-1] if comparisons else None
    mine = next((p for p in last.plays if p.side == winner), None) if last else None
    if last is None or mine is None:
        return Why.TOO_FEW_CARDS
    if mine.third is not None:
        return Why.INSIDE  # §3.1: the only third card inside
    if len(mine.up) < 2:
        return Why.WAR_CARD  # §3.2, §3.4: one card each, compared by the war rule
    contenders = [p for p in last.plays if len(p.up) == 2]
    if len(contenders) == 1:
        return Why.TOO_FEW_CARDS  # §2.4: the others could not turn two
    if bonus:
        return Why.EXACT_HIT
    if all(p.value is None for p in contenders if p.side != winner):
        return Why.NO_VALUE
    return Why.CLOSER if target is not None else Why.HIGHER
