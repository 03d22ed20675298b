# mypy: disable-error-code="override"
# (discord.py types item callbacks for any client; these items are only ever added to the App)
"""◀ ▶ on the teacher's private report: the next page of pupils, worked out again from the
games as they are now. The id names the server, the page and the report's days, so a page
pressed after a restart shows the same days; only a server manager of that server is shown
a page (a copied id pressed by a pupil is refused)."""

from __future__ import annotations

import discord

from bot.app import App
from bot.custom_ids import Verb, template
from bot.render.report import days_from_arg, render_report
from bot.ui.guild import house_rules, is_manager, require_guild
from bot.ui.items import MattekrigItem
from classroom.errors import UserFacingError


class ReportPageItem(MattekrigItem, template=template(Verb.REPORT)):
    async def act(self, interaction: discord.Interaction[App]) -> None:
        guild_id = require_guild(interaction)
        days = days_from_arg(self.cid.arg)
        if days is None or self.cid.guild_id != guild_id:
            raise UserFacingError("error.not_allowed")
        _, lang = await house_rules(interaction)
        report = await interaction.client.admin.class_report(  # refused for a non-manager
            guild_id, manager=is_manager(interaction), days=days
        )
        page = render_report(report, lang, guild_id=guild_id, days=days, page=self.cid.page)
        await interaction.response.edit_message(embeds=page.embeds, view=page.view)
