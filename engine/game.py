"""The public game API: `new_game`, `apply`, `legal_actions`, `waiting_for`, `restore`.

`apply(state, action)` returns a new state and the events it caused, or raises an
`EngineError` and changes nothing (states are frozen values). A game is fully determined by
its configuration, seed (or stacked piles) and action list (RULES.md §1.6).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Action, Answer, Bet, Flip, NameTarget, Pass, Timeout, TimeUp
from engine.cards import Card, new_deck, stacked_cards
from engine.config import TARGET_MAX, TARGET_MIN, GameConfig, Mode
from engine.errors import ConfigurationError, IllegalActionError
from engine.events import Dealt, Event, TimeUpNoted, chance_outcomes
from engine.expressions import Reason, Verdict, judge
from engine.intervallkrig import IntervalTable
from engine.regnekrig import RegnekrigTable
from engine.rng import GameRng
from engine.solver import best
from engine.state import PASS, GameState, Phase, SideState, Step, Termination
from engine.table import Table

TIMEOUT_REASON = Reason.TIMEOUT.value


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision the game waits for: `kind` is "target", "answer" or "bet"."""

    side: int
    kind: str

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "action": self.kind}


_DECISION_KIND = {Phase.TARGET: "target", Phase.ANSWER: "answer", Phase.BET: "bet"}


def _table(state: GameState) -> Table:
    if state.config.game.is_interval:
        return IntervalTable(state)
    return RegnekrigTable(state)


def new_game(
    config: GameConfig,
    seed: int = 0,
    piles: Sequence[Sequence[int]] | None = None,
    forced: tuple[tuple[int, ...], ...] = (),
) -> tuple[GameState, list[Event]]:
    """Deal (or take stacked piles, top card first) and set up the first round.

    RULES §1.2: the deck is dealt evenly between the sides; leftovers are set aside face down.
    `forced` holds recorded chance outcomes (see `engine.rng`).
    """
    rng = GameRng(seed, 0, forced)
    sides = config.sides
    if piles is not None:
        if len(piles) != sides:
            raise ConfigurationError(f"{len(piles)} stacked piles for {sides} sides", field="piles")
        dealt = stacked_cards([list(p) for p in piles])
        set_aside: tuple[Card, ...] = ()
    else:
        rng, shuffled = rng.shuffle(new_deck(config.deck))
        each = len(shuffled) // sides
        dealt = tuple(tuple(shuffled[i * each : (i + 1) * each]) for i in range(sides))
        set_aside = tuple(shuffled[sides * each :])
    state = GameState(
        config=config,
        seed=seed,
        rng=rng,
        sides=tuple(SideState(pile, ()) for pile in dealt),
        set_aside=set_aside,
        pot=((),) * sides,
        up=((),) * sides,
        third=(None,) * sides,
        battle=(),
        phase=Phase.FLIP,
        step=Step.ROUND,
        pending=(),
        answers=(None,) * sides,
        bets=(None,) * sides,
        round=0,
        target=None,
        namer=0,  # RULES §2.5: the side that started the game names the first target
        three_card_round=False,
        ties=0,
        time_up=False,
        seq=0,
        window=0,
        outcome=None,
    )
    table = _table(state)
    table.emit(
        Dealt,
        piles=tuple(tuple(c.id for c in pile) for pile in dealt),
        set_aside=tuple(c.id for c in set_aside),
        stacked=piles is not None,
    )
    table.between_rounds()
    return table.freeze(), table.events


def _check_side(state: GameState, side: int) -> None:
    if not 0 <= side < state.config.sides:
        raise IllegalActionError(f"there is no side {side}", code="not_a_side", side=side)


def _check_pending(state: GameState, side: int, phase: Phase) -> None:
    _check_side(state, side)
    if state.phase is not phase:
        raise IllegalActionError(
            f"the game is not waiting for that now ({state.phase.value})",
            code="wrong_phase",
            phase=state.phase.value,
        )
    if side not in state.pending:
        if phase is Phase.TARGET:
            raise IllegalActionError(
                f"side {state.namer} names this target", code="not_your_turn", side=side
            )
        if phase is Phase.BET and side in state.battle and state.bets[side] is None:
            raise IllegalActionError(
                f"side {side} has too few cards to bet", code="cannot_bet", side=side
            )
        if side in state.battle:
            raise IllegalActionError(
                f"side {side} has already decided", code="already_decided", side=side
            )
        raise IllegalActionError(
            f"side {side} is not in this comparison", code="not_in_comparison", side=side
        )


