"""The forget-me confirmation's buttons (`/mattekrig forget-me` is in `cogs/privacy.py`, its
question drawn by `bot/render/privacy.py`)."""

from __future__ import annotations

import discord

from bot.app import App
from bot.custom_ids import Verb, template
from bot.replies import show_done
from bot.ui.guild import house_rules
from bot.ui.items import MattekrigItem
from classroom.errors import UserFacingError
from classroom.i18n import t


class ForgetItem(MattekrigItem, template=template(Verb.FORGET)):
    """Yes / No under the forget-me question; only the pupil who asked may press."""

    async def act(self, interaction: discord.Interaction[App]) -> None:
        bot = interaction.client
        if interaction.user.id != self.cid.user_id:
            raise UserFacingError("privacy.forget.not_yours")
        _, lang = await house_rules(interaction)
        if self.cid.arg != "yes":
            await show_done(interaction, t("privacy.forget.kept", lang))
            return
        await interaction.response.defer()  # results still pending are recorded first
        await bot.privacy.forget(interaction.user.id)
        await show_done(interaction, t("privacy.forget.done", lang))
