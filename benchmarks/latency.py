"""Press → result shown, Mattekrig side by side with a bare discord.py bot and the durable
floor.

Each bot runs in its own process against a fake Discord of its own (tests/fakediscord), all
up for the whole run, their loads taking turns in short rounds:

* pace:  N games, each pupil pressing Flip about every 2 s: latency p50/p99 (ten short
         turns each, the order rotated each turn);
* flood: N games, each pupil pressing again as soon as the result is shown: results/s;
* burst: 1,000 ``/mattekrig start`` at once: the share whose board is shown within 3 s.

"Shown" is when the fake applies the first board edit that shows the press's result (its
Flip button is the next round's, or gone): the moment a pupil would see it. An edit that only
brings an earlier round's picture does not count. The bare bot (tests/fakediscord/bare_bot.py)
answers the same command and presses with no work. The durable floor
(tests/fakediscord/durable_bot.py) is the bare bot storing each press as one SQLite row,
fsync'd before it answers (group commit on one thread): the least a bot does that shows
nothing before it is on disk. Mattekrig's ratios to it are reported against the targets:
pace p99 ≤ 1.5× and flood ≥ 0.5× the floor's. With pictures on, Mattekrig with text boards
runs beside them too, so what the pictures cost is measured in the same run, on the same
busy moments.
Also measured in-process: memory per live game (1,000 games, engine state, records and
locks; discord.py's objects are not counted) and the time to restore 1,000 stored live games.

    python -m benchmarks.latency            # 200 games, burst 1,000 (a few minutes)
    python -m benchmarks.latency --quick    # 20 games, burst 200, short loads
    python -m benchmarks.latency --games 500
    python -m benchmarks.latency --no-pictures   # Mattekrig's boards as text only (no
                                                 # third bot)
    python -m benchmarks.latency --backend postgres  # on PostgreSQL: TEST_DATABASE_URL
                                                     # (a throw-away server: .ci/postgres.sh)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import math
import os
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.actions import FLIP_CHOICE
from tests.fakediscord.driver import Driver
from tests.fakediscord.process import ENV_NO_PICTURES, BotProcess, start_against_computer
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeInteraction, FakeMessage, FakeUser
from tests.postgres import new_schema_url

SHOWN_WITHIN_S = 3.0
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Loads:
    games: int
    burst: int
    pace_s: float
    flood_s: float
    memory_games: int
    rounds: int = 3
    pace_rounds: int = 10
    pictures: bool = True
    # PostgreSQL server for Mattekrig's storage (a fresh schema each use); None: SQLite
    database_url: str | None = None


@dataclass
class Figures:
    pace: list[float] = field(default_factory=list)  # seconds, press → shown
    flood: list[float] = field(default_factory=list)
    flood_s: float = 0.0
    flood_cpu_s: float = 0.0
    burst_shown: list[float] = field(default_factory=list)
    burst_sent: int = 0
    start_latency: list[float] = field(default_factory=list)

    @property
    def flood_rate(self) -> float:
        return len(self.flood) / self.flood_s if self.flood_s else 0.0

    @property
    def cpu_per_press_ms(self) -> float:
        return 1000 * self.flood_cpu_s / len(self.flood) if self.flood else 0.0

    @property
    def burst_share(self) -> float:
        within = sum(1 for s in self.burst_shown if s <= SHOWN_WITHIN_S)
        return within / self.burst_sent if self.burst_sent else 0.0


class Watcher:
    """Wakes whoever waits for a message to be shown, from inside the fake (no polling)."""

    def __init__(self, fake: FakeDiscord) -> None:
        # board message id → (waiter, the Flip pressed): woken once the board shows another
        self.boards: dict[int, tuple[asyncio.Future[float], str]] = {}
        self.starts: dict[int, asyncio.Future[float]] = {}
        announce = fake.rest._announce

        async def shown(event: str, message: FakeMessage) -> None:
            now = time.perf_counter()
            if not message.loading:
                waiting = self.boards.get(message.id)
                if waiting is not None and _flip_of(message) != waiting[1]:
                    del self.boards[message.id]
                    if not waiting[0].done():
                        waiting[0].set_result(now)
                if message.interaction_id is not None:
                    start = self.starts.pop(message.interaction_id, None)
                    if start is not None and not start.done():
                        start.set_result(now)
            await announce(event, message)

        fake.rest._announce = shown  # type: ignore[method-assign]

    def board(self, message_id: int, pressed: str) -> asyncio.Future[float]:
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.boards[message_id] = (future, pressed)
        return future

    def start(self, interaction: FakeInteraction) -> asyncio.Future[float]:
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.starts[interaction.id] = future
        return future


def _flip_of(message: FakeMessage) -> str | None:
    return next((c for c in message.custom_ids() if c.startswith("mk:flip:")), None)


def _cpu_s(pid: int) -> float:
    """CPU seconds of the process and of its children still running: Mattekrig's picture
    worker is a process of its own, and its drawing is part of what a press costs."""
    return sum(_own_cpu_s(p) for p in _stats() if pid in (p[0], p[1]))


def _stats() -> list[tuple[int, int, list[str]]]:
    """(pid, parent pid, the fields after the name) of every process."""
    out = []
    for path in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            head, rest = path.read_text().rsplit(")", 1)
            fields = rest.split()
            out.append((int(head.split(" (", 1)[0]), int(fields[1]), fields))
    return out


def _own_cpu_s(process: tuple[int, int, list[str]]) -> float:
    fields = process[2]
    return (int(fields[11]) + int(fields[12])) / TICKS


class Table:
    """One pupil per channel, each with a board of their own."""

    def __init__(self, fake: FakeDiscord, driver: Driver, watcher: Watcher) -> None:
        self.fake, self.driver, self.watcher = fake, driver, watcher
        self.seats: list[tuple[FakeUser, FakeChannel]] = []
        self.boards: dict[int, int] = {}  # user id → board message id

    def seat(self, count: int, prefix: str) -> list[tuple[FakeUser, FakeChannel]]:
        made = [
            (
                self.fake.world.add_user(f"{prefix}{i}", locale="no"),
                self.fake.world.add_channel(f"{prefix}-{i}"),
            )
            for i in range(count)
        ]
        return made

    async def start(self, user: FakeUser, channel: FakeChannel) -> float | None:
        """Start a game; the seconds until its board is shown, None if it never was."""
        sent = time.perf_counter()
        interaction = await start_against_computer(self.driver, user, channel, wait=False)
        shown = self.watcher.start(interaction)
        try:
            at = await asyncio.wait_for(shown, 10)
        except TimeoutError:
            self.watcher.starts.pop(interaction.id, None)
            return None
        board = next(
            (m for m in self.fake.messages_in(channel) if m.interaction_id == interaction.id),
            None,
        )
        if board is None:  # answered privately (refused): no board to press
            return None
        self.boards[user.id] = board.id
        return at - sent

    async def press(self, user: FakeUser, channel: FakeChannel) -> float | None:
        """Flip on the pupil's board; seconds until the result is shown (None: game over,
        a new one was started instead)."""
        board = self.fake.message(self.boards[user.id])
        flip = _flip_of(board)
        if flip is None:
            await self.start(user, channel)
            return None
        sent = time.perf_counter()
        shown = self.watcher.board(board.id, flip)
        await self.driver.click(user, board, flip, wait=False)
        try:
            return await asyncio.wait_for(shown, 10) - sent
        except TimeoutError:
            self.watcher.boards.pop(board.id, None)
            return float("inf")


async def _gather_limited(calls: list[Callable[[], Any]], limit: int) -> list[Any]:
    gate = asyncio.Semaphore(limit)

    async def one(call: Callable[[], Any]) -> Any:
        async with gate:
            return await call()

    return await asyncio.gather(*(one(c) for c in calls))


@dataclass(frozen=True)
class Bot:
    """Which bot a side runs: the bare one, the durable floor, or Mattekrig with or without
    pictures."""

    process: str  # BotProcess's kind: "bare", "durable" or "real"
    pictures: bool = True

    @property
    def label(self) -> str:
        if self.process == "bare":
            return "bare bot"
        if self.process == "durable":
            return "durable floor"
        return "Mattekrig" if self.pictures else "Mattekrig, text"

    @property
    def short(self) -> str:
        return "pictures" if self.pictures else "text"


@dataclass
class Side:
    """One bot with its own fake Discord and its pupils, kept running for the whole run."""

    runs: Bot
    fake: FakeDiscord
    table: Table
    bot: BotProcess
    players: list[tuple[FakeUser, FakeChannel]]
    bursters: list[tuple[FakeUser, FakeChannel]]
    figures: Figures = field(default_factory=Figures)


async def open_side(
    kind: Bot, loads: Loads, workdir: Path, stack: contextlib.AsyncExitStack
) -> Side:
    fake = await stack.enter_async_context(FakeDiscord())
    table = Table(fake, Driver(fake), Watcher(fake))
    players = table.seat(loads.games, "pupil")
    bursters = table.seat(loads.burst, "burst")
    env = {} if kind.pictures else {ENV_NO_PICTURES: "1"}
    if kind.process == "real" and loads.database_url is not None:
        env["DATABASE_URL"] = new_schema_url(loads.database_url)
    name = f"{kind.process}{'' if kind.pictures else '-text'}"
    bot = await stack.enter_async_context(
        BotProcess(fake, kind.process, workdir / f"{name}.sqlite3", env=env)
    )
    side = Side(kind, fake, table, bot, players, bursters)
    starts = await _gather_limited([functools.partial(table.start, u, c) for u, c in players], 20)
    side.figures.start_latency = [s for s in starts if s is not None]
    assert len(side.figures.start_latency) == loads.games, bot.output[-20:]
    return side


async def pace(side: Side, seconds: float, rng: random.Random) -> None:
    """Every pupil presses about every 2 s."""
    until = time.perf_counter() + seconds

    async def pupil(user: FakeUser, channel: FakeChannel) -> None:
        await asyncio.sleep(rng.uniform(0, 2))
        while time.perf_counter() < until:
            latency = await side.table.press(user, channel)
            if latency is not None:
                side.figures.pace.append(latency)
            await asyncio.sleep(rng.uniform(1.5, 2.5))

    await asyncio.gather(*(pupil(u, c) for u, c in side.players))


async def flood(side: Side, seconds: float) -> None:
    """Every pupil presses again as soon as the result is shown."""
    figures = side.figures
    cpu, began = _cpu_s(side.bot.pid), time.perf_counter()
    until = began + seconds

    async def pupil(user: FakeUser, channel: FakeChannel) -> None:
        while time.perf_counter() < until:
            latency = await side.table.press(user, channel)
            if latency is not None:
                figures.flood.append(latency)

    await asyncio.gather(*(pupil(u, c) for u, c in side.players))
    figures.flood_s += time.perf_counter() - began
    figures.flood_cpu_s += _cpu_s(side.bot.pid) - cpu


async def burst(side: Side) -> None:
    """Every burst pupil sends ``/mattekrig start`` at the same moment."""
    side.figures.burst_sent = len(side.bursters)
    shown = await asyncio.gather(*(side.table.start(u, c) for u, c in side.bursters))
    side.figures.burst_shown = [s for s in shown if s is not None]


def bots(loads: Loads) -> list[Bot]:
    """The bare bot, the durable floor and Mattekrig; with pictures on, Mattekrig with text
    boards too."""
    if not loads.pictures:
        return [Bot("bare"), Bot("durable"), Bot("real", pictures=False)]
    return [Bot("bare"), Bot("durable"), Bot("real"), Bot("real", pictures=False)]


async def run_all(loads: Loads, workdir: Path, rounds: int) -> list[tuple[Bot, Figures]]:
    """Every bot stays up; their loads take turns in short rounds (who goes first turns
    too), so a busy moment on a shared machine falls on all of them rather than on one."""
    async with contextlib.AsyncExitStack() as stack:
        sides = [await open_side(kind, loads, workdir, stack) for kind in bots(loads)]
        # The load generator must not add pauses of its own: the fake keeps every request
        # and every earlier version of every message, so its collector's passes grow.
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            rng = random.Random(9)
            # The pace is measured in many short turns: its p99 is a few dozen presses out
            # of thousands, and a busy moment on a shared machine (a second of stolen time
            # is enough) must fall on both bots' turns, not on one bot's long one.
            for turn in range(loads.pace_rounds):
                for side in _turn(sides, turn):
                    await pace(side, loads.pace_s / loads.pace_rounds, rng)
            for turn in range(rounds):
                for side in _turn(sides, turn):
                    await flood(side, loads.flood_s / rounds)
                    await asyncio.sleep(0.5)  # the last edits drain before the other's turn
            for side in sides:
                await burst(side)
                await asyncio.sleep(1.0)
        finally:
            gc.enable()
            gc.unfreeze()
        return [(side.runs, side.figures) for side in sides]


def _turn(sides: list[Side], turn: int) -> list[Side]:
    """The order of the sides in a turn: rotated by one each turn, so each goes first,
    last and between in equal shares (with two, it alternates)."""
    shift = turn % len(sides)
    return sides[shift:] + sides[:shift]


# --------------------------------------------------------------------- in-process figures


async def memory_and_restore(
    games: int, workdir: Path, database_url: str | None = None
) -> tuple[float, float]:
    """Bytes per live game held by the services, and seconds to restore ``games``."""
    from bot.services.clock import SystemClock
    from bot.services.games import GameService
    from classroom.settings import settings_from_options
    from storage import Player
    from storage.select import open_storage

    path = workdir / "restore.sqlite3"
    url = None if database_url is None else new_schema_url(database_url)
    settings = settings_from_options(game="intervallkrig", computer="easy")
    async with await open_storage(path, url) as storage:
        service = GameService(storage, SystemClock())
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for i in range(games):
            players = [
                Player(seat=0, side=0, display_name=f"p{i}", user_id=10_000 + i),
                Player(seat=1, side=1, display_name="Datamaskin", computer="easy"),
            ]
            update = await service.start(
                guild_id=1, channel_id=1_000 + i, settings=settings, players=players, seed=i
            )
            for _ in range(5):
                await service.choose(update.game.id, 10_000 + i, None, FLIP_CHOICE)
        gc.collect()
        per_game = (tracemalloc.get_traced_memory()[0] - before) / games
        tracemalloc.stop()
    async with await open_storage(path, url) as storage:
        service = GameService(storage, SystemClock())
        began = time.perf_counter()
        restored = await service.restore_all()
        seconds = time.perf_counter() - began
        assert len(restored) == games
    return per_game, seconds


# --------------------------------------------------------------------- report


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(value: float) -> str:
    if value >= 100:
        return "never"
    ms = 1000 * value
    return f"{ms:.1f} ms" if ms < 10 else f"{ms:,.0f} ms"


def _ratio(a: float, b: float) -> str:
    """``a`` as a multiple of ``b``; "-" without two figures (none, or a press never shown)."""
    ratio = _multiple(a, b)
    return "-" if math.isnan(ratio) else f"{ratio:.2f}×"


def _percentile_of(load: str, q: float) -> Callable[[Figures], float]:
    def percentile(figures: Figures) -> float:
        values: list[float] = getattr(figures, load)
        return _pct(values, q)

    return percentile


# Mattekrig against the durable floor: a target against the bare bot would measure the fsync
# that a bot which shows nothing before it is on disk cannot avoid.
PACE_P99_TARGET = 1.5  # Mattekrig's pace p99 at most this many times the floor's
FLOOD_TARGET = 0.5  # Mattekrig's flood results/s at least this share of the floor's


def report(loads: Loads, runs: list[tuple[Bot, Figures]], memory: float, restore: float) -> str:
    """One column per bot, then each Mattekrig's ratio to the durable floor and, with text
    boards beside the pictures, the pictures' ratio to the text: what the pictures cost.
    Last, Mattekrig's ratios to the floor against their targets."""
    floor = next(i for i, (kind, _) in enumerate(runs) if kind.process == "durable")
    mattekrig = [i for i, (kind, _) in enumerate(runs) if kind.process == "real"]
    ratio_heads = [f"{runs[i][0].short} ÷ floor" for i in mattekrig]
    if len(mattekrig) == 2:
        ratio_heads.append("pictures ÷ text")
    rows: list[list[str]] = []

    def row(name: str, value: Callable[[Figures], float], show: Callable[[float], str]) -> None:
        values = [value(f) for _, f in runs]
        ratios = [_ratio(values[i], values[floor]) for i in mattekrig]
        if len(mattekrig) == 2:
            ratios.append(_ratio(values[mattekrig[0]], values[mattekrig[1]]))
        rows.append([name, *(show(v) for v in values), *ratios])

    def plain(name: str, cells: list[str]) -> None:
        rows.append([name, *cells, *([""] * len(ratio_heads))])

    for label in ("pace", "flood"):
        for q, qn in ((0.5, "p50"), (0.99, "p99")):
            row(f"{label} {qn} press → shown", _percentile_of(label, q), _ms)
    row("flood results/s", lambda f: f.flood_rate, lambda v: f"{v:,.0f}")
    row("CPU per press (bot process)", lambda f: f.cpu_per_press_ms, lambda v: f"{v:.2f} ms")
    plain(
        f"start p99 ({loads.games} starts, 20 at a time)",
        [_ms(_pct(f.start_latency, 0.99)) for _, f in runs],
    )
    row(
        f"burst: {loads.burst:,} starts shown ≤ 3 s",
        lambda f: f.burst_share,
        lambda v: f"{round(v * loads.burst):,}/{loads.burst:,}",
    )
    plain("burst p99 start → shown", [_ms(_pct(f.burst_shown, 0.99)) for _, f in runs])
    header = ["", *(kind.label for kind, _ in runs), *ratio_heads]
    width = [max(len(r[i]) for r in [*rows, header]) for i in range(len(header))]
    lines = [
        f"Press → result shown, {loads.games} games (pace {loads.pace_s:.0f} s, "
        f"flood {loads.flood_s:.0f} s), {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f} at the end, "
        f"Mattekrig on {'PostgreSQL' if loads.database_url else 'SQLite'}",
        "",
        "  ".join(h.ljust(w) for h, w in zip(header, width, strict=True)).rstrip(),
    ]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, width, strict=True)).rstrip() for r in rows]
    lines += ["", *_targets(runs, floor, mattekrig)]
    lines += [
        "",
        f"memory per live game ({loads.memory_games:,} games): {memory / 1024:.1f} KB",
        f"restore {loads.memory_games:,} stored live games: {restore * 1000:,.0f} ms",
    ]
    return "\n".join(lines)


