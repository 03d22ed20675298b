"""Leaderboard pages, the forget-me confirmation and the new-season confirmation as
`DynamicItem`s (their ids carry everything, so they work on any message and after a restart),
and the Discord-side helpers the record commands share with them: the teacher's language and
channel rules, and which members on a page have left the server.

Departed members: the bot has no member intent, so Discord never says who left. When a page is
about to be shown, every name on it the bot has not confirmed lately is looked up with
``GET /guilds/{guild}/members/{user}`` (no privileged intent needed; at most one call per row,
run together, and a member confirmed present is not asked again for `PRESENT_TTL_S`). Only
Discord's "Unknown Member"/"Unknown User" answer counts as gone; any other failure counts as
present, so a flaky network never empties a board. The page is then drawn again without them.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord

from bot.i18n import Lang, pick_locale, t
from bot.render.board import Board
from bot.render.locale import as_lang
from bot.render.records import (
    BoardOptions,
    render_done,
    render_leaderboard,
)
from bot.services.admin import GuildSettings
from bot.services.errors import UserFacingError
from bot.services.leaderboard import Leaderboard
from bot.ui.custom_ids import Verb, template
from bot.ui.items import MattekrigItem

if TYPE_CHECKING:
    from bot.client import MattekrigBot

PRESENT_TTL_S = 6 * 3600.0
LOOKUP_TIMEOUT_S = 5.0
GONE_CODES = frozenset({10007, 10013})  # Unknown Member, Unknown User


# -- the teacher's rules, read where a command needs them ------------------------------------


async def house_rules(
    bot: MattekrigBot, interaction: discord.Interaction[MattekrigBot]
) -> tuple[GuildSettings, Lang]:
    """The server's settings and the language to answer in.

    The language rule: the pupil's own Discord language when it is nb, sv or en; otherwise the
    teacher's chosen language; otherwise the server's Discord locale; otherwise English. The
    teacher's choice replaces the server locale rather than the pupil's own language, because
    a pupil who set Discord to Swedish reads Swedish best, while a pupil whose Discord is in a
    language we do not have is best served by the class's language.
    """
    if interaction.guild_id is None:
        return GuildSettings(0), pick_locale(interaction.locale)
    settings = await bot.admin.settings(interaction.guild_id)
    fallback: object = settings.language or interaction.guild_locale
    return settings, pick_locale(interaction.locale, fallback)


def home_channel_id(interaction: discord.Interaction[MattekrigBot]) -> int:
    """The channel a command was used in; a thread counts as its parent channel."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id is not None:
        return channel.parent_id
    return interaction.channel_id or 0


def check_channel(interaction: discord.Interaction[MattekrigBot], settings: GuildSettings) -> None:
    """Refuse to start a game outside the channels the teacher allowed (none listed: any)."""
    if settings.channels and home_channel_id(interaction) not in settings.channels:
        channels = ", ".join(f"<#{c}>" for c in settings.channels)
        raise UserFacingError("start.channel_not_allowed", channels=channels)


def is_manager(interaction: discord.Interaction[MattekrigBot]) -> bool:
    """Manage Server, as Discord resolved it for this member in this channel."""
    return interaction.guild_id is not None and bool(interaction.permissions.manage_guild)


def require_guild(interaction: discord.Interaction[MattekrigBot]) -> int:
    if interaction.guild_id is None:
        raise UserFacingError("error.guild_only")
    return interaction.guild_id


# -- departed members --------------------------------------------------------------------------


class MemberCheck:
    """Which user ids on a page are no longer members (module docstring), with a short memory
    of who was there."""

    def __init__(self) -> None:
        self._present: dict[tuple[int, int], float] = {}

    def unchecked(self, guild: discord.Guild, user_ids: Iterable[int]) -> list[int]:
        now = time.monotonic()
        return [
            u
            for u in dict.fromkeys(user_ids)
            if guild.get_member(u) is None
            and now - self._present.get((guild.id, u), -PRESENT_TTL_S) >= PRESENT_TTL_S
        ]

    async def departed(self, guild: discord.Guild, user_ids: Iterable[int]) -> list[int]:
        todo = self.unchecked(guild, user_ids)
        if not todo:
            return []
        results: list[int | None] = []
        with contextlib.suppress(TimeoutError):
            results = await asyncio.wait_for(
                asyncio.gather(*(self._gone(guild, u) for u in todo)), LOOKUP_TIMEOUT_S
            )
        return [u for u in results if u is not None]

    async def _gone(self, guild: discord.Guild, user_id: int) -> int | None:
        try:
            await guild.fetch_member(user_id)
        except discord.NotFound as error:
            if error.code in GONE_CODES:
                return user_id
        except discord.HTTPException:
            pass  # unknown: count as present (and do not ask again for a while)
        self._present[(guild.id, user_id)] = time.monotonic()
        return None


_checks: weakref.WeakKeyDictionary[discord.Client, MemberCheck] = weakref.WeakKeyDictionary()


def member_check(client: discord.Client) -> MemberCheck:
    """One `MemberCheck` per running client (its memory ends with the client)."""
    check = _checks.get(client)
    if check is None:
        check = _checks[client] = MemberCheck()
    return check


