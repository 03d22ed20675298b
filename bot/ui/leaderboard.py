"""The leaderboard's buttons (◀ ▶ as a `DynamicItem`: its id carries the whole leaderboard, so
it works on any message and after a restart) and the showing of a page, shared with the
command in `cogs/leaderboard.py`; the page itself is drawn by `bot/render/leaderboard.py`.

Departed members: the bot has no member intent, so Discord never says who left. When a page is
about to be shown, every name on it the bot has not confirmed lately is looked up with
``GET /guilds/{guild}/members/{user}`` (no privileged intent needed; at most one call per row,
run together, and a member confirmed present is not asked again for `PRESENT_TTL_S`). Only
Discord's "Unknown Member"/"Unknown User" answer counts as gone; any other failure counts as
present, so a flaky network never empties a leaderboard. The page is then drawn again without them.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections.abc import Iterable

import discord

from bot.app import App
from bot.custom_ids import Verb, template
from bot.render.leaderboard import LeaderboardOptions, render_leaderboard
from bot.replies import show
from bot.services.figures import Leaderboard
from bot.ui.guild import house_rules, is_manager, require_guild
from bot.ui.items import MattekrigItem
from classroom.errors import UserFacingError
from classroom.text.locale import as_lang

PRESENT_TTL_S = 6 * 3600.0
LOOKUP_TIMEOUT_S = 5.0
GONE_CODES = frozenset({10007, 10013})  # Unknown Member, Unknown User


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


async def show_leaderboard(
    interaction: discord.Interaction[App],
    options: LeaderboardOptions,
    page: int,
    *,
    edit: bool,
) -> None:
    """Load a page, drop members who left, and show it: as a new reply (``edit`` False) or in
    place of the pressed message. A shared leaderboard never shows anyone's own place: when the
    teacher lets pupils see only their own place, the answer is private whatever was asked."""
    bot = interaction.client
    guild_id = require_guild(interaction)
    viewer = interaction.user.id
    manager = is_manager(interaction)
    _, lang = await house_rules(interaction)

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
            shared=options.shared,
        )

    leaderboard = await load()
    shared = options.shared and not leaderboard.own_only
    if shared and options.lang is not None:
        lang = as_lang(options.lang)  # a public leaderboard stays in the language it was shared in
    in_place = edit and shared == options.shared
    guild = interaction.guild
    others = [r.user_id for r in leaderboard.rows if r.user_id != viewer]
    checker = member_check(interaction.client)
    if guild is not None and checker.unchecked(guild, others):
        if in_place:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=not shared, thinking=True)
        gone = await checker.departed(guild, others)
        if gone:
            await bot.leaderboards.members_left(guild_id, gone)
            leaderboard = await load()
    drawn = render_leaderboard(leaderboard, lang, viewer, shared=shared, archived=options.season)
    await show(interaction, drawn, edit=in_place, ephemeral=not shared)


# -- the buttons ----------------------------------------------------------------------------


class PageItem(MattekrigItem, template=template(Verb.PAGE)):
    """◀ ▶ on a leaderboard: anyone may page a shared leaderboard (it edits for everyone, and shows
    nobody's own place); a private one is only ever seen by its owner."""

    async def act(self, interaction: discord.Interaction[App]) -> None:
        options = LeaderboardOptions.from_arg(self.cid.arg)
        if options is None or self.cid.guild_id != interaction.guild_id:
            raise UserFacingError("error.not_allowed")
        await show_leaderboard(interaction, options, self.cid.page, edit=True)
