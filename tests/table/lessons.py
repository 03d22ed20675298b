"""What the class lesson's tests share: devices (each its own cookie jar, as each pupil's own
browser), the teacher's device, joining, and reading the raw live messages."""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from classroom.settings import settings_from_options
from engine.game import choices
from engine.regnekrig import Answer
from table.games import TableGame
from table.lesson import Lesson, Seat
from tests.table.support import Table


@dataclass
class Device:
    """One browser: its own cookies; it sends its page's Origin as a browser does."""

    table: Table
    session: aiohttp.ClientSession
    received: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    ws: aiohttp.ClientWebSocketResponse | None = None
    _reader: asyncio.Task[None] | None = None

    @classmethod
    def new(cls, table: Table) -> Device:
        session = aiohttp.ClientSession(
            base_url=str(table.client.make_url("/")),
            cookie_jar=aiohttp.CookieJar(unsafe=True),
            headers={"Origin": table.origin},
        )
        return cls(table, session)

    async def post(self, path: str, **data: str) -> tuple[int, str]:
        async with self.session.post(path, data=data) as response:
            return response.status, await response.text()

    async def get(self, path: str) -> tuple[int, str]:
        async with self.session.get(path) as response:
            return response.status, await response.text()

    async def listen(self, teacher: bool = False, lang: str = "en", root: str = "") -> None:
        """Open the live connection (of the lesson under `root`) and keep every raw message
        it brings."""
        self.ws = await self.session.ws_connect(
            f"{root}/live?lang={lang}" + ("&as=teacher" if teacher else "")
        )
        first = await self.ws.receive_str()
        self.raw.append(first)
        self.received.append(json.loads(first))

        async def read() -> None:
            assert self.ws is not None
            async for message in self.ws:
                if message.type is aiohttp.WSMsgType.TEXT:
                    self.raw.append(message.data)
                    self.received.append(json.loads(message.data))

        self._reader = asyncio.create_task(read())

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
        await self.session.close()

    @property
    def cookies(self) -> dict[str, str]:
        return {c.key: c.value for c in self.session.cookie_jar}


async def settle(devices: list[Device], quiet: float = 0.05) -> None:
    """Wait until no device has received anything for `quiet` seconds (the pushes are in)."""
    counts = [len(d.raw) for d in devices]
    while True:
        await asyncio.sleep(quiet)
        now = [len(d.raw) for d in devices]
        if now == counts:
            return
        counts = now


async def received(device: Device, count: int) -> None:
    """Wait until the device has received `count` live messages in all."""
    for _ in range(500):
        if len(device.raw) >= count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{count} messages never came ({len(device.raw)})")


async def teacher(table: Table) -> Device:
    device = Device.new(table)
    status, _ = await device.get(f"/teacher?key={table.lesson.teacher_secret}&lang=en")
    assert status == 200
    return device


async def join(table: Table, name: str) -> tuple[Device, Seat]:
    device = Device.new(table)
    status, page = await device.post("/join", code=table.lesson.code, name=name, lang="en")
    assert status == 200, page
    seat = next(s for s in table.lesson.seats.values() if s.name == name)
    return device, seat


def side_of(game: TableGame, seat: Seat) -> int:
    return next(side for side, held in enumerate(game.seats) if seat.id in held)


def best_text(game: TableGame, side: int) -> str:
    for choice in choices(game.state, side):
        if isinstance(choice.action, Answer):
            return choice.action.text
    raise AssertionError(f"side {side} is not asked for an answer")


def state_of(page: str) -> str:
    found = re.search(r'<main id="table" data-state="(\w+)"', page)
    assert found is not None, page[:400]
    return found.group(1)


def war_round(lesson: Lesson, game: str, layings: int) -> TableGame:
    """A level-1 game of the lesson whose last round was decided after `layings` layings
    (RULES §2.3: equal values go to war, again and again): each side takes the first thing
    offered (a flip, the best answer, the first bet and swap). Games are started, each with
    the lesson's next seed, until one gets there."""
    settings = settings_from_options(game=game, level=1, answer_seconds=0)
    for _ in range(60):
        played = lesson.games.start(settings, ("Ada", "Bo"), (("a",), ("b",)))
        for _ in range(400):
            if played.over:
                break
            played.play(choices(played.state)[0].action)
            facts = played.view(None).result
            if facts is not None and facts.decided and len(facts.comparisons) >= layings:
                return played
    raise AssertionError(f"no {game} round with {layings} layings in these seeds")
