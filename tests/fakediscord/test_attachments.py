"""Files as Discord takes them: an embed's ``attachment://NAME`` must be a file of the same
request, each file at most the upload limit (the interaction's ``attachment_size_limit``, or
10 MiB for a bot in a server without boosts), at most 10 files on a message."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import aiohttp
import discord
import pytest

from .driver import Driver
from .limits import ATTACHMENT_SIZE_LIMIT, ATTACHMENTS_MAX
from .sample_bot import SampleBot
from .server import FakeDiscord
from .test_rest import text_channel

LIMIT = 2048  # a small limit, so the edges are tried with small files


def _file(name: str, size: int = 8) -> discord.File:
    return discord.File(io.BytesIO(b"x" * size), filename=name)


def _picture(name: str = "table.png") -> discord.Embed:
    return discord.Embed(title="Runde 1").set_image(url=f"attachment://{name}")


async def _raw_post(fake: FakeDiscord, files: int, payload: dict[str, Any]) -> tuple[int, Any]:
    """A multipart message create the way Discord receives it (discord.py itself refuses to
    send more than ten files, so this goes around it)."""
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for index in range(files):
        form.add_field(f"files[{index}]", b"x", filename=f"f{index}.png")
    url = f"{fake.api_base}/channels/{fake.channel.id}/messages"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=form, headers=headers) as response,
    ):
        return response.status, await response.json()


async def test_an_embed_picture_of_the_same_request_is_resolved_to_the_file(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    sent = await text_channel(fake_discord, bot).send(embed=_picture(), file=_file("table.png"))

    stored = fake_discord.message(sent.id)
    (attachment,) = stored.attachments
    assert stored.embeds[0]["image"]["url"] == attachment.url  # as Discord stores it
    assert sent.embeds[0].image.url == attachment.url


@pytest.mark.discord_refuses
async def test_an_embed_picture_naming_no_file_of_the_request_is_refused(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    channel = text_channel(fake_discord, bot)
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(embed=_picture("board.png"), file=_file("table.png"))
    assert refused.value.code == 50035
    errors = fake_discord.requests[-1]
    assert errors.error_code == 50035
    with pytest.raises(discord.HTTPException):
        await channel.send(embed=_picture())  # no file at all
    assert fake_discord.messages_in() == []


@pytest.mark.discord_refuses
async def test_an_edit_may_name_a_file_it_keeps_or_sends_but_not_one_it_drops(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    sent = await text_channel(fake_discord, bot).send(embed=_picture(), file=_file("table.png"))
    kept = sent.attachments[0]

    await sent.edit(embed=_picture(), attachments=[kept])  # kept by this request's list
    await sent.edit(embed=_picture(), attachments=[_file("table.png")])  # a new picture
    stored = fake_discord.message(sent.id)
    assert len(stored.attachments) == 1 and stored.attachments[0].id != kept.id

    with pytest.raises(discord.HTTPException) as refused:
        await sent.edit(embed=_picture(), attachments=[_file("other.png")])
    assert refused.value.code == 50035


@pytest.mark.discord_refuses
async def test_at_most_ten_files(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    status, _ = await _raw_post(fake_discord, ATTACHMENTS_MAX, {"content": "ti"})
    assert status == 200
    status, body = await _raw_post(fake_discord, ATTACHMENTS_MAX + 1, {"content": "elleve"})
    assert status == 400 and body["code"] == 50035
    assert "attachments" in body["errors"]

    sent = fake_discord.messages_in()[-1]
    message = await text_channel(fake_discord, bot).fetch_message(sent.id)
    with pytest.raises(discord.HTTPException) as refused:
        await message.add_files(_file("eleventh.png"))  # ten kept + one new
    assert refused.value.code == 50035
    assert len(fake_discord.message(sent.id).attachments) == ATTACHMENTS_MAX


@pytest.mark.discord_refuses
async def test_a_channel_message_file_at_the_limit_is_taken_and_one_byte_over_refused(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    fake_discord.world.attachment_size_limit = LIMIT
    channel = text_channel(fake_discord, bot)

    await channel.send(file=_file("at.png", LIMIT))
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send(file=_file("over.png", LIMIT + 1))

    assert refused.value.status == 413 and refused.value.code == 40005
    assert [m.attachments[0].filename for m in fake_discord.messages_in()] == ["at.png"]


@pytest.mark.discord_refuses
async def test_the_interaction_tells_its_limit_and_its_responses_keep_to_it(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    limits: list[int] = []

    async def answer(interaction: discord.Interaction) -> None:
        limits.append(interaction.filesize_limit)
        await interaction.response.send_message(embed=_picture(), file=_file("table.png", LIMIT))

    bot.action = answer
    default = await driver.slash("alice", "mattekrig run")
    assert default.payload["attachment_size_limit"] == ATTACHMENT_SIZE_LIMIT == 10 * 1024 * 1024

    fake_discord.world.attachment_size_limit = LIMIT
    at_limit = await driver.slash("alice", "mattekrig run")
    assert limits == [ATTACHMENT_SIZE_LIMIT, LIMIT]
    assert at_limit.original is not None and len(at_limit.original.attachments) == 1

    async def too_big(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(file=_file("table.png", LIMIT + 1))

    bot.action = too_big
    over = await driver.slash("alice", "mattekrig run")
    assert [(r.status, r.code) for r in over.rejected] == [(413, 40005)]


@pytest.mark.discord_refuses
async def test_an_interaction_edit_must_send_the_picture_it_names(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    async def edit(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(embed=_picture(), attachments=[_file("table.png")])
        await interaction.edit_original_response(embed=_picture("missing.png"))

    bot.action = edit
    interaction = await driver.slash("alice", "mattekrig run")
    await fake_discord.wait_until(lambda: bool(interaction.rejected), what="the second edit")

    assert [r.code for r in interaction.rejected] == [50035]
    assert interaction.original is not None
    (attachment,) = interaction.original.attachments
    assert interaction.original.embeds[0]["image"]["url"] == attachment.url


def _flip_button() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Flip", custom_id="flip"))
    view.stop()  # the test's listener answers the press
    return view


async def test_an_interaction_update_keeps_the_files_it_names_by_id_and_drops_the_rest(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    """As Discord: an edit's ``attachments`` list is the message's files afterwards, an
    existing one named by its id (no upload, its description kept), those not named
    removed; the embed's ``attachment://NAME`` may point at a kept file."""
    picture = discord.File(io.BytesIO(b"png"), filename="table.png", description="Round 1")
    sent = await text_channel(fake_discord, bot).send(
        embed=_picture(), files=[picture, _file("notes.txt")], view=_flip_button()
    )
    before = fake_discord.message(sent.id).attachments[0]

    async def keep_the_picture(interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component and interaction.message:
            kept = [a for a in interaction.message.attachments if a.filename == "table.png"]
            await interaction.response.edit_message(embed=_picture(), attachments=kept)

    bot.on_interaction = keep_the_picture  # type: ignore[attr-defined]
    press = await driver.click("alice", fake_discord.message(sent.id), "flip")

    assert press.response_type == 7 and not press.rejected
    stored = fake_discord.message(sent.id)
    assert [(a.id, a.description) for a in stored.attachments] == [(before.id, "Round 1")]
    assert stored.embeds[0]["image"]["url"] == before.url
    assert all(not r.files for r in fake_discord.requests if r.interaction_id == press.id)


@pytest.mark.discord_refuses
async def test_an_interaction_update_may_not_keep_a_file_the_message_no_longer_has(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    """A file replaced by an edit is gone: an update that names the old one by id keeps
    nothing, so its embed's ``attachment://table.png`` names no file (50035)."""
    sent = await text_channel(fake_discord, bot).send(
        embed=_picture(), file=_file("table.png"), view=_flip_button()
    )
    old = sent.attachments[0]
    await sent.edit(embed=_picture(), attachments=[_file("table.png")])  # a newer picture

    async def keep_the_old_one(interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            with contextlib.suppress(discord.HTTPException):  # refused: what the test checks
                await interaction.response.edit_message(embed=_picture(), attachments=[old])

    bot.on_interaction = keep_the_old_one  # type: ignore[attr-defined]
    press = await driver.click("alice", fake_discord.message(sent.id), "flip")
    await fake_discord.wait_until(lambda: bool(press.rejected), what="the refused update")

    assert [r.code for r in press.rejected] == [50035]
    (now,) = fake_discord.message(sent.id).attachments
    assert now.id != old.id


async def test_files_arrive_whole_with_their_names_and_descriptions(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    """What the bot uploads is what the message holds: each file's bytes exactly (a PNG
    with CR LF and dashes in it too), its name as given (æøå included) and its alt text."""
    awkward = b"\x89PNG\r\n\x1a\n" + b"--\r\n\r\n--x" * 50 + bytes(range(256))
    files = [
        discord.File(io.BytesIO(awkward), filename="kortbord.png", description="Runde 1"),
        discord.File(io.BytesIO(b"ok"), filename="bjørn-åse.png", description="Bjørn"),
    ]
    sent = await text_channel(fake_discord, bot).send(content="to filer", files=files)

    stored = fake_discord.message(sent.id)
    assert [(a.filename, a.description, a.data) for a in stored.attachments] == [
        ("kortbord.png", "Runde 1", awkward),
        ("bjørn-åse.png", "Bjørn", b"ok"),
    ]
    assert stored.content == "to filer"
