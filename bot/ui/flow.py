"""Opening a game where it will be played: a new thread (when chosen and allowed) or the
channel itself, with its board posted there. Shared by the start command and by the buttons
that turn an accepted challenge or a full lobby into a game."""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord

from bot.app import App
from bot.render.invitations import render_challenge
from bot.replies import answer_message
from bot.services.invitations import Invitation
from bot.services.live import GameUpdate
from classroom.i18n import t

log = logging.getLogger(__name__)

THREAD_NAME_MAX = 100
THREAD_ARCHIVE_MINUTES: Literal[60] = 60


def may_create_thread(interaction: discord.Interaction[App]) -> bool:
    """Threads are the default where the bot may create them (option `thread` turns them off)."""
    channel = interaction.channel
    perms = interaction.app_permissions
    return (
        isinstance(channel, discord.TextChannel)
        and perms.create_public_threads
        and perms.send_messages_in_threads
    )


def thread_name(options: dict[str, Any], names: list[str], lang: str) -> str:
    game = t(f"game.{options.get('game', 'regnekrig')}.name", lang)
    return f"{game}: {' – '.join(names)}"[:THREAD_NAME_MAX]


async def thread_from(message: discord.Message, name: str) -> discord.Thread | None:
    """A public thread on the message, or None when Discord refuses (then the game is played
    in the channel)."""
    try:
        return await message.create_thread(name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES)
    except discord.HTTPException:
        log.info("could not create a thread on message %s; playing in the channel", message.id)
        return None


LATE_S = 1.0  # an interaction this old when its slow work begins is answered with a defer


async def defer_if_late(interaction: discord.Interaction) -> bool:
    """Under load an interaction can wait in line before its handler runs; Discord gives 3 s
    for the first answer. Past a second, defer first (one quick call that keeps it alive for
    15 minutes) and show the result as an edit, rather than risk "This interaction
    failed". Returns whether it deferred."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    if age < LATE_S or interaction.response.is_done():
        return False
    await interaction.response.defer(thinking=True)
    return True


async def post_board(
    bot: App, update: GameUpdate, thread: discord.Thread | None, channel_id: int
) -> None:
    target: discord.abc.Messageable = (
        thread if thread is not None else bot.get_partial_messageable(channel_id)
    )
    try:
        await bot.boards.post(target, update.game)
    except discord.HTTPException:
        # A game nobody can see must not block the channel: end it, then tell the user why.
        log.warning("could not post the board of game %s; stopping it", update.game.id)
        await bot.games.end(update.game.id, 0)
        raise


async def send_challenge(
    interaction: discord.Interaction[App], invitation: Invitation, lang: str
) -> None:
    """Post a challenge as the interaction's answer, mentioning only the invited players, and
    remember its message (its buttons are edited on expiry)."""
    names = {int(k): v for k, v in invitation.options.get("names", {}).items()}
    challenge = render_challenge(invitation, lang, names)
    invited = [discord.Object(uid) for uid in invitation.user_ids()]
    message = await answer_message(  # the id from the callback, no GET
        interaction,
        content=challenge.content,
        embed=challenge.embed,
        view=challenge.view,
        allowed_mentions=discord.AllowedMentions(users=invited),
    )
    await interaction.client.invitations.set_message(invitation.id, message.id)
