"""Discord's interaction rules: answer once, within 3 s, and use the token for 15 minutes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import discord
import pytest

from .driver import Driver
from .harness import BotHarness
from .helpers import raw_callback
from .sample_bot import SampleBot
from .server import FakeDiscord


def gated(bot: SampleBot, gate: asyncio.Event, started: asyncio.Event) -> None:
    """Make ``/mattekrig run`` wait for ``gate`` before answering (to let the clock move)."""

    async def action(interaction: discord.Interaction) -> None:
        started.set()
        await gate.wait()
        await interaction.response.send_message("late")

    bot.action = action


async def test_answer_after_three_seconds_is_unknown_interaction(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    gate, started = asyncio.Event(), asyncio.Event()
    gated(bot, gate, started)
    interaction = await driver.slash("alice", "mattekrig run", wait=False)
    await asyncio.wait_for(started.wait(), 5)

    fake_discord.clock.advance(3.1)
    gate.set()
    await fake_discord.wait_until(lambda: bot.errors)

    (error,) = bot.errors
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert not interaction.answered
    assert [(r.status, r.code) for r in interaction.rejected] == [(404, 10062)]


async def test_an_old_interaction_cannot_be_answered(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    async def answer(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("too late")

    bot.action = answer
    interaction = await driver.slash("alice", "mattekrig run", age=10)
    await fake_discord.wait_until(lambda: bot.errors)

    assert isinstance(bot.errors[0], discord.NotFound) and bot.errors[0].code == 10062
    assert not interaction.answered


async def test_answering_twice_is_refused_with_40060(
    fake_discord: FakeDiscord,
    driver: Driver,
    bot: SampleBot,
    make_harness: Callable[..., BotHarness],
) -> None:
    # Two processes on one token (an old bot still running during a deploy) both get the
    # interaction and both answer: only the first answer counts.
    second_harness = make_harness(lambda: SampleBot(fake_discord.guild.id))
    second = await second_harness.start()
    assert isinstance(second, SampleBot)

    async def answer(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("mine")

    bot.action = second.action = answer
    interaction = await driver.slash("alice", "mattekrig run")
    await fake_discord.wait_until(lambda: len(bot.errors) + len(second.errors) == 1)
    await fake_discord.wait_until(lambda: len(interaction.rejected) == 1)

    (error,) = bot.errors + second.errors
    assert isinstance(error, discord.HTTPException)
    assert error.status == 400 and error.code == 40060
    assert interaction.answered
    assert len(fake_discord.messages_in()) == 1


async def test_token_older_than_fifteen_minutes_is_invalid(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    gate = asyncio.Event()

    async def defer_then_edit(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await gate.wait()
        await interaction.edit_original_response(content="too late")

    bot.action = defer_then_edit
    interaction = await driver.slash("alice", "mattekrig run")
    assert interaction.response_type == 5

    fake_discord.clock.advance(15 * 60 + 1)
    gate.set()
    await fake_discord.wait_until(lambda: bot.errors)

    (error,) = bot.errors
    assert isinstance(error, discord.HTTPException)
    assert error.status == 401 and error.code == 50027
    assert interaction.original is not None and interaction.original.loading


async def test_followup_before_the_response_is_unknown_webhook(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    async def followup_first(interaction: discord.Interaction) -> None:
        await interaction.followup.send("hei")

    bot.action = followup_first
    interaction = await driver.slash("alice", "mattekrig run", wait=False)
    await fake_discord.wait_until(lambda: bot.errors)

    assert isinstance(bot.errors[0], discord.NotFound) and bot.errors[0].code == 10015
    assert not interaction.answered


@pytest.mark.discord_refuses
async def test_callback_type_must_fit_the_interaction(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    async def update_a_slash_command(interaction: discord.Interaction) -> None:
        # UPDATE_MESSAGE (7) only exists for component interactions. discord.py's own
        # edit_message() silently does nothing here, so send the raw callback.
        await raw_callback(interaction, {"type": 7, "data": {"content": "nope"}})

    bot.action = update_a_slash_command
    interaction = await driver.slash("alice", "mattekrig run")
    await fake_discord.wait_until(lambda: bot.errors)

    error = bot.errors[0]
    assert isinstance(error, discord.HTTPException) and error.code == 50035
    assert not interaction.answered