# -- showing a leaderboard page ----------------------------------------------------------------


async def show_leaderboard(
    interaction: discord.Interaction[MattekrigBot], options: BoardOptions, page: int, *, edit: bool
) -> None:
    """Load a page, drop members who left, and show it: as a new reply (``edit`` False) or in
    place of the pressed message. A shared board never shows anyone's own place: when the
    teacher lets pupils see only their own place, the answer is private whatever was asked."""
    bot = interaction.client
    guild_id = require_guild(interaction)
    viewer = interaction.user.id
    manager = is_manager(interaction)
    _, lang = await house_rules(bot, interaction)

    async def load() -> Leaderboard:
        return await bot.leaderboards.leaderboard(
            guild_id,
            viewer,
            game=options.game,
            level=options.level,
            period=options.period,
            sort=options.sort,
            page=page,
            season=options.season,
            manager=manager,
        )

    board = await load()
    shared = options.shared and not board.own_only
    if shared and options.lang is not None:
        lang = as_lang(options.lang)  # a public board stays in the language it was shared in
    in_place = edit and shared == options.shared
    guild = interaction.guild
    others = [r.user_id for r in board.rows if r.user_id != viewer]
    checker = member_check(interaction.client)
    if guild is not None and checker.unchecked(guild, others):
        if in_place:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=not shared, thinking=True)
        gone = await checker.departed(guild, others)
        if gone:
            await bot.leaderboards.members_left(guild_id, gone)
            board = await load()
    drawn = render_leaderboard(board, lang, viewer, shared=shared, archived=options.season)
    await _show(interaction, drawn, edit=in_place, ephemeral=not shared)


async def _show(
    interaction: discord.Interaction[MattekrigBot], board: Board, *, edit: bool, ephemeral: bool
) -> None:
    none = discord.AllowedMentions.none()
    if interaction.response.is_done():
        await interaction.edit_original_response(
            content=board.content, embed=board.embed, view=board.view, allowed_mentions=none
        )
    elif edit:
        await interaction.response.edit_message(
            content=board.content, embed=board.embed, view=board.view, allowed_mentions=none
        )
    else:
        await interaction.response.send_message(
            content=board.content,
            embed=board.embed,
            view=board.view,
            ephemeral=ephemeral,
            allowed_mentions=none,
        )


# -- the items -----------------------------------------------------------------------------


class PageItem(MattekrigItem, template=template(Verb.PAGE)):
    """◀ ▶ on a leaderboard: anyone may page a shared board (it edits for everyone, and shows
    nobody's own place); a private board is only ever seen by its owner."""

    async def act(self, interaction: discord.Interaction[MattekrigBot]) -> None:
        options = BoardOptions.from_arg(self.cid.arg)
        if options is None or self.cid.guild_id != interaction.guild_id:
            raise UserFacingError("error.not_allowed")
        await show_leaderboard(interaction, options, self.cid.round or 0, edit=True)


class ForgetItem(MattekrigItem, template=template(Verb.FORGET)):
    """Yes / No under the forget-me question; only the pupil who asked may press."""

    async def act(self, interaction: discord.Interaction[MattekrigBot]) -> None:
        bot = interaction.client
        if interaction.user.id != self.cid.user_id:
            raise UserFacingError("privacy.forget.not_yours")
        _, lang = await house_rules(bot, interaction)
        if self.cid.arg != "yes":
            board = render_done(t("privacy.forget.kept", lang))
            await _show(interaction, board, edit=True, ephemeral=True)
            return
        await interaction.response.defer()  # results still pending are recorded first
        await bot.privacy.forget(interaction.user.id)
        await _show(
            interaction, render_done(t("privacy.forget.done", lang)), edit=True, ephemeral=True
        )


class SeasonItem(MattekrigItem, template=template(Verb.SEASON)):
    """Start season / Cancel under `/mattekrig admin season`: members with Manage Server only
    (the service refuses too). The round slot is the season that was running when the
    question was asked, so a second press cannot start two seasons."""

    async def act(self, interaction: discord.Interaction[MattekrigBot]) -> None:
        bot = interaction.client
        guild_id = require_guild(interaction)
        manager = is_manager(interaction)
        if self.cid.guild_id != guild_id or not manager:
            raise UserFacingError("admin.not_allowed")
        _, lang = await house_rules(bot, interaction)
        if self.cid.arg != "new":
            board = render_done(t("admin.season.cancelled", lang))
            await _show(interaction, board, edit=True, ephemeral=True)
            return
        running = await bot.admin.current_season(guild_id)
        if (running.season if running else 0) != (self.cid.round or 0):
            await _show(
                interaction, render_done(t("admin.season.stale", lang)), edit=True, ephemeral=True
            )
            return
        change = await bot.admin.new_season(guild_id, manager=manager)
        text = t("admin.season.started", lang, season=change.started.season)
        await _show(interaction, render_done(text), edit=True, ephemeral=True)


RECORD_ITEMS: tuple[type[MattekrigItem], ...] = (PageItem, ForgetItem, SeasonItem)
