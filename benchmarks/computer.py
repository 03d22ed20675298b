"""How often a modelled pupil beats each computer strength: `python -m benchmarks.computer`.

Why: a learner who plays well should beat the easy computer most of the time, and a perfect
player should beat medium more often than not, so that every round teaches: targets, at
every level, an 80 % pupil beats easy in ≥ 60 % of games and a perfect pupil beats medium in
≥ 55 %. A modelled pupil is the engine's own adaptive player (`choose(..., best_rate=p)`):
it finds the best move with chance p and otherwise makes a pupil's mistakes (a weaker
value, a sign slip, a late answer); the perfect pupil plays the solver's best. Each game is
regn mode, two sides, the heltall deck, to the end or `--rounds` rounds (then the side with
more cards wins, RULES §1.5); the pupil starts every other game. A draw is not a win.
"Adaptive" is the computer following the pupil's own rate. Engine only; never run by tests.
Options: `--games N` per cell (default 100), `--rounds N` (default 150), `--quick`.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from fractions import Fraction

from engine.computer import Strength, choose
from engine.config import GameConfig, Mode
from engine.game import apply, new_game

LEVELS = range(1, 8)
EASY_TARGET = Fraction(60, 100)  # an 80 % pupil beats easy at least this often
MEDIUM_TARGET = Fraction(55, 100)  # a perfect pupil beats medium at least this often


@dataclass(frozen=True, slots=True)
class Pupil:
    name: str
    best_rate: Fraction | None  # None: perfect (the solver's best)
    targets: Strength  # how well it names targets


PUPILS = (
    Pupil("perfect", None, Strength.HARD),
    Pupil("80 %", Fraction(4, 5), Strength.MEDIUM),
    Pupil("50 %", Fraction(1, 2), Strength.EASY),
)
OPPONENTS: tuple[tuple[str, Strength | None], ...] = (
    ("easy", Strength.EASY),
    ("medium", Strength.MEDIUM),
    ("hard", Strength.HARD),
    ("adaptive", None),
)


def play(level: int, pupil: Pupil, opponent: Strength | None, seed: int, rounds: int) -> bool:
    """One game; True when the pupil wins."""
    config = GameConfig("regnekrig", level=level, mode=Mode.REGN, max_rounds=rounds)
    state, _ = new_game(config, seed)
    me = seed % 2
    rngs = (random.Random(seed * 2), random.Random(seed * 2 + 1))
    while not state.is_over:
        for side in list(state.pending):
            if side == me:
                action = choose(state, side, pupil.targets, rngs[side], pupil.best_rate)
            elif opponent is None:
                rate = pupil.best_rate if pupil.best_rate is not None else Fraction(1)
                action = choose(state, side, Strength.EASY, rngs[side], rate)
            else:
                action = choose(state, side, opponent, rngs[side])
            if action is None:
                continue
            state, _ = apply(state, action)
            if state.is_over:
                break
    assert state.outcome is not None
    return state.outcome.winner == me


def win_rate(level: int, pupil: Pupil, opponent: Strength | None, games: int, rounds: int) -> float:
    wins = sum(play(level, pupil, opponent, seed, rounds) for seed in range(games))
    return wins / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=150)
    parser.add_argument("--quick", action="store_true", help="20 games of 60 rounds")
    args = parser.parse_args(argv)
    games, rounds = (20, 60) if args.quick else (args.games, args.rounds)
    print(f"pupil win rate, {games} games per cell, at most {rounds} rounds a game")
    header = "| level | pupil | " + " | ".join(f"vs {name}" for name, _ in OPPONENTS) + " |"
    print(header)
    print("|" + "---|" * (2 + len(OPPONENTS)))
    met = True
    for level in LEVELS:
        for pupil in PUPILS:
            cells = []
            for name, opponent in OPPONENTS:
                rate = win_rate(level, pupil, opponent, games, rounds)
                cells.append(f"{rate:.0%}")
                if name == "easy" and pupil.name == "80 %":
                    met &= rate >= EASY_TARGET
                if name == "medium" and pupil.name == "perfect":
                    met &= rate >= MEDIUM_TARGET
            print(f"| {level} | {pupil.name} | " + " | ".join(cells) + " |", flush=True)
    print("targets met" if met else "targets NOT met")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
