"""Two class lessons served by one app, each under its own root ``/l/<CODE>``, as the school
server serves them: the lessons' routes added once with the root ``/l/{code}`` and a
middleware that names each request's lesson (`table.host.set_host`). Each lesson is kept in
its own SQLite file, opened as `mattekrig class` opens one (ABCD of no class yet, WXYZ of the
class 7B). And a reader of every address a page names, to prove each is under its root."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from storage.sqlite import Storage
from table import class_web
from table.cli import class_of_lesson
from table.host import LessonHost, set_host
from table.keep import open_lesson
from table.web import MAX_BODY, SERVED, Served, guard, static
from tests.table.classes import KEY, LEVEL_ONE
from tests.table.support import FakeClock, Seeds, Table

LESSONS = {"ABCD": None, "WXYZ": "7B"}  # each lesson's code in its address, and its class


@dataclass
class School:
    table: Table  # the one app's client (its `lesson` is no lesson: there are two)
    hosts: dict[str, LessonHost]

    def root(self, code: str) -> str:
        return self.hosts[code].root

    def secret(self, code: str) -> str:
        secret = self.hosts[code].lesson.teacher_secret
        assert secret is not None
        return secret


def finder(hosts: dict[str, LessonHost]) -> Callable[..., Any]:
    """The school server's part: the lesson a request's address names."""

    @web.middleware
    async def find(
        request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        host = hosts.get(request.match_info.get("code", ""))
        if host is not None:
            set_host(request, host)
        response: web.StreamResponse = await handler(request)
        return response

    return find


@asynccontextmanager
async def school(tmp_path: Path) -> AsyncIterator[School]:
    clock = FakeClock()
    served = Served()  # the server's own (its host names), shared by every lesson
    hosts: dict[str, LessonHost] = {}
    stores: list[Storage] = []
    for code, name in LESSONS.items():
        store = await Storage.open(tmp_path / f"{code}.db")
        stores.append(store)
        lesson, keeper, _ = await open_lesson(
            store, clock, key=KEY, fresh=True, seeds=Seeds([3, 5, 8, 13, 21])
        )
        lesson.rng = random.Random(3)
        lesson.setup = LEVEL_ONE
        klass = await class_of_lesson(store, lesson, keeper, name)
        hosts[code] = LessonHost(lesson, served, root=f"/l/{code}", keeper=keeper, klass=klass)
    app = web.Application(middlewares=[guard, finder(hosts)], client_max_size=MAX_BODY)
    app[SERVED] = served
    app.router.add_get("/static/{name}", static)
    class_web.add_routes(app, root="/l/{code}")

    async def hosting(app: web.Application) -> AsyncIterator[None]:
        for host in hosts.values():
            host.start()
        yield
        for host in hosts.values():
            await host.close()

    app.cleanup_ctx.append(hosting)
    client = TestClient(TestServer(app, host="127.0.0.1"))
    await client.start_server()
    client.session.headers["Origin"] = str(client.make_url("/")).rstrip("/")
    try:
        yield School(Table(client, clock, app), hosts)
    finally:
        await client.close()
        for store in stores:
            await store.close()


class _Addresses(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "action", "formaction", "src") and value is not None:
                self.found.append((tag, name, value))


def addresses(page: str) -> list[tuple[str, str, str]]:
    """Every address the page names: (tag, attribute, value)."""
    reader = _Addresses()
    reader.feed(page)
    return reader.found


def outside(page: str, root: str) -> list[tuple[str, str, str]]:
    """The page's addresses that are not its lesson's: not under the root, and not the style
    sheets and the script every lesson shares, and not a place on the page itself."""
    return [
        found for found in addresses(page) if not found[2].startswith((f"{root}/", "/static/", "#"))
    ]


def rooted(page: str, root: str) -> int:
    """Asserts every address on the page is the lesson's own; returns how many it names
    under the root (a page that named none would prove nothing)."""
    assert outside(page, root) == [], outside(page, root)
    return sum(1 for _, _, value in addresses(page) if value.startswith(f"{root}/"))
