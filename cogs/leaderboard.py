# mypy: disable-error-code="type-var"
# (these commands live on a mixin of the /mattekrig GroupCog; discord.py types them for the cog)
"""`/mattekrig leaderboard`: top 10 of the server with the caller's own place. A mixin of the
`Mattekrig` GroupCog (DESIGN: one GroupCog named ``mattekrig``), thin like the rest; its ◀ ▶
buttons are in `bot/ui/leaderboard.py`, its page is drawn by `bot/render/leaderboard.py`."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.app import App
from bot.render.leaderboard import LeaderboardOptions
from bot.services.figures import GAMES, PERIODS, SORTS
from bot.translator import choice, ls
from bot.ui.leaderboard import show_leaderboard


class LeaderboardCommands:
    """Mixed into `cogs.mattekrig.Mattekrig` (discord.py collects the commands of every base)."""

    bot: App

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
        interaction: discord.Interaction[App],
        game: str | None = None,
        level: int | None = None,
        period: str = "season",
        sort: str | None = None,
        season: app_commands.Range[int, 1, 999_999] | None = None,
        share: bool = False,
    ) -> None:
        """Top 10 of the server with the caller's own place; ◀ ▶ page through the rest."""
        options = LeaderboardOptions(
            game=game,
            level=level,
            period=period if season is None else "season",  # type: ignore[arg-type]
            sort=sort,  # type: ignore[arg-type]
            season=season,
            shared=share,
        )
        await show_leaderboard(interaction, options, 0, edit=False)
