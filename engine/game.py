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
    Abandon,
    Action,
    Answer,
    Bet,
    Choice,
    ChoiceKind,
    Flip,
    Forfeit,
    NameTarget,
    Pass,
    RandomTarget,
    Timeout,
    TimeUp,
)
from engine.cards import Card, new_deck, stacked_cards
from engine.config import GameConfig, Mode
from engine.dealer import Dealer
from engine.errors import ConfigurationError, IllegalActionError, Reason, Refusal
from engine.events import Dealt, Event, TimeUpNoted, chance_outcomes
from engine.judge import Verdict, judge
from engine.registry import descriptor
from engine.regnekrig import TARGET_MAX, TARGET_MIN
from engine.rng import GameRng
from engine.solver import best
from engine.state import PASS, GameState, Phase, SideState, Step, Termination

TIMEOUT_REASON = Reason.TIMEOUT.value


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision the game waits for: `kind` is "target", "answer" or "bet"."""

    side: int
    kind: str

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "action": self.kind}


_DECISION_KIND = {Phase.TARGET: "target", Phase.ANSWER: "answer", Phase.BET: "bet"}


def _dealer(state: GameState) -> Dealer:
    return descriptor(state.config.game).dealer(state)


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
    descriptor(config.game)  # an unknown game is refused before anything is dealt
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
        answers=(None,) * sides,
        bets=(None,) * sides,
        misses=(0,) * sides,
    )
    dealer = _dealer(state)
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


def _check_pending(state: GameState, side: int, phase: Phase) -> None:
    _check_side(state, side)
    if state.phase is not phase:
        raise IllegalActionError(
            f"the game is not waiting for that now ({state.phase.value})",
            code=Refusal.WRONG_PHASE,
            phase=state.phase.value,
        )
    if side not in state.pending:
        if phase is Phase.TARGET:
            raise IllegalActionError(
                f"side {state.namer} names this target", code=Refusal.NOT_YOUR_TURN, side=side
            )
        if phase is Phase.BET and side in state.battle and state.bets[side] is None:
            raise IllegalActionError(
                f"side {side} has too few cards to bet", code=Refusal.CANNOT_BET, side=side
            )
        if side in state.battle:
            raise IllegalActionError(
                f"side {side} has already decided", code=Refusal.ALREADY_DECIDED, side=side
            )
        raise IllegalActionError(
            f"side {side} is not in this comparison", code=Refusal.NOT_IN_COMPARISON, side=side
        )


def judge_answer(state: GameState, side: int, text: str) -> Verdict:
    """What an answer would count as for this side now (RULES §2.2); raises for unreadable text."""
    a, b = state.up[side]
    return judge(text, (a.value, b.value), state.config.level, state.config.answer_form)


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply one action; an illegal one raises an `EngineError` and changes nothing.

    The refusals (`engine.errors.Refusal`, the error's `code`): `game_over`; `not_a_side`;
    `wrong_phase` (not the kind of action the game waits for now); `not_your_turn` (another
    side names the target); `not_in_comparison`, `already_decided`, `cannot_bet` (the side is
    not asked now); `target_out_of_range`; `bad_swap`; `time_already_up`. An unreadable answer
    raises an `ExpressionError` with the codes of `engine.expressions`; a readable answer that
    breaks a rule is accepted and counts as no value (RULES §2.2).
    """
    if state.outcome is not None:
        raise IllegalActionError("the game is over", code=Refusal.GAME_OVER)
    dealer = _dealer(state)
    if not isinstance(action, Flip):  # the common case (auto mode, intervallkrig) skips it
        _count_misses(state, action, dealer)
    if isinstance(action, Forfeit):
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
        if state.phase is Phase.TARGET or (state.phase is Phase.FLIP and state.step is Step.ROUND):
            dealer.finish(Termination.TIME_UP)
    elif isinstance(action, Flip):
        _check_side(state, action.side)
        if state.phase is not Phase.FLIP and state.config.mode is not Mode.AUTO:
            raise IllegalActionError(
                "the game is waiting for a decision",
                code=Refusal.WRONG_PHASE,
                phase=state.phase.value,
            )
        dealer.flip()
    elif isinstance(action, NameTarget):
        _check_pending(state, action.side, Phase.TARGET)
        if not TARGET_MIN <= action.value <= TARGET_MAX:
            raise IllegalActionError(
                f"a target is a whole number from {TARGET_MIN} to {TARGET_MAX}",
                code=Refusal.TARGET_OUT_OF_RANGE,
                value=action.value,
            )
        dealer.name_target(action.side, action.value)
    elif isinstance(action, RandomTarget):
        _check_pending(state, action.side, Phase.TARGET)
        dealer.name_target(action.side, None)
    elif isinstance(action, Answer):
        _check_pending(state, action.side, Phase.ANSWER)
        dealer.answer(action.side, judge_answer(state, action.side, action.text))
    elif isinstance(action, Bet):
        _check_pending(state, action.side, Phase.BET)
        if action.swap not in (0, 1):
            raise IllegalActionError(
                "swap is 0 (the first card) or 1 (the second)",
                code=Refusal.BAD_SWAP,
                swap=action.swap,
            )
        dealer.decide_bet(action.side, action.swap)
    elif isinstance(action, Pass):
        _check_pending(state, action.side, Phase.BET)
        dealer.decide_bet(action.side, PASS)
    elif isinstance(action, Timeout):
        _check_side(state, action.side)
        if state.phase is Phase.TARGET:
            _check_pending(state, action.side, Phase.TARGET)
            dealer.name_target(action.side, None)
        elif state.phase is Phase.ANSWER:
            _check_pending(state, action.side, Phase.ANSWER)
            dealer.answer(action.side, Verdict(None, "", TIMEOUT_REASON, {}))
        elif state.phase is Phase.BET:
            _check_pending(state, action.side, Phase.BET)
            dealer.decide_bet(action.side, PASS)
        else:
            raise IllegalActionError("nothing is timed now", code=Refusal.WRONG_PHASE)
    else:  # pragma: no cover - the Action union is closed
        raise IllegalActionError(f"unknown action {action!r}", code=Refusal.MALFORMED_ACTION)
    return dealer.freeze(), dealer.events


