"""Keeping each game's one board message true: edited in place, coalesced, re-posted if it
was deleted. The interaction that caused a change edits the board with its own response (the
fastest path); changes from timers edit it through the channel."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from bot.render.board import Board, render_board
from bot.services.live import GameUpdate, LiveGame

if TYPE_CHECKING:
    from bot.client import MattekrigBot

log = logging.getLogger(__name__)


class BoardPublisher:
    def __init__(self, bot: MattekrigBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._queued: set[int] = set()

    def render(self, game: LiveGame) -> Board:
        return render_board(game, game.settings.locale, self.bot.clock.now_ms())

    async def respond(self, interaction: discord.Interaction, update: GameUpdate) -> None:
        """Show what the press changed: on the board itself when it was pressed there."""
        game = update.game
        message = interaction.message
        if (
            message is not None
            and message.id == game.record.message_id
            and not interaction.response.is_done()
        ):
            board = self.render(game)
            try:
                await interaction.response.edit_message(
                    content=board.content, embed=board.embed, view=board.view
                )
                return
            except discord.NotFound:  # deleted while a modal was open: post a new board
                log.info("board of game %s was deleted; posting a new one", game.id)
        if not interaction.response.is_done():
            # NotFound: the pressed message is gone; the caller's private reply answers.
            with contextlib.suppress(discord.NotFound):
                await interaction.response.defer(ephemeral=True, thinking=False)
        await self.refresh(game)

    async def post(self, channel: discord.abc.Messageable, game: LiveGame) -> discord.Message:
        """A new board message for the game (at start, or when the old one was deleted)."""
        board = self.render(game)
        message = await channel.send(
            content=board.content,
            embed=board.embed,
            view=board.view,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        thread_id = channel.id if isinstance(channel, discord.Thread) else None
        await self.bot.games.set_board(game, message.id, thread_id=thread_id)
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
            board = self.render(game)
            try:
                await channel.get_partial_message(game.record.message_id).edit(
                    content=board.content, embed=board.embed, view=board.view
                )
            except discord.NotFound:
                log.info("board of game %s was deleted; posting a new one", game.id)
                await self.post(channel, game)
            except discord.Forbidden:
                log.warning("no permission to edit the board of game %s", game.id)
        if game.is_finished:
            self._locks.pop(game.id, None)
