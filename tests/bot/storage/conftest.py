"""The storage contract suite's backends.

Every test here takes ``store`` (an open storage) or ``backend`` (to open the same database
again, as after a restart, or twice, as two processes would). The backends: SQLite in a
file, SQLite in memory, PostgreSQL (each test in a fresh schema of the server at
``TEST_DATABASE_URL``, see tests/postgres.py). A new backend adds one entry to BACKENDS and
must pass the same suite; tests that need a database to outlive its connection ask
``backend.durable`` and skip otherwise.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from storage import Storage
from tests.postgres import fresh_schema_url


@dataclass(frozen=True)
class Backend:
    name: str
    open: Callable[[], Awaitable[Storage]]
    path: Path | None = None  # set for file-backed SQLite, for the tests that inspect the file
    durable: bool = True  # opening again sees what was stored (False: in memory)


def _sqlite_file(tmp_path: Path) -> Backend:
    path = tmp_path / "data" / "mattekrig.db"
    return Backend("sqlite-file", lambda: Storage.open(path), path)


def _sqlite_memory(tmp_path: Path) -> Backend:
    return Backend("sqlite-memory", lambda: Storage.open(":memory:"), durable=False)


def _postgres(tmp_path: Path) -> Backend:
    url = fresh_schema_url()  # skips (locally) or fails (in CI) without a server

    async def _open() -> Storage:
        from storage.postgres import PostgresStorage

        return await PostgresStorage.open_url(url)

    return Backend("postgres", _open)


BACKENDS: dict[str, Callable[[Path], Backend]] = {
    "sqlite-file": _sqlite_file,
    "sqlite-memory": _sqlite_memory,
    "postgres": _postgres,
}


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


def need_durable(backend: Backend) -> None:
    """Skip a test about reopening or a second connection on a backend that forgets."""
    if not backend.durable:
        pytest.skip(f"{backend.name} keeps nothing once closed and has no second connection")


def need_file(backend: Backend) -> Path:
    """The SQLite file, for the tests that read the schema or the WAL mode from it."""
    if backend.path is None:
        pytest.skip(f"{backend.name} has no file")
    return backend.path
