"""Engine speed, all measured side by side in one run: `python -m benchmarks.engine`.

Why: the bot plays every round of every class's game in one process, and in auto mode a whole
game is computed at once, so the targets are for one core: a round ≤ 50 µs median and a
solver lookup (`best` after `precompute`) ≤ 20 µs. Rows:

* each game, and regnekrig at every level, in auto mode (Flip until over, many seeds):
  rounds per second, median µs per round (per game: its time ÷ its rounds), full games per
  second;
* the solver: `best` after `precompute`, and cold (its cache emptied before every call);
* `judge` (a pupil's answer read, checked and valued), and the satsing hints.

Each figure is the median of `--repeats` runs (time.perf_counter). Never run by the tests.
Options: `--repeats N` (default 5), `--games N` seeds per game row (default 40), `--quick`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import solver
from engine.actions import Action, Flip
from engine.cards import DeckProfile, profile_values
from engine.config import GameConfig, Mode
from engine.game import apply, new_game
from engine.hints import swap_chances
from engine.intervallkrig import BET, Pass
from engine.judge import judge
from engine.state import GameState
from engine.view import view

ROUND_TARGET_US = 50.0
LOOKUP_TARGET_US = 20.0
VIEW_TARGET_US = 30.0  # one side's view of a level-7 round (what every screen draws from)


@dataclass(frozen=True, slots=True)
class Row:
    name: str
    per_second: float  # rounds, games or calls per second (see `unit`)
    unit: str
    median_us: float  # per round or per call
    games_per_second: float | None = None
    target_us: float | None = None

    @property
    def verdict(self) -> str:
        if self.target_us is None:
            return ""
        return "ok" if self.median_us <= self.target_us else "MISSED"


def play_auto(config: GameConfig, seed: int) -> tuple[int, float, float]:
    """One whole auto game (Flip until over): its rounds, the seconds of the deal and the
    seconds of its rounds (every `apply` until the game is over). A round's time excludes
    the deal, which happens once per game and is counted in games per second."""
    start = time.perf_counter()
    state, _ = new_game(config, seed)
    dealt = time.perf_counter()
    while state.outcome is None:
        state, _ = apply(state, Flip(0))
    return state.round, dealt - start, time.perf_counter() - dealt


def bench_game(name: str, config: GameConfig, games: int, repeats: int) -> Row:
    rates, game_rates, per_round = [], [], []
    for repeat in range(repeats):
        total_rounds, total_time = 0, 0.0
        for seed in range(repeat * games, (repeat + 1) * games):
            rounds, deal_seconds, play_seconds = play_auto(config, seed)
            total_rounds += rounds
            total_time += deal_seconds + play_seconds
            per_round.append(play_seconds / max(rounds, 1) * 1e6)
        rates.append(total_rounds / total_time)
        game_rates.append(games / total_time)
    return Row(
        name,
        statistics.median(rates),
        "rounds",
        statistics.median(per_round),
        statistics.median(game_rates),
        ROUND_TARGET_US,
    )


def bench_calls(name: str, call: Callable[[int], object], n: int, repeats: int, **kw: float) -> Row:
    """`call(i)` n times per repeat; the median over repeats of the time per call."""
    per_call = []
    for _ in range(repeats):
        start = time.perf_counter()
        for i in range(n):
            call(i)
        per_call.append((time.perf_counter() - start) / n)
    median = statistics.median(per_call)
    return Row(name, 1 / median, "calls", median * 1e6, None, kw.get("target_us"))


def lookup_cases(n: int, seed: int = 0) -> list[tuple[int, int, int, int]]:
    """(a, b, level, target) over the heltall values, every level, every target."""
    rnd = random.Random(seed)
    values = profile_values(DeckProfile.HELTALL)
    return [
        (rnd.choice(values), rnd.choice(values), rnd.randint(1, 7), rnd.randint(-15, 15))
        for _ in range(n)
    ]


def judge_cases(n: int, seed: int = 1) -> list[tuple[str, tuple[int, int], int]]:
    """Answers as pupils type them: legal expressions with their value, plain numbers, and
    wrong ones."""
    rnd = random.Random(seed)
    cases = []
    for a, b, level, _ in lookup_cases(n, seed):
        options = solver.reachable(a, b, level)
        roll = rnd.random()
        if options and roll < 0.6:
            value = rnd.choice(list(options))
            text = solver.answer_text(options[value], value)  # RULES §2.2: with its value
        elif options and roll < 0.8:
            text = str(rnd.choice(list(options)))
        else:
            text = f"{a} + {b} + 1 = 0"
        cases.append((text, (a, b), level))
    return cases


def bet_windows(count: int) -> list[tuple[GameState, int]]:
    """Betting windows of regn-mode satsing games (RULES §3.3), with the deciding side."""
    windows: list[tuple[GameState, int]] = []
    seed = 0
    while len(windows) < count:
        state, _ = new_game(GameConfig("satsing", mode=Mode.REGN, sides=2), seed)
        while state.outcome is None and len(windows) < count:
            if state.phase is BET:
                windows.extend((state, side) for side in state.pending)
                action: Action = Pass(state.pending[0])
            else:
                action = Flip(0)
            state, _ = apply(state, action)
        seed += 1
    return windows[:count]


def level7_views(count: int) -> list[tuple[GameState, int]]:
    """Every state of regn-mode level-7 games (answers typed as the best play), with a side:
    each side looks at the board after every change, as the bot and the browser table do."""
    found: list[tuple[GameState, int]] = []
    seed = 0
    while len(found) < count:
        state, _ = new_game(GameConfig("regnekrig", level=7, mode=Mode.REGN), seed)
        rnd = random.Random(seed)
        while state.outcome is None and len(found) < count:
            found.extend((state, side) for side in range(state.config.sides))
            actions = [c.action for c in view(state, None).choices]
            state, _ = apply(state, rnd.choice(actions))
        seed += 1
    return found[:count]


def run_all(games: int, repeats: int, calls: int) -> list[Row]:
    for deck in DeckProfile:  # the bot precomputes at start-up
        solver.precompute(profile_values(deck))
    rows = [
        bench_game(f"regnekrig level {level}", GameConfig("regnekrig", level=level), games, repeats)
        for level in range(1, 8)
    ]
    rows.append(bench_game("intervallkrig", GameConfig("intervallkrig"), games, repeats))
    rows.append(bench_game("satsing", GameConfig("satsing"), games, repeats))
    rows.append(
        bench_game(
            "regnekrig level 7, 4 sides",
            GameConfig("regnekrig", level=7, sides=4),
            games,
            repeats,
        )
    )

    cases = lookup_cases(calls)
    rows.append(
        bench_calls(
            "solver best (precomputed)",
            lambda i: solver.best(*cases[i]),
            calls,
            repeats,
            target_us=LOOKUP_TARGET_US,
        )
    )

    def cold(i: int) -> object:
        solver._TABLES.clear()  # private: empty the cache so every call builds its table
        return solver.best(*cases[i])

    pinned = set(solver._PINNED)
    solver._PINNED.clear()
    rows.append(bench_calls("solver best (cold)", cold, max(calls // 20, 1), repeats))
    solver._PINNED.update(pinned)
    for deck in DeckProfile:
        solver.precompute(profile_values(deck))

    answers = judge_cases(calls)
    rows.append(bench_calls("judge", lambda i: judge(*answers[i]), calls, repeats))
    windows = bet_windows(min(calls, 2_000))
    rows.append(
        bench_calls(
            "hints (swap_chances)",
            lambda i: swap_chances(*windows[i % len(windows)]),
            min(calls, 2_000),
            repeats,
        )
    )
    views = level7_views(min(calls, 4_000))
    rows.append(
        bench_calls(
            "view, one side, level 7",
            lambda i: view(*views[i % len(views)]),
            len(views),
            repeats,
            target_us=VIEW_TARGET_US,
        )
    )
    return rows


def table(rows: Sequence[Row]) -> str:
    header = ("what", "per second", "median µs", "games/s", "target µs", "")
    lines = [header]
    for row in rows:
        lines.append(
            (
                row.name,
                f"{row.per_second:,.0f} {row.unit}",
                f"{row.median_us:.1f}",
                f"{row.games_per_second:,.1f}" if row.games_per_second is not None else "",
                f"{row.target_us:.0f}" if row.target_us is not None else "",
                row.verdict,
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = []
    for n, line in enumerate(lines):
        cells = [
            cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
            for i, cell in enumerate(line)
        ]
        out.append("  ".join(cells).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine", description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--games", type=int, default=40, help="seeds per game row and repeat")
    parser.add_argument("--calls", type=int, default=20_000, help="calls per call row")
    parser.add_argument("--quick", action="store_true", help="a fast smoke run")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeats, args.games, args.calls = 3, 5, 2_000
    rows = run_all(args.games, args.repeats, args.calls)
    print(table(rows))
    return 0 if all(row.verdict != "MISSED" for row in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
