"""The Discord client: one `commands.Bot` subclass whose `setup_hook` opens storage, loads the
cogs, registers the dynamic items, restores live games and their timers, and syncs commands
to the development server (globally only when asked)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.boards import BoardPublisher
from bot.config import Config
from bot.i18n.translator import MattekrigTranslator
from bot.render.invitations import render_challenge, render_lobby
from bot.replies import report_error
from bot.services.clock import Clock, SystemClock
from bot.services.games import GameService
from bot.services.invitations import InvitationService
from bot.services.results import ResultsService
from bot.services.scheduler import Scheduler
from bot.storage import Invitation, Storage
from bot.ui.items import DYNAMIC_ITEMS
from bot.ui.modals import handle_answer_submit

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.mattekrig",)


class MattekrigTree(app_commands.CommandTree):
    """The one error ladder for slash commands."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)


def intents() -> discord.Intents:
    """No privileged intents: the bot reads no messages and no member lists (privacy first)."""
    chosen = discord.Intents.none()
    chosen.guilds = True  # channels, threads and permissions of the servers it is in
    return chosen


class MattekrigBot(commands.Bot):
    storage: Storage
    games: GameService
    invitations: InvitationService
    scheduler: Scheduler
    results: ResultsService

    def __init__(
        self,
        config: Config,
        *,
        clock: Clock | None = None,
        sync_global: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            tree_cls=MattekrigTree,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            **options,
        )
        self.config = config
        self.clock: Clock = clock or SystemClock()
        self.sync_global = sync_global
        self.boards = BoardPublisher(self)

    async def setup_hook(self) -> None:
        self.storage = await Storage.open(self.config.database_path)
        self.games = GameService(self.storage, self.clock)
        self.invitations = InvitationService(self.storage, self.clock, self.games)
        self.scheduler = Scheduler(self.games, self.invitations, self.clock)
        self.results = ResultsService(self.storage, self.clock)
        self.games.on_finished = self.results.schedule
        self.games.listeners.append(self.boards.on_update)
        self.scheduler.invitation_listeners.append(self.show_closed_invitation)
        await self.tree.set_translator(MattekrigTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        restored = await self.games.restore_all()
        log.info("restored %d live game(s)", len(restored))
        await self.results.record_pending()  # games that ended just before a crash
        self.scheduler.start()
        if self.config.dev_guild_id is not None:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        if self.sync_global:
            await self.tree.sync()
            log.info("slash commands synced globally")

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await handle_answer_submit(interaction)

    async def show_closed_invitation(self, invitation: Invitation) -> None:
        """An expired challenge or lobby loses its buttons and says so."""
        if invitation.message_id is None:
            return
        names = {int(k): v for k, v in invitation.options.get("names", {}).items()}
        lang = invitation.options.get("locale", "en")
        render = render_challenge if invitation.kind == "challenge" else render_lobby
        board = render(invitation, lang, names)
        message = self.get_partial_messageable(invitation.channel_id).get_partial_message(
            invitation.message_id
        )
        try:
            await message.edit(content=board.content, embed=board.embed, view=board.view)
        except discord.HTTPException:
            log.info("could not edit expired invitation %s", invitation.id)

    async def close(self) -> None:
        if hasattr(self, "scheduler"):
            await self.scheduler.stop()
        if hasattr(self, "results"):
            await self.results.drain()
        await super().close()
        if hasattr(self, "storage"):
            await self.storage.close()
