"""The fake speaks shards as Discord does: IDENTIFY with ``shard: [id, count]`` gets READY and
GUILD_CREATE for that shard's guilds only (``(guild_id >> 22) % count``), and a guild's events
(interactions among them) arrive on the connection of that guild's shard only."""

from __future__ import annotations

from collections.abc import Callable

import discord

from .gateway import IDENTIFY
from .harness import BotHarness
from .server import FakeDiscord


def _shard(guild_id: int, count: int = 2) -> int:
    return (guild_id >> 22) % count


def _guild_on_each_shard(fake: FakeDiscord) -> dict[int, int]:
    """Add guilds until both shards of two have one; {shard: guild id}."""
    found = {_shard(fake.guild.id): fake.guild.id}
    while len(found) < 2:
        fake.clock.advance(0.001)  # the next snowflake's millisecond, so the other shard's
        guild = fake.world.add_guild(f"Skole {len(fake.world.guilds)}")
        fake.world.add_channel("klasserom", guild=guild)
        found.setdefault(_shard(guild.id), guild.id)
    return found


class _Sharded(discord.AutoShardedClient):
    def __init__(self, shard_ids: list[int]) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            shard_count=2,
            shard_ids=shard_ids,
            guild_ready_timeout=0,
        )
        self.messages: list[int | None] = []

    async def on_message(self, message: discord.Message) -> None:
        self.messages.append(message.guild.id if message.guild else None)


async def test_each_shard_gets_its_guilds_and_their_events(
    fake_discord: FakeDiscord, make_harness: Callable[..., BotHarness]
) -> None:
    guilds = _guild_on_each_shard(fake_discord)
    zero = await make_harness(lambda: _Sharded([0])).start()
    one = await make_harness(lambda: _Sharded([1])).start()

    identifies = [p["d"].get("shard") for p in fake_discord.gateway.ops(IDENTIFY)]
    assert sorted(identifies) == [[0, 2], [1, 2]]
    for client, shard in ((zero, 0), (one, 1)):
        assert {g.id for g in client.guilds} == {
            g for g in fake_discord.world.guilds if _shard(g) == shard
        }
        assert client.get_guild(guilds[1 - shard]) is None

    alice = fake_discord.user("alice")
    channel = fake_discord.world.channel_by_id(
        next(
            c.id
            for c in fake_discord.world.channels.values()
            if c.guild_id == guilds[1] and not c.is_thread
        )
    )
    assert isinstance(zero, _Sharded) and isinstance(one, _Sharded)
    await fake_discord.post_message(author=alice, content="hei", channel=channel)
    await fake_discord.wait_until(lambda: bool(one.messages), what="shard 1's message")
    assert one.messages == [guilds[1]] and zero.messages == []
