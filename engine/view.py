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

from engine.actions import Choice
from engine.cards import Card
from engine.config import GameConfig, Mode
from engine.decision import AnyDecision, Decision
from engine.events import (
    BonusPaid,
    CardsLaid,
    Event,
    GameOver,
    PileReshuffled,
    PotReturned,
    RoundStarted,
    RoundWon,
    SideOut,
    TimeUpNoted,
    WarDeclared,
)
from engine.facts import Bonus, Comparison, GameFacts, Phrase, PlayDraft, RoundFacts, War
from engine.game import choices
from engine.registry import descriptor
from engine.state import GameState, Outcome, Phase, Step, Termination


class Now(StrEnum):
    """What the game waits for when it waits for no decision. While it waits for one, `now`
    is that decision (`engine.decision.Decision`: regnekrig's target and answer, satsing's
    bet, …)."""

    FLIP = "flip"  # a flip plays the next round
    WAR = "war"  # a flip plays the next step of the war (or of the endgame's tie)
    OVER = "over"


class Status(StrEnum):
    """Where one side stands in the decision the game waits for (a decision's `statuses`
    name the words for each)."""

    NAMING = "naming"  # decides alone, for every side (names this round's target)
    AWAITED = "awaited"  # its decision is awaited
    DECIDED = "decided"  # it has decided (what, stays secret until the reveal)
    WATCHING = "watching"  # not in this comparison (a war between others)
    CANNOT_BET = "cannot_bet"  # in the comparison but not asked (§3.3: too few cards to bet)
    OUT = "out"  # §1.5: no cards left


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
    now: str  # a `Now`, or the decision the game waits for
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
    notes: tuple[Phrase, ...] = ()  # what else the game tells, in its own words

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def decision(self) -> AnyDecision | None:
        """The decision the game waits for now, if any."""
        return self.now if isinstance(self.now, Decision) else None

    def choices_of(self, side: int) -> tuple[Choice, ...]:
        return tuple(c for c in self.choices if c.side == side)


def view(state: GameState, side: int | None) -> View:
    """The game as `side` sees it (`None`: the table, with every side's choices)."""
    game = descriptor(state.config.game)
    now = _now(state)
    decision = now if isinstance(now, Decision) else None
    auto = state.config.mode is Mode.AUTO and decision is not None
    viewer = side if side is not None and 0 <= side < len(state.sides) else None
    facts = game.facts(state, viewer)
    in_play = now is Now.WAR or (decision is not None and not decision.between_rounds)
    sides = tuple(
        _side_view(state, i, decision, auto, in_play, facts) for i in range(len(state.sides))
    )
    return View(
        viewer=viewer,
        config=state.config,
        round=_display_round(state, decision),
        now=now,
        auto=auto,
        target=facts.target,
        namer=facts.namer,
        war=facts.war,
        endgame=facts.endgame,
        window=state.window,
        awaited=state.pending,
        battle=state.battle,
        sides=sides,
        pot=state.table_count,
        time_up=state.time_up,
        outcome=state.outcome,
        result=shown_round(state),
        choices=choices(state, viewer if side is not None else None),
        hints=tuple(s for s in facts.hints if side is None or s == side),
        own_answer=facts.own_answer,
        own_bet=facts.own_bet,
        notes=facts.notes,
    )


# -- where the game stands --------------------------------------------------------------------


def _now(state: GameState) -> str:
    if state.outcome is not None:
        return Now.OVER
    if state.phase is Phase.FLIP:
        return Now.FLIP if state.step is Step.ROUND else Now.WAR
    return state.phase  # the decision it waits for


def _display_round(state: GameState, decision: AnyDecision | None) -> int:
    """The round in play, or the one about to begin when the game waits for a decision taken
    between rounds (a target) or for a flip between rounds."""
    if decision is not None:
        between = decision.between_rounds
    else:
        between = state.phase is Phase.FLIP and state.step is Step.ROUND
    return max(1, state.round + 1 if between and state.outcome is None else state.round)


def _side_view(
    state: GameState,
    i: int,
    decision: AnyDecision | None,
    auto: bool,
    in_play: bool,
    facts: GameFacts,
) -> SideView:
    """`in_play`: the face-up cards belong to the comparison in play (between rounds they are
    the last round's, which its facts tell)."""
    s = state.sides[i]
    # Decided: asked in this comparison's decision and no longer awaited.
    open_in_round = decision is not None and not decision.between_rounds
    decided = (
        open_in_round
        and decision is not None
        and i not in state.pending
        and decision.asked(state, i)
    )
    up = state.up[i] if in_play else ()
    third = facts.thirds[i] if in_play and facts.thirds else None
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
        decided=decided,
        status=_status(state, i, decision, auto, decided),
    )


def _status(
    state: GameState, i: int, decision: AnyDecision | None, auto: bool, decided: bool
) -> Status | None:
    if state.sides[i].out:
        return Status.OUT
    if decision is None:
        return None
    if decision.alone:  # one side decides for every side: only it has a status
        return Status.NAMING if i in state.pending and not auto else None
    if i in state.pending:
        return None if auto else Status.AWAITED
    if decided:
        return Status.DECIDED
    if i in state.battle and not decision.asked(state, i):
        return Status.CANNOT_BET  # in the comparison, not asked this time
    return Status.WATCHING


# -- the round's story as facts ---------------------------------------------------------------

# What reveals a comparison, beside a game's own story (`GameDescriptor.story`).
_REVEALING = (RoundWon, PotReturned, GameOver, WarDeclared, TimeUpNoted)


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
    revealing = (*_REVEALING, *descriptor(config.game).story)
    revealed = any(isinstance(e, revealing) for e in story)
    if len(_REMEMBERED) >= _REMEMBER_AT_MOST:
        _REMEMBERED.clear()
    _REMEMBERED[id(story)] = (story, facts, revealed)
    return facts, revealed


def round_facts(story: Sequence[Event], config: GameConfig) -> RoundFacts | None:
    """The facts of one round from its events (None when the story holds no round)."""
    start = next((e for e in story if isinstance(e, RoundStarted)), None)
    if start is None:
        return None
    target = start.target
    game = descriptor(config.game)
    one_card_rounds = game.dealer.ONE_CARD_ROUNDS
    round_cards = game.round_cards
    comparisons: list[Comparison] = []
    drafts: dict[int, PlayDraft] = {}
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
            plays = tuple(
                game.play(d, target, kind == "round" and 0 < len(d.up) < round_cards)
                for d in sorted(drafts.values(), key=_by_side)
            )
            comparisons.append(Comparison(kind, plays, war, war_kind))
        drafts = {}

    for event in story:
        if isinstance(event, CardsLaid):
            draft = drafts.get(event.side)
            if draft is not None and (draft.up or draft.own):
                close()  # a new comparison begins without a declared war (never, in fact)
                draft = None
            if draft is None:
                first = not comparisons and not drafts
                if first and one_card_rounds and len(event.up) == 1 and not event.down:
                    kind = "one_card"  # §3.4: a round of one card each
                draft = drafts[event.side] = PlayDraft(event.side)
            draft.up, draft.down = event.up, event.down
        elif isinstance(event, game.story):
            side = getattr(event, "side", None)
            if isinstance(side, int):  # the game's own word on what a side did
                drafts.setdefault(side, PlayDraft(side)).own.append(event)
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
    why = game.why(comparisons, winner, bool(bonus), target) if winner is not None else None
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


def _by_side(draft: PlayDraft) -> int:
    return draft.side
