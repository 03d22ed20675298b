"""`/mattekrig admin season | settings | void | report`: the teacher's controls.

A subgroup of ``/mattekrig`` (attached as ``Mattekrig.admin``). Discord applies
``default_member_permissions`` to top-level commands only, so it cannot hide a subgroup from
pupils: ``default_permissions`` below documents the intent, and the real guard is here and in
`AdminService` (every method takes ``manager``, the caller's actual Manage Server permission,
and refuses with ``admin.not_allowed``). Every answer is private to the teacher.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.i18n import t
from bot.i18n.translator import choice, ls
from bot.render.admin import render_season_confirm, render_settings
from bot.services.admin import ANSWER_FORMS, VISIBILITIES
from bot.services.errors import UserFacingError
from bot.services.periods import local_time
from bot.ui.guild import house_rules, is_manager, require_guild

if TYPE_CHECKING:
    from bot.client import MattekrigBot

LANGUAGE_CHOICES = ("nb", "sv", "en", "server")
MAX_GAME_ID = 2**53 - 1  # Discord's largest integer option
NO_PINGS = discord.AllowedMentions.none()


def _manager(interaction: discord.Interaction[MattekrigBot]) -> tuple[int, bool]:
    """The server and True, or a refusal before anything is deferred or loaded."""
    guild_id = require_guild(interaction)
    if not is_manager(interaction):
        raise UserFacingError("admin.not_allowed")
    return guild_id, True


class AdminGroup(
    app_commands.Group,
    name="admin",
    description=ls("group.admin.desc"),
    guild_only=True,
    default_permissions=discord.Permissions(manage_guild=True),
):
    @app_commands.command(name="season", description=ls("cmd.admin.season.desc"))
    async def season(self, interaction: discord.Interaction[MattekrigBot]) -> None:
        """Shows the running season and asks before starting the next (see `SeasonItem`)."""
        bot = interaction.client
        guild_id, _ = _manager(interaction)
        _, lang = await house_rules(interaction)
        current = await bot.admin.current_season(guild_id)
        question = render_season_confirm(guild_id, current, lang)
        await question.reply(interaction, private=True)

    @app_commands.command(name="settings", description=ls("cmd.admin.settings.desc"))
    @app_commands.describe(
        leaderboard=ls("cmd.admin.settings.opt.leaderboard.desc"),
        allow_channel=ls("cmd.admin.settings.opt.allow_channel.desc"),
        remove_channel=ls("cmd.admin.settings.opt.remove_channel.desc"),
        all_channels=ls("cmd.admin.settings.opt.all_channels.desc"),
        language=ls("cmd.admin.settings.opt.language.desc"),
        threads=ls("cmd.admin.settings.opt.threads.desc"),
        pings=ls("cmd.admin.settings.opt.pings.desc"),
        answer_form=ls("cmd.admin.settings.opt.answer_form.desc"),
    )
    @app_commands.choices(
        leaderboard=[choice("leaderboard", v) for v in VISIBILITIES],
        language=[choice("language", v) for v in LANGUAGE_CHOICES],
        answer_form=[choice("answer_form", v) for v in ANSWER_FORMS],
    )
    async def settings(
        self,
        interaction: discord.Interaction[MattekrigBot],
        leaderboard: str | None = None,
        allow_channel: discord.TextChannel | None = None,
        remove_channel: discord.TextChannel | None = None,
        all_channels: bool | None = None,
        language: str | None = None,
        threads: bool | None = None,
        pings: bool | None = None,
        answer_form: str | None = None,
    ) -> None:
        """Without options: show the settings. With options: change those, show the result."""
        bot = interaction.client
        guild_id, manager = _manager(interaction)
        settings, lang = await house_rules(interaction)
        changes: dict[str, Any] = {}
        if leaderboard is not None:
            changes["leaderboard"] = leaderboard
        if threads is not None:
            changes["threads"] = threads
        if pings is not None:
            changes["pings"] = pings
        if answer_form is not None:
            changes["answer_form"] = answer_form
        if language is not None:
            changes["language"] = None if language == "server" else language
        channels = list(settings.channels)
        if all_channels:
            channels = []
        if allow_channel is not None and allow_channel.id not in channels:
            channels.append(allow_channel.id)
        if remove_channel is not None and remove_channel.id in channels:
            channels.remove(remove_channel.id)
        if channels != list(settings.channels):
            changes["channels"] = channels
        if changes:
            settings = await bot.admin.update_settings(guild_id, manager=manager, **changes)
            _, lang = await house_rules(interaction)  # the language may have changed
        embed = render_settings(
            settings, lang, str(interaction.guild_locale or "en"), saved=bool(changes)
        )
        await interaction.response.send_message(
            embed=embed, ephemeral=True, allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="void", description=ls("cmd.admin.void.desc"))
    @app_commands.describe(game=ls("cmd.admin.void.opt.game.desc"))
    async def void(
        self,
        interaction: discord.Interaction[MattekrigBot],
        game: app_commands.Range[int, 1, MAX_GAME_ID],
    ) -> None:
        """Takes back a result and its rating change (e.g. a game played for someone else)."""
        bot = interaction.client
        guild_id, manager = _manager(interaction)
        _, lang = await house_rules(interaction)
        await bot.admin.void(guild_id, game, manager=manager)
        await interaction.response.send_message(
            t("admin.void.done", lang, game=game), ephemeral=True, allowed_mentions=NO_PINGS
        )

    @app_commands.command(name="end", description=ls("cmd.admin.end.desc"))
    @app_commands.describe(game=ls("cmd.admin.end.opt.game.desc"))
    async def end(
        self,
        interaction: discord.Interaction[MattekrigBot],
        game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
    ) -> None:
        """Ends a game with no result (RULES §1.5: counted for nobody); logged by the service.
        Without a game number: the game in this channel."""
        bot = interaction.client
        guild_id, _ = _manager(interaction)
        _, lang = await house_rules(interaction)
        live = (
            bot.games.in_channel(interaction.channel_id or 0)
            if game is None
            else bot.games.games.get(game)
        )
        if live is None or live.record.guild_id != guild_id:
            raise UserFacingError("error.no_game")
        update = await bot.games.end(live.id, interaction.user.id)
        await interaction.response.send_message(
            t("admin.end.done", lang, game=live.id), ephemeral=True, allowed_mentions=NO_PINGS
        )
        await bot.boards.refresh(update.game)

    @app_commands.command(name="report", description=ls("cmd.admin.report.desc"))
    async def report(self, interaction: discord.Interaction[MattekrigBot]) -> None:
        """A CSV file, one line per pupil, in the teacher's language."""
        bot = interaction.client
        guild_id, manager = _manager(interaction)
        _, lang = await house_rules(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        text = await bot.admin.report_csv(guild_id, manager=manager, lang=lang)
        day = local_time(bot.clock.now_ms()).date().isoformat()
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename=f"mattekrig-{day}.csv")
        await interaction.edit_original_response(
            content=t("admin.report.reply", lang), attachments=[file], allowed_mentions=NO_PINGS
        )
