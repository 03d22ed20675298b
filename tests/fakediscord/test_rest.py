"""REST routes the bot uses, called through the real discord.py client."""

from __future__ import annotations

import io

import discord
import pytest
from discord import app_commands
from discord.http import Route

from .sample_bot import SampleBot
from .server import FakeDiscord

GUILD_COMMANDS = "/applications/{application_id}/guilds/{guild_id}/commands"


def text_channel(fake: FakeDiscord, bot: SampleBot) -> discord.TextChannel:
    channel = bot.get_channel(fake.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_login_fetches_user_then_application(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    first_two = [(r.method, r.route) for r in fake_discord.requests[:2]]

    assert first_two == [("GET", "/users/@me"), ("GET", "/oauth2/applications/@me")]
    assert bot.application is not None and bot.application.id == fake_discord.application_id


async def test_gateway_routes(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    plain = await bot.http.request(Route("GET", "/gateway"))
    for_bot = await bot.http.request(Route("GET", "/gateway/bot"))

    assert plain["url"] == for_bot["url"] == str(fake_discord.gateway_url)
    assert for_bot["shards"] == 1


async def test_guild_sync_echoes_commands_with_ids(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    (synced,) = fake_discord.commands(fake_discord.guild)

    assert synced.name == "mattekrig" and synced.guild_id == fake_discord.guild.id
    subcommands = {o["name"]: o for o in synced.data["options"]}
    assert set(subcommands) == {"start", "level", "run"}
    assert subcommands["start"]["options"][0]["choices"][0]["value"] == "regnekrig"
    first_id = synced.id

    fetched = await bot.tree.sync(guild=discord.Object(fake_discord.guild.id))

    assert [c.id for c in fetched] == [first_id]  # re-syncing keeps the id, as Discord does
    assert len(fake_discord.requests_to(GUILD_COMMANDS, "PUT")) == 2


class NorwegianTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        words = {"ping": "pling", "Check the bot": "Sjekk boten"}
        return words.get(string.message) if locale is discord.Locale.norwegian else None


async def test_global_sync_keeps_localisations(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    @app_commands.command(name="ping", description="Check the bot")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    bot.tree.add_command(ping)
    await bot.tree.set_translator(NorwegianTranslator())
    (result,) = await bot.tree.sync()

    (stored,) = fake_discord.commands()
    assert result.id == stored.id
    assert stored.data["name_localizations"]["no"] == "pling"
    assert stored.data["description_localizations"]["no"] == "Sjekk boten"


@pytest.mark.discord_refuses
async def test_invalid_command_localisation_is_refused(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    body = [{"name": "ping", "description": "d", "name_localizations": {"nb": "pling"}}]
    route = Route(
        "PUT", "/applications/{application_id}/commands", application_id=bot.application_id
    )

    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.request(route, json=body)

    assert refused.value.code == 50035 and "name_localizations.nb" in refused.value.text


async def test_channel_message_lifecycle(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    channel = text_channel(fake_discord, bot)

    sent = await channel.send("første", embed=discord.Embed(title="Brett"))
    fetched = await channel.fetch_message(sent.id)
    edited = await sent.edit(content="andre")
    history = [m.id async for m in channel.history(limit=10)]
    await edited.delete()

    stored = fake_discord.message(sent.id)
    assert fetched.content == "første" and fetched.embeds[0].title == "Brett"
    assert edited.content == "andre" and edited.edited_at is not None
    assert history == [sent.id]
    assert stored.deleted and [h["content"] for h in stored.history] == ["første"]
    assert [(r.method, r.route) for r in fake_discord.requests[-5:]] == [
        ("POST", "/channels/{channel_id}/messages"),
        ("GET", "/channels/{channel_id}/messages/{message_id}"),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
        ("GET", "/channels/{channel_id}/messages"),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}"),
    ]
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(sent.id)


async def test_multipart_upload_records_attachments(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    channel = text_channel(fake_discord, bot)

    sent = await channel.send(
        "kort",
        files=[
            discord.File(io.BytesIO(b"one"), "a.png", description="Hjerter 7"),
            discord.File(io.BytesIO(b"two"), "b.txt"),
        ],
    )
    kept = sent.attachments[0]
    edited = await sent.edit(attachments=[kept, discord.File(io.BytesIO(b"three"), "c.png")])

    stored = fake_discord.message(sent.id)
    assert [a.filename for a in stored.attachments] == ["a.png", "c.png"]
    assert stored.attachments[0].description == "Hjerter 7"
    assert stored.attachments[0].id == kept.id
    assert await edited.attachments[1].read() == b"three"
    assert fake_discord.requests[-2].files == ["a.png", "b.txt"]
    assert fake_discord.requests[-2].json["content"] == "kort"


async def test_threads_from_a_message_and_in_a_channel(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    channel = text_channel(fake_discord, bot)
    starter = await channel.send("Regnekrig: alice mot bob")

    from_message = await starter.create_thread(name="Runde 1")
    private = await channel.create_thread(name="Lærerrommet")
    await from_message.send("i tråden")

    assert from_message.id == starter.id and from_message.parent_id == channel.id
    assert private.type is discord.ChannelType.private_thread
    assert fake_discord.message(starter.id).thread_id == from_message.id
    assert [
        m.content for m in fake_discord.messages_in(fake_discord.world.channels[from_message.id])
    ] == ["i tråden"]
    with pytest.raises(discord.HTTPException) as twice:
        await starter.create_thread(name="Runde 1 igjen")
    assert twice.value.code == 160004


async def test_cannot_edit_someone_elses_message(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    theirs = await fake_discord.post_message(author=fake_discord.user("alice"), content="hei")
    message = await text_channel(fake_discord, bot).fetch_message(theirs.id)

    with pytest.raises(discord.Forbidden) as refused:
        await message.edit(content="hacket")

    assert refused.value.code == 50005


async def test_unknown_route_is_404_and_recorded(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(Route("GET", "/guilds/{guild_id}/audit-logs", guild_id=1))

    assert fake_discord.requests[-1].status == 404