def _targets(runs: list[tuple[Bot, Figures]], floor: int, mattekrig: list[int]) -> list[str]:
    """Each Mattekrig's pace p99 and flood as multiples of the durable floor's, with their
    targets."""
    base = runs[floor][1]
    lines = []
    for i in mattekrig:
        kind, figures = runs[i]
        p99 = _multiple(_pct(figures.pace, 0.99), _pct(base.pace, 0.99))
        flood = _multiple(figures.flood_rate, base.flood_rate)
        pace = _verdict(p99, PACE_P99_TARGET, at_most=True)
        lines.append(
            f"{kind.label} ÷ durable floor: pace p99 {pace},"
            f" flood {_verdict(flood, FLOOD_TARGET, at_most=False)}"
        )
    return lines


def _multiple(a: float, b: float) -> float:
    """``a / b``, NaN without two figures (none, or a press never shown)."""
    return a / b if b and math.isfinite(a) and math.isfinite(b) else math.nan


def _verdict(ratio: float, target: float, *, at_most: bool) -> str:
    bound = f"target {'≤' if at_most else '≥'} {target}×"
    if math.isnan(ratio):
        return f"no figure ({bound}: not measured)"
    met = ratio <= target if at_most else ratio >= target
    return f"{ratio:.2f}× ({bound}: {'met' if met else 'missed'})"


