"""Fixtures of the table's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from tests.table.support import Table, serve


@pytest_asyncio.fixture
async def table() -> AsyncIterator[Table]:
    async for served in serve():
        yield served
