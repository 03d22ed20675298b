"""Group commit: writes that arrive together share one transaction and one fsync,
yet each write succeeds or fails alone, and each caller hears back only after its COMMIT."""

from __future__ import annotations

import asyncio

import pytest

from storage import (
    ActionCommit,
    ChannelBusyError,
    Deadline,
    EventConflictError,
    NewEvent,
    NewGame,
    NotFoundError,
    Storage,
)

from .conftest import Backend, need_durable
from .helpers import ADA, BO, T0, live_games, live_in, new_game


def _flip(seq: int, at: int = T0) -> ActionCommit:
    return ActionCommit(at, [NewEvent(seq, {"type": "flip"}, [])], {"idle": Deadline(at + 9)})


async def test_writes_arriving_together_share_a_transaction(store: Storage) -> None:
    games = [await new_game(store, channel_id=100 + i) for i in range(50)]
    before = store.write_batches
    await asyncio.gather(*(store.commit_action(g, _flip(0)) for g in games))
    batches = store.write_batches - before
    assert 1 <= batches < 50  # the first goes alone at most; the rest wait for one commit
    assert [(await store.load_game(g)).next_seq for g in games] == [1] * len(games)


async def test_a_failing_write_fails_alone_in_its_batch(store: Storage) -> None:
    """Conflicts, unknown games, a refused start that had already written its game row:
    each of those is rolled back to its own savepoint; every other write of the same
    transaction is stored."""
    games = [await new_game(store, channel_id=100 + i) for i in range(30)]
    await store.commit_action(games[0], _flip(0))
    bad_start = ActionCommit(T0, [NewEvent(5, {}, [])])  # a gap: fails after its INSERT
    busy = NewGame(1, 100, "regnekrig", {}, 1, (ADA, BO))  # channel 100 has games[0]
    writes = [
        *(store.commit_action(g, _flip(0)) for g in games[1:]),
        store.commit_action(games[0], _flip(0)),  # seq 0 is taken
        store.commit_action(999_999, _flip(0)),  # no such game
        store.start_game(NewGame(1, 900, "regnekrig", {}, 1, (ADA, BO)), bad_start),
        store.start_game(busy, ActionCommit(T0)),
    ]
    results = await asyncio.gather(*writes, return_exceptions=True)
    assert results[:29] == [None] * 29
    assert [type(r) for r in results[29:]] == [
        EventConflictError,
        NotFoundError,
        ValueError,
        ChannelBusyError,
    ]
    assert await live_in(store, 900) is None
    assert len(await live_games(store)) == 30
    assert [(await store.load_game(g)).next_seq for g in games] == [1] * len(games)


async def test_a_cancelled_caller_leaves_all_or_nothing(store: Storage) -> None:
    """Cancelling the awaiting task never leaves half a transaction: the write runs whole on
    the database thread (or not at all), and storage keeps working."""
    game_id = await new_game(store)
    change = ActionCommit(
        T0,
        [NewEvent(s, {"n": s}, []) for s in range(20)],
        {"idle": Deadline(T0 + 1), "answer": Deadline(T0 + 2)},
    )
    task = asyncio.create_task(store.commit_action(game_id, change))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await store.set_timer(game_id, "probe", T0)  # queued behind it: done means it is done
    stored = await store.load_game(game_id)
    kinds = {t.kind for t in await store.timers_for(game_id)}
    assert stored.next_seq in (0, 20)
    assert kinds == ({"probe"} if stored.next_seq == 0 else {"probe", "idle", "answer"})
    await store.commit_action(game_id, _flip(stored.next_seq))


async def test_what_a_caller_was_told_is_stored_is_there_after_close(backend: Backend) -> None:
    """close() finishes the queued writes; every acknowledged one is in the file."""
    need_durable(backend)
    store = await backend.open()
    games = [await new_game(store, channel_id=100 + i) for i in range(40)]
    acknowledged: list[int] = []

    async def press(game_id: int) -> None:
        await store.commit_action(game_id, _flip(0))
        acknowledged.append(game_id)

    tasks = [asyncio.create_task(press(g)) for g in games]
    await asyncio.sleep(0)
    await store.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    async with await backend.open() as again:
        stored = {g: (await again.load_game(g)).next_seq for g in games}
    assert all(stored[g] == 1 for g in acknowledged)
    assert acknowledged  # the writes queued before close() were finished, not dropped


async def test_a_read_right_after_a_write_sees_it(store: Storage) -> None:
    """Reads may run on their own connection; still, once a write has returned, every read
    after it sees it."""
    for i in range(30):
        game_id = await new_game(store, channel_id=2_000 + i)
        assert (await live_in(store, 2_000 + i)) is not None
        await store.commit_action(game_id, _flip(0))
        assert (await store.load_game(game_id)).next_seq == 1


async def test_closed_storage_refuses_politely(backend: Backend) -> None:
    store = await backend.open()
    await store.close()
    await store.close()  # twice is fine
    with pytest.raises(Exception, match="closed"):
        await live_games(store)
