"""Deadlines that survive a restart: set, move, due, clear, and gone when the game ends."""

from __future__ import annotations

import pytest

from storage import GameClosedError, NotFoundError, Storage, Timer

from .helpers import T0, new_game


async def test_timers_fall_due_in_order(store: Storage) -> None:
    first = await new_game(store, channel_id=1)
    second = await new_game(store, channel_id=2)
    assert await store.next_timer_due() is None
    await store.set_timer(first, "time_limit", T0 + 1_200_000)
    await store.set_timer(first, "answer", T0 + 30_000, {"round": 4})
    await store.set_timer(second, "idle", T0 + 20_000)

    assert await store.due_timers(T0) == []
    assert await store.next_timer_due() == T0 + 20_000
    assert await store.due_timers(T0 + 30_000) == [  # due_at == now counts as due
        Timer(second, "idle", T0 + 20_000, None),
        Timer(first, "answer", T0 + 30_000, {"round": 4}),
    ]
    assert [t.kind for t in await store.timers_for(first)] == ["answer", "time_limit"]
    # due timers stay until the handler clears or moves them
    assert len(await store.due_timers(T0 + 30_000)) == 2


async def test_setting_again_moves_the_timer(store: Storage) -> None:
    game_id = await new_game(store)
    await store.set_timer(game_id, "answer", T0 + 30_000, {"round": 1})
    await store.set_timer(game_id, "answer", T0 + 60_000, {"round": 2})
    assert await store.timers_for(game_id) == [Timer(game_id, "answer", T0 + 60_000, {"round": 2})]
    assert await store.clear_timer(game_id, "answer") is True
    assert await store.clear_timer(game_id, "answer") is False
    assert await store.timers_for(game_id) == []


async def test_timers_end_with_their_game(store: Storage) -> None:
    game_id = await new_game(store)
    await store.set_timer(game_id, "answer", T0)
    await store.set_timer(game_id, "idle", T0)
    await store.set_status(game_id, "abandoned", T0 + 1)
    assert await store.due_timers(T0 + 10) == []
    assert await store.timers_for(game_id) == []
    assert await store.next_timer_due() is None
    with pytest.raises(GameClosedError):
        await store.set_timer(game_id, "answer", T0 + 2)
    with pytest.raises(NotFoundError):
        await store.set_timer(404, "answer", T0)
