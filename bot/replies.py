"""One error ladder and one safe-reply helper for every interaction: commands (through the
custom tree), buttons, selects, modals and dynamic items all end here, so a pupil always
gets an answer in their language and never "This interaction failed"."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.app import App
from bot.render.panel import Panel
from bot.render.records import render_done
from classroom.errors import UserFacingError
from classroom.i18n import Lang, catalogue, option_name, pick_locale, t
from classroom.text.board_text import refusal_text
from engine.errors import EngineError
from storage import ConflictError, NotFoundError
from storage.faults import database_faults, is_fault

log = logging.getLogger(__name__)
MAX_SHOWN_VALUE = 40  # characters of a refused option value echoed back to its user
NO_MENTIONS = discord.AllowedMentions.none()
# What Discord, the network or a stop under way ("Session is closed", a RuntimeError) can
# answer to a request the bot makes of its own (a board's edit, a ping): never a bug here.
TRANSPORT_ERRORS = (discord.HTTPException, aiohttp.ClientError, OSError, RuntimeError)


def describe_failure(error: BaseException) -> str:
    """A transport error in a log line: Discord's status and code, else the error's kind."""
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.code}"
    return type(error).__name__


def permission_name(attribute: str, lang: str) -> str:
    """A Discord permission as Discord's own settings name it in the user's language."""
    key = f"permission.{attribute}"
    return t(key, lang) if key in catalogue("en") else attribute


def lang_of(interaction: discord.Interaction[App]) -> Lang:
    """RULES of the house: the user's Discord language, then the server's (the teacher's
    setting when it is known, else Discord's locale for the server), then English."""
    server = interaction.client.admin.known_language(interaction.guild_id)
    return pick_locale(interaction.locale, server or interaction.guild_locale)


def reply_lang(interaction: discord.Interaction[Any], board: str) -> Lang:
    """A private reply about a game: the presser's own Discord language when it is one of
    ours, else the board's (a Norwegian Discord at a nynorsk board reads nynorsk)."""
    return pick_locale(interaction.locale, board)


async def tell_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """A short ephemeral message, whether or not the interaction was answered already;
    raises what Discord or the network answers (`TRANSPORT_ERRORS`)."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def send_private(interaction: discord.Interaction[Any], text: str) -> None:
    """A short ephemeral message, whether or not the interaction was answered already; one
    Discord does not take is logged, never raised."""
    try:
        await tell_privately(interaction, text)
    except TRANSPORT_ERRORS:
        log.warning("could not answer interaction %s", interaction.id)


def describe(error: BaseException, lang: str) -> str | None:
    """The sentence a user is shown for an error we expect, or None for a bug."""
    if isinstance(error, EngineError):
        error = UserFacingError.from_engine(error)
    if isinstance(error, UserFacingError):
        values = dict(error.values)
        if "option" in values:  # an option by its code name: named as the user's Discord shows it
            values["option"] = option_name(str(values["option"]), lang)
        return refusal_text(error.key, values, lang)
    if isinstance(error, ConflictError):
        return t("error.conflict", lang)
    if isinstance(error, NotFoundError):
        # Deleted under the button (forget-me, the retention purge): the game or invitation
        # is gone for good, and the presser is told so, not "something went wrong".
        return t("error.no_longer_available", lang)
    if isinstance(error, app_commands.BotMissingPermissions):
        missing = ", ".join(permission_name(p, lang) for p in error.missing_permissions)
        return t("error.missing_permission", lang, permission=missing)
    if isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        return t("error.not_allowed", lang)
    if isinstance(error, discord.Forbidden):
        return t(
            "error.missing_permission", lang, permission=permission_name("send_messages", lang)
        )
    return None


async def report_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Tell the user what went wrong; log only what is a bug (with the interaction id)."""
    lang = lang_of(interaction)
    if isinstance(error, app_commands.TransformerError) and not isinstance(
        error.__cause__, UserFacingError
    ):
        # An option value that is not what the command takes (an unknown user, a number
        # out of range, text for a number): the user's input, never a bug.
        shown = str(error.value)[:MAX_SHOWN_VALUE] if error.value is not None else ""
        await send_private(interaction, t("error.bad_option", lang, option=shown or "?"))
        return
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        # A command this version no longer has (or Discord's copy is out of date).
        log.info("interaction %s: unknown command %s", interaction.id, error)
        await send_private(interaction, t("error.unknown_command", lang))
        return
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        error = error.__cause__ or getattr(error, "original", None) or error
    if is_fault(error):  # the database, not a bug: one line for the operator (storage.faults)
        database_faults.failed(error)
        await send_private(interaction, t("error.generic", lang))
        return
    text = describe(error, lang)
    if text is None:
        log.error(
            "interaction %s failed",
            interaction.id,
            exc_info=(type(error), error, error.__traceback__),
        )
        text = t("error.generic", lang)
    await send_private(interaction, text)


async def answer_message(interaction: discord.Interaction, **kwargs: Any) -> discord.Message:
    """``send_message`` and the message it created. discord.py asks Discord for the callback
    response (``with_response``), which carries the message: no GET of the original
    response, so the id is known one round trip sooner. Falls back to the GET if
    Discord sent no message resource. After a defer, the answer is the edit of the deferred
    response."""
    if interaction.response.is_done():  # deferred by `defer_if_late`: the answer is an edit
        return await interaction.edit_original_response(**kwargs)
    callback = await interaction.response.send_message(**kwargs)
    resource = callback.resource
    if isinstance(resource, discord.InteractionMessage):
        return resource
    return await interaction.original_response()


async def send_panel(channel: discord.abc.Messageable, panel: Panel) -> discord.Message:
    """A new message in the channel, pinging nobody."""
    return await channel.send(**panel.fields(), allowed_mentions=NO_MENTIONS)


async def edit_panel(
    message: discord.Message | discord.PartialMessage, panel: Panel
) -> discord.Message:
    return await message.edit(**panel.edit_fields())


async def show_in(interaction: discord.Interaction[Any], panel: Panel) -> None:
    """The pressed message becomes the panel (the interaction's own answer)."""
    await interaction.response.edit_message(**panel.edit_fields())


async def reply_with(
    interaction: discord.Interaction[Any], panel: Panel, *, private: bool = False
) -> None:
    """A new message answering the interaction (private: only the presser sees it)."""
    await interaction.response.send_message(
        **panel.fields(), ephemeral=private, allowed_mentions=NO_MENTIONS
    )


async def show(
    interaction: discord.Interaction[Any], message: Panel, *, edit: bool, ephemeral: bool
) -> None:
    """Send ``message`` without pings: in place of the pressed message (``edit``), as a new
    reply, or, once the interaction was deferred, as its original response."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**message.edit_fields())
    elif edit:
        await show_in(interaction, message)
    else:
        await reply_with(interaction, message, private=ephemeral)


async def show_done(interaction: discord.Interaction[Any], text: str) -> None:
    """A confirmation's answer in place of its question: the sentence, no buttons."""
    await show(interaction, render_done(text), edit=True, ephemeral=True)
