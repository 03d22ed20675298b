"""PostgreSQL's write locks (storage/postgres/storage.py) are one deployment's: a lesson's
writes (a game's, a server's ratings) wait for each other across its processes, and for
nothing of another schema on the same database (another school's server beside it, or the
tests' schemas). A group commit holds the locks of several lessons at once, so two
deployments whose lessons share ids would otherwise wait on each other, and deadlock when
two batches take the same two keys in opposite orders: PostgreSQL then aborts a whole batch
of presses ("try again" for every pupil in it). Leases are per schema already
(storage/postgres/leases.py); so are the write locks.
"""

from __future__ import annotations

import asyncio

import psycopg

from storage.postgres import PostgresStorage
from storage.postgres.storage import lock_statement
from tests.postgres import fresh_schema_url
from tests.storage.test_lease_fence import PATIENCE_S, T0, _act, _change, _lesson, _waiting


async def test_a_lesson_of_another_schema_with_the_same_id_never_waits() -> None:
    here_url, there_url = fresh_schema_url(), fresh_schema_url()
    here = await PostgresStorage.open_url(here_url)
    there = await PostgresStorage.open_url(there_url)
    try:
        lesson_here, lesson_there = await _lesson(here), await _lesson(there)
        assert lesson_here == lesson_there  # each schema's ids start at 1
        statement, key = lock_statement(f"lesson:{lesson_here}")
        with psycopg.connect(here_url) as writer:  # a write of this lesson under way, open
            writer.execute(statement.replace("?", "%s"), (key,))
            async with asyncio.timeout(PATIENCE_S):  # a hang fails; never a measure of speed
                await there.commit_lesson(lesson_there, _change(T0 + 1, _act(1)))
            waiting = asyncio.create_task(here.commit_lesson(lesson_here, _change(T0 + 1, _act(1))))
            async with asyncio.timeout(PATIENCE_S):
                while not waiting.done() and not await _waiting(here_url, here):
                    await asyncio.sleep(0.01)
            assert not waiting.done(), "the same lesson's write did not wait"
            writer.commit()
        async with asyncio.timeout(PATIENCE_S):
            await waiting
    finally:
        await here.close()
        await there.close()
