"""Interactions end to end: the real discord.py client answering what the driver sends."""

from __future__ import annotations

import io

import discord
import pytest

from .driver import Driver
from .helpers import button
from .sample_bot import AnswerModal, SampleBot
from .server import FakeDiscord
from .state import FakeMessage


async def started(fake_discord: FakeDiscord, driver: Driver, bot: SampleBot) -> FakeMessage:
    """A board to press: shown by the fake, and its view stored by discord.py."""
    start = await driver.slash("alice", "mattekrig start", mode="regnekrig")
    board = start.original
    assert board is not None
    await fake_discord.wait_until(lambda: bot.tracks(board.id), what="the board's view stored")
    return board


async def test_slash_command_is_answered_with_message(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    interaction = await driver.slash("alice", "mattekrig start", mode="regnekrig", rounds=5)

    assert interaction.answered and interaction.response_type == 4
    assert interaction.answer_latency is not None  # recorded as data, never asserted on
    board = interaction.original
    assert board is not None and not board.ephemeral
    assert board.content == f"regnekrig by {fake_discord.user('alice').id}"
    assert board.embeds[0]["title"] == "regnekrig"
    assert board.embeds[0]["description"] == "5 rounds"
    assert board.custom_ids() == ["board:join", "board:refresh", "board:level"]
    assert fake_discord.messages_in() == [board]
    callback = fake_discord.requests_to("/interactions/{webhook_id}/{webhook_token}/callback")
    assert [r.query for r in callback] == [{"with_response": "1"}]
    assert "<token>" in callback[0].path and interaction.token not in callback[0].path


async def test_interaction_payload_carries_locale_and_guild(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    seen: list[discord.Interaction] = []

    async def action(interaction: discord.Interaction) -> None:
        seen.append(interaction)
        await interaction.response.send_message("ok", ephemeral=True)

    bot.action = action
    await driver.slash("bob", "mattekrig run")

    (interaction,) = seen
    assert interaction.locale is discord.Locale.swedish
    assert interaction.guild_locale is discord.Locale.norwegian
    assert interaction.guild is not None and interaction.guild.id == fake_discord.guild.id
    assert interaction.channel is not None and interaction.channel.id == fake_discord.channel.id
    assert isinstance(interaction.user, discord.Member)
    assert interaction.user.name == "bob"
    assert not interaction.is_expired()


async def test_driver_refuses_what_discord_would_not_send(driver: Driver, bot: SampleBot) -> None:
    with pytest.raises(LookupError, match="no slash command"):
        await driver.slash("alice", "sjakk start")
    with pytest.raises(LookupError, match="no subcommand"):
        await driver.slash("alice", "mattekrig stop")
    with pytest.raises(TypeError, match="requires option 'mode'"):
        await driver.slash("alice", "mattekrig start")
    with pytest.raises(ValueError, match="not one of"):
        await driver.slash("alice", "mattekrig start", mode="poker")
    with pytest.raises(TypeError, match="has no options"):
        await driver.slash("alice", "mattekrig start", mode="regnekrig", colour="red")


async def test_button_press_updates_the_message(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    board = await started(fake_discord, driver, bot)

    press = await driver.click("bob", board, "board:join")

    assert press.answered and press.response_type == 7
    assert press.original is board
    assert board.content == "players: 1"
    assert board.history[0]["content"].startswith("regnekrig")
    assert bot.views[0].joined == [fake_discord.user("bob").id]
    with pytest.raises(LookupError, match="no such component"):
        await driver.click("bob", board, "board:leave")


async def test_select_answers_ephemerally(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    board = await started(fake_discord, driver, bot)

    pick = await driver.select("carol", board, "board:level", ["2"])

    assert pick.answered and pick.original is not None
    assert pick.original.ephemeral and pick.original.content == "level 2"
    assert pick.original not in fake_discord.messages_in()
    with pytest.raises(ValueError, match="not an option"):
        await driver.select("carol", board, "board:level", ["9"])


async def test_modal_is_opened_and_submitted(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    async def open_modal(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(AnswerModal())

    bot.action = open_modal
    opened = await driver.slash("alice", "mattekrig run")

    assert opened.response_type == 9 and opened.modal is not None
    assert opened.modal.title == "Ditt svar"
    assert [c["custom_id"] for c in opened.modal.inputs()] == ["answer"]
    with pytest.raises(ValueError, match="required"):
        await driver.submit_modal("alice", opened, {})
    with pytest.raises(LookupError, match="only the user"):
        await driver.submit_modal("bob", opened, {"answer": "3/4"})

    submitted = await driver.submit_modal("alice", opened, {"answer": "3/4"})

    assert bot.answers == ["3/4"]
    assert submitted.answered and submitted.original is not None
    assert submitted.original.content == "svar: 3/4"


async def test_file_is_attached_to_a_response(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    async def send_card(interaction: discord.Interaction) -> None:
        card = discord.File(io.BytesIO(b"\x89PNG fake card"), filename="kort.png")
        await interaction.response.send_message("kortet ditt", file=card)

    bot.action = send_card
    interaction = await driver.slash("alice", "mattekrig run")

    assert interaction.original is not None
    (attachment,) = interaction.original.attachments
    assert attachment.filename == "kort.png"
    assert attachment.data == b"\x89PNG fake card"
    assert attachment.content_type == "image/png"
    callback = fake_discord.requests_to("/interactions/{webhook_id}/{webhook_token}/callback")
    assert callback[-1].files == ["kort.png"]


async def test_defer_then_edit_followup_and_delete(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    async def slow_answer(interaction: discord.Interaction) -> discord.WebhookMessage:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(content="ferdig")
        note = await interaction.followup.send("bare til deg", ephemeral=True, wait=True)
        await note.edit(content="bare til deg (endret)")
        return note

    bot.action = slow_answer
    interaction = await driver.slash("alice", "mattekrig run")
    await fake_discord.wait_until(lambda: bot.results or bot.errors)

    assert not bot.errors
    assert interaction.response_type == 5
    original = interaction.original
    assert original is not None and not original.loading and original.content == "ferdig"
    (note,) = interaction.followups
    assert note.ephemeral and note.content == "bare til deg (endret)"

    async def delete(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.delete_original_response()

    bot.action = delete
    second = await driver.slash("alice", "mattekrig run")
    await fake_discord.wait_until(lambda: second.original is not None and second.original.deleted)


async def test_deferred_update_edits_the_component_message(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    board = await started(fake_discord, driver, bot)

    press = await driver.click("bob", board, "board:refresh")
    await fake_discord.wait_until(lambda: board.content == "oppdatert")

    assert press.response_type == 6 and press.original is board
    edits = fake_discord.requests_to(
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original", "PATCH"
    )
    assert [r.interaction_id for r in edits] == [press.id]


async def test_autocomplete_returns_choices(driver: Driver, bot: SampleBot) -> None:
    choices = await driver.autocomplete("alice", "mattekrig level", "level", "3")

    assert choices == [{"name": "Nivå 3", "value": "3"}]


async def test_dynamic_button_on_a_message_the_client_never_saw(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    # Posted as if by an earlier run of the bot: this client has no view for it.
    board = await fake_discord.post_message(
        content="count 5", components=[{"type": 1, "components": [button("counter:5")]}]
    )

    press = await driver.click("alice", board, "counter:5")

    assert press.answered and press.response_type == 7
    assert bot.presses == [5]
    assert board.content == "count 6" and board.custom_ids() == ["counter:6"]
