"""The storage contract suite's backends.

Every test here takes ``store`` (an open storage) or ``backend`` (to open the same database
again, as after a restart, or twice, as two processes would). Today there is one backend,
SQLite in a file; a new backend adds one entry to BACKENDS and must pass the same suite.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.storage import Storage


@dataclass(frozen=True)
class Backend:
    name: str
    open: Callable[[], Awaitable[Storage]]
    path: Path | None = None  # set for file-backed SQLite, for the tests that inspect the file


def _sqlite_file(tmp_path: Path) -> Backend:
    path = tmp_path / "data" / "mattekrig.db"
    return Backend("sqlite-file", lambda: Storage.open(path), path)


BACKENDS: dict[str, Callable[[Path], Backend]] = {"sqlite-file": _sqlite_file}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    return BACKENDS[request.param](tmp_path)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Storage]:
    storage = await backend.open()
    try:
        yield storage
    finally:
        await storage.close()
