# mypy: disable-error-code="type-var"
# (these commands live on a mixin of the /mattekrig GroupCog; discord.py types them for the cog)
"""`/mattekrig stats`: a pupil's games, rating, accuracy and the level to try next, private
unless shared (a mixin of the `Mattekrig` GroupCog; drawn by `bot/render/stats.py`)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import App
from bot.render.assignments import render_my_assignments
from bot.render.sessions import render_my_session
from bot.render.stats import render_stats
from bot.services.figures import GAMES
from bot.translator import choice, ls
from bot.ui.guild import house_rules, is_manager, require_guild

NO_PINGS = discord.AllowedMentions.none()


class StatsCommands:
    """Mixed into `cogs.mattekrig.Mattekrig` (discord.py collects the commands of every base)."""

    bot: App

    @app_commands.command(name="stats", description=ls("cmd.stats.desc"))
    @app_commands.describe(
        user=ls("opt.user.desc"), game=ls("cmd.stats.opt.game.desc"), share=ls("opt.share.desc")
    )
    @app_commands.choices(game=[choice("game", g) for g in GAMES])
    async def stats(
        self,
        interaction: discord.Interaction[App],
        user: discord.Member | None = None,
        game: str | None = None,
        share: bool = False,
    ) -> None:
        """Private unless shared; another member's only when the teacher shows the leaderboard."""
        guild_id = require_guild(interaction)
        _, lang = await house_rules(interaction)
        target = user or interaction.user
        stats = await self.bot.stats.stats(
            guild_id,
            interaction.user.id,
            target.id,
            game=game,
            manager=is_manager(interaction),
        )
        embeds = [render_stats(stats, lang, target.display_name)]
        if target.id == interaction.user.id and not share:  # private: assignments, last session
            mine = await self.bot.assignments.mine(guild_id, target.id)
            if mine:
                embeds.append(render_my_assignments(mine, lang))
            session = await self.bot.sessions.my_last(guild_id, target.id)
            if session is not None:
                embeds.append(render_my_session(*session, lang))
        await interaction.response.send_message(
            embeds=embeds, ephemeral=not share, allowed_mentions=NO_PINGS
        )
