"""Fixtures of the school server's tests: a data folder of the test's own, a log that must
stay free of tracebacks (the table's own fixtures), and the server's database in SQLite."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from storage import Storage
from tests.table.conftest import lesson_data, quiet_log


@pytest_asyncio.fixture
async def store(tmp_path: Path) -> AsyncIterator[Storage]:
    """The server's database: a SQLite file of the test's own (PostgreSQL where a test says)."""
    opened = await Storage.open(tmp_path / "lessons.db")
    yield opened
    await opened.close()


__all__ = ["lesson_data", "quiet_log", "store"]
