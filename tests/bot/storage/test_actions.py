"""One accepted action = one transaction: a press's actions, the deadlines it sets
or clears and the game's end are stored together, or, when any part is refused, not at all.

DESIGN.md "Nothing is lost": every accepted action is committed before anyone sees it.
"""

from __future__ import annotations

import asyncio

import pytest

from storage import (
    ActionCommit,
    ChannelBusyError,
    Deadline,
    EventConflictError,
    GameClosedError,
    NewEvent,
    NewGame,
    NotFoundError,
    Timer,
)
from storage.contract import GameStore

from .helpers import ADA, BO, CPU, T0, live_games, live_in, new_game

DEAL = NewEvent(0, {"type": "deal"}, [{"t": "Dealt"}])


def _new(channel_id: int = 500, thread_id: int | None = None) -> NewGame:
    return NewGame(
        guild_id=1,
        channel_id=channel_id,
        thread_id=thread_id,
        game="regnekrig",
        config={"level": 1},
        seed=7,
        players=(ADA, CPU),
    )


def _press(seq: int, who: int | None = 101, *, at: int = T0) -> ActionCommit:
    return ActionCommit(
        at,
        [NewEvent(seq, {"type": "flip", "seq": seq}, [{"t": "Flipped"}], who)],
        {"idle": Deadline(at + 600_000)},
    )


async def test_start_game_stores_game_deal_and_deadlines_together(store: GameStore) -> None:
    change = ActionCommit(
        T0,
        [DEAL, NewEvent(1, {"type": "flip", "side": 1}, [{"t": "Flipped"}])],
        {"idle": Deadline(T0 + 600_000), "answer": Deadline(T0 + 30_000, {"window": 1})},
    )
    record = await store.start_game(_new(), change)
    assert (record.channel_id, record.status, record.players) == (500, "live", (ADA, CPU))
    assert record.config == {"level": 1} and record.seed == 7
    stored = await store.load_game(record.id)
    assert [e.seq for e in stored.events] == [0, 1]
    assert stored.events[1].user_id is None  # the computer's move
    assert await store.timers_for(record.id) == [
        Timer(record.id, "answer", T0 + 30_000, {"window": 1}),
        Timer(record.id, "idle", T0 + 600_000, None),
    ]
    assert await live_in(store, 500) == record


async def test_start_game_in_a_busy_channel_stores_nothing(store: GameStore) -> None:
    first = await store.start_game(_new(), ActionCommit(T0, [DEAL]))
    with pytest.raises(ChannelBusyError):
        await store.start_game(_new(), ActionCommit(T0, [DEAL], {"idle": Deadline(T0 + 1)}))
    assert [g.id for g in await live_games(store)] == [first.id]
    assert await store.next_timer_due() is None


async def test_start_game_failing_halfway_leaves_no_game(store: GameStore) -> None:
    """A bad first change (a gap in seq) is refused after the game row was written in the
    same transaction: the game must not exist afterwards."""
    with pytest.raises(ValueError, match="next seq"):
        await store.start_game(_new(), ActionCommit(T0, [NewEvent(1, {}, [])]))
    assert await live_games(store) == []
    assert await live_in(store, 500) is None


async def test_commit_action_stores_events_deadlines_and_clears(store: GameStore) -> None:
    game_id = await new_game(store)
    await store.commit_action(game_id, ActionCommit(T0, [DEAL], {"answer": Deadline(T0 + 5)}))
    change = _press(1, at=T0 + 10)
    change.events.append(NewEvent(2, {"type": "answer"}, [], None))
    change.timers["answer"] = None
    await store.commit_action(game_id, change)
    stored = await store.load_game(game_id)
    assert [(e.seq, e.user_id, e.created_at) for e in stored.events] == [
        (0, None, T0),
        (1, 101, T0 + 10),
        (2, None, T0 + 10),
    ]
    assert stored.updated_at == T0 + 10
    assert await store.timers_for(game_id) == [Timer(game_id, "idle", T0 + 600_010, None)]


