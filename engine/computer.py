"""The computer player: three strengths, choosing targets, answers and bets.

The caller injects the `random.Random` it uses, so the game's own RNG (which decides the
cards) is never touched by the computer's choices and every choice is reproducible.
"""

from __future__ import annotations

import random
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from engine.actions import Action, Answer, Bet, NameTarget, Pass, Timeout
from engine.cards import DeckProfile, profile_values
from engine.config import TARGET_MAX, TARGET_MIN
from engine.hints import swap_chances
from engine.solver import best, reachable
from engine.state import GameState, Phase

BET_COST = 2  # RULES §3.3: a bet lays two cards into the pot


class Strength(StrEnum):
    EASY = "easy"  # a random legal choice
    MEDIUM = "medium"  # greedy: a good simple choice
    HARD = "hard"  # the best choice


@lru_cache(maxsize=64)
def _hit_counts(deck: DeckProfile, level: int) -> tuple[tuple[int, int], ...]:
    """(target, how many value pairs of the deck can hit it exactly), most often hit first."""
    values = profile_values(deck)
    hits = {t: 0 for t in range(TARGET_MIN, TARGET_MAX + 1)}
    for a in values:
        for b in values:
            for value in reachable(a, b, level):
                if value.denominator == 1 and int(value) in hits:
                    hits[int(value)] += 1
    return tuple(sorted(hits.items(), key=lambda item: (-item[1], abs(item[0]), item[0])))


def choose(state: GameState, side: int, strength: Strength, rng: random.Random) -> Action | None:
    """The computer's action for `side` now, or None when it has nothing to decide."""
    if state.outcome is not None or side not in state.pending:
        return None
    if state.phase is Phase.TARGET:
        return NameTarget(side, _target(state, strength, rng))
    if state.phase is Phase.ANSWER:
        return _answer(state, side, strength, rng)
    if state.phase is Phase.BET:
        return _bet(state, side, strength, rng)
    return None


def _target(state: GameState, strength: Strength, rng: random.Random) -> int:
    if strength is Strength.EASY:
        return rng.randint(TARGET_MIN, TARGET_MAX)
    ranked = _hit_counts(state.config.deck, state.config.level)
    if strength is Strength.MEDIUM:
        return rng.choice(ranked[:8])[0]
    return ranked[0][0]


def _answer(state: GameState, side: int, strength: Strength, rng: random.Random) -> Action:
    a, b = (c.value for c in state.up[side])
    level = state.config.level
    if strength is Strength.HARD:
        play = best(a, b, level, state.target)
        return Answer(side, play.text) if play.value is not None else Timeout(side)
    options = reachable(a, b, level)
    if not options:
        return Timeout(side)
    if strength is Strength.EASY:
        value = rng.choice(sorted(options))
        return Answer(side, options[value])
    # Greedy: the best plain combination, ignoring squares and roots (levels 6–7).
    plain = reachable(a, b, min(level, 5)) if level >= 5 else options
    if state.target is None:
        return Answer(side, plain[max(plain)])
    target = Fraction(state.target)
    value = min(sorted(plain), key=lambda v: abs(v - target))
    return Answer(side, plain[value])


def _bet(state: GameState, side: int, strength: Strength, rng: random.Random) -> Action:
    if strength is Strength.EASY:
        options: list[Action] = [Bet(side, 0), Bet(side, 1), Pass(side), Pass(side)]
        return rng.choice(options)
    chances = swap_chances(state, side)
    swap = 0 if chances.swap[0] >= chances.swap[1] else 1
    gain = chances.swap[swap] - chances.now
    if strength is Strength.MEDIUM:
        return Bet(side, swap) if gain >= Fraction(1, 4) else Pass(side)
    # Hard: bet when the gain in chance is worth the two cards it costs, valued against the pot
    # the side would take (everything on the table plus its own two bet cards).
    pot_if_won = state.table_count + BET_COST
    return Bet(side, swap) if gain * pot_if_won >= BET_COST else Pass(side)
