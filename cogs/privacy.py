# mypy: disable-error-code="type-var"
# (these commands live on a mixin of the /mattekrig GroupCog; discord.py types them for the cog)
"""`/mattekrig my-data | forget-me`: everything stored about the caller as a private file, and
deleting it after a confirmation (a mixin of the `Mattekrig` GroupCog; the confirmation's
buttons are in `bot/ui/privacy.py`, its question drawn by `bot/render/privacy.py`). Works in
direct messages too: the data is the user's, not a server's."""

from __future__ import annotations

import io

import discord
from discord import app_commands

from bot.app import App
from bot.render.privacy import render_forget_confirm
from bot.replies import reply_with
from bot.translator import ls
from bot.ui.guild import house_rules
from classroom.i18n import t

NO_PINGS = discord.AllowedMentions.none()


class PrivacyCommands:
    """Mixed into `cogs.mattekrig.Mattekrig` (discord.py collects the commands of every base)."""

    bot: App

    @app_commands.command(name=ls("cmd.my_data.name"), description=ls("cmd.my_data.desc"))
    async def my_data(self, interaction: discord.Interaction[App]) -> None:
        """Everything stored about the caller, as a JSON file only they can see (works in
        direct messages too: the data is the user's, not a server's)."""
        _, lang = await house_rules(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        name, body = await self.bot.privacy.export_file(interaction.user.id)
        await interaction.edit_original_response(
            content=t("privacy.my_data.reply", lang),
            attachments=[discord.File(io.BytesIO(body), filename=name)],
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name=ls("cmd.forget_me.name"), description=ls("cmd.forget_me.desc"))
    async def forget_me(self, interaction: discord.Interaction[App]) -> None:
        """Asks first: the red button (only the caller's) deletes, see `ForgetItem`."""
        _, lang = await house_rules(interaction)
        question = render_forget_confirm(interaction.user.id, lang)
        await reply_with(interaction, question, private=True)
