"""A process restores, times and ends only the games of its own shards' guilds:
the game service's view of the shared database (`bot.shards.ShardGameStore`)."""

from __future__ import annotations

from bot.shards import ShardGameStore, Shards
from storage import Storage
from tests.bot.storage.helpers import ADA, BO, T0, live_games, new_game

# Guild ids whose shard of two is 0 and 1: (guild_id >> 22) % 2.
GUILD_ON = {0: 2 << 22, 1: 3 << 22}


async def _game(store: Storage | ShardGameStore, shard: int, channel: int) -> int:
    return await new_game(store, channel_id=channel, players=(ADA, BO), guild_id=GUILD_ON[shard])


async def test_each_shard_sees_only_its_guilds_games_and_deadlines() -> None:
    async with await Storage.open(":memory:") as storage:
        ours = await _game(storage, 0, 10)
        theirs = await _game(storage, 1, 11)
        await storage.set_timer(theirs, "answer", T0 + 1_000)
        await storage.set_timer(ours, "answer", T0 + 5_000)
        zero = ShardGameStore(storage, Shards(2, (0,)))

        assert [g.id for g in await zero.load_live_games()] == [ours]
        assert [g.id for g in await live_games(zero)] == [ours]
        assert [t.game_id for t in await zero.live_timers()] == [ours]
        assert [t.game_id for t in await zero.due_timers(T0 + 10_000)] == [ours]
        assert await zero.next_timer_due() == T0 + 5_000  # not the other shard's earlier one
        both = ShardGameStore(storage, Shards(2, (0, 1)))
        assert {t.game_id for t in await both.due_timers(T0 + 10_000)} == {ours, theirs}


async def test_a_game_started_here_is_known_at_once() -> None:
    async with await Storage.open(":memory:") as storage:
        one = ShardGameStore(storage, Shards(2, (1,)))
        game_id = await _game(one, 1, 12)
        await one.set_timer(game_id, "answer", T0)
        assert [t.game_id for t in await one.due_timers(T0)] == [game_id]
        assert (await one.load_game(game_id)).guild_id == GUILD_ON[1]
