"""Every limit Discord enforces on messages and modals, refused with 400 50035 (and the value
exactly at the limit accepted), sent through discord.py's own HTTP client."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from .driver import Driver
from .helpers import button, raw_callback, raw_send, row
from .sample_bot import SampleBot
from .server import FakeDiscord

# Every test here sends what Discord refuses, on purpose.
pytestmark = pytest.mark.discord_refuses


def select(options: int) -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": "velg",
        "options": [{"label": f"L{n}", "value": str(n)} for n in range(options)],
    }


def text_input(n: int) -> dict[str, Any]:
    return {
        "type": 18,
        "label": f"Felt {n}",
        "component": {"type": 4, "custom_id": f"f{n}", "style": 1},
    }


# (case, body at the limit, body over it, error path Discord reports)
MESSAGE_LIMITS: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
    ("content 2000", {"content": "x" * 2000}, {"content": "x" * 2001}, "content"),
    (
        "10 embeds",
        {"embeds": [{"title": "t"}] * 10},
        {"embeds": [{"title": "t"}] * 11},
        "embeds",
    ),
    (
        "embed title 256",
        {"embeds": [{"title": "x" * 256}]},
        {"embeds": [{"title": "x" * 257}]},
        "embeds.0.title",
    ),
    (
        "embed description 4096",
        {"embeds": [{"description": "x" * 4096}]},
        {"embeds": [{"description": "x" * 4097}]},
        "embeds.0.description",
    ),
    (
        "25 embed fields",
        {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 25}]},
        {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
        "embeds.0.fields",
    ),
    (
        "6000 characters across embeds",
        {"embeds": [{"description": "x" * 4096}, {"description": "y" * 1904}]},
        {"embeds": [{"description": "x" * 4096}, {"description": "y" * 1905}]},
        "embeds",
    ),
    (
        "custom_id 100",
        {"components": [row(button("x" * 100))]},
        {"components": [row(button("x" * 101))]},
        "components.0.components.0.custom_id",
    ),
    (
        "custom_id at least 1",
        {"components": [row(button("x"))]},
        {"components": [row(button(""))]},
        "components.0.components.0.custom_id",
    ),
    (
        "5 action rows",
        {"components": [row(button(f"b{n}")) for n in range(5)]},
        {"components": [row(button(f"b{n}")) for n in range(6)]},
        "components",
    ),
    (
        "5 buttons per row",
        {"components": [row(*(button(f"b{n}") for n in range(5)))]},
        {"components": [row(*(button(f"b{n}") for n in range(6)))]},
        "components.0.components",
    ),
    (
        "25 select options",
        {"components": [row(select(25))]},
        {"components": [row(select(26))]},
        "components.0.components.0.options",
    ),
]

MODAL_LIMITS: list[tuple[str, dict[str, Any], dict[str, Any], str]] = [
    (
        "5 modal inputs",
        {"custom_id": "m", "title": "Svar", "components": [text_input(n) for n in range(5)]},
        {"custom_id": "m", "title": "Svar", "components": [text_input(n) for n in range(6)]},
        "data.components",
    ),
    (
        "modal title 45",
        {"custom_id": "m", "title": "x" * 45, "components": [text_input(0)]},
        {"custom_id": "m", "title": "x" * 46, "components": [text_input(0)]},
        "data.title",
    ),
]


@pytest.mark.parametrize(
    ("at_limit", "over_limit", "path"),
    [case[1:] for case in MESSAGE_LIMITS],
    ids=[case[0] for case in MESSAGE_LIMITS],
)
async def test_message_limit(
    fake_discord: FakeDiscord,
    bot: SampleBot,
    at_limit: dict[str, Any],
    over_limit: dict[str, Any],
    path: str,
) -> None:
    channel_id = fake_discord.channel.id
    accepted = await raw_send(bot, channel_id, at_limit)
    assert accepted["id"]

    with pytest.raises(discord.HTTPException) as refused:
        await raw_send(bot, channel_id, over_limit)

    assert refused.value.status == 400 and refused.value.code == 50035
    assert f"In {path}:" in refused.value.text
    assert len(fake_discord.messages_in()) == 1


@pytest.mark.parametrize(
    ("at_limit", "over_limit", "path"),
    [case[1:] for case in MODAL_LIMITS],
    ids=[case[0] for case in MODAL_LIMITS],
)
async def test_modal_limit(
    fake_discord: FakeDiscord,
    driver: Driver,
    bot: SampleBot,
    at_limit: dict[str, Any],
    over_limit: dict[str, Any],
    path: str,
) -> None:
    body = over_limit

    async def open_modal(interaction: discord.Interaction) -> None:
        await raw_callback(interaction, {"type": 9, "data": body})

    bot.action = open_modal
    refused = await driver.slash("alice", "mattekrig run")
    await fake_discord.wait_until(lambda: bot.errors)

    error = bot.errors[0]
    assert isinstance(error, discord.HTTPException)
    assert error.status == 400 and error.code == 50035
    assert f"In {path}:" in error.text
    assert not refused.answered and refused.rejected[0].code == 50035

    body = at_limit
    accepted = await driver.slash("alice", "mattekrig run")
    assert accepted.answered and accepted.modal is not None


async def test_limits_apply_to_interaction_responses_too(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    async def long_reply(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("x" * 2001)

    bot.action = long_reply
    interaction = await driver.slash("alice", "mattekrig run")
    await fake_discord.wait_until(lambda: bot.errors)

    error = bot.errors[0]
    assert isinstance(error, discord.HTTPException) and error.code == 50035
    assert "In data.content:" in error.text
    assert not interaction.answered


async def test_duplicate_custom_ids_are_refused(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await raw_send(
            bot, fake_discord.channel.id, {"components": [row(button("a"), button("a"))]}
        )

    assert refused.value.code == 50035
    assert "custom id cannot be duplicated" in refused.value.text


async def test_empty_message_is_refused(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await raw_send(bot, fake_discord.channel.id, {"content": ""})

    assert refused.value.code == 50006
