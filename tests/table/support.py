"""What the table's tests share: a server on 127.0.0.1 with a clock the test moves, fixed
seeds, and readers for the page (its data-state hook, its messages, its buttons)."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from engine.actions import Answer
from engine.game import choices
from table.games import Games, TableGame
from table.pictures import Drawer
from table.web import TABLES, make_app


@dataclass
class FakeClock:
    """Seconds, moved by the test (the time limit and the expiry read it)."""

    now: float = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Seeds:
    """The seeds new games get, in order (then the last one again)."""

    values: list[int] = field(default_factory=lambda: [7])
    used: int = 0

    def __call__(self) -> int:
        value = self.values[min(self.used, len(self.values) - 1)]
        self.used += 1
        return value


@dataclass
class Table:
    client: TestClient[web.Request, web.Application]
    clock: FakeClock
    app: web.Application

    @property
    def games(self) -> Games:
        return self.app[TABLES].games

    def game(self, game_id: str) -> TableGame:
        game = self.games.get(game_id)
        assert game is not None
        return game


async def serve(
    seeds: list[int] | None = None, drawer: Drawer | None = None
) -> AsyncIterator[Table]:
    clock = FakeClock()
    app = make_app(clock=clock, seeds=Seeds(seeds or [7]), drawer=drawer)
    client = TestClient(TestServer(app, host="127.0.0.1"))
    await client.start_server()
    try:
        yield Table(client, clock, app)
    finally:
        await client.close()


_TAG = re.compile(r"<[^>]+>")


def text_of(page: str) -> str:
    """The page's words, as a reader sees them (tags gone, entities read, spaces folded)."""
    return " ".join(html.unescape(_TAG.sub(" ", page)).split())


def data_state(page: str) -> str:
    found = re.search(r'<main id="table" data-state="(\w+)"', page)
    assert found is not None, page[:500]
    return found.group(1)


def message_of(page: str) -> str | None:
    found = re.search(r'<p class="message [a-z]+" id="message"[^>]*>(.*?)</p>', page)
    return text_of(found.group(1)) if found else None


def buttons_of(page: str) -> list[str]:
    return [text_of(b) for b in re.findall(r"<button[^>]*>(.*?)</button>", page)]


def window_of(page: str) -> int:
    found = re.search(r'data-window="(\d+)"', page)
    assert found is not None
    return int(found.group(1))


def best_answer(game: TableGame, side: int) -> str:
    """The engine's own best expression for the side now (what a strong pupil types)."""
    for choice in choices(game.state, side):
        if isinstance(choice.action, Answer):
            return choice.action.text
    raise AssertionError(f"side {side} is not asked for an answer")
