"""A class lesson kept in storage, served as `mattekrig class` serves it, on 127.0.0.1: for
the tests of what is stored and when (the client sends the page's own Origin, as a browser
does with every POST from the page)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import cast

from aiohttp.test_utils import TestClient, TestServer

from storage import Storage
from storage.contract import LessonStore
from table.app import make_app
from table.keep import DEFAULT_KEEP_DAYS, Keeper, open_lesson
from tests.table.support import FakeClock, Seeds, Table

KEY = b"k" * 32  # the teacher's machine key: the same link after every start


@asynccontextmanager
async def serve_kept(
    store: Storage,
    *,
    keep_days: int = DEFAULT_KEEP_DAYS,
    seeds: list[int] | None = None,
    disk: Callable[[Storage], object] | None = None,
) -> AsyncIterator[tuple[Table, Keeper]]:
    """The lesson `open_lesson` brings back (or starts) in ``store``; ``disk`` puts a stand-in
    between the lesson and its storage (commits held back, or a disk that fails)."""
    clock = FakeClock()
    lesson, keeper, _ = await open_lesson(
        store, clock, key=KEY, keep_days=keep_days, seeds=Seeds(seeds or [7])
    )
    if disk is not None:
        keeper.store = cast(LessonStore, disk(store))
    app = make_app("class", clock=clock, lesson=lesson, keeper=keeper)
    client = TestClient(TestServer(app, host="127.0.0.1"))
    await client.start_server()
    client.session.headers["Origin"] = str(client.make_url("/")).rstrip("/")
    try:
        yield Table(client, clock, app), keeper
    finally:
        await client.close()
