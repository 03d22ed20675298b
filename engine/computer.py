"""The computer player: three strengths a learner can beat, choosing targets, answers and bets.

The caller injects the `random.Random` it uses, so the game's own RNG (which decides the
cards) is never touched by the computer's choices and every choice is reproducible.

A pupil learns from an opponent that plays like a pupil, so the weaker strengths do not play
randomly: they find the best move at a set rate and otherwise make the mistakes pupils make
(so that every round teaches), each one judged by the engine like a pupil's answer:

* the worse order or a weaker value: a legal value that is not the best (levels 3–7);
* a sign slip: the value the cards give with one sign flipped, which counts as no value
  (or, where no flip changes the value, a times-table slip one off the right value);
* a late answer: a `Timeout`.

`easy` finds the best move half the time, `medium` 70 % of the time, `hard` always. Passing
`best_rate` makes any strength *adaptive*: it finds the best move at that rate (e.g. the
pupil's own recent best-move rate), with easy's mix of mistakes. Rates are exact fractions,
drawn with integer arithmetic from the rng. `python -m benchmarks.computer` measures how
often modelled pupils beat each strength.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache

from engine.actions import Action, Answer, Bet, NameTarget, Pass, Timeout
from engine.cards import DeckProfile, profile_values
from engine.diagnosis import flipped_cards
from engine.hints import swap_chances
from engine.regnekrig import TARGET_MAX, TARGET_MIN, closeness
from engine.solver import answer_text, best, number_answer, reachable
from engine.state import GameState, Phase

BET_COST = 2  # RULES §3.3: a bet lays two cards into the pot


class Strength(StrEnum):
    EASY = "easy"  # a learner's opponent: best move half the time, pupils' mistakes
    MEDIUM = "medium"  # best move about 70 % of the time, mostly a weaker legal value
    HARD = "hard"  # the best choice


@dataclass(frozen=True, slots=True)
class Style:
    """How a strength answers: the chance of the best move, and how the misses divide between
    a weaker legal value, a sign slip and a late answer (relative weights)."""

    best: Fraction
    weaker: int
    slip: int
    late: int


STYLES = {
    Strength.EASY: Style(Fraction(1, 2), weaker=2, slip=2, late=1),
    Strength.MEDIUM: Style(Fraction(7, 10), weaker=6, slip=1, late=1),
    Strength.HARD: Style(Fraction(1), weaker=0, slip=0, late=0),
}


def _happens(chance: Fraction, rng: random.Random) -> bool:
    """True with exactly `chance` (an integer draw, no float); a certainty draws nothing."""
    if chance >= 1 or chance <= 0:
        return chance >= 1
    return rng.randrange(chance.denominator) < chance.numerator


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


def choose(
    state: GameState,
    side: int,
    strength: Strength,
    rng: random.Random,
    best_rate: Fraction | None = None,
) -> Action | None:
    """The computer's action for `side` now, or None when it has nothing to decide.
    `best_rate` (0…1) makes the answers adaptive: the best move at that rate."""
    if state.outcome is not None or side not in state.pending:
        return None
    if state.phase is Phase.TARGET:
        return NameTarget(side, _target(state, strength, rng))
    if state.phase is Phase.ANSWER:
        style = STYLES[strength]
        if best_rate is not None:
            if not 0 <= best_rate <= 1:
                raise ValueError(f"a best-move rate is from 0 to 1, not {best_rate}")
            easy = STYLES[Strength.EASY]
            style = Style(Fraction(best_rate), easy.weaker, easy.slip, easy.late)
        return _answer(state, side, style, rng)
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


def _answer(state: GameState, side: int, style: Style, rng: random.Random) -> Action:
    a, b = (c.value for c in state.up[side])
    level = state.config.level
    play = best(a, b, level, state.target)
    if play.value is None:
        return Timeout(side)
    if _happens(style.best, rng):
        return Answer(side, play.answer)
    kinds = ["weaker"] * style.weaker + ["slip"] * style.slip + ["late"] * style.late
    kind = rng.choice(kinds)
    if kind == "late":
        return Timeout(side)
    if kind == "weaker":
        weaker = _weaker(a, b, level, state.target, play.value)
        if weaker:
            value = rng.choice(weaker)
            return Answer(side, answer_text(reachable(a, b, level)[value], value))
    return Answer(side, _slip(a, b, level, play.value, rng))


def _weaker(a: int, b: int, level: int, target: int | None, best_value: Fraction) -> list[Fraction]:
    """Up to three legal values just worse than the best (the other order at levels 3–4)."""
    options = [v for v in reachable(a, b, level) if v != best_value]
    if target is None:
        options.sort(reverse=True)
    else:
        options.sort(key=lambda v: (-closeness(v, target), v))
    return options[:3]


def _slip(a: int, b: int, level: int, best_value: Fraction, rng: random.Random) -> str:
    """A wrong number a pupil would type: the best play's value with a card's sign flipped,
    or one off the right value when no flip changes it."""
    legal = reachable(a, b, level)
    slips = sorted(
        {
            value
            for _, (x, y) in flipped_cards((a, b))
            for value in reachable(x, y, level)
            if value not in legal
        }
    )
    if slips:
        return number_answer(rng.choice(slips))
    return number_answer(best_value + rng.choice((-1, 1)))


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
