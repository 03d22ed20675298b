# mypy: disable-error-code="type-var"
# (these commands live on a mixin of the /mattekrig GroupCog; discord.py types them for the cog)
"""`/mattekrig leaderboard | stats | my-data | forget-me`: the pupil's records and data.

A mixin of the `Mattekrig` GroupCog (DESIGN: one GroupCog named ``mattekrig``), so these
commands sit beside ``start`` and ``rules``; thin like the rest: parse options, call one
service, render, respond. Everything personal is answered privately unless the pupil asks to
share it, and every reply is sent without pings.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.i18n import t
from bot.i18n.translator import choice, ls
from bot.render.records import BoardOptions, render_forget_confirm, render_stats
from bot.services.leaderboard import GAMES, PERIODS, SORTS
from bot.ui.record_items import house_rules, is_manager, require_guild, show_leaderboard

if TYPE_CHECKING:
    from bot.client import MattekrigBot

NO_PINGS = discord.AllowedMentions.none()


class RecordCommands:
    """Mixed into `cogs.mattekrig.Mattekrig` (discord.py collects the commands of every base)."""

    bot: MattekrigBot

    @app_commands.command(name="leaderboard", description=ls("cmd.leaderboard.desc"))
    @app_commands.describe(
        game=ls("cmd.leaderboard.opt.game.desc"),
        level=ls("cmd.leaderboard.opt.level.desc"),
        period=ls("opt.period.desc"),
        sort=ls("opt.sort.desc"),
        season=ls("opt.season.desc"),
        share=ls("opt.share.desc"),
    )
    @app_commands.choices(  # type: ignore[misc]  # str and int choices in one decorator
        game=[choice("game", g) for g in GAMES],
        level=[choice("level", n) for n in range(1, 8)],
        period=[choice("period", p) for p in PERIODS],
        sort=[choice("sort", s) for s in SORTS],
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[MattekrigBot],
        game: str | None = None,
        level: int | None = None,
        period: str = "season",
        sort: str = "rating",
        season: app_commands.Range[int, 1, 999_999] | None = None,
        share: bool = False,
    ) -> None:
        """Top 10 of the server with the caller's own place; ◀ ▶ page through the rest."""
        options = BoardOptions(
            game=game,
            level=level,
            period=period if season is None else "season",  # type: ignore[arg-type]
            sort=sort,  # type: ignore[arg-type]
            season=season,
            shared=share,
        )
        await show_leaderboard(interaction, options, 0, edit=False)

    @app_commands.command(name="stats", description=ls("cmd.stats.desc"))
    @app_commands.describe(
        user=ls("opt.user.desc"), game=ls("cmd.stats.opt.game.desc"), share=ls("opt.share.desc")
    )
    @app_commands.choices(game=[choice("game", g) for g in GAMES])
    async def stats(
        self,
        interaction: discord.Interaction[MattekrigBot],
        user: discord.Member | None = None,
        game: str | None = None,
        share: bool = False,
    ) -> None:
        """Private unless shared; another member's only when the teacher shows the board."""
        guild_id = require_guild(interaction)
        _, lang = await house_rules(self.bot, interaction)
        target = user or interaction.user
        stats = await self.bot.stats.stats(
            guild_id,
            interaction.user.id,
            target.id,
            game=game,
            manager=is_manager(interaction),
        )
        embed = render_stats(stats, lang, target.display_name)
        await interaction.response.send_message(
            embed=embed, ephemeral=not share, allowed_mentions=NO_PINGS
        )

    @app_commands.command(name=ls("cmd.my_data.name"), description=ls("cmd.my_data.desc"))
    async def my_data(self, interaction: discord.Interaction[MattekrigBot]) -> None:
        """Everything stored about the caller, as a JSON file only they can see (works in
        direct messages too: the data is the user's, not a server's)."""
        _, lang = await house_rules(self.bot, interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        name, body = await self.bot.privacy.export_file(interaction.user.id)
        await interaction.edit_original_response(
            content=t("privacy.my_data.reply", lang),
            attachments=[discord.File(io.BytesIO(body), filename=name)],
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name=ls("cmd.forget_me.name"), description=ls("cmd.forget_me.desc"))
    async def forget_me(self, interaction: discord.Interaction[MattekrigBot]) -> None:
        """Asks first: the red button (only the caller's) deletes, see `ForgetItem`."""
        _, lang = await house_rules(self.bot, interaction)
        board = render_forget_confirm(interaction.user.id, lang)
        await interaction.response.send_message(
            embed=board.embed, view=board.view, ephemeral=True, allowed_mentions=NO_PINGS
        )