MISSES_TO_ABANDON = 3  # RULES §1.5 [decision]: three decisions in a row run out of time


def _count_misses(state: GameState, action: Action, dealer: Dealer) -> None:
    """RULES §1.5: an answer or a bet that runs out of time is a miss; any decision the side
    makes itself (naming a target, or letting the engine draw it, counts) starts over."""
    if not isinstance(action, Timeout | NameTarget | RandomTarget | Answer | Bet | Pass):
        return
    side = action.side
    if not 0 <= side < len(dealer.misses):
        return  # refused below: there is no such side
    missed = isinstance(action, Timeout) and state.phase in (Phase.ANSWER, Phase.BET)
    counts = list(dealer.misses)
    counts[side] = counts[side] + 1 if missed else 0
    dealer.misses = tuple(counts)


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
    in_play = state.phase in (Phase.ANSWER, Phase.BET) or (
        state.phase is Phase.FLIP and state.step is not Step.ROUND
    )
    return state.round - 1 if in_play and state.outcome is None else state.round


def awaited(state: GameState) -> tuple[int, ...]:
    """The sides whose decision the game waits for from its players: none in auto mode, where
    the engine makes every decision (a flip makes them) and nothing is timed."""
    if state.config.mode is Mode.AUTO or state.phase not in _DECISION_KIND:
        return ()
    return state.pending


def waiting_for(state: GameState) -> list[Decision]:
    """The decisions the game waits for (empty when a flip or nothing is next)."""
    kind = _DECISION_KIND.get(state.phase)
    if kind is None:
        return []
    return [Decision(side, kind) for side in state.pending]


def choices(state: GameState, side: int | None = None) -> tuple[Choice, ...]:
    """What each side (or only `side`) may choose now, each accepted by `apply`: screens
    offer these and nothing else. Answers are free text: an answer choice carries the side's
    best legal expression with its value (RULES §2.2), or a readable number when it has no
    value; any readable answer is accepted.

    In auto mode the engine makes every decision itself (a flip makes them), so the players'
    only choice is to flip; `apply` still takes a decision a scenario file supplies there."""
    if state.outcome is not None:
        return ()
    if state.config.mode is Mode.AUTO or state.phase is Phase.FLIP:
        flips = _flips(state.config.sides)
        return flips if side is None else flips[side : side + 1]
    if state.phase is Phase.TARGET:
        return _targets(state.namer) if side is None or side == state.namer else ()
    deciding = state.pending if side is None else [s for s in state.pending if s == side]
    out: list[Choice] = []
    if state.phase is Phase.ANSWER:
        level, target = state.config.level, state.target
        for s in deciding:
            a, b = state.up[s]
            play = best(a.value, b.value, level, target)
            answer = Answer(s, play.answer if play.value is not None else "0")
            out.append(Choice(ChoiceKind.ANSWER, s, answer))
    elif state.phase is Phase.BET:
        for s in deciding:
            out.extend(_bets(s))
    return tuple(out)


def legal_actions(state: GameState) -> list[Action]:
    """Every action `apply` accepts now: the players' `choices`, a decision running out of
    time, and the time limit running out."""
    if state.outcome is not None:
        return []
    actions: list[Action] = [c.action for c in choices(state)]
    if state.phase in _DECISION_KIND and state.config.mode is not Mode.AUTO:
        actions.extend(Timeout(side) for side in state.pending)
    if not state.time_up:
        actions.append(TimeUp())
    # RULES §1.5: a side may give up, and the bot may end a game nobody plays, at any time.
    actions.extend(Forfeit(s) for s in state.live_sides)
    actions.append(Abandon())
    return actions


# The choices that depend only on a side (or the number of sides) are the same frozen values
# every time: built once, so a board's TARGET window does not build 31 actions on every look.


@cache
def _flips(sides: int) -> tuple[Choice, ...]:
    return tuple(Choice(ChoiceKind.FLIP, s, Flip(s)) for s in range(sides))


@cache
def _targets(namer: int) -> tuple[Choice, ...]:
    named = tuple(
        Choice(ChoiceKind.TARGET, namer, NameTarget(namer, v), v)
        for v in range(TARGET_MIN, TARGET_MAX + 1)
    )
    return (*named, Choice(ChoiceKind.RANDOM_TARGET, namer, RandomTarget(namer)))


@cache
def _bets(side: int) -> tuple[Choice, ...]:
    return (
        Choice(ChoiceKind.BET, side, Bet(side, 0), 0),
        Choice(ChoiceKind.BET, side, Bet(side, 1), 1),
        Choice(ChoiceKind.PASS, side, Pass(side)),
    )


def fits(state: GameState, action: Action) -> bool:
    """Whether the action is of the kind the game waits for now (it may still be illegal)."""
    if isinstance(action, (TimeUp, Flip, Forfeit, Abandon)):
        return True
    if isinstance(action, Timeout):
        return state.phase in _DECISION_KIND
    kinds: dict[Phase, tuple[type, ...]] = {
        Phase.TARGET: (NameTarget, RandomTarget),
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
