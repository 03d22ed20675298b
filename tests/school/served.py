"""The school server's whole app (`school.serve.server_app`: the front page, sign-in, the
teachers' page and every lesson under /l/<code>), served in the test's process on 127.0.0.1
on the storage a test gives it, as `mattekrig serve` serves it; a process's restart is its
hosts let go (`close_all`) and a new app on the same storage."""

from __future__ import annotations

import secrets
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import aiohttp
from aiohttp import web

from school.hosts import Hosts
from school.serve import lesson_hosts, server_app
from school.settings import SchoolSettings
from storage import Storage
from storage.leases import Leases
from table.host import LessonHost
from table.web import Served, runner


@dataclass
class Served_:
    url: str
    hosts: Hosts[LessonHost]


def browser(url: str) -> aiohttp.ClientSession:
    """A device: its own cookies; it sends the server's Origin with every POST, as a
    browser does from the server's own pages."""
    return aiohttp.ClientSession(
        base_url=url, cookie_jar=aiohttp.CookieJar(unsafe=True), headers={"Origin": url}
    )


@asynccontextmanager
async def school_app(
    store: Storage, leases: Leases, settings: SchoolSettings | None = None, *, public: bool = False
) -> AsyncIterator[Served_]:
    """`public`: the server knows its public address (here http://localhost:<port>, as
    MATTEKRIG_BASE_URL says it), else it is reached at 127.0.0.1 only."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    chosen = settings or SchoolSettings()
    base = f"http://localhost:{port}/" if public else None
    served = Served(base_url=base, names=("127.0.0.1",))
    hosts = lesson_hosts(store, leases, chosen, served)
    app = await server_app(store, hosts, chosen, served)
    serving = runner(app)
    await serving.setup()
    await web.SockSite(serving, sock).start()
    try:
        yield Served_(url, hosts)
    finally:
        await hosts.close_all()
        await serving.cleanup()


async def signed_in_teacher(store: Storage, url: str, name: str) -> aiohttp.ClientSession:
    """A teacher the operator added, signed in by their one-time link."""
    teacher = await store.add_school_teacher(secrets.token_hex(16), name, 0)
    token = secrets.token_urlsafe(32)
    now = int(time.time() * 1000)
    await store.add_sign_in_link(teacher.id, token, now, now + 86_400_000)
    session = browser(url)
    async with session.post(f"/signin/link/{token}", allow_redirects=False) as answer:
        assert answer.status == 303, await answer.text()
    return session
