"""Permissions set per channel: Discord answers 403 50013 (50001 when the bot cannot see the
channel), and tells the bot its rights (CHANNEL_UPDATE, ``app_permissions``) as they change."""

from __future__ import annotations

import discord
import pytest

from .driver import Driver
from .permissions import (
    ATTACH_FILES,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)
from .raw import RawApi
from .sample_bot import SampleBot
from .server import FakeDiscord


def text_channel(bot: SampleBot, channel_id: int) -> discord.TextChannel:
    channel = bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_a_channel_without_send_messages_refuses_the_bot_and_says_so(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    other = fake_discord.world.add_channel("gang")
    closed = text_channel(bot, fake_discord.channel.id)

    await fake_discord.set_permissions(fake_discord.channel, deny=SEND_MESSAGES)
    await fake_discord.wait_until(lambda: not closed.permissions_for(closed.guild.me).send_messages)

    with pytest.raises(discord.Forbidden) as refused:
        await closed.send("hei")
    assert refused.value.code == 50013
    async with RawApi(fake_discord) as api:
        elsewhere = await api.call("POST", f"/channels/{other.id}/messages", {"content": "hei"})
    assert elsewhere.status == 200
    assert fake_discord.messages_in() == []


async def test_a_channel_the_bot_cannot_see_is_missing_access(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    await fake_discord.set_permissions(fake_discord.channel, deny=VIEW_CHANNEL)

    async with RawApi(fake_discord) as api:
        listed = await api.call("GET", f"/channels/{fake_discord.channel.id}/messages")

    assert (listed.status, listed.code) == (403, 50001)


async def test_the_member_overwrite_wins_over_the_roles(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    everyone = fake_discord.guild.roles[fake_discord.guild.id]
    await fake_discord.set_permissions(fake_discord.channel, everyone, deny=SEND_MESSAGES)
    await fake_discord.set_permissions(fake_discord.channel, allow=SEND_MESSAGES)

    sent = await text_channel(bot, fake_discord.channel.id).send("hei")

    assert fake_discord.message(sent.id).content == "hei"


async def test_an_interaction_carries_the_channels_permissions(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    seen: list[discord.Permissions] = []

    async def look(interaction: discord.Interaction) -> None:
        seen.append(interaction.app_permissions)
        await interaction.response.send_message("ok")

    bot.action = look
    await fake_discord.set_permissions(fake_discord.channel, deny=ATTACH_FILES)
    await driver.slash("alice", "mattekrig run")

    assert seen and not seen[0].attach_files and seen[0].send_messages


async def test_a_thread_follows_its_parents_overwrites(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    parent = text_channel(bot, fake_discord.channel.id)
    starter = await parent.send("Regnekrig")
    thread = await starter.create_thread(name="Runde 1")

    await fake_discord.set_permissions(fake_discord.channel, deny=SEND_MESSAGES_IN_THREADS)

    with pytest.raises(discord.Forbidden) as refused:
        await thread.send("i tråden")
    assert refused.value.code == 50013
