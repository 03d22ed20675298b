"""Keeping each game's one board message true: edited in place, coalesced, re-posted if it
was deleted. The interaction that caused a change edits the board with its own response (the
fastest path); changes from timers edit it through the channel.

A board follows the log, never the other way round: a press is answered "it counted" once its
action is committed, whatever Discord says to the edit; a failed edit (429 after discord.py's
own retries, 5xx) is tried again through the channel with back-off, folded into one pending
edit that renders the latest state; after a restart every live game's board, and the boards of
games that ended just before it, are drawn again from their state. Nothing here ever holds a
game's lock, so a game never waits on a board that is behind it.

The board carries a picture of the table (`bot.render.pictures`), drawn off the event loop,
with the text kept as its alternative. Where the bot may not attach files, the board is text
only and the game's starter is told once."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine, Sequence
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.i18n import pick_locale, t
from bot.render.board import render_board
from bot.render.locale import as_lang
from bot.render.names import side_names
from bot.render.panel import Panel
from bot.render.pictures import draw_table
from bot.render.screen import GameScreen
from bot.replies import reply_lang
from bot.services.live import GameUpdate, LiveGame
from bot.ui.flow import answer_message
from engine.view import Now, view

if TYPE_CHECKING:
    from bot.client import MattekrigBot

log = logging.getLogger(__name__)
MISSING_PERMISSIONS = 50013  # Discord's code for a request the bot has no permission for
RETRY_DELAYS_S = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)  # then every minute until the board is true
CATCH_UP_PER_S = 20.0  # boards redrawn after a restart: well under the 50 requests/s limit
HEAL_EVERY_S = 10.0  # a stale board pressed again and again is redrawn at most this often
# What Discord, the network or a stop under way ("Session is closed", a RuntimeError) can
# answer to a request: never a bug here.
TRANSPORT_ERRORS = (discord.HTTPException, aiohttp.ClientError, OSError, RuntimeError)


class BoardPublisher:
    def __init__(self, bot: MattekrigBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._queued: set[int] = set()
        self._text_only: set[int] = set()  # games whose channel refuses attachments
        self._retrying: dict[int, asyncio.Task[None]] = {}  # games whose board edit failed
        self._healed: dict[int, float] = {}  # game → when a stale press last redrew it
        self._background: set[asyncio.Task[None]] = set()
        self._pinged: dict[int, int] = {}  # game → the decision window last pinged for
        self.pictures = True  # draw the table as a picture on every board
        self.retry_delays_s: tuple[float, ...] = RETRY_DELAYS_S
        self.catch_up_per_s = CATCH_UP_PER_S

    def render(self, game: LiveGame) -> Panel:
        """The board as text (its picture is added by `draw`)."""
        lang = game.settings.locale
        return render_board(screen_of(game, lang), lang, self.bot.clock.now_ms())

    async def draw(self, game: LiveGame) -> Panel:
        """The board with its picture, drawn in a worker thread (CPU work, never on the
        event loop); text only where attachments are refused."""
        panel = self.render(game)
        if not self.pictures or game.id in self._text_only:
            return panel
        lang = game.settings.locale
        names = side_names(game, as_lang(lang), plain=True)
        picture = await asyncio.to_thread(draw_table, view(game.state, None), names, lang)
        return panel.with_picture(picture)

    async def _text_from_now(self, game: LiveGame) -> None:
        """Attach Files is missing here: text from now on, and the starter is told once."""
        if game.id in self._text_only:
            return
        self._text_only.add(game.id)
        log.info("no permission to attach files for game %s; the board is text only", game.id)
        starter = next((p for p in game.players if p.user_id is not None), None)
        if starter is None or starter.user_id is None:
            return
        text = t("board.pictures_off", game.settings.locale, player=f"<@{starter.user_id}>")
        mentions = discord.AllowedMentions(users=[discord.Object(starter.user_id)])
        channel = self.bot.get_partial_messageable(game.channel_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(text, allowed_mentions=mentions)

    async def _checked(self, interaction: discord.Interaction, game: LiveGame) -> Panel:
        """The board for an interaction's answer, which says whether files may be attached."""
        if not interaction.app_permissions.attach_files:
            await self._text_from_now(game)
        return await self.draw(game)

    async def respond(self, interaction: discord.Interaction, update: GameUpdate) -> None:
        """Show what the press changed: on the board itself when it was pressed there."""
        game = update.game
        message = interaction.message
        # Issue 9: a press can arrive before the board's message id is stored (Discord shows
        # the board as soon as the start is answered). Its buttons name this game, so the
        # pressed message is the board: edit it with the press's own response, never post
        # a second one through the channel.
        if (
            message is not None
            and game.record.message_id in (message.id, None)
            and not interaction.response.is_done()
        ):
            try:
                await (await self._checked(interaction, game)).show_in(interaction)
                await self.ping(game, interaction.user.id)
                return
            except discord.NotFound:  # deleted while a modal was open: post a new board
                log.info("board of game %s was deleted; posting a new one", game.id)
                await self.refresh(game)
                # Something to explain (issue 10 point 4): the board the pupil used is gone.
                text = t("reply.board_reposted", reply_lang(interaction, game.settings.locale))
                with contextlib.suppress(discord.HTTPException):
                    await interaction.response.send_message(text, ephemeral=True)
                return
            except TRANSPORT_ERRORS as refused:
                # The action is committed: the presser is told it counted, never "try
                # again", and the board is brought up to date through the channel.
                log.warning(
                    "board of game %s not edited through the press (%s); it counted, "
                    "retrying through the channel",
                    game.id,
                    describe_failure(refused),
                )
                await self._tell_counted(interaction, game)
                self._retry_later(game)
                return
        if not interaction.response.is_done():
            # NotFound: the pressed message is gone; the caller's private reply answers.
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.defer(ephemeral=True, thinking=False)
        await self.refresh(game)

    async def _tell_counted(self, interaction: discord.Interaction, game: LiveGame) -> None:
        text = t("reply.counted", pick_locale(interaction.locale, interaction.guild_locale))
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except TRANSPORT_ERRORS:  # Discord answers nothing at all now; the log holds it
            log.info("could not tell the presser that their move in game %s counted", game.id)

    async def answer(self, interaction: discord.Interaction, game: LiveGame) -> None:
        """The board as the interaction's own answer (the start path, issue 9): its message
        id comes back in the callback response (discord.py asks ``with_response``), so no
        GET of the original response. The board's lock is held until the id is known, so a
        timer's refresh meanwhile waits instead of posting a second board."""
        async with self._locks.setdefault(game.id, asyncio.Lock()):
            message = await answer_message(interaction, **self.render(game).fields())
            await self.bot.games.set_board(game, message.id)

    async def post(self, channel: discord.abc.Messageable, game: LiveGame) -> discord.Message:
        """A new board message for the game (at start, or when the old one was deleted)."""
        try:
            message = await (await self.draw(game)).send(channel)
        except discord.Forbidden as refused:
            if game.id in self._text_only or refused.code != MISSING_PERMISSIONS:
                raise
            await self._text_from_now(game)
            message = await self.render(game).send(channel)
        thread_id = channel.id if isinstance(channel, discord.Thread) else None
        await self.bot.games.set_board(game, message.id, thread_id=thread_id)
        await self.ping(game, None)
        return message

    async def on_update(self, update: GameUpdate) -> None:
        await self.refresh(update.game)

    async def refresh(self, game: LiveGame) -> None:
        """Edit the board to the game as it is now. Calls that arrive while an edit is queued
        (or while a failed one waits to be retried) are folded into it: that edit renders
        the latest state anyway. Never raises for what Discord answers."""
        if game.id in self._queued or game.id in self._retrying:
            return
        if not await self._edit(game):
            self._retry_later(game)

    async def _edit(self, game: LiveGame) -> bool:
        """One attempt to make the board true; False when Discord should be asked again."""
        self._queued.add(game.id)
        lock = self._locks.setdefault(game.id, asyncio.Lock())
        async with lock:
            self._queued.discard(game.id)
            channel = self.bot.get_partial_messageable(game.channel_id)
            try:
                if game.record.message_id is None:
                    await self.post(channel, game)
                else:
                    await self._edit_board(channel, game)
            except discord.Forbidden:
                log.warning("no permission to show the board of game %s", game.id)
            except TRANSPORT_ERRORS as refused:
                log.warning(
                    "board of game %s not shown (%s); trying again later",
                    game.id,
                    describe_failure(refused),
                )
                return False
        if game.is_finished:
            self._forget(game.id)
        else:
            await self.ping(game, None)
        return True

    async def _edit_board(self, channel: discord.PartialMessageable, game: LiveGame) -> None:
        assert game.record.message_id is not None
        board = channel.get_partial_message(game.record.message_id)
        try:
            try:
                await (await self.draw(game)).edit(board)
            except discord.Forbidden as refused:
                if game.id in self._text_only or refused.code != MISSING_PERMISSIONS:
                    raise
                await self._text_from_now(game)
                await self.render(game).edit(board)
        except discord.NotFound:
            log.info("board of game %s is gone; posting a new one", game.id)
            await self.post(channel, game)

    def _forget(self, game_id: int) -> None:
        if game_id not in self._retrying:
            self._locks.pop(game_id, None)
            self._text_only.discard(game_id)
            self._pinged.pop(game_id, None)

    def retrying(self, game_id: int) -> bool:
        """Whether the game's board is behind and an edit waits to be tried again."""
        return game_id in self._retrying

    def _retry_later(self, game: LiveGame) -> None:
        """Ask Discord again with back-off until the board is true (one pending retry per
        game; changes meanwhile are drawn by it)."""
        if game.id not in self._retrying:
            self._retrying[game.id] = self._spawn(self._retry(game))

    async def _retry(self, game: LiveGame) -> None:
        attempt = 0
        try:
            while True:
                delays = self.retry_delays_s
                await asyncio.sleep(delays[min(attempt, len(delays) - 1)])
                attempt += 1
                if await self._edit(game):
                    log.info("board of game %s is true again (attempt %d)", game.id, attempt)
                    return
        finally:
            self._retrying.pop(game.id, None)
            if game.is_finished:
                self._forget(game.id)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    # -- after a restart, and boards found behind ----------

    def catch_up(self, games: Sequence[LiveGame]) -> asyncio.Task[None]:
        """Draw every given board again from its game's state, in the background and paced
        to Discord's limits (start-up: the log may be ahead of what Discord shows)."""
        return self._spawn(self._catch_up(list(games)))

    async def _catch_up(self, games: list[LiveGame]) -> None:
        pending = []
        for game in games:
            pending.append(self._spawn(self.refresh(game)))
            await asyncio.sleep(1 / self.catch_up_per_s)
        await asyncio.gather(*pending, return_exceptions=True)
        log.info("redrew %d board(s) after the restart", len(games))

    def heal(self, game_id: int, pressed: discord.Message | None) -> None:
        """A press was refused as stale: if it was pressed on the game's board, that board
        may be behind its game; redraw it (in the background, at most every few seconds)."""
        now = asyncio.get_running_loop().time()
        if pressed is None or now - self._healed.get(game_id, -HEAL_EVERY_S) < HEAL_EVERY_S:
            return
        self._healed[game_id] = now
        self._spawn(self._heal(game_id, pressed.id))

    async def _heal(self, game_id: int, pressed_id: int) -> None:
        try:
            game = await self.bot.games.shown(game_id)
        except Exception:  # gone meanwhile (forget-me, purge): nothing to draw
            log.info("game %s could not be loaded to redraw its board", game_id)
            return
        if game.record.message_id == pressed_id:
            await self.refresh(game)

    async def close(self) -> None:
        """Stop retrying (the next start redraws every board anyway)."""
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)

    async def ping(self, game: LiveGame, presser: int | None) -> None:
        """Tell a player it is their turn (issue 10): only where the game waits for one side
        alone — naming the target, or the game's first decision — mentioning only that side's
        players, once per decision, never the player who just pressed, and not where the
        teacher turned pings off."""
        window = game.state.window
        if game.is_finished or self._pinged.get(game.id) == window:
            return
        seen = view(game.state, None)
        humans = [s for s in seen.awaited if s not in game.computer_sides()]
        first = game.id not in self._pinged and seen.round <= 1
        if len(humans) != 1 or not (seen.now is Now.NAME_TARGET or first):
            return
        users = [p.user_id for p in game.players_of(humans[0]) if p.user_id is not None]
        self._pinged[game.id] = window
        if not users or users == [presser]:
            return
        guild_id = game.record.guild_id
        if guild_id is not None and not (await self.bot.admin.settings(guild_id)).pings:
            return
        lang = game.settings.locale
        key = "board.ping.target" if seen.now is Now.NAME_TARGET else "board.ping.turn"
        players = " ".join(f"<@{uid}>" for uid in users)
        text = t(key, lang, players=players, round=seen.round)
        mentions = discord.AllowedMentions(users=[discord.Object(uid) for uid in users])
        channel = self.bot.get_partial_messageable(game.channel_id)
        try:
            await channel.send(text, allowed_mentions=mentions)
        except discord.HTTPException:
            log.info("could not ping the players of game %s", game.id)


def describe_failure(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.code}"
    return type(error).__name__


def screen_of(game: LiveGame, lang: str) -> GameScreen:
    """What the board shows of a live game: the engine's view of the table and what the bot
    keeps beside it (names in the board's language, deadlines, autoplay, a stop)."""
    return GameScreen(
        game_id=game.id,
        view=view(game.state, None),
        names=side_names(game, as_lang(lang)),
        humans=frozenset(range(game.state.config.sides)) - game.computer_sides(),
        autoplay=game.autoplay,
        ended=game.ended,
        answer_due_ms=game.table_due_ms,
        time_limit_due_ms=game.time_limit_due_ms,
        preset=game.settings.preset,
    )
