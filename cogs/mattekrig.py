"""`/mattekrig …`: thin commands that parse options, call one service, render and respond."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import App
from bot.render.admin import render_preset_embed
from bot.render.invitations import render_lobby
from bot.render.texts import help_text, rules_text
from bot.replies import answer_message, lang_of, reply_lang
from bot.services.teachers import start_options
from bot.translator import choice, ls
from bot.ui.flow import (
    defer_if_late,
    may_create_thread,
    post_board,
    send_challenge,
    thread_from,
    thread_name,
)
from bot.ui.guild import board_language, check_channel, home_channel_id, house_rules
from bot.ui.start_options import with_game_options
from classroom.errors import UserFacingError
from classroom.i18n import t
from cogs.admin import AdminGroup
from cogs.leaderboard import LeaderboardCommands
from cogs.privacy import PrivacyCommands
from cogs.stats import StatsCommands
from engine.registry import GAMES
from engine.regnekrig import REGNEKRIG

STRENGTHS = ("easy", "medium", "hard")
NEEDED = ("send_messages", "embed_links")


def _missing_permission(interaction: discord.Interaction[App]) -> str | None:
    perms = interaction.app_permissions
    for name in NEEDED:
        if not getattr(perms, name):
            return name
    return None


class Mattekrig(
    LeaderboardCommands,
    StatsCommands,
    PrivacyCommands,
    commands.GroupCog,
    group_name="mattekrig",
    group_description=ls("group.mattekrig.desc"),
):
    admin = AdminGroup()  # /mattekrig admin … (cogs/admin.py)

    def __init__(self, bot: App) -> None:
        self.bot = bot
        super().__init__()

    # The game's options are parameters added at import (`with_game_options`): mypy cannot
    # match a callback taking them as **kwargs against discord.py's ParamSpec.
    @app_commands.command(  # type: ignore[arg-type]
        name="start", description=ls("cmd.start.desc")
    )
    @app_commands.guild_only()
    @app_commands.describe(
        game=ls("opt.game.desc"),
        opponent=ls("opt.opponent.desc"),
        opponent2=ls("opt.opponent2.desc"),
        opponent3=ls("opt.opponent3.desc"),
        computer=ls("opt.computer.desc"),
        thread=ls("opt.thread.desc"),
    )
    @app_commands.choices(
        game=[choice("game", g) for g in GAMES],
        computer=[choice("computer", s) for s in STRENGTHS],
    )
    @with_game_options
    async def start(
        self,
        interaction: discord.Interaction[App],
        game: str | None = None,
        opponent: discord.Member | None = None,
        opponent2: discord.Member | None = None,
        opponent3: discord.Member | None = None,
        computer: str | None = None,
        *,
        thread: bool | None = None,
        **chosen: Any,
    ) -> None:
        """The game's options (level, deck, mode, …: every registered game's, read from its
        descriptor) arrive in ``chosen``. Options the pupil leaves out come from the teacher's
        class preset for this channel (or server), else the registry's defaults; a locked
        preset refuses any of them."""
        teams = bool(chosen.pop("teams", None))  # who plays with whom, not a rule of the game
        settings, _ = await house_rules(interaction)  # the teacher's settings
        check_channel(interaction, settings)
        lang = board_language(interaction, settings)  # every public message of the game
        missing = _missing_permission(interaction)
        if missing is not None:
            raise app_commands.BotMissingPermissions([missing])
        opponents = [o for o in (opponent, opponent2, opponent3) if o is not None]
        if any(o.bot for o in opponents):
            raise UserFacingError("error.challenge_bot")
        if opponents and computer:
            raise UserFacingError("error.bad_option", option="computer")
        default_thread = settings.threads and may_create_thread(interaction)
        use_thread = default_thread if thread is None else thread
        if use_thread and not may_create_thread(interaction):
            use_thread = False
        if not use_thread and self.bot.games.in_channel(interaction.channel_id or 0):
            raise UserFacingError("error.channel_busy")
        preset = await self.bot.teachers.preset_for(
            interaction.guild_id or 0, home_channel_id(interaction)
        )
        given = {"game": game, **chosen}
        options: dict[str, Any] = {
            # RULES §2.2: the starter's answer form, else the preset's, else the server's
            "answer_form": settings.answer_form,
            **start_options(preset, given),
            "locale": lang,
            "teams": teams,
            "thread": use_thread,
        }
        strength = options.pop("computer", None)  # the preset's strength against the computer
        user = interaction.user
        if computer:
            if preset is None or not preset.locked or strength is None:
                strength = computer
            await self._start_computer(interaction, {**options, "computer": strength}, use_thread)
        elif opponents:
            invitation = await self.bot.invitations.challenge(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                host_id=user.id,
                invited=[o.id for o in opponents],
                options=options,
                names={user.id: user.display_name, **{o.id: o.display_name for o in opponents}},
            )
            await send_challenge(interaction, invitation, lang)
        else:
            invitation = await self.bot.invitations.lobby(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                host_id=user.id,
                options=options,
                host_name=user.display_name,
            )
            message = await answer_message(
                interaction,
                **render_lobby(invitation, lang, _names(invitation)).fields(),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            await self.bot.invitations.set_message(invitation.id, message.id)

    async def _start_computer(
        self,
        interaction: discord.Interaction[App],
        options: dict[str, Any],
        use_thread: bool,
    ) -> None:
        """A game against the computer starts at once: nobody has to accept."""
        lang = options["locale"]
        user = interaction.user
        computer_name = t("computer.name", lang)
        strength = t(f"computer.{options['computer']}.name", lang)
        arguments: dict[str, Any] = dict(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id or 0,
            host_id=user.id,
            host_name=user.display_name,
            computer_name=f"{computer_name} ({strength})",
            options=options,
        )
        if use_thread:
            message = await answer_message(
                interaction, content=t("reply.game_in_thread", lang, player=user.mention)
            )
            name = thread_name(options, [user.display_name, computer_name], lang)
            created = await thread_from(message, name)
            update = await self.bot.invitations.versus_computer(
                **arguments, thread_id=created.id if created else None
            )
            await post_board(self.bot, update, created, update.game.record.channel_id)
            return
        await defer_if_late(interaction)  # a start that waited in line defers first
        update = await self.bot.invitations.versus_computer(**arguments)
        await self.bot.boards.answer(interaction, update.game)  # the board is the answer

    @app_commands.command(name="stop", description=ls("cmd.stop.desc"))
    @app_commands.guild_only()
    async def stop(self, interaction: discord.Interaction[App]) -> None:
        """A player gives the game up (RULES §1.5: a forfeit, or a cancel before the first
        round is finished); the board says so in its own language, the stopper is told
        privately in theirs."""
        game = self.bot.games.in_channel(interaction.channel_id or 0)
        if game is None:
            raise UserFacingError("error.no_game")
        update = await self.bot.games.stop(game.id, interaction.user.id)
        key = "reply.cancelled" if update.game.ended == "stopped" else "reply.forfeited"
        await interaction.response.send_message(
            t(key, reply_lang(interaction, update.game.settings.locale)), ephemeral=True
        )
        await self.bot.boards.refresh(update.game)

    @app_commands.command(name="rules", description=ls("cmd.rules.desc"))
    @app_commands.describe(game=ls("cmd.rules.opt.game.desc"))
    @app_commands.choices(game=[choice("game", g) for g in GAMES])
    async def rules(self, interaction: discord.Interaction[App], game: str = REGNEKRIG.key) -> None:
        await interaction.response.send_message(
            embeds=rules_text(game, lang_of(interaction)), ephemeral=True
        )

    @app_commands.command(name="help", description=ls("cmd.help.desc"))
    async def help(self, interaction: discord.Interaction[App]) -> None:
        """The help, and the teacher's setup for this channel when there is one."""
        lang = lang_of(interaction)
        embeds = help_text(lang)
        if interaction.guild_id is not None:
            preset = await self.bot.teachers.preset_for(
                interaction.guild_id, home_channel_id(interaction)
            )
            if preset is not None:
                embeds = [*embeds, render_preset_embed(preset, lang)][:10]  # Discord: 10 a message
        await interaction.response.send_message(embeds=embeds, ephemeral=True)


def _names(invitation: Any) -> dict[int, str]:
    return {int(k): v for k, v in invitation.options.get("names", {}).items()}


async def setup(bot: App) -> None:
    await bot.add_cog(Mattekrig(bot))
