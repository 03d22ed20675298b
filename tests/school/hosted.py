"""What the tests of `school.hosts` share: a lesson's host without its web pages (the school
app's factory builds `table.host.LessonHost`; Hosts asks no more of a host than this one has),
a class lesson stored and played by its real engine, and a second process that serves a
lesson and presses on until it is killed (``python -m tests.school.hosted TARGET CODE``)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from engine.game import choices
from school.hosts import Hosts, Restored
from storage import Storage
from storage.leases import Leases, open_leases
from table.keep import new_lesson
from table.lesson import Lesson
from table.live import Hub
from tests.table.support import FakeClock, Seeds

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed")  # two games and one against the computer
OWNER = "t-ada"
T0 = 1_700_000_000.0


class Wall:
    """Wall-clock seconds, moved by the test."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Hosted:
    """A lesson's host: the restored lesson and its keeper, a real hub, and whether it runs."""

    def __init__(self, restored: Restored) -> None:
        self.restored = restored
        self.lesson = restored.lesson
        self.keeper = restored.keeper
        self.hub = Hub(self.lesson, lambda _device, _lang: {}, lambda _lang: {})
        self.started = False
        self.closed = asyncio.Event()

    def start(self) -> None:
        self.started = True

    async def close(self) -> None:
        await self.hub.close()
        self.closed.set()


@dataclass
class Factory:
    """The school app's factory, counting the lessons it built."""

    built: list[Hosted] = field(default_factory=list)

    async def __call__(self, restored: Restored) -> Hosted:
        host = Hosted(restored)
        self.built.append(host)
        return host


async def open_store(target: str) -> Storage:
    if target.startswith("postgresql"):
        from storage.postgres import PostgresStorage

        return await PostgresStorage.open_url(target)
    return await Storage.open(target)


@dataclass
class Process:
    """One school server process's part: its storage, leases, factory and hosts."""

    store: Storage
    leases: Leases
    factory: Factory
    hosts: Hosts[Hosted]
    clock: FakeClock
    wall: Wall


@asynccontextmanager
async def process(target: str, wall: Wall | None = None) -> AsyncIterator[Process]:
    store = await open_store(target)
    leases = await open_leases(target)
    factory = Factory()
    clock = FakeClock()
    wall = wall or Wall()
    hosts = Hosts(store, leases, factory, clock=clock, wall=wall, seeds=Seeds([3, 5, 8]))
    try:
        yield Process(store, leases, factory, hosts, clock, wall)
    finally:
        await hosts.close_all()
        await leases.close()
        await store.close()


async def stored_lesson(store: Storage, wall: Wall, presses: int = 3) -> Lesson:
    """A teacher's lesson on the server: five pupils joined and paired, some presses made;
    every change committed as the server commits it."""
    lesson, _ = await new_lesson(store, FakeClock(), owner=OWNER, wall=wall, seeds=Seeds([3, 5]))
    for name in NAMES:
        lesson.join(None, lesson.code, name)
    lesson.goal = 12
    lesson.pair("random")
    await lesson.save()
    await play(lesson, wall, presses)
    return lesson


async def play(lesson: Lesson, wall: Wall, presses: int) -> int:
    """Each live game takes its first choice ``presses`` times over, every press saved (the
    server's commit before anyone sees it); returns how many presses were made."""
    made = 0
    for _ in range(presses):
        for game in lesson.live_games():
            offered = [c for c in choices(game.state) if c.side in game.humans]
            if game.over or not offered:
                continue
            game.play(offered[0].action, game.seats[offered[0].side][0], lesson.clock())
            wall.now += 1.5
            await lesson.save()
            made += 1
    return made


def actions(lesson: Lesson) -> dict[str, int]:
    """How many actions each game of the lesson has."""
    return {g.id: len(g.actions) for g in lesson.games if not g.shared}


async def _serve_and_press(target: str, code: str) -> None:
    """The killed process: serves the lesson and presses on, saying after each commit how
    many actions the lesson has (each one acknowledged: committed, then said)."""
    async with process(target) as here:
        host = await here.hosts.get(code)
        assert isinstance(host, Hosted), host
        print("held", flush=True)
        while await play(host.lesson, here.wall, 1):
            print(f"acked {sum(actions(host.lesson).values())}", flush=True)
        print("over", flush=True)
        await asyncio.Event().wait()


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    asyncio.run(_serve_and_press(sys.argv[1], sys.argv[2]))
