"""Races the locks should prevent but storage must survive: exactly one write wins."""

from __future__ import annotations

import asyncio
import contextlib

from storage import ChannelBusyError, EventConflictError, Storage

from .conftest import Backend, need_durable
from .helpers import T0, append, new_game


async def test_two_appends_with_the_same_seq_one_wins(store: Storage) -> None:
    game_id = await new_game(store)
    results = await asyncio.gather(
        append(store, game_id, 0, {"who": "first"}, [], T0),
        append(store, game_id, 0, {"who": "second"}, [], T0),
        return_exceptions=True,
    )
    assert sum(r is None for r in results) == 1
    assert sum(isinstance(r, EventConflictError) for r in results) == 1
    assert len((await store.load_game(game_id)).events) == 1


async def test_many_clickers_each_seq_taken_once(store: Storage) -> None:
    game_id = await new_game(store)
    wins: list[tuple[int, int]] = []

    async def clicker(who: int) -> None:
        for _ in range(5):
            seq = (await store.load_game(game_id)).next_seq
            try:
                await append(store, game_id, seq, {"who": who}, [], T0 + seq)
            except EventConflictError:
                continue
            wins.append((seq, who))

    await asyncio.gather(*(clicker(who) for who in range(6)))
    events = (await store.load_game(game_id)).events
    assert [e.seq for e in events] == list(range(len(events)))
    assert sorted(seq for seq, _ in wins) == list(range(len(events)))
    assert [e.action["who"] for e in events] == [who for _, who in sorted(wins)]


async def test_two_connections_same_seq_one_wins(backend: Backend) -> None:
    """Two processes on one file (e.g. a restart overlapping the old process)."""
    need_durable(backend)
    async with await backend.open() as first, await backend.open() as second:
        game_id = await new_game(first)
        results = await asyncio.gather(
            append(first, game_id, 0, {"via": 1}, [], T0),
            append(second, game_id, 0, {"via": 2}, [], T0),
            return_exceptions=True,
        )
        assert sum(r is None for r in results) == 1, results
        assert sum(isinstance(r, EventConflictError) for r in results) == 1, results
        assert len((await second.load_game(game_id)).events) == 1


async def test_two_starts_in_one_channel_one_wins(backend: Backend) -> None:
    need_durable(backend)
    async with await backend.open() as first, await backend.open() as second:
        results = await asyncio.gather(
            new_game(first, channel_id=700),
            new_game(second, channel_id=700),
            new_game(first, channel_id=700),
            return_exceptions=True,
        )
        assert sum(isinstance(r, int) for r in results) == 1, results
        assert sum(isinstance(r, ChannelBusyError) for r in results) == 2, results


async def test_a_cancelled_call_leaves_no_transaction_open(store: Storage) -> None:
    """A task cancelled in the middle of a transaction (e.g. the scheduler at shutdown) must
    not leave the shared connection inside a transaction for the next caller."""
    game_id = await new_game(store)
    for step in range(30):
        task = asyncio.create_task(store.set_timer(game_id, "idle", T0 + step))
        for _ in range(step % 4):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await store.set_timer(game_id, "answer", T0)  # the next transaction starts cleanly
    assert [t.kind for t in await store.timers_for(game_id)][-1] in ("answer", "idle")
