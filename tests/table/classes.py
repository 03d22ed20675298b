"""What the class-that-remembers tests share: a lesson of a class served on 127.0.0.1 from a
real database (each lesson opened as `mattekrig class --class 7B` opens it), pupils on the
roster, and pupils answering through their own devices."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from aiohttp.test_utils import TestClient, TestServer

from classroom.settings import settings_from_options
from engine.judge import judge
from storage.sqlite import Storage
from table.app import make_app
from table.cli import class_of_lesson
from table.games import TableGame
from table.keep import Keeper, open_lesson
from table.lesson import Lesson, Seat
from table.setup import LessonSetup
from tests.table.lessons import Device, best_text, side_of
from tests.table.support import FakeClock, Seeds, Table

KEY = b"k" * 32
WEEK = 7 * 86_400.0
LEVEL_ONE = LessonSetup(settings_from_options(game="regnekrig", level=1, answer_seconds=0))


class Wall:
    """Wall-clock seconds, moved by the test (a lesson a week)."""

    def __init__(self) -> None:
        self.now = 1_790_000_000.0  # a Tuesday in September 2026

    def __call__(self) -> float:
        return self.now


@dataclass
class ClassLesson:
    table: Table
    keeper: Keeper

    @property
    def lesson(self) -> Lesson:
        return self.table.lesson


@asynccontextmanager
async def class_lesson(
    store: Storage, wall: Wall, name: str | None = "7B", setup: LessonSetup = LEVEL_ONE
) -> AsyncIterator[ClassLesson]:
    """A fresh lesson of the class, served as `mattekrig class --class NAME --new` serves it
    (`name` None: `mattekrig class --new`, no class until the teacher names one)."""
    clock = FakeClock()
    lesson, keeper, _ = await open_lesson(
        store, clock, key=KEY, wall=wall, fresh=True, seeds=Seeds([3, 5, 8, 13, 21])
    )
    lesson.rng = random.Random(3)
    lesson.setup = setup
    klass = await class_of_lesson(store, lesson, keeper, name)
    app = make_app("class", clock=clock, lesson=lesson, keeper=keeper, klass=klass)
    client = TestClient(TestServer(app, host="127.0.0.1"))
    await client.start_server()
    client.session.headers["Origin"] = str(client.make_url("/")).rstrip("/")
    try:
        yield ClassLesson(Table(client, clock, app), keeper)
    finally:
        await client.close()


async def teacher_of(table: Table) -> Device:
    device = Device.new(table)
    status, _ = await device.get(f"/teacher?key={table.lesson.teacher_secret}&lang=en")
    assert status == 200
    return device


async def add_pupils(teacher: Device, *names: str) -> str:
    status, page = await teacher.post("/teacher/class/add", names="\n".join(names), lang="en")
    assert status == 200, page
    return page


def cards_of(page: str) -> dict[str, str]:
    """The roster page's cards: name -> the code as printed."""
    rows = re.findall(r'<th scope="row">([^<]+)</th><td><code>([A-Z0-9-]+)</code>', page)
    return dict(rows)


async def join_by_card(table: Table, card: str, device: Device | None = None) -> tuple[int, str]:
    device = device or Device.new(table)
    return await device.post("/join", code=card, lang="en")


def seat_named(lesson: Lesson, name: str) -> Seat:
    return next(s for s in lesson.seats.values() if s.name == name)


def faces(game: TableGame, side: int) -> tuple[int, int]:
    up = game.view(side).sides[side].face_up
    return up[-2].value, up[-1].value


def slip_text(game: TableGame, side: int) -> str:
    """A number the side's cards give with one sign flipped: a sign slip (RULES §2.6)."""
    a, b = faces(game, side)
    level = game.state.config.level
    for n in sorted(range(-60, 61), key=abs):
        if judge(str(n), (a, b), level).reason == "sign_slip":
            return str(n)
    raise AssertionError(f"no sign slip for {a}, {b}")


def answer_text(game: TableGame, side: int, slip: bool) -> str:
    return slip_text(game, side) if slip else best_text(game, side)


__all__ = [
    "WEEK",
    "ClassLesson",
    "Wall",
    "add_pupils",
    "answer_text",
    "cards_of",
    "class_lesson",
    "join_by_card",
    "seat_named",
    "side_of",
    "slip_text",
    "teacher_of",
]
