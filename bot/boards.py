"""Keeping each game's one board message true: edited in place, coalesced, re-posted if it
was deleted. The interaction that caused a change edits the board with its own response (the
fastest path); changes from timers edit it through the channel.

The board carries a picture of the table (`bot.render.pictures`), drawn off the event loop,
with the text kept as its alternative. Where the bot may not attach files, the board is text
only and the game's starter is told once."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
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


class BoardPublisher:
    def __init__(self, bot: MattekrigBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._queued: set[int] = set()
        self._text_only: set[int] = set()  # games whose channel refuses attachments
        self._pinged: dict[int, int] = {}  # game → the decision window last pinged for
        self.pictures = True  # draw the table as a picture on every board

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
        if not interaction.response.is_done():
            # NotFound: the pressed message is gone; the caller's private reply answers.
            with contextlib.suppress(discord.NotFound):
                await interaction.response.defer(ephemeral=True, thinking=False)
        await self.refresh(game)

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
        are folded into it: the queued edit renders the latest state anyway."""
        if game.id in self._queued:
            return
        self._queued.add(game.id)
        lock = self._locks.setdefault(game.id, asyncio.Lock())
        async with lock:
            self._queued.discard(game.id)
            channel = self.bot.get_partial_messageable(game.channel_id)
            if game.record.message_id is None:
                await self.post(channel, game)
                return
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
                log.info("board of game %s was deleted; posting a new one", game.id)
                await self.post(channel, game)
            except discord.Forbidden:
                log.warning("no permission to edit the board of game %s", game.id)
        if game.is_finished:
            self._locks.pop(game.id, None)
            self._text_only.discard(game.id)
            self._pinged.pop(game.id, None)
        else:
            await self.ping(game, None)

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
        answer_due_ms=game.answer_due_ms,
        time_limit_due_ms=game.time_limit_due_ms,
    )