async def test_an_ending_press_ends_the_game_and_drops_its_deadlines(store: GameStore) -> None:
    game_id = await new_game(store)
    await store.commit_action(game_id, _press(0))
    last = _press(1, at=T0 + 5)
    last.status = "over"
    await store.commit_action(game_id, last)
    stored = await store.load_game(game_id)
    assert stored.status == "over" and stored.next_seq == 2
    assert await store.timers_for(game_id) == []
    with pytest.raises(GameClosedError):
        await store.commit_action(game_id, _press(2))


async def test_a_refused_press_changes_nothing(store: GameStore) -> None:
    """The second action of the press takes a seq already taken: neither action nor the
    deadline of the press is stored."""
    game_id = await new_game(store)
    await store.commit_action(game_id, _press(0))
    before = await store.load_game(game_id)
    timers = await store.timers_for(game_id)
    bad = _press(1, at=T0 + 99)
    bad.events.append(NewEvent(1, {"again": True}, []))
    bad.timers["answer"] = Deadline(T0 + 1_000)
    with pytest.raises(EventConflictError):
        await store.commit_action(game_id, bad)
    with pytest.raises(EventConflictError):
        await store.commit_action(game_id, _press(0, at=T0 + 99))
    assert await store.load_game(game_id) == before
    assert await store.timers_for(game_id) == timers


async def test_commit_refusals(store: GameStore) -> None:
    with pytest.raises(NotFoundError):
        await store.commit_action(999, _press(0))
    game_id = await new_game(store)
    with pytest.raises(ValueError, match="next seq is 0"):
        await store.commit_action(game_id, _press(3))
    with pytest.raises(ValueError, match=">= 0"):
        await store.commit_action(game_id, _press(-1))
    end = ActionCommit(T0, status="live")
    with pytest.raises(ValueError, match="can only end"):
        await store.commit_action(game_id, end)
    with pytest.raises(ValueError):  # JSON has no NaN: refused, not stored half
        await store.commit_action(game_id, ActionCommit(T0, [NewEvent(0, float("nan"), [])]))
    assert (await store.load_game(game_id)).events == ()


async def test_two_presses_on_one_game_at_once_one_wins(store: GameStore) -> None:
    """Two pupils press in the same instant, both computed from seq 1: exactly one press is
    stored, with its deadline; the other gets a conflict and leaves no trace."""
    game_id = await new_game(store)
    await store.commit_action(game_id, _press(0))
    first, second = _press(1, 101, at=T0 + 1), _press(1, 102, at=T0 + 2)
    results = await asyncio.gather(
        store.commit_action(game_id, first),
        store.commit_action(game_id, second),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["EventConflictError", "NoneType"]
    winner = first if results[0] is None else second
    stored = await store.load_game(game_id)
    assert [e.user_id for e in stored.events] == [101, winner.events[0].user_id]
    assert await store.timers_for(game_id) == [Timer(game_id, "idle", winner.at + 600_000)]


async def test_many_games_pressing_at_once_keep_their_own_order(store: GameStore) -> None:
    """Group commit puts presses of many games in one transaction; each game's log still
    reads in the order its presses were accepted."""
    games = [await new_game(store, channel_id=1_000 + i) for i in range(20)]

    async def play(game_id: int) -> None:
        for seq in range(10):
            await store.commit_action(game_id, _press(seq, at=T0 + seq))

    await asyncio.gather(*(play(g) for g in games))
    for game_id in games:
        stored = await store.load_game(game_id)
        assert [e.action["seq"] for e in stored.events] == list(range(10))
        assert [e.created_at for e in stored.events] == [T0 + s for s in range(10)]


async def test_a_players_seat_is_kept_across_the_press(store: GameStore) -> None:
    record = await store.start_game(
        NewGame(1, 600, "regnekrig", {}, 1, (ADA, BO)), ActionCommit(T0, [DEAL])
    )
    assert record.player_for(BO.user_id or 0) == BO