async def main_async(loads: Loads) -> str:
    with tempfile.TemporaryDirectory(prefix="mattekrig-latency-") as tmp:
        workdir = Path(tmp)
        runs = await run_all(loads, workdir, loads.rounds)
        memory, restore = await memory_and_restore(loads.memory_games, workdir, loads.database_url)
    return report(loads, runs, memory, restore)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=None, help="games under pace and flood")
    parser.add_argument("--burst", type=int, default=None, help="starts sent at once")
    parser.add_argument("--quick", action="store_true", help="small and short (a smoke run)")
    parser.add_argument(
        "--no-pictures", action="store_true", help="Mattekrig's boards as text only"
    )
    parser.add_argument(
        "--backend",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="Mattekrig's storage (postgres: the server at TEST_DATABASE_URL)",
    )
    args = parser.parse_args(argv)
    quick = args.quick
    database_url = None
    if args.backend == "postgres":
        database_url = os.environ.get("TEST_DATABASE_URL") or None
        if database_url is None:
            parser.error("--backend postgres needs TEST_DATABASE_URL (.ci/postgres.sh start)")
    loads = Loads(
        games=args.games or (20 if quick else 200),
        burst=args.burst or (200 if quick else 1_000),
        pace_s=6.0 if quick else 20.0,
        flood_s=4.0 if quick else 15.0,
        memory_games=100 if quick else 1_000,
        rounds=2 if quick else 3,
        pace_rounds=3 if quick else 10,
        pictures=not args.no_pictures,
        database_url=database_url,
    )
    with contextlib.suppress(KeyboardInterrupt):
        print(asyncio.run(main_async(loads)))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
