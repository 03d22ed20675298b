"""Event-sourced games: create, append, load, one live game per channel, restart."""

from __future__ import annotations

import math
import sqlite3

import pytest

from storage import (
    ChannelBusyError,
    ConflictError,
    EventConflictError,
    GameClosedError,
    NotFoundError,
    Player,
    Storage,
    StorageError,
)

from .conftest import Backend, need_durable
from .helpers import ADA, BO, CPU, T0, append, live_games, live_in, new_game


async def test_create_and_load_round_trip(store: Storage) -> None:
    config = {"level": 6, "mode": "regn", "deck": "fortegn", "names": ["Åse", "Øyvind"]}
    game_id = await new_game(store, players=(ADA, CPU), config=config)
    game = await store.load_game(game_id)
    assert game.id == game_id
    assert (game.guild_id, game.channel_id, game.thread_id, game.message_id) == (1, 500, None, None)
    assert game.game == "regnekrig"
    assert game.config == config
    assert game.seed == 123456789
    assert game.status == "live"
    assert (game.created_at, game.updated_at) == (T0, T0)
    assert game.players == (ADA, CPU)
    assert game.player_for(101) == ADA
    assert game.player_for(999) is None
    assert game.events == ()
    assert game.next_seq == 0


async def test_events_come_back_in_order_with_their_json(store: Storage) -> None:
    game_id = await new_game(store)
    actions = [{"type": "start"}, {"type": "answer", "side": 0, "text": "3*4"}, None]
    for seq, action in enumerate(actions):
        events = [{"type": "CardsLaid", "seq": seq}, {"type": "RoundWon", "side": seq % 2}]
        await append(store, game_id, seq, action, events, T0 + seq, user_id=101)
    game = await store.load_game(game_id)
    assert [e.seq for e in game.events] == [0, 1, 2]
    assert [e.action for e in game.events] == actions
    assert game.events[1].events == [
        {"type": "CardsLaid", "seq": 1},
        {"type": "RoundWon", "side": 1},
    ]
    assert game.events[2].created_at == T0 + 2
    assert game.events[0].user_id == 101
    assert game.updated_at == T0 + 2
    assert game.next_seq == 3


async def test_duplicate_seq_is_a_conflict_and_changes_nothing(store: Storage) -> None:
    game_id = await new_game(store)
    await append(store, game_id, 0, {"a": 1}, [], T0)
    with pytest.raises(EventConflictError) as caught:
        await append(store, game_id, 0, {"a": 2}, [], T0 + 5)
    assert isinstance(caught.value, ConflictError)
    assert (caught.value.game_id, caught.value.seq) == (game_id, 0)
    game = await store.load_game(game_id)
    assert [e.action for e in game.events] == [{"a": 1}]
    assert game.updated_at == T0


async def test_seq_starts_at_zero_and_has_no_gaps(store: Storage) -> None:
    game_id = await new_game(store)
    with pytest.raises(ValueError, match="next seq is 0"):
        await append(store, game_id, 1, {}, [], T0)
    with pytest.raises(ValueError):
        await append(store, game_id, -1, {}, [], T0)


async def test_unknown_game(store: Storage) -> None:
    with pytest.raises(NotFoundError):
        await store.load_game(404)
    with pytest.raises(NotFoundError):
        await append(store, 404, 0, {}, [], T0)
    with pytest.raises(NotFoundError):
        await store.set_status(404, "over", T0)
    with pytest.raises(NotFoundError):
        await store.set_board_message(404, 1, T0)


async def test_values_that_are_not_json_are_refused_before_writing(store: Storage) -> None:
    game_id = await new_game(store)
    with pytest.raises(TypeError):
        await append(store, game_id, 0, {"x": object()}, [], T0)
    with pytest.raises(ValueError):
        await append(store, game_id, 0, {"x": math.nan}, [], T0)
    assert (await store.load_game(game_id)).events == ()


async def test_one_live_game_per_channel(store: Storage) -> None:
    first = await new_game(store, channel_id=500)
    with pytest.raises(ChannelBusyError) as caught:
        await new_game(store, channel_id=500)
    assert (caught.value.channel_id, caught.value.game_id) == (500, first)
    other_channel = await new_game(store, channel_id=501)
    # a game played in a thread lives in the thread, not in its parent channel
    in_thread = await new_game(store, channel_id=500, thread_id=900)
    with pytest.raises(ChannelBusyError):
        await new_game(store, channel_id=501, thread_id=900)

    found = await live_in(store, 500)
    assert found is not None
    assert found.id == first
    assert found.players == (ADA, BO)
    thread_game = await live_in(store, 900)
    assert thread_game is not None
    assert thread_game.id == in_thread
    assert thread_game.home_channel_id == 900
    assert await live_in(store, 502) is None

    await store.set_status(first, "over", T0 + 1)
    assert await live_in(store, 500) is None
    again = await new_game(store, channel_id=500)
    assert [g.id for g in await live_games(store)] == [other_channel, in_thread, again]


