"""A school server's sign-in, served for the tests on 127.0.0.1 as `mattekrig serve` serves
it: the sign-in routes on an app with the lessons' guard (`table.web.guard`: headers, Host
and Origin checks), run by the lessons' runner (no access log), and a trivial ``/mine`` that
says who is signed in. A browser is an aiohttp session with its own cookie jar that sends
the server's Origin with every POST, as a browser does on the server's own pages."""

from __future__ import annotations

import secrets
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any

import aiohttp
from aiohttp import web

from school.sessions import SESSION_COOKIE, SignInSetup, teacher_of
from school.settings import OidcSettings
from school.signin import add_routes
from storage import Storage
from storage.records.school import Teacher
from table.web import SERVED, Served, guard, runner

T0 = 1_700_000_000.0  # the wall clock's start, in seconds
LINK_SECONDS = 7 * 86_400


@dataclass
class Wall:
    """The server's wall clock, moved by the test."""

    now: float = T0

    def __call__(self) -> float:
        return self.now


async def mine(request: web.Request) -> web.StreamResponse:
    """Stands in for the teacher's page: whom the session signs in."""
    teacher = await teacher_of(request)
    if teacher is None:
        raise web.HTTPSeeOther("/signin")
    return web.Response(text=f"signed in as {teacher.name} ({teacher.id})")


@dataclass
class School:
    url: str
    store: Storage
    wall: Wall
    browser: aiohttp.ClientSession
    extra_browsers: list[aiohttp.ClientSession] = field(default_factory=list)

    async def get(self, path: str, **kwargs: Any) -> tuple[int, str, aiohttp.ClientResponse]:
        return await self.in_browser(self.browser, "GET", path, **kwargs)

    async def post(
        self, path: str, data: dict[str, str] | None = None, **kwargs: Any
    ) -> tuple[int, str, aiohttp.ClientResponse]:
        return await self.in_browser(self.browser, "POST", path, data=data or {}, **kwargs)

    async def in_browser(
        self, browser: aiohttp.ClientSession, method: str, path: str, **kwargs: Any
    ) -> tuple[int, str, aiohttp.ClientResponse]:
        kwargs.setdefault("allow_redirects", False)
        if method == "POST":
            kwargs.setdefault("headers", {"Origin": self.url})
        url = path if path.startswith("http") else f"{self.url}{path}"
        async with browser.request(method, url, **kwargs) as answer:
            return answer.status, await answer.text(), answer

    def new_browser(self) -> aiohttp.ClientSession:
        browser = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.extra_browsers.append(browser)
        return browser

    def session_cookie(self, browser: aiohttp.ClientSession | None = None) -> str | None:
        jar = (browser or self.browser).cookie_jar
        found = [c.value for c in jar if c.key == SESSION_COOKIE]
        return found[0] if found else None

    async def link(self, name: str = "Kari Lærer") -> tuple[Teacher, str]:
        """A teacher (added if new) and a fresh one-time link's token, as the CLI makes them."""
        teacher = await self.store.school_teacher_named(name)
        if teacher is None:
            teacher = await self.store.add_school_teacher(f"id-{len(name)}-{name}", name, 0)
        token = secrets.token_urlsafe(32)
        at = int(self.wall.now * 1000)
        await self.store.add_sign_in_link(teacher.id, token, at, at + LINK_SECONDS * 1000)
        return teacher, token


def set_cookie_headers(answer: aiohttp.ClientResponse, name: str) -> list[SimpleCookie]:
    """The Set-Cookie headers of an answer that set ``name``."""
    found = []
    for header in answer.headers.getall("Set-Cookie", []):
        cookie: SimpleCookie = SimpleCookie()
        cookie.load(header)
        if name in cookie:
            found.append(cookie)
    return found


@asynccontextmanager
async def school_server(
    store: Storage, oidc: OidcSettings | None = None, base_url: str | None = None
) -> AsyncIterator[School]:
    """The server on a socket bound first, so that its public address (the OpenID Connect
    callback's) is known before the app is built."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    wall = Wall()
    app = web.Application(middlewares=[guard])
    app[SERVED] = Served(base_url=base_url or url)
    add_routes(app, SignInSetup(store, base_url or url, oidc, wall=wall))
    app.router.add_get("/mine", mine)
    serving = runner(app)
    await serving.setup()
    site = web.SockSite(serving, sock)
    await site.start()
    browser = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    school = School(url, store, wall, browser)
    try:
        yield school
    finally:
        for each in (browser, *school.extra_browsers):
            await each.close()
        await serving.cleanup()
