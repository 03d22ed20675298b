"""Card picture speed and size: `python -m benchmarks.pictures`.

Why: the bot draws one picture per state change, in a worker process, for every class's game
at once; the targets on one core are ≤ 8 ms median per new picture with the card
faces already drawn, and ≤ 60 KB for four sides. Rows, for two and four sides:

* new picture: `draw_table` for a state not drawn before (card faces and the names' text
  tiles warm from other games, the picture cache empty): median and 90th percentile ms;
* size: median and largest PNG bytes;
* cached: `draw_table` again for a state already drawn (the scene built, the picture found);
* first ever: one picture with every cache empty (faces, text, pictures), for reference.

Times are the drawing thread's CPU time (`time.thread_time`): one core's work, steady on a
shared machine; the cached look-up is wall time (too short for the thread clock). States come
from seeded games of every game (regnekrig at levels 1, 5 and 7) played well
(`bot.render.pictures.gallery.played`). Never run by the tests.
Options: `--games N` seeds per row (default 6), `--steps N` states per game (default 60).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from bot.render.pictures import draw_table, forget, tiles
from bot.render.pictures.gallery import NAMES, played
from engine.cards import DeckProfile
from engine.config import GameConfig, Mode
from engine.view import View, view

DRAW_TARGET_MS = 8.0
SIZE_TARGET_BYTES = 60 * 1024
GAMES = (
    ("regnekrig", 1, Mode.REGN),
    ("regnekrig", 5, Mode.REGN),
    ("regnekrig", 7, Mode.AUTO),
    ("intervallkrig", 1, Mode.AUTO),
    ("satsing", 1, Mode.REGN),
)


def views(sides: int, seeds: range, steps: int) -> list[View]:
    out: list[View] = []
    for game, level, mode in GAMES:
        for seed in seeds:
            deck = list(DeckProfile)[seed % 3]
            config = GameConfig(game, level=level, mode=mode, sides=sides, deck=deck)
            out.extend(view(state, None) for state in played(config, seed, steps))
    return out


def _draw(shown: View) -> Callable[[], object]:
    return lambda: draw_table(shown, NAMES, "nb")


def _timed(call: Callable[[], object]) -> float:
    """CPU seconds of this thread: one core's work, whatever else the machine is doing."""
    start = time.thread_time()
    call()
    return time.thread_time() - start


def _wall(call: Callable[[], object]) -> float:
    """Wall seconds, for calls too short for the thread clock's resolution."""
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def measure(sides: int, games: int, steps: int) -> dict[str, float]:
    warm = views(sides, range(1000, 1002), steps)
    for shown in warm:  # card faces, backs, marks and the names' tiles drawn once
        draw_table(shown, NAMES, "nb")
    forget()
    fresh = views(sides, range(games), steps)
    new_ms: list[float] = []
    cached_us: list[float] = []
    sizes: list[int] = []
    for shown in fresh:
        new_ms.append(_timed(_draw(shown)) * 1000)
        cached_us.append(_wall(_draw(shown)) * 1e6)
        sizes.append(len(draw_table(shown, NAMES, "nb").png))
    return {
        "pictures": len(fresh),
        "new_median_ms": statistics.median(new_ms),
        "new_p90_ms": _percentile(new_ms, 0.9),
        "bytes_median": statistics.median(sizes),
        "bytes_max": max(sizes),
        "cached_median_us": statistics.median(cached_us),
    }


def first_ever_ms() -> float:
    shown = views(4, range(1), 3)[-1]
    forget()
    for cache in (tiles.face, tiles.back, tiles.stack, tiles.mark, tiles.text):
        cache.cache_clear()
    return _timed(lambda: draw_table(shown, NAMES, "sv")) * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.pictures", description=__doc__)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--steps", type=int, default=60)
    args = parser.parse_args(argv)
    print(
        f"{'sides':>5} {'pictures':>8} {'new ms':>8} {'p90 ms':>8} {'bytes':>8} "
        f"{'max bytes':>9} {'cached µs':>9}  verdict"
    )
    for sides in (2, 4):
        row = measure(sides, args.games, args.steps)
        fast = row["new_median_ms"] <= DRAW_TARGET_MS
        small = row["bytes_max"] <= SIZE_TARGET_BYTES
        verdict = "ok" if fast and small else "MISSED"
        print(
            f"{sides:>5} {row['pictures']:>8.0f} {row['new_median_ms']:>8.2f} "
            f"{row['new_p90_ms']:>8.2f} {row['bytes_median']:>8.0f} {row['bytes_max']:>9.0f} "
            f"{row['cached_median_us']:>9.1f}  {verdict}"
        )
    print(f"first picture ever (every cache empty): {first_ever_ms():.1f} ms")
    print(f"targets: new picture ≤ {DRAW_TARGET_MS} ms median, ≤ {SIZE_TARGET_BYTES} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
