"""What one side may see (OpenSpiel's observation): never a pile's order, never another side's
answer or bet before they are revealed together."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card
from engine.config import GameConfig
from engine.expressions import Verdict
from engine.state import PASS, GameState, Outcome, Phase, Step


@dataclass(frozen=True, slots=True)
class SideView:
    side: int
    count: int  # draw pile + collection pile
    draw: int  # cards in the draw pile (their order and values are hidden)
    collection: int
    out: bool
    face_up: tuple[Card, ...]  # the cards it has face up in the current comparison
    third: Card | None  # intervallkrig: its third card this round
    on_table: int  # every card it has on the table, face up or down
    decided: bool  # answered (regnekrig) or decided on a bet (satsing) this comparison


@dataclass(frozen=True, slots=True)
class Observation:
    viewer: int | None  # None: a spectator
    config: GameConfig
    round: int
    phase: Phase
    step: Step
    target: int | None
    namer: int
    pending: tuple[int, ...]
    battle: tuple[int, ...]
    time_up: bool
    outcome: Outcome | None
    sides: tuple[SideView, ...]
    pot: int
    own_answer: Verdict | None  # the viewer's own answer, before the reveal
    own_bet: int | None  # the viewer's own decision (PASS or the swapped index)


def observe(state: GameState, side: int | None) -> Observation:
    """The game as `side` sees it (`None` for a spectator, who sees only what is face up)."""
    deciding = state.phase in (Phase.ANSWER, Phase.BET)
    views = []
    for i, s in enumerate(state.sides):
        if state.phase is Phase.ANSWER:
            decided = i in state.battle and i not in state.pending
        elif state.phase is Phase.BET:
            decided = state.bets[i] is not None and i not in state.pending
        else:
            decided = False
        views.append(
            SideView(
                side=i,
                count=s.count,
                draw=len(s.draw),
                collection=len(s.collection),
                out=s.out,
                face_up=state.up[i],
                third=state.third[i],
                on_table=len(state.pot[i]),
                decided=decided and deciding,
            )
        )
    own_answer = None
    own_bet = None
    if side is not None and 0 <= side < len(state.sides):
        if state.phase is Phase.ANSWER:
            own_answer = state.answers[side]
        if state.phase is Phase.BET:
            own_bet = state.bets[side]
    return Observation(
        viewer=side,
        config=state.config,
        round=state.round,
        phase=state.phase,
        step=state.step,
        target=state.target,
        namer=state.namer,
        pending=state.pending,
        battle=state.battle,
        time_up=state.time_up,
        outcome=state.outcome,
        sides=tuple(views),
        pot=state.table_count,
        own_answer=own_answer,
        own_bet=own_bet,
    )


__all__ = ["PASS", "Observation", "SideView", "observe"]
