"""The public game API: `new_game`, `apply`, `legal_actions`, `waiting_for`, `restore`.

`apply(state, action)` returns a new state and the events it caused, or raises an
`EngineError` and changes nothing (states are frozen values). A game is fully determined by
its configuration, seed (or stacked piles) and action list (RULES.md §1.6).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.actions import (
    FLIP_CHOICE,
    Abandon,
    Action,
    Choice,
    Flip,
    Forfeit,
    SideAction,
    Timeout,
    TimeUp,
)
from engine.cards import Card, new_deck, stacked_cards
from engine.config import GameConfig, Mode
from engine.dealer import Dealer
from engine.decision import AnyDecision, Decision
from engine.errors import ConfigurationError, IllegalActionError, Refusal
from engine.events import Dealt, Event, TimeUpNoted, chance_outcomes
from engine.registry import descriptor
from engine.rng import GameRng
from engine.state import GameState, Phase, SideState, Step, Termination


@dataclass(frozen=True, slots=True)
class Awaited:
    """A decision the game waits for from one side: `kind` is the decision's key ("target",
    "answer", "bet", …)."""

    side: int
    kind: str

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "action": self.kind}


def _dealer(state: GameState) -> Dealer:
    return descriptor(state.config.game).dealer(state)


def deciding(state: GameState) -> AnyDecision | None:
    """The decision the game waits for now, if any."""
    phase = state.phase
    return phase if isinstance(phase, Decision) else None


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
    game = descriptor(config.game)  # an unknown game is refused before anything is dealt
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
        part=game.dealer.new_part(sides),
        misses=(0,) * sides,
    )
    dealer = game.dealer(state)
    dealer.emit(
        Dealt,
        piles=tuple(tuple(c.id for c in pile) for pile in dealt),
        set_aside=tuple(c.id for c in set_aside),
        stacked=piles is not None,
    )
    dealer.between_rounds()
    return dealer.freeze(), dealer.events


def _check_side(state: GameState, side: int) -> None:
    if not 0 <= side < state.config.sides:
        raise IllegalActionError(f"there is no side {side}", code=Refusal.NOT_A_SIDE, side=side)


def _wrong_phase(state: GameState, message: str) -> IllegalActionError:
    return IllegalActionError(message, code=Refusal.WRONG_PHASE, phase=str(state.phase))


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply one action; an illegal one raises an `EngineError` and changes nothing.

    The refusals (`engine.errors.Refusal`, the error's `code`): `game_over`; `not_a_side`;
    `wrong_phase` (not the kind of action the game waits for now); the decision's own when the
    side is not asked now (`not_your_turn`, `not_in_comparison`, `already_decided`,
    `cannot_bet`) or the value is not allowed (`target_out_of_range`, `bad_swap`);
    `time_already_up`. An unreadable answer raises an `ExpressionError` with the codes of
    `engine.expressions`; a readable answer that breaks a rule is accepted and counts as no
    value (RULES §2.2).
    """
    if state.outcome is not None:
        raise IllegalActionError("the game is over", code=Refusal.GAME_OVER)
    dealer = _dealer(state)
    if isinstance(action, Flip):
        _check_side(state, action.side)
        _flip(state, dealer)
    elif isinstance(action, Forfeit):
        _check_side(state, action.side)
        dealer.forfeit(action.side)
    elif isinstance(action, Abandon):
        dealer.end(Termination.ABANDONED, None)
    elif isinstance(action, TimeUp):
        if state.time_up:
            raise IllegalActionError("time is already up", code=Refusal.TIME_ALREADY_UP)
        dealer.time_up = True
        dealer.emit(TimeUpNoted)
        # RULES §1.5: between rounds the game ends now; a round in progress is finished first.
        decision = deciding(state)
        between = decision.between_rounds if decision is not None else state.step is Step.ROUND
        if between:
            dealer.finish(Termination.TIME_UP)
    elif isinstance(action, SideAction):
        _decide(state, dealer, action)
    else:  # pragma: no cover - every action is one of the above
        raise IllegalActionError(f"unknown action {action!r}", code=Refusal.MALFORMED_ACTION)
    return dealer.freeze(), dealer.events


def _flip(state: GameState, dealer: Dealer) -> None:
    """Go on: play the next step, or (auto mode) make every pending decision with the
    engine's default (a random target, each side's best value, no bet)."""
    decision = deciding(state)
    if decision is None:
        dealer.play_flip()
        return
    if state.config.mode is not Mode.AUTO:
        raise IllegalActionError(
            "the game is waiting for a decision", code=Refusal.WRONG_PHASE, phase=str(decision)
        )
    for side in list(dealer.pending):
        decision.default(dealer, side)


