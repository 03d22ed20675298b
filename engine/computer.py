"""The computer player: three strengths a learner can beat (`engine.strength`), deciding
whatever the game waits for.

The caller injects the `random.Random` it uses, so the game's own RNG (which decides the
cards) is never touched by the computer's choices and every choice is reproducible.

A pupil learns from an opponent that plays like a pupil, so the weaker strengths do not play
randomly: they find the best move at a set rate and otherwise make the mistakes pupils make
(so that every round teaches), each one judged by the engine like a pupil's answer. How is
each decision's own (`engine.decision.Decision.computer`): regnekrig's targets and answers
(a weaker legal value, a sign slip, a late answer), satsing's bets. Passing `best_rate` makes
any strength *adaptive*: it finds the best move at that rate (e.g. the pupil's own recent
best-move rate), with easy's mix of mistakes. `python -m benchmarks.computer` measures how
often modelled pupils beat each strength.
"""

from __future__ import annotations

import random
from fractions import Fraction

from engine.actions import Action
from engine.decision import Decision
from engine.state import GameState
from engine.strength import Strength

# The strengths are the computer's own words: a caller names one with the computer.
__all__ = ["Strength", "choose"]


def choose(
    state: GameState,
    side: int,
    strength: Strength,
    rng: random.Random,
    best_rate: Fraction | None = None,
) -> Action | None:
    """The computer's action for `side` now, or None when it has nothing to decide.
    `best_rate` (0…1) makes the answers adaptive: the best move at that rate."""
    decision = state.phase
    if state.outcome is not None or side not in state.pending:
        return None
    if not isinstance(decision, Decision):
        return None
    return decision.computer(state, side, strength, rng, best_rate)
