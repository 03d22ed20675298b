"""The new-season confirmation's buttons (`/mattekrig admin season` is in `cogs/admin.py`, its
question drawn by `bot/render/admin.py`)."""

from __future__ import annotations

import discord

from bot.app import App
from bot.custom_ids import Verb, template
from bot.replies import show_done
from bot.ui.guild import house_rules, is_manager, require_guild
from bot.ui.items import MattekrigItem
from classroom.errors import UserFacingError
from classroom.i18n import t


class SeasonItem(MattekrigItem, template=template(Verb.SEASON)):
    """Start season / Cancel under `/mattekrig admin season`: members with Manage Server only
    (the service refuses too). The round slot is the season that was running when the
    question was asked, so a second press cannot start two seasons."""

    async def act(self, interaction: discord.Interaction[App]) -> None:
        bot = interaction.client
        guild_id = require_guild(interaction)
        manager = is_manager(interaction)
        if self.cid.guild_id != guild_id or not manager:
            raise UserFacingError("admin.not_allowed")
        _, lang = await house_rules(interaction)
        if self.cid.arg != "new":
            await show_done(interaction, t("admin.season.cancelled", lang))
            return
        running = await bot.admin.current_season(guild_id)
        if (running.season if running else 0) != self.cid.season:
            await show_done(interaction, t("admin.season.stale", lang))
            return
        change = await bot.admin.new_season(guild_id, manager=manager)
        text = t("admin.season.started", lang, season=change.started.season)
        await show_done(interaction, text)
