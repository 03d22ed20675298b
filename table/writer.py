"""The lesson's one writer: nobody sees a change before it is stored.

Every change of a lesson and its commit happen under the lesson's lock, and every page is
drawn under it too, so no page shows a change that is not yet committed (a crash then could
not take back what a device was shown).

Two ways to hold it. `async with lesson.lock` holds it alone: a join, a pairing, the
teacher's controls, the clock, the overview of every table. `lesson.lock.table(pick)` holds
it beside the other tables and holds one table's own lock (`pick` names the table, read once
the lesson cannot change under it): a press, and a pupil's page. Presses at different tables
then commit together (group commit pays one fsync for all of them) instead of one after the
other, and a pupil's page waits only for its own table's press in flight.

Writers (holding it alone) go first: once one waits, no new table takes the lock until it has
had its turn, so the teacher's controls are never starved by a busy class.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from types import TracebackType


class LessonLock:
    def __init__(self) -> None:
        self._tables_in = 0  # holders beside each other (presses, pupils' pages)
        self._alone = False
        self._waiting_alone = 0
        self._changed = asyncio.Condition()
        self._tables: dict[str, asyncio.Lock] = {}

    async def __aenter__(self) -> None:
        async with self._changed:
            self._waiting_alone += 1
            try:
                await self._changed.wait_for(lambda: not self._alone and self._tables_in == 0)
            finally:
                self._waiting_alone -= 1
            self._alone = True

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        async with self._changed:
            self._alone = False
            self._changed.notify_all()

    @asynccontextmanager
    async def table(self, pick: Callable[[], str | None]) -> AsyncIterator[None]:
        """Held beside the other tables, and `pick()`'s table alone (None: no table)."""
        async with self._changed:
            await self._changed.wait_for(lambda: not self._alone and self._waiting_alone == 0)
            self._tables_in += 1
        try:
            table = pick()
            if table is None:
                yield
            else:
                async with self._tables.setdefault(table, asyncio.Lock()):
                    yield
        finally:
            async with self._changed:
                self._tables_in -= 1
                self._changed.notify_all()


__all__ = ["LessonLock"]
