"""The gateway handshake and dispatches, seen by the real discord.py client."""

from __future__ import annotations

import math
from collections.abc import Callable

import discord
import pytest

from .gateway import HEARTBEAT, IDENTIFY, INTENT_GUILD_MEMBERS, REQUEST_GUILD_MEMBERS
from .harness import BotHarness
from .sample_bot import SampleBot
from .server import FakeDiscord


async def test_identify_ready_and_guild_create(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    guild = bot.get_guild(fake_discord.guild.id)

    assert guild is not None and guild.name == "Testskolen"
    assert guild.preferred_locale is discord.Locale.norwegian
    channel = guild.get_channel(fake_discord.channel.id)
    assert isinstance(channel, discord.TextChannel) and channel.name == "klasserom"
    assert {r.name for r in guild.roles} >= {"@everyone", "Lærer", "Mattekrig"}
    assert guild.member_count == 5
    assert guild.me is not None and guild.me.id == fake_discord.bot_user.id
    assert guild.owner_id == fake_discord.user("teacher").id
    assert bot.user is not None and bot.user.id == fake_discord.bot_user.id
    assert bot.application_id == fake_discord.application_id

    (identify,) = fake_discord.gateway.ops(IDENTIFY)
    assert identify["d"]["token"] == "<redacted>"
    assert identify["d"]["intents"] == discord.Intents.default().value
    (connection,) = fake_discord.gateway.connections
    assert connection.path == "/"
    assert connection.request.query.get("encoding") == "json"


async def test_heartbeat_is_acknowledged(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    await fake_discord.wait_until(lambda: math.isfinite(bot.latency), what="a heartbeat ACK")

    assert fake_discord.gateway.ops(HEARTBEAT)


async def test_dispatches_carry_increasing_sequence_numbers(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    await fake_discord.post_message(author=fake_discord.user("alice"), content="hei")
    await fake_discord.wait_until(lambda: "MESSAGE_CREATE" in bot.socket_events)

    (session,) = fake_discord.gateway.sessions.values()
    assert [e["s"] for e in session.events] == list(range(1, len(session.events) + 1))
    assert [e["t"] for e in session.events][:2] == ["READY", "GUILD_CREATE"]


async def test_message_events_need_the_guild_messages_intent(
    fake_discord: FakeDiscord, make_harness: Callable[..., BotHarness]
) -> None:
    intents = discord.Intents.default()
    intents.guild_messages = False
    harness = make_harness(lambda: SampleBot(fake_discord.guild.id, intents=intents))
    bot = await harness.start()
    assert isinstance(bot, SampleBot)

    await fake_discord.post_message(author=fake_discord.user("alice"), content="hei")

    (session,) = fake_discord.gateway.sessions.values()
    assert "MESSAGE_CREATE" not in [e["t"] for e in session.events]


async def test_members_intent_caches_members_when_enabled(
    fake_discord: FakeDiscord, make_harness: Callable[..., BotHarness]
) -> None:
    fake_discord.gateway.allowed_privileged_intents = INTENT_GUILD_MEMBERS
    intents = discord.Intents.default()
    intents.members = True
    harness = make_harness(lambda: SampleBot(fake_discord.guild.id, intents=intents))
    bot = await harness.start()
    guild = bot.get_guild(fake_discord.guild.id)
    assert guild is not None
    await fake_discord.wait_until(lambda: guild.chunked, what="member chunking")

    assert {m.name for m in guild.members} == {"alice", "bob", "carol", "teacher", "Mattekrig"}
    found = await guild.query_members(query="al")
    assert [m.name for m in found] == ["alice"]
    assert fake_discord.gateway.ops(REQUEST_GUILD_MEMBERS)


async def test_privileged_intents_are_refused_with_4014(
    fake_discord: FakeDiscord, make_harness: Callable[..., BotHarness]
) -> None:
    harness = make_harness(lambda: SampleBot(fake_discord.guild.id, intents=discord.Intents.all()))

    with pytest.raises(RuntimeError) as failed:
        await harness.start()

    assert isinstance(failed.value.__cause__, discord.PrivilegedIntentsRequired)


async def test_wrong_token_fails_login(fake_discord: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.default())
    try:
        with pytest.raises(discord.LoginFailure):
            await client.login("not-the-token")
    finally:
        await client.close()
    assert fake_discord.requests[0].status == 401