async def test_ending_a_game(store: Storage) -> None:
    game_id = await new_game(store)
    with pytest.raises(ValueError):
        await store.set_status(game_id, "live", T0)
    await store.set_status(game_id, "stopped", T0 + 7)
    game = await store.load_game(game_id)
    assert (game.status, game.updated_at) == ("stopped", T0 + 7)
    with pytest.raises(GameClosedError) as caught:
        await store.set_status(game_id, "over", T0 + 8)
    assert caught.value.status == "stopped"
    with pytest.raises(GameClosedError):
        await append(store, game_id, 0, {}, [], T0 + 9)
    assert await live_games(store) == []


async def test_the_last_event_and_the_end_are_stored_together(store: Storage) -> None:
    game_id = await new_game(store)
    await store.set_timer(game_id, "answer", T0 + 30_000)
    await append(store, game_id, 0, {"t": "x"}, [{"t": "GameOver"}], T0 + 1, status="over")
    game = await store.load_game(game_id)
    assert game.status == "over"
    assert len(game.events) == 1
    assert await store.timers_for(game_id) == []
    with pytest.raises(ValueError):
        await append(store, game_id, 1, {}, [], T0, status="live")


async def test_board_message_and_thread(store: Storage) -> None:
    game_id = await new_game(store, channel_id=500)
    other = await new_game(store, channel_id=501, thread_id=901)
    await store.set_board_message(game_id, 7777, T0 + 3)
    game = await store.load_game(game_id)
    assert (game.message_id, game.thread_id, game.updated_at) == (7777, None, T0 + 3)
    with pytest.raises(ChannelBusyError):
        await store.set_board_message(game_id, 7778, T0, thread_id=901)
    await store.set_board_message(game_id, 7779, T0 + 4, thread_id=900)
    game = await store.load_game(game_id)
    assert (game.message_id, game.thread_id) == (7779, 900)
    assert (await live_in(store, 900)) is not None
    assert await live_in(store, 500) is None
    assert (await store.load_game(other)).thread_id == 901


async def test_games_ended_since_a_moment_with_a_board(store: Storage) -> None:
    """What start-up redraws besides the live games: the games that ended at or
    after a moment and have a board (a crash may have left it showing buttons)."""
    early = await new_game(store, channel_id=500)
    late = await new_game(store, channel_id=501)
    boardless = await new_game(store, channel_id=502)
    live = await new_game(store, channel_id=503)
    for game_id in (early, late, live):
        await store.set_board_message(game_id, 7000 + game_id, T0)
    await store.set_status(early, "over", T0 + 5)
    await store.set_status(late, "stopped", T0 + 20)
    await store.set_status(boardless, "abandoned", T0 + 20)
    assert await store.ended_since(T0 + 10) == [late]
    assert await store.ended_since(T0) == [early, late]


async def test_what_a_board_shows_only_moves_forward(store: Storage) -> None:
    """After a crash, a board is behind its game when the log went further than the seq its
    board was last written with: what the boards show is stored a batch at a time, only ever
    forward (a batch written late never takes a board back), and without touching the game's
    `updated_at` (retention and the games ended lately read it)."""
    game_id = await new_game(store, channel_id=500)
    other = await new_game(store, channel_id=501)
    assert (await store.load_game(game_id)).shown_seq is None  # not known: redrawn
    await store.set_shown_seqs({game_id: 3, other: 1})
    await store.set_shown_seqs({game_id: 2, 999_999: 5})  # late, and a game gone meanwhile
    await store.set_shown_seqs({})
    game = await store.load_game(game_id)
    assert (game.shown_seq, game.updated_at) == (3, T0)
    assert (await store.load_game(other)).shown_seq == 1
    assert [g.shown_seq for g in await store.load_live_games()] == [3, 1]


@pytest.mark.parametrize(
    "players",
    [
        (),
        (ADA, Player(seat=0, side=1, display_name="X", user_id=7)),
        (ADA, Player(seat=1, side=1, display_name="Ada again", user_id=101)),
    ],
)
async def test_bad_player_lists_are_refused(store: Storage, players: tuple[Player, ...]) -> None:
    with pytest.raises(ValueError):
        await new_game(store, players=players)
    assert await live_games(store) == []