def judge_answer(state: GameState, side: int, text: str) -> Verdict:
    """What an answer would count as for this side now (RULES §2.2); raises for unreadable text."""
    a, b = state.up[side]
    return judge(text, (a.value, b.value), state.config.level, state.config.answer_form)


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply one action; an illegal one raises an `EngineError` and changes nothing."""
    if state.outcome is not None:
        raise IllegalActionError("the game is over", code="game_over")
    table = _table(state)
    if isinstance(action, TimeUp):
        if state.time_up:
            raise IllegalActionError("time is already up", code="time_already_up")
        table.time_up = True
        table.emit(TimeUpNoted)
        # RULES §1.5: between rounds the game ends now; a round in progress is finished first.
        if state.phase is Phase.TARGET or (state.phase is Phase.FLIP and state.step is Step.ROUND):
            table.finish(Termination.TIME_UP)
    elif isinstance(action, Flip):
        _check_side(state, action.side)
        if state.phase is not Phase.FLIP and state.config.mode is not Mode.AUTO:
            raise IllegalActionError(
                "the game is waiting for a decision", code="wrong_phase", phase=state.phase.value
            )
        table.flip()
    elif isinstance(action, NameTarget):
        _check_pending(state, action.side, Phase.TARGET)
        if not TARGET_MIN <= action.value <= TARGET_MAX:
            raise IllegalActionError(
                f"a target is a whole number from {TARGET_MIN} to {TARGET_MAX}",
                code="target_out_of_range",
                value=action.value,
            )
        table.name_target(action.side, action.value)
    elif isinstance(action, Answer):
        _check_pending(state, action.side, Phase.ANSWER)
        table.answer(action.side, judge_answer(state, action.side, action.text))
    elif isinstance(action, Bet):
        _check_pending(state, action.side, Phase.BET)
        if action.swap not in (0, 1):
            raise IllegalActionError(
                "swap is 0 (the first card) or 1 (the second)", code="bad_swap", swap=action.swap
            )
        table.decide_bet(action.side, action.swap)
    elif isinstance(action, Pass):
        _check_pending(state, action.side, Phase.BET)
        table.decide_bet(action.side, PASS)
    elif isinstance(action, Timeout):
        _check_side(state, action.side)
        if state.phase is Phase.TARGET:
            _check_pending(state, action.side, Phase.TARGET)
            table.name_target(action.side, None)
        elif state.phase is Phase.ANSWER:
            _check_pending(state, action.side, Phase.ANSWER)
            table.answer(action.side, Verdict(None, "", TIMEOUT_REASON, {}))
        elif state.phase is Phase.BET:
            _check_pending(state, action.side, Phase.BET)
            table.decide_bet(action.side, PASS)
        else:
            raise IllegalActionError("nothing is timed now", code="wrong_phase")
    else:  # pragma: no cover - the Action union is closed
        raise IllegalActionError(f"unknown action {action!r}", code="malformed_action")
    return table.freeze(), table.events


def waiting_for(state: GameState) -> list[Decision]:
    """The decisions the game waits for (empty when a flip or nothing is next)."""
    kind = _DECISION_KIND.get(state.phase)
    if kind is None:
        return []
    return [Decision(side, kind) for side in state.pending]


def legal_actions(state: GameState) -> list[Action]:
    """Every action that `apply` accepts now. Answers are free text: the listed `Answer` for a
    side is its best legal expression with its value; any other legal answer is accepted too."""
    if state.outcome is not None:
        return []
    actions: list[Action] = []
    sides = range(state.config.sides)
    auto = state.config.mode is Mode.AUTO
    if state.phase is Phase.FLIP or auto:
        actions.extend(Flip(s) for s in sides)
    if state.phase is Phase.TARGET:
        actions.extend(NameTarget(state.namer, v) for v in range(TARGET_MIN, TARGET_MAX + 1))
        actions.append(Timeout(state.namer))
    elif state.phase is Phase.ANSWER:
        for side in state.pending:
            a, b = state.up[side]
            play = best(a.value, b.value, state.config.level, state.target)
            if play.value is not None:
                actions.append(Answer(side, play.answer))
            actions.append(Timeout(side))
    elif state.phase is Phase.BET:
        for side in state.pending:
            actions.extend((Bet(side, 0), Bet(side, 1), Pass(side), Timeout(side)))
    if not state.time_up:
        actions.append(TimeUp())
    return actions


def fits(state: GameState, action: Action) -> bool:
    """Whether the action is of the kind the game waits for now (it may still be illegal)."""
    if isinstance(action, (TimeUp, Flip)):
        return True
    if isinstance(action, Timeout):
        return state.phase in _DECISION_KIND
    kinds: dict[Phase, tuple[type, ...]] = {
        Phase.TARGET: (NameTarget,),
        Phase.ANSWER: (Answer,),
        Phase.BET: (Bet, Pass),
    }
    return isinstance(action, kinds.get(state.phase, ()))


def restore(
    config: GameConfig,
    seed: int,
    actions: Iterable[Action],
    recorded_events: list[dict[str, Any]] | None = None,
    piles: Sequence[Sequence[int]] | None = None,
) -> GameState:
    """Rebuild a stored game from its actions. With the recorded events, chance outcomes are
    taken from them, so the game comes back the same on any Python version (RULES §1.6)."""
    forced = chance_outcomes(recorded_events) if recorded_events else ()
    state, _ = new_game(config, seed, piles, forced)
    for action in actions:
        state, _ = apply(state, action)
    return state
