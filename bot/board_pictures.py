"""A board's picture of the table (`bot.render.pictures`): whether a board carries one, what
it shows, drawing it, and the picture file a board already carries. Pictures are drawn in
a worker process below the bot's priority (`bot.drawing`), with the text kept as their
alternative. Where the bot may not attach files, the board is text only and the game's
starter is told once; a server can turn pictures off
(`/mattekrig admin settings pictures:false`)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable

import discord

from bot import drawing
from bot.board_state import BoardState, picture_of
from bot.render.display_names import side_names
from bot.render.pictures import Picture
from bot.render.pictures.scene import Scene, scene_of
from bot.replies import TRANSPORT_ERRORS
from bot.services.admin import GuildSettings
from bot.services.live import LiveGame
from classroom.i18n import t
from classroom.text.locale import as_lang

log = logging.getLogger(__name__)


class BoardPictures:
    def __init__(
        self,
        settings: Callable[[int], Awaitable[GuildSettings]],
        channel: Callable[[int], discord.PartialMessageable],
        *,
        pictures: bool = True,
    ) -> None:
        """``settings`` reads a server's settings (pictures may be turned off); ``channel``
        opens the game's channel, where a text-only board's starter is told;
        ``pictures`` draws the table as a picture on every board."""
        self.settings = settings
        self.channel = channel
        self.pictures = pictures
        self.drawer = drawing.shared()

    def scene(self, game: LiveGame, board: BoardState) -> Scene:
        """What the game's picture shows now (`bot.render.pictures.scene`): a picture is drawn
        and uploaded only when this differs from what the board's picture shows."""
        lang = game.settings.locale
        return scene_of(board.seen(game), side_names(game, as_lang(lang), plain=True), lang)

    async def pictured(self, game: LiveGame, board: BoardState) -> bool:
        """Whether the game's board shows a picture: the bot draws them, the server has not
        turned them off (`/mattekrig admin settings pictures`), the channel takes files."""
        if not self.pictures or board.text_only:
            return False
        guild_id = game.record.guild_id
        return guild_id is None or (await self.settings(guild_id)).pictures

    async def draw(self, game: LiveGame, board: BoardState) -> tuple[Picture | None, Scene]:
        """The picture of the game as it is now (None: the worker could not draw it) and
        what it shows, drawn by the worker process — CPU work, never on the event loop, and
        below the bot's priority, so that under load the presses' answers keep the cores and
        pictures wait their turn."""
        lang = game.settings.locale
        seen, names = board.seen(game), side_names(game, as_lang(lang), plain=True)
        return await self.drawer.draw(seen, names, lang), scene_of(seen, names, lang)

    async def text_from_now(self, game: LiveGame, board: BoardState) -> None:
        """Attach Files is missing here: text from now on, and the starter is told once."""
        if board.text_only:
            return
        board.text_only = True
        log.info("no permission to attach files for game %s; the board is text only", game.id)
        starter = next((p for p in game.players if p.user_id is not None), None)
        if starter is None or starter.user_id is None:
            return
        text = t("board.pictures_off", game.settings.locale, player=f"<@{starter.user_id}>")
        mentions = discord.AllowedMentions(users=[discord.Object(starter.user_id)])
        with contextlib.suppress(*TRANSPORT_ERRORS):
            await self.channel(game.channel_id).send(text, allowed_mentions=mentions)


def kept(game: LiveGame, board: BoardState, pressed: discord.Message) -> discord.Attachment | None:
    """The picture file on the board now: as this process last wrote it, else as the press
    saw it (after a restart, or while the board's id is not known yet: what this process
    wrote may then be another message's file)."""
    if board.picture_known and game.record.message_id == pressed.id:
        return board.picture
    return picture_of(pressed)
