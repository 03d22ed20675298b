"""The Discord client: one `commands.Bot` subclass whose `setup_hook` opens storage, loads the
cogs, restores live games and their timers, and syncs commands
to the development server (globally only when asked)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.app import App
from bot.boards import BoardPublisher
from bot.config import Config
from bot.heartbeat import BEAT_S, Heartbeat, heartbeat_path
from bot.invite import ready_line
from bot.logs import watch_presses
from bot.render.invitations import render_challenge, render_lobby
from bot.render.sessions import render_session_summary
from bot.replies import edit_panel, lang_of, report_error, send_panel, send_private
from bot.services.admin import AdminService
from bot.services.assignments import AssignmentService
from bot.services.clock import Clock, SystemClock
from bot.services.deadlines import GameDeadlines
from bot.services.figures import SessionSummary
from bot.services.games import GameService
from bot.services.invitations import InvitationService
from bot.services.leaderboard import LeaderboardService
from bot.services.live import LiveGame
from bot.services.privacy import PrivacyService, Retention
from bot.services.results import ResultsService
from bot.services.scheduler import Scheduler
from bot.services.sessions import SessionService
from bot.services.stats import StatsService
from bot.services.summary import SummaryService
from bot.services.teachers import TeacherService
from bot.shards import ShardGameStore, Shards
from bot.translator import MattekrigTranslator
from bot.ui.modals import handle_answer_submit
from bot.ui.options import wrong_option
from bot.ui.presses import handle_press
from classroom.i18n import option_name, t
from storage import Invitation, Storage
from storage.contract import GameStore
from storage.select import open_storage

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.mattekrig",)
DRAIN_S = 5.0  # at most this long for in-flight actions at a stop


class MattekrigTree(app_commands.CommandTree["MattekrigBot"]):
    """The one error ladder for slash commands."""

    async def on_error(
        self, interaction: discord.Interaction[MattekrigBot], error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)

    async def interaction_check(self, interaction: discord.Interaction[MattekrigBot]) -> bool:
        """Options Discord would never send like this are refused before discord.py reads
        them (`bot.ui.options`); an unknown command goes on, to be refused by `on_error`."""
        data: Any = interaction.data
        if interaction.type is not discord.InteractionType.application_command:
            return True
        if not isinstance(data, dict) or data.get("type", 1) != 1:
            return True
        try:
            command, options = self._get_app_command_options(cast(Any, data))
        except app_commands.AppCommandError:
            return True
        except Exception:  # no name, options that are not a list: not Discord's payload
            wrong: str | None = "?"
        else:
            wrong = wrong_option(command, options)
        if wrong is None:
            return True
        log.info("interaction %s: option %r refused", interaction.id, wrong)
        lang = lang_of(interaction)
        await send_private(
            interaction, t("error.bad_option", lang, option=option_name(wrong, lang))
        )
        return False

    async def _call(self, interaction: discord.Interaction[MattekrigBot]) -> None:
        """discord.py raises anything but an `AppCommandError` (a malformed option payload:
        ``int('abc')`` while it reads the options) in a task nobody awaits, as a traceback
        and no answer. The command's own errors arrive wrapped, so what is left here is
        input Discord would never send: refused in one sentence."""
        try:
            await super()._call(interaction)
        except app_commands.AppCommandError:
            raise  # discord.py hands these to `on_error`
        except Exception as error:
            log.warning(
                "interaction %s: malformed command payload refused (%s: %s)",
                interaction.id,
                type(error).__name__,
                str(error)[:200],
            )
            await send_private(interaction, t("error.bad_input", lang_of(interaction)))


def intents() -> discord.Intents:
    """No privileged intents: the bot reads no messages and no member lists (privacy first)."""
    chosen = discord.Intents.none()
    chosen.guilds = True  # channels, threads and permissions of the servers it is in
    return chosen


class MattekrigBot(App):
    """The bot: builds storage, the services and the boards in `setup_hook`, and hands the
    Discord layer what `App` declares."""

    storage: Storage
    results: ResultsService
    deadlines: GameDeadlines
    boards: BoardPublisher

    def __init__(
        self,
        config: Config,
        *,
        clock: Clock | None = None,
        sync_global: bool = False,
        pictures: bool = True,
        boards_may_be_ahead: bool = False,
        **options: Any,
    ) -> None:
        """``pictures`` False: every board is text only (the benchmark's text bot).
        ``boards_may_be_ahead``: a backup was restored, or the last run died and the
        database's WAL was deleted since (`bot.ops.lock`), so any board may show moves the
        database does not have: every board is drawn again before the first press, not only
        those known to be behind."""
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
        self.pictures = pictures
        self.boards_may_be_ahead = boards_may_be_ahead
        self._purging: asyncio.Future[dict[str, int]] | None = None
        self._beats = Heartbeat(heartbeat_path(config), self)
        watch_presses(self)  # every log line of a press names its interaction, guild, game

    async def setup_hook(self) -> None:
        self.storage = storage = await open_storage(
            self.config.database_path, self.config.database_url
        )
        clock = self.clock
        deadlines_changed = asyncio.Event()  # set by the services, awaited by the scheduler
        self.results = ResultsService(storage, clock)
        self.summaries = SummaryService(storage)
        self.admin = AdminService(storage, clock, self.results)
        store = game_store(storage, self.config)
        self.games = GameService(
            store,
            clock,
            timers_changed=deadlines_changed.set,
            on_finished=self.results.schedule,
            while_committing=self._render_board,
        )
        self.boards = BoardPublisher(
            self.games,
            self.admin.settings,
            self.get_partial_messageable,
            clock,
            pictures=self.pictures,
        )
        self.deadlines = GameDeadlines(self.games, store, clock, listeners=[self.boards.on_update])
        self.invitations = InvitationService(
            storage, clock, self.games, timers_changed=deadlines_changed.set
        )
        self.sessions = SessionService(storage, clock)
        self.scheduler = Scheduler(
            self.games,
            self.deadlines,
            self.invitations,
            clock,
            changed=deadlines_changed,
            invitation_listeners=[self.show_closed_invitation],
            sessions=self.sessions,
            session_listeners=[self.post_session_summary],
        )
        self.leaderboards = LeaderboardService(storage, clock)
        self.stats = StatsService(storage, clock)
        config = self.config
        keep = Retention(config.game_log_days, config.result_days, config.left_server_days)
        self.privacy = PrivacyService(storage, clock, self.results, keep)
        self.teachers = TeacherService(storage, clock)
        self.assignments = AssignmentService(storage, clock)
        await self.tree.set_translator(MattekrigTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.boards.pictures:  # the picture worker imports while the games are restored
            self.boards.drawer.start()
        restored = await self.games.restore_all()
        log.info("restored %d live game(s)", len(restored))
        await self.results.record_pending()  # games that ended just before a crash
        # The log may be ahead of Discord (a crash between a commit and its board edit):
        # every board is drawn again from its game, those behind before the first press.
        if self.boards_may_be_ahead:
            log.warning(
                "the database may be behind what the boards in Discord show (a backup was "
                "restored, or its -wal file was deleted after the last bot was killed): every "
                "board is drawn again from the database before the first press"
            )
        await self.boards.catch_up(
            [*restored, *await self.games.ended_lately()], every_first=self.boards_may_be_ahead
        )
        self.scheduler.start()
        self.purge_daily.start()
        self.heartbeat.start()
        if self.config.dev_guild_id is not None:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        if self.sync_global:
            await self.tree.sync()
            log.info("slash commands synced globally")
        # What start-up built (modules, catalogues, restored games) lives as long as the
        # process: moved out of the collector's generations, so its full passes stop walking
        # it on every press (a full pass over them is a pause that shows in the p99 of a press).
        gc.freeze()

    @tasks.loop(hours=24)
    async def purge_daily(self) -> None:
        """PRIVACY.md's retention periods, applied at start-up and then once a day."""
        # shielded: stopping the bot never cuts a purge off halfway (`close` waits for it)
        self._purging = asyncio.ensure_future(self.privacy.purge_old())
        try:
            removed = await asyncio.shield(self._purging)
        except Exception:
            log.exception("the daily purge failed; trying again tomorrow")
            return
        log.info("purged old data: %s", {k: v for k, v in removed.items() if v})

    @tasks.loop(seconds=BEAT_S)
    async def heartbeat(self) -> None:
        """The health check's sign of life: touched while connected to Discord (bot.heartbeat)."""
        self._beats.tick()

    async def on_ready(self) -> None:
        log.info(ready_line(self))
        self._beats.tick()  # healthy from the first connection, not a beat later
        # Data follows the school: a server that removed the bot while it was stopped starts
        # its grace period now, one that added it back keeps its data (PRIVACY.md).
        count, ids = self.config.shard_count, self.config.shard_ids
        ours = Shards(count, ids).owns if count is not None and ids else lambda _: True
        await self.privacy.servers_now({guild.id for guild in self.guilds}, ours)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """GUILD_DELETE: the bot was removed from the server, or it was deleted. Its games
        end (nobody can play them there any more); its data goes after LEFT_SERVER_DAYS."""
        for game in [g for g in self.games.games.values() if g.record.guild_id == guild.id]:
            if not game.is_finished:
                await self.games.end(game.id, 0)
        await self.privacy.guild_left(guild.id)
        log.info(
            "removed from server %s: its data is deleted in %d days",
            guild.id,
            self.config.left_server_days,
        )

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """The bot was added to a server (again): a server that comes back keeps its data."""
        if await self.privacy.guild_back(guild.id):
            log.info("back in server %s: its data is kept", guild.id)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """Discord may send a server that adds the bot back as 'available' rather than
        'joined' (its GUILD_CREATE says unavailable: false): the same."""
        await self.on_guild_join(guild)

    async def on_interaction(self, interaction: discord.Interaction[MattekrigBot]) -> None:
        """Our presses and answer modals, whatever message they came from (`bot.ui.presses`,
        `bot.ui.modals`): discord.py routes neither to an item it would not find."""
        if not await handle_press(interaction):
            await handle_answer_submit(interaction)

    def _render_board(self, game: LiveGame) -> None:
        """The board's text of a game whose change is being committed. The game service hands
        the boards its changes, and the boards record where each board is through it: the
        service is built first and reaches the boards (built from it) through this method."""
        self.boards.render(game)

    async def show_closed_invitation(self, invitation: Invitation) -> None:
        """An expired challenge or lobby loses its buttons and says so."""
        if invitation.message_id is None:
            return
        names = {int(k): v for k, v in invitation.options.get("names", {}).items()}
        lang = invitation.options.get("locale", "en")
        render = render_challenge if invitation.kind == "challenge" else render_lobby
        drawn = render(invitation, lang, names)
        message = self.get_partial_messageable(invitation.channel_id).get_partial_message(
            invitation.message_id
        )
        try:
            await edit_panel(message, drawn)
        except discord.HTTPException:
            log.info("could not edit expired invitation %s", invitation.id)

    async def post_session_summary(self, summary: SessionSummary) -> None:
        """A class session is over: its summary goes to the channel it was started in, with
        the button that shows each pupil their own line."""
        channel = self.get_partial_messageable(summary.session.channel_id)
        try:
            await send_panel(channel, render_session_summary(summary, summary.session.lang))
        except discord.HTTPException:
            log.warning("could not post the summary of class session %s", summary.session.id)

    async def serve(self, token: str) -> None:
        """Run until closed. SIGTERM (what `docker stop` and systemd send) and SIGINT (Ctrl-C)
        are the same clean stop: `close` drains what is in flight and closes the database,
        whose last connection checkpoints the WAL into the file and removes it."""
        loop = asyncio.get_running_loop()
        stopping = asyncio.Event()
        signals = (signal.SIGTERM, signal.SIGINT)
        for sig in signals:
            loop.add_signal_handler(sig, stopping.set)
        try:
            async with self:
                runner = asyncio.create_task(self.start(token), name="mattekrig-client")
                waiter = asyncio.create_task(stopping.wait(), name="mattekrig-signals")
                await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                if stopping.is_set():
                    log.info("stopping: a signal asked for it")
                await self.close()
                await runner  # a login failure is raised here
        finally:
            for sig in signals:
                loop.remove_signal_handler(sig)

    async def close(self) -> None:
        """Drain, stop, disconnect; the database is closed whatever fails before it (its
        last connection checkpoints the WAL: a stop never leaves one behind)."""
        try:
            if hasattr(self, "games"):
                await self.games.drain(DRAIN_S)  # presses under way finish, answers included
            self.purge_daily.cancel()
            self.heartbeat.cancel()
            self._beats.stop()  # a stopped bot is not connected
            if self._purging is not None:
                with contextlib.suppress(Exception):
                    await self._purging
            if hasattr(self, "scheduler"):
                await self.scheduler.stop()
            if hasattr(self, "results"):
                await self.results.drain()
            if hasattr(self, "boards"):
                await self.boards.close()
            await super().close()
        finally:
            if hasattr(self, "storage"):
                await self.storage.close()


class ShardedMattekrigBot(MattekrigBot, commands.AutoShardedBot):
    """The bot on ``SHARD_IDS`` of ``SHARD_COUNT`` shards (several processes, one database)."""


def game_store(storage: Storage, config: Config) -> GameStore:
    """The game service's view of storage: only this process's shards' games when sharded."""
    if config.shard_count is None or config.shard_ids is None:
        return storage
    return ShardGameStore(storage, Shards(config.shard_count, config.shard_ids))


def make_bot(config: Config, **options: Any) -> MattekrigBot:
    """The plain bot, or the sharded one when SHARD_COUNT is set."""
    if config.shard_count is None:
        return MattekrigBot(config, **options)
    return ShardedMattekrigBot(
        config, shard_count=config.shard_count, shard_ids=list(config.shard_ids or ()), **options
    )