def test_a_player_is_a_user_or_the_computer() -> None:
    with pytest.raises(ValueError):
        Player(seat=0, side=0, display_name="?")
    with pytest.raises(ValueError):
        Player(seat=0, side=0, display_name="?", user_id=1, computer="easy")


async def test_reopen_keeps_everything(backend: Backend) -> None:
    need_durable(backend)
    async with await backend.open() as store:
        live = await new_game(store, players=(ADA, CPU))
        await append(store, live, 0, {"t": "start"}, [{"t": "Dealt", "order": [3, 1]}], T0)
        await append(store, live, 1, {"t": "answer"}, [], T0 + 1, user_id=101)
        await store.set_board_message(live, 4242, T0 + 2)
        await store.set_timer(live, "answer", T0 + 30_000, {"round": 1})
        over = await new_game(store, channel_id=600)
        await store.set_status(over, "abandoned", T0 + 3)
        challenge = await store.create_challenge(
            guild_id=1,
            channel_id=500,
            host_id=101,
            invited=[102],
            options={"game": "intervallkrig"},
            at=T0,
            expires_at=T0 + 600_000,
        )
        before = (
            await store.load_game(live),
            await store.load_game(over),
            await live_games(store),
            await store.timers_for(live),
            await store.load_invitation(challenge),
        )
    async with await backend.open() as store:
        after = (
            await store.load_game(live),
            await store.load_game(over),
            await live_games(store),
            await store.timers_for(live),
            await store.load_invitation(challenge),
        )
        assert after == before
        # and the restored game takes its next action where it left off
        await append(store, live, after[0].next_seq, {"t": "answer"}, [], T0 + 4)


async def test_closed_storage_refuses_work(backend: Backend) -> None:
    store = await backend.open()
    await store.close()
    await store.close()  # twice is fine
    with pytest.raises(StorageError):
        await live_games(store)


async def test_partial_unique_index_holds_without_the_python_check(backend: Backend) -> None:
    """The database itself refuses a second live game in a channel (not just our pre-check)."""
    if backend.path is None:
        pytest.skip("inspects the SQLite file")
    async with await backend.open() as store:
        await new_game(store, channel_id=500)
        await new_game(store, channel_id=500, thread_id=900)
    insert = (
        "INSERT INTO games (guild_id, channel_id, thread_id, game, config, seed, status,"
        " created_at, updated_at) VALUES (1, ?, ?, 'regnekrig', '{}', 1, ?, 0, 0)"
    )
    with sqlite3.connect(backend.path) as raw:
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(insert, (500, None, "live"))
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(insert, (777, 900, "live"))
        raw.execute(insert, (500, None, "over"))  # finished games don't count
        raw.execute(insert, (500, 901, "live"))
        with pytest.raises(sqlite3.IntegrityError):
            raw.execute(insert, (500, None, "paused"))  # unknown status
        plan = raw.execute(
            "EXPLAIN QUERY PLAN SELECT * FROM games"
            " WHERE coalesce(thread_id, channel_id) = 500 AND status = 'live'"
        ).fetchall()
    assert "games_one_live_per_channel" in str(plan)


async def test_load_live_games_reads_every_live_game_whole(store: Storage) -> None:
    """A restart replays every live game from one read: each with its players and
    its events in order; ended games are left out, as are their deadlines."""
    first = await new_game(store, channel_id=1)
    ended = await new_game(store, channel_id=2)
    second = await new_game(store, channel_id=3, players=(ADA, CPU))
    for seq in range(3):
        await append(store, first, seq, {"n": seq}, [{"e": seq}], T0 + seq, user_id=101)
    await append(store, second, 0, {"deal": 1}, [], T0)
    await store.set_timer(second, "idle", T0 + 5)
    await store.set_timer(first, "answer", T0 + 9, {"window": 2})
    await store.set_timer(first, "idle", T0 + 7)
    await store.set_timer(ended, "idle", T0 + 1)
    await store.set_status(ended, "stopped", T0)
    live = await store.load_live_games()
    assert [g.id for g in live] == [first, second]
    assert live[0] == await store.load_game(first)
    assert [e.action for e in live[0].events] == [{"n": 0}, {"n": 1}, {"n": 2}]
    assert live[1].players == (ADA, CPU) and live[1].next_seq == 1
    assert [(t.game_id, t.kind) for t in await store.live_timers()] == [
        (first, "idle"),
        (first, "answer"),
        (second, "idle"),
    ]
