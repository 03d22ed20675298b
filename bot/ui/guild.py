"""The server a command or button is used in, as the Discord layer needs it: the teacher's
settings and the language to answer in, the channels games may start in, and whether the
member manages the server."""

from __future__ import annotations

import discord

from bot.app import App
from bot.services.admin import GuildSettings
from classroom.errors import UserFacingError
from classroom.i18n import DEFAULT_LANG, Lang, lang_of, pick_locale


async def house_rules(interaction: discord.Interaction[App]) -> tuple[GuildSettings, Lang]:
    """The server's settings and the language to answer in.

    The language rule: the pupil's own Discord language when it is nb, sv or en; otherwise the
    teacher's chosen language; otherwise the server's Discord locale; otherwise English. The
    teacher's choice replaces the server locale rather than the pupil's own language, because
    a pupil who set Discord to Swedish reads Swedish best, while a pupil whose Discord is in a
    language we do not have is best served by the class's language.
    """
    if interaction.guild_id is None:
        return GuildSettings(0), pick_locale(interaction.locale)
    settings = await interaction.client.admin.settings(interaction.guild_id)
    fallback: object = settings.language or interaction.guild_locale
    return settings, pick_locale(interaction.locale, fallback)


def board_language(interaction: discord.Interaction[App], settings: GuildSettings) -> Lang:
    """The one language of a game's public messages (its board, challenge, lobby, thread):
    the teacher's setting, else the server's Discord locale, else the starter's. A class reads
    one board together, so it speaks the class's language whoever started the game."""
    return (
        lang_of(settings.language)
        or lang_of(interaction.guild_locale)
        or lang_of(interaction.locale)
        or DEFAULT_LANG
    )


def home_channel_id(interaction: discord.Interaction[App]) -> int:
    """The channel a command was used in; a thread counts as its parent channel."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id is not None:
        return channel.parent_id
    return interaction.channel_id or 0


def check_channel(interaction: discord.Interaction[App], settings: GuildSettings) -> None:
    """Refuse to start a game outside the channels the teacher allowed (none listed: any)."""
    if settings.channels and home_channel_id(interaction) not in settings.channels:
        channels = ", ".join(f"<#{c}>" for c in settings.channels)
        raise UserFacingError("start.channel_not_allowed", channels=channels)


def is_manager(interaction: discord.Interaction[App]) -> bool:
    """Manage Server, as Discord resolved it for this member in this channel."""
    return interaction.guild_id is not None and bool(interaction.permissions.manage_guild)


def require_guild(interaction: discord.Interaction[App]) -> int:
    if interaction.guild_id is None:
        raise UserFacingError("error.guild_only")
    return interaction.guild_id
