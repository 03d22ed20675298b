"""Fixtures of the table's tests."""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from tests.table.support import Table, serve


@pytest.fixture(autouse=True)
def lesson_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `mattekrig class` a test starts keeps its lesson in a data folder of the test's own
    (never the user's), in SQLite unless the test says PostgreSQL."""
    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("LESSON_KEEP_DAYS", raising=False)
    return folder


@pytest_asyncio.fixture
async def table() -> AsyncIterator[Table]:
    async for served in serve():
        yield served


@pytest_asyncio.fixture
async def lesson() -> AsyncIterator[Table]:
    """A class lesson whose pairing draws the same partners every run."""
    async for served in serve(seeds=[7], kind="class"):
        served.lesson.rng = random.Random(3)
        yield served


@pytest.fixture
def quiet_log(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Bad input gets a clear answer and changes nothing: no traceback, and no error at all,
    reaches the log."""
    caplog.set_level(logging.INFO)
    yield
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
