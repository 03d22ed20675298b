"""Each injected fault produces the behaviour discord.py documents: retry, resume,
re-identify, or the right exception with Discord's error code."""

from __future__ import annotations

import discord
import pytest

from .driver import Driver
from .gateway import IDENTIFY, RESUME
from .helpers import button, row
from .sample_bot import SampleBot
from .server import FakeDiscord

SEND = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
MESSAGES = "/channels/{channel_id}/messages"


def text_channel(fake: FakeDiscord, bot: SampleBot) -> discord.TextChannel:
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


# -- REST -----------------------------------------------------------------------------------


@pytest.mark.parametrize("is_global", [False, True], ids=["per-route", "global"])
async def test_rate_limit_with_via_is_retried(
    fake_discord: FakeDiscord, bot: SampleBot, is_global: bool
) -> None:
    fake_discord.faults.rate_limit(SEND, retry_after=0.05, is_global=is_global)

    await text_channel(fake_discord, bot).send("hei")

    assert [r.status for r in fake_discord.requests_to(MESSAGES, "POST")] == [429, 200]
    assert [m.content for m in fake_discord.messages_in()] == ["hei"]


async def test_rate_limit_without_via_raises(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    fake_discord.faults.rate_limit(SEND, via=False)

    with pytest.raises(discord.HTTPException) as raised:
        await text_channel(fake_discord, bot).send("hei")

    assert raised.value.status == 429
    assert len(fake_discord.requests_to(MESSAGES, "POST")) == 1
    assert fake_discord.messages_in() == []


async def test_rate_limited_interaction_callback_is_retried(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    fake_discord.faults.rate_limit("POST /interactions/{webhook_id}/{webhook_token}/callback")

    interaction = await driver.slash("alice", "mattekrig start", mode="regnekrig")

    assert interaction.answered
    callbacks = fake_discord.requests_to("/interactions/{webhook_id}/{webhook_token}/callback")
    assert [r.status for r in callbacks] == [429, 200]


async def test_server_error_once_is_retried(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    fake_discord.faults.server_error(SEND)

    await text_channel(fake_discord, bot).send("hei")  # discord.py sleeps 1 s, then retries

    assert [r.status for r in fake_discord.requests_to(MESSAGES, "POST")] == [500, 200]


async def test_service_unavailable_raises_server_error(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    fake_discord.faults.unavailable(SEND)

    with pytest.raises(discord.DiscordServerError) as raised:
        await text_channel(fake_discord, bot).send("hei")

    assert raised.value.status == 503
    assert len(fake_discord.requests_to(MESSAGES, "POST")) == 1


async def test_message_deleted_fault_raises_not_found(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    message = await text_channel(fake_discord, bot).send("brett")
    fake_discord.faults.message_deleted(EDIT)

    with pytest.raises(discord.NotFound) as raised:
        await message.edit(content="nytt brett")

    assert raised.value.code == 10008


async def test_deleted_message_really_is_gone(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    message = await text_channel(fake_discord, bot).send("brett")
    await fake_discord.delete_message(fake_discord.message(message.id))

    with pytest.raises(discord.NotFound) as raised:
        await message.edit(content="nytt brett")

    assert raised.value.code == 10008


async def test_missing_permissions_raises_forbidden(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    fake_discord.faults.missing_permissions(SEND)

    with pytest.raises(discord.Forbidden) as raised:
        await text_channel(fake_discord, bot).send("hei")

    assert raised.value.code == 50013


def test_unknown_fault_route_is_a_mistake(fake_discord: FakeDiscord) -> None:
    with pytest.raises(ValueError, match="unknown route"):
        fake_discord.faults.server_error("POST /channels/{id}/messages")


# -- gateway --------------------------------------------------------------------------------


async def resumed(fake: FakeDiscord, bot: SampleBot) -> None:
    await fake.wait_until(lambda: "RESUMED" in bot.socket_events, what="RESUMED")


async def test_reconnect_op_resumes(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    await fake_discord.faults.gateway_reconnect()
    await resumed(fake_discord, bot)

    (resume,) = fake_discord.gateway.ops(RESUME)
    (session,) = fake_discord.gateway.sessions.values()
    assert resume["d"]["session_id"] == session.id
    assert resume["d"]["token"] == "<redacted>"
    assert fake_discord.gateway.identify_count == 1
    assert fake_discord.gateway.connections[-1].path == "/resume"


async def test_resumable_invalid_session_resumes(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    await fake_discord.faults.invalidate_session(resumable=True)
    await resumed(fake_discord, bot)

    assert fake_discord.gateway.resume_count == 1
    assert fake_discord.gateway.identify_count == 1


async def test_invalid_session_reidentifies(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    await fake_discord.faults.invalidate_session(resumable=False)
    await fake_discord.wait_until(lambda: fake_discord.gateway.identify_count == 2)
    await fake_discord.wait_until(lambda: bot.socket_events.count("READY") == 2)

    assert fake_discord.gateway.resume_count == 0
    assert len(fake_discord.gateway.sessions) == 1


async def test_close_4000_resumes(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    fake_discord.faults.close_gateway(4000)
    await resumed(fake_discord, bot)

    assert fake_discord.gateway.connections[0].sent_close_code == 4000
    assert len(fake_discord.gateway.ops(IDENTIFY)) == 1


async def test_dropped_socket_resumes_and_replays_missed_events(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    board = await fake_discord.post_message(
        content="count 1", components=[row(button("counter:1"))]
    )

    fake_discord.faults.drop_gateway()
    press = await driver.click("alice", board, "counter:1", wait=False)  # sent while cut off
    await driver.answered(press)

    assert press.answered and bot.presses == [1]
    assert [e["t"] for e in fake_discord.gateway.replayed] == ["INTERACTION_CREATE"]
    assert fake_discord.gateway.resume_count == 1
    assert fake_discord.gateway.identify_count == 1
