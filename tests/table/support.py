"""What the table's tests share: a server on 127.0.0.1 with a clock the test moves, fixed
seeds, and readers for the page (its data-state hook, its messages, its buttons)."""

from __future__ import annotations

import html
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from engine.game import choices
from engine.regnekrig import Answer
from table.app import make_app
from table.games import Games, TableGame
from table.lesson import Kind, Lesson
from table.web import LESSON, Served


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
    def lesson(self) -> Lesson:
        return self.app[LESSON]

    @property
    def games(self) -> Games:
        return self.lesson.games

    @property
    def origin(self) -> str:
        return str(self.client.make_url("/")).rstrip("/")

    def game(self, game_id: str) -> TableGame:
        game = self.games.get(game_id)
        assert game is not None
        return game


async def serve(
    seeds: list[int] | None = None, kind: Kind = "play", served: Served | None = None
) -> AsyncIterator[Table]:
    """The lesson's app on 127.0.0.1; the client sends the page's own Origin, as a browser
    does with every POST from the page (a test of a cross-site request overrides it)."""
    clock = FakeClock()
    app = make_app(kind, clock=clock, seeds=Seeds(seeds or [7]), served=served)
    client = TestClient(TestServer(app, host="127.0.0.1"))
    await client.start_server()
    client.session.headers["Origin"] = str(client.make_url("/")).rstrip("/")
    try:
        yield Table(client, clock, app)
    finally:
        await client.close()


_TAG = re.compile(r"<[^>]+>")


def text_of(page: str) -> str:
    """The page's words, as a reader sees them (tags gone, entities read, spaces folded)."""
    return " ".join(html.unescape(_TAG.sub(" ", page)).split())


# Cards as a round's lines write them ("[ −3 ] [ 4 ]"); a page draws card elements in their place.
_FACES = re.compile(r"(?:\[ [^\]\s]+ \] ?)+")


def words_around_cards(line: str) -> list[str]:
    """A round's line as a page that draws its cards reads it: the words between the cards
    (bold drawn, not written; a separator before a row of cards gone), each as `text_of`
    reads it."""
    parts = (" ".join(p.replace("**", "").split()) for p in _FACES.split(line))
    return [p.removesuffix(" ·").removeprefix("· ") for p in parts if p.strip(" ·")]


def faces_in(line: str) -> int:
    """How many cards a round's line tells as text."""
    return sum(m.group(0).count("[") for m in _FACES.finditer(line))


def data_state(page: str) -> str:
    found = re.search(r'<main id="table" data-state="(\w+)"', page)
    assert found is not None, page[:500]
    return found.group(1)


def message_of(page: str) -> str | None:
    """The page's messages as read in order: an error, a correction, then news."""
    found = re.findall(r'<p class="message [a-z]+"[^>]*>(.*?)</p>', page)
    return " ".join(text_of(f) for f in found) if found else None


def message_kinds(page: str) -> list[str]:
    return re.findall(r'<p class="message ([a-z]+)"', page)


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
