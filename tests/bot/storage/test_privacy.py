"""The privacy part of the contract (PRIVACY.md): export what names a user, forget them
(refused while they play), forget a server, and retention."""

from __future__ import annotations

import pytest

from bot.storage import Storage, UserInLiveGameError

from .helpers import ADA, BO, T0, append, live_games, new_game
from .results_helpers import DAY, duel, record
from .test_invitations import challenge


async def test_export_names_every_row_of_the_user(store: Storage) -> None:
    game_id = await new_game(store)
    await append(store, game_id, 0, {"type": "deal"}, [], T0, user_id=ADA.user_id)
    await challenge(store, host=101, invited=(102,))
    out = await store.export_user(101)
    assert [r["id"] for r in out["games"]] == [game_id]
    assert [r["user_id"] for r in out["game_players"]] == [101]
    assert [r["host_id"] for r in out["invitations"]] == [101]
    assert out["game_events"][0]["action"] == {"type": "deal"}  # JSON decoded
    assert await store.export_user(999) == {table: [] for table in out}


async def test_forget_is_refused_while_the_user_plays(store: Storage) -> None:
    game_id = await new_game(store)
    assert await store.live_games_of(101) == [game_id]
    with pytest.raises(UserInLiveGameError):
        await store.forget_user(101, T0)
    assert (await store.load_game(game_id)).players == (ADA, BO)  # nothing was forgotten


async def test_forget_user_keeps_the_others_results(store: Storage) -> None:
    game_id = await new_game(store)
    await store.set_status(game_id, "over", T0)
    await record(store, duel(game_id, 101, 102))
    await challenge(store, host=102, invited=(101,))
    counts = await store.forget_user(101, T0 + 1)
    assert counts["games"] == 1 and counts["result_players"] == 1
    assert await store.live_games_of(101) == []
    kept = await store.load_result(game_id)
    assert kept is not None
    assert [(p.kind, p.user_id) for p in kept.players] == [("anonymous", None), ("user", 102)]
    assert all(rows == [] for rows in (await store.export_user(101)).values())
    assert (await store.load_invitation(1)).user_ids() == ()


async def test_forget_guild_and_retention(store: Storage) -> None:
    old = await new_game(store, channel_id=1)
    await store.set_status(old, "over", T0)
    await record(store, duel(old, 101, 102, at=T0))
    counts = await store.purge_old(
        games_before=T0 + 1,
        invitations_before=T0 + 1,
        results_before=T0 + DAY,
        weeks_before=300_001,
    )
    assert (counts["games"], counts["results"]) == (1, 1)
    assert await store.load_result(old) is None
    live = await new_game(store, channel_id=2)
    assert (await store.forget_guild(1))["games"] == 1
    assert await live_games(store) == []
    assert live not in await store.live_games_of(101)