def _decide(state: GameState, dealer: Dealer, action: SideAction) -> None:
    """A side's decision, or its running out of time: checked, counted, made."""
    side = action.side
    _check_side(state, side)
    decision = deciding(state)
    timeout = isinstance(action, Timeout)
    if decision is None or not (timeout or decision.accepts(action)):
        if timeout:
            raise IllegalActionError("nothing is timed now", code=Refusal.WRONG_PHASE)
        raise _wrong_phase(state, f"the game is not waiting for that now ({state.phase})")
    if side not in state.pending:
        raise decision.refuse(state, side)
    # RULES §1.5: a decision that runs out of time is a miss (where the decision says so);
    # any decision the side makes itself starts the count over.
    counts = list(state.misses)
    counts[side] = counts[side] + 1 if timeout and decision.misses else 0
    dealer.misses = tuple(counts)
    if timeout:
        decision.timeout(dealer, side)
    else:
        decision.check(state, action)
        decision.apply(dealer, action)


MISSES_TO_ABANDON = 3  # RULES §1.5 [decision]: three decisions in a row run out of time


def idle_ending(
    state: GameState, humans: frozenset[int], limit: int = MISSES_TO_ABANDON
) -> Action | None:
    """RULES §1.5: when every side people play (and still in play) has let its last `limit`
    decisions run out, the game is abandoned; when one has while another plays on, it
    forfeits. None while the game is played."""
    if state.outcome is not None:
        return None
    playing = [s for s in sorted(humans) if s < len(state.sides) and not state.sides[s].out]
    idle = [s for s in playing if state.misses[s] >= limit]
    if not idle:
        return None
    if len(idle) == len(playing):
        return Abandon()
    return Forfeit(idle[0])


def rounds_finished(state: GameState) -> int:
    """The rounds played to their end: the round in play counts once it is decided (RULES
    §1.5: a stop before the first round is finished cancels the game)."""
    decision = deciding(state)
    if decision is not None:
        in_play = not decision.between_rounds
    else:
        in_play = state.phase is Phase.FLIP and state.step is not Step.ROUND
    return state.round - 1 if in_play and state.outcome is None else state.round


def awaited(state: GameState) -> tuple[int, ...]:
    """The sides whose decision the game waits for from its players: none in auto mode, where
    the engine makes every decision (a flip makes them) and nothing is timed."""
    if state.config.mode is Mode.AUTO or deciding(state) is None:
        return ()
    return state.pending


def waiting_for(state: GameState) -> list[Awaited]:
    """The decisions the game waits for (empty when a flip or nothing is next)."""
    decision = deciding(state)
    if decision is None:
        return []
    return [Awaited(side, decision.key) for side in state.pending]


def choices(state: GameState, side: int | None = None) -> tuple[Choice, ...]:
    """What each side (or only `side`) may choose now, each accepted by `apply`: screens
    offer these and nothing else (the decision the game waits for says which).

    In auto mode the engine makes every decision itself (a flip makes them), so the players'
    only choice is to flip; `apply` still takes a decision a scenario file supplies there."""
    if state.outcome is not None:
        return ()
    decision = deciding(state)
    if state.config.mode is Mode.AUTO or decision is None:
        flips = _flips(state.config.sides)
        return flips if side is None else flips[side : side + 1]
    if side is not None:
        return decision.choices(state, side) if side in state.pending else ()
    if len(state.pending) == 1:
        return decision.choices(state, state.pending[0])
    return tuple(c for s in state.pending for c in decision.choices(state, s))


def legal_actions(state: GameState) -> list[Action]:
    """Every action `apply` accepts now: the players' `choices`, a decision running out of
    time, and the time limit running out."""
    if state.outcome is not None:
        return []
    actions: list[Action] = [c.action for c in choices(state)]
    if deciding(state) is not None and state.config.mode is not Mode.AUTO:
        actions.extend(Timeout(side) for side in state.pending)
    if not state.time_up:
        actions.append(TimeUp())
    # RULES §1.5: a side may give up, and the bot may end a game nobody plays, at any time.
    actions.extend(Forfeit(s) for s in state.live_sides)
    actions.append(Abandon())
    return actions


@cache
def _flips(sides: int) -> tuple[Choice, ...]:
    """The same frozen values every time (a board looks at its choices on every change)."""
    return tuple(Choice(FLIP_CHOICE, s, Flip(s)) for s in range(sides))


def fits(state: GameState, action: Action) -> bool:
    """Whether the action is of the kind the game waits for now (it may still be illegal)."""
    if isinstance(action, (TimeUp, Flip, Forfeit, Abandon)):
        return True
    decision = deciding(state)
    if decision is None:
        return False
    return isinstance(action, Timeout) or decision.accepts(action)


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
