"""Keeping each game's one board message true: edited in place, coalesced, re-posted if it
was deleted. The interaction that caused a change edits the board with its own response (the
fastest path); changes from timers edit it through the channel.

A board follows the log, never the other way round: a press is answered "it counted" once its
action is committed, whatever Discord says to the edit; a failed edit (429 after discord.py's
own retries, 5xx) is tried again through the channel with back-off, folded into one pending
edit that renders the latest state; after a restart every live game's board, and the boards of
games that ended just before it, are drawn again from their state. Nothing here ever holds a
game's lock, so a game never waits on a board that is behind it.

The board carries a picture of the table (`bot.board_pictures`). A press is answered with
the new text at once, over the picture the board already carries (kept by id, nothing
uploaded); the new picture is edited in afterwards by the game's refresh: one pass at a time
per game, later changes folded into it, and a picture only ever shown with the text of the
state it was drawn from. Its players are told their turn by `bot.pings`; what each board
shows is noted for storage by `bot.shown_seqs`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Any, Protocol

import discord

from bot import board_pictures
from bot.board_pictures import BoardPictures
from bot.board_state import BoardInputs, BoardState, Rendered, picture_of, screen_of
from bot.pings import TurnPings
from bot.render.board import render_board
from bot.render.panel import Panel
from bot.render.pictures import Picture
from bot.render.pictures.scene import Scene
from bot.replies import (
    TRANSPORT_ERRORS,
    answer_message,
    describe_failure,
    edit_panel,
    reply_lang,
    send_panel,
    show_in,
    tell_privately,
)
from bot.services.admin import GuildSettings
from bot.services.clock import Clock
from bot.services.live import GameUpdate, LiveGame
from bot.shown_seqs import ShownSeqs, may_be_behind
from classroom.i18n import pick_locale, t

log = logging.getLogger(__name__)
MISSING_PERMISSIONS = 50013  # Discord's code for a request the bot has no permission for
RETRY_DELAYS_S = (1.0, 2.0, 5.0, 10.0, 30.0, 60.0)  # then every minute until the board is true
CATCH_UP_PER_S = 20.0  # boards redrawn after a restart: well under the 50 requests/s limit
# A press waits at most this long for a picture edit under way on its board (then it is
# acknowledged and shown by the refresh): far inside Discord's 3 s for a first answer.
PRESS_WAITS_S = 1.0
HEAL_EVERY_S = 10.0  # a stale board pressed again and again is redrawn at most this often
FORGET_AFTER_S = 60.0  # a finished game's lock and picture are kept this long


class BoardGames(Protocol):
    """What the boards ask of the game service: to record where a game's board is, and a
    game to redraw (live, or rebuilt from storage once it has ended)."""

    async def set_board(
        self, game: LiveGame, message_id: int, thread_id: int | None = None
    ) -> None: ...

    async def for_board(self, game_id: int) -> LiveGame: ...

    async def store_shown_seqs(self, seqs: Mapping[int, int]) -> None: ...


class BoardPublisher:
    def __init__(
        self,
        games: BoardGames,
        settings: Callable[[int], Awaitable[GuildSettings]],
        channel: Callable[[int], discord.PartialMessageable],
        clock: Clock,
        *,
        pictures: bool = True,
    ) -> None:
        """``settings`` reads a server's settings (pictures and pings may be turned off);
        ``channel`` opens a channel by id, for the edits and posts nobody's press carries;
        ``pictures`` draws the table as a picture on every board."""
        self.games = games
        self.channel = channel
        self.clock = clock
        self.art = BoardPictures(settings, channel, pictures=pictures)
        self.drawer = self.art.drawer  # the worker process the pictures are drawn in
        self.pings = TurnPings(settings, channel, clock)
        self.shown_seqs = ShownSeqs(games.store_shown_seqs, self._spawn)
        self._boards: dict[int, BoardState] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._closing = False
        self.retry_delays_s: tuple[float, ...] = RETRY_DELAYS_S
        self.catch_up_per_s = CATCH_UP_PER_S
        self.press_waits_s = PRESS_WAITS_S
        self.forget_after_s = FORGET_AFTER_S

    @property
    def pictures(self) -> bool:
        """Whether the bot draws the table as a picture on its boards."""
        return self.art.pictures

    def _board(self, game_id: int) -> BoardState:
        board = self._boards.get(game_id)
        if board is None:
            board = self._boards[game_id] = BoardState()
        return board

    def render(self, game: LiveGame) -> Panel:
        """The board as text (its picture is added by `_panel`). Rendered once per state:
        the press's answer and the picture edit that follows it show the same text, so the
        second asks the first (a deadline passed in between renders it again, without it)."""
        now_ms = self.clock.now_ms()
        inputs = BoardInputs.of(game)
        board = self._board(game.id)
        last = board.rendered
        if last is not None and last.fits(inputs, now_ms):
            return last.panel
        lang = game.settings.locale
        screen = screen_of(game, lang)
        panel = render_board(screen, lang, now_ms)
        board.rendered = Rendered(inputs, screen.view, panel, now_ms)
        return panel

    def _panel(
        self, game: LiveGame, picture: Picture | None, kept: discord.Attachment | None = None
    ) -> Panel:
        panel = self.render(game)
        if picture is not None:
            return panel.with_picture(picture)
        return panel if kept is None else panel.keeping(kept)

    async def pictured(self, game: LiveGame) -> bool:
        """Whether the game's board shows a picture (`BoardPictures.pictured`)."""
        return await self.art.pictured(game, self._board(game.id))

    async def _picture(
        self, game: LiveGame, pictured: bool | None = None
    ) -> tuple[Picture | None, Scene | None]:
        """The picture of the game as it is now and what it shows (None: the board is text
        only, or the bot is stopping and the text stays). `pictured`: what the caller has
        just read from `pictured` (the server's settings are read once per refresh)."""
        if pictured is None:
            pictured = await self.pictured(game)
        if not pictured or self._closing:
            return None, None
        return await self.art.draw(game, self._board(game.id))

    async def _text_from_now(self, game: LiveGame) -> None:
        await self.art.text_from_now(game, self._board(game.id))

    async def respond(self, interaction: discord.Interaction, update: GameUpdate) -> None:
        """Show what the press changed: on the board itself when it was pressed there."""
        game = update.game
        message = interaction.message
        # A press can arrive before the board's message id is stored (Discord shows
        # the board as soon as the start is answered). Its buttons name this game, so the
        # pressed message is the board: edit it with the press's own response, never post
        # a second one through the channel.
        if (
            message is not None
            and game.record.message_id in (message.id, None)
            and not interaction.response.is_done()
        ):
            try:
                follow = await self._answer_press(interaction, message, game)
                await self.ping(game, interaction.user.id)
                if follow:
                    self._spawn(self.refresh(game))
                elif game.is_finished:  # no refresh follows to let the board go
                    self._forget_later(game.id)
                return
            except discord.NotFound:  # deleted while a modal was open: post a new board
                log.info("board of game %s was deleted; posting a new one", game.id)
                await self.refresh(game)
                # The one press that is answered in words: the board the pupil used is gone.
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
                self._retry_later(game, self._board(game.id))
                return
        if not interaction.response.is_done():
            # NotFound: the pressed message is gone; the caller's private reply answers.
            with contextlib.suppress(discord.HTTPException):
                await interaction.response.defer(ephemeral=True, thinking=False)
        await self.refresh(game)

    async def _answer_press(
        self, interaction: discord.Interaction, pressed: discord.Message, game: LiveGame
    ) -> bool:
        """The press's own answer: the new text at once over the picture the board already
        carries (kept by id: nothing drawn, nothing uploaded on the press); the new picture
        follows from the game's refresh. Returns whether that refresh is wanted.

        The board's lock orders this edit after a picture edit under way, so the file kept
        is the one on the board and a picture never lands over newer text. Should that edit
        be held up (Discord asked it to wait), the press is acknowledged at once instead and
        the refresh shows it."""
        if not interaction.app_permissions.attach_files:
            await self._text_from_now(game)
        pictured = await self.pictured(game)
        board = self._board(game.id)
        lock = board.lock
        try:
            async with asyncio.timeout(self.press_waits_s):
                await lock.acquire()
        except TimeoutError:
            log.info("board of game %s is busy; the press is shown by its refresh", game.id)
            await interaction.response.defer()
            return True
        try:
            panel, seq = self.render(game), game.next_seq
            kept = board_pictures.kept(game, board, pressed) if pictured else None
            await show_in(interaction, panel if kept is None else panel.keeping(kept))
            self._wrote(game, seq)
            if kept is None:
                board.wrote(None)
            if game.record.message_id is None:  # the pressed board is the board
                await self.games.set_board(game, pressed.id)
            # A tick ("has answered ✓") changes the text only: the picture kept shows the
            # table as it is, and no second edit follows.
            current = kept is not None and board.shows(self.art.scene(game, board)) is kept
        finally:
            lock.release()
        return pictured and not current

    async def _tell_counted(self, interaction: discord.Interaction, game: LiveGame) -> None:
        text = t("reply.counted", pick_locale(interaction.locale, interaction.guild_locale))
        try:
            await tell_privately(interaction, text)
        except TRANSPORT_ERRORS:  # Discord answers nothing at all now; the log holds it
            log.info("could not tell the presser that their move in game %s counted", game.id)

    def _wrote(self, game: LiveGame, seq: int) -> None:
        """The board now shows the game up to ``seq`` (the next action's): noted for storage,
        so that after a crash the boards the log is ahead of are known (`catch_up`)."""
        self.shown_seqs.wrote(game.id, seq)

    async def answer(self, interaction: discord.Interaction, game: LiveGame) -> None:
        """The board as the interaction's own answer (the start path): its message
        id comes back in the callback response (discord.py asks ``with_response``), so no
        GET of the original response. The board's lock is held until the id is known, so a
        timer's refresh meanwhile waits instead of posting a second board. The answer is the
        text; its picture follows as an edit, like a press's."""
        board = self._board(game.id)
        async with board.lock:
            panel, seq = self.render(game), game.next_seq
            message = await answer_message(interaction, **panel.fields())
            self._wrote(game, seq)
            board.wrote(None)
            await self.games.set_board(game, message.id)
        if not interaction.app_permissions.attach_files:
            await self._text_from_now(game)
        if await self.pictured(game):
            self._spawn(self.refresh(game))

    async def post(self, channel: discord.abc.Messageable, game: LiveGame) -> discord.Message:
        """A new board message for the game (at start, or when the old one was deleted)."""
        picture, shows = await self._picture(game)
        return await self._post(channel, game, picture, shows)

    async def _post(
        self,
        channel: discord.abc.Messageable,
        game: LiveGame,
        picture: Picture | None,
        shows: Scene | None,
    ) -> discord.Message:
        message = await self._written(game, picture, lambda panel: send_panel(channel, panel))
        self._board(game.id).wrote(picture_of(message), shows)
        thread_id = channel.id if isinstance(channel, discord.Thread) else None
        await self.games.set_board(game, message.id, thread_id=thread_id)
        await self.ping(game, None)
        return message

    async def on_update(self, update: GameUpdate) -> None:
        await self.refresh(update.game)

    async def refresh(self, game: LiveGame) -> None:
        """Edit the board to the game as it is now, its picture included. One pass per game
        at a time: a call meanwhile (or while a failed edit waits to be retried) is folded
        into it, the pass running once more for the latest state. Never raises for what
        Discord answers."""
        board = self._board(game.id)
        board.asked += 1
        if board.retrying is not None or board.refreshing:
            return
        board.refreshing = True
        try:
            while True:
                covered = await self._edit(game, board)
                if covered is None:
                    self._retry_later(game, board)
                    return
                if board.asked <= covered:
                    return
        finally:
            board.refreshing = False
            if game.is_finished:
                self._forget_later(game.id)

    async def _edit(self, game: LiveGame, board: BoardState) -> int | None:
        """One attempt to make the board true: the refreshes it covers (those asked before it
        wrote), or None when Discord should be asked again.

        The picture is drawn first, without the board's lock (a press meanwhile is answered
        at once), and shown only with the text of the state it was drawn from: when the
        game changed meanwhile, the newer state is drawn instead (the latest wins). When the
        picture on the board shows the table as it is already, it is kept (nothing drawn,
        nothing uploaded): only the text changes."""
        while True:
            drawn = game.state
            kept = None
            pictured = await self.pictured(game)
            if game.record.message_id is not None and pictured:
                kept = board.shows(self.art.scene(game, board))
            if kept is not None:
                picture, shows = None, board.scene
            else:
                picture, shows = await self._picture(game, pictured)
            async with board.lock:
                if game.state is not drawn or (kept is not None and board.picture is not kept):
                    continue
                covered = board.asked
                if not await self._write(game, picture, shows, kept):
                    return None
                break
        if not game.is_finished:
            await self.ping(game, None)
        return covered

    async def _write(
        self,
        game: LiveGame,
        picture: Picture | None,
        shows: Scene | None,
        kept: discord.Attachment | None,
    ) -> bool:
        if self._closing:  # no picture was drawn: an edit now would take the board's away
            return True
        channel = self.channel(game.channel_id)
        try:
            if game.record.message_id is None:
                await self._post(channel, game, picture, shows)
            else:
                await self._edit_board(channel, game, picture, shows, kept)
        except discord.Forbidden:
            log.warning("no permission to show the board of game %s", game.id)
        except TRANSPORT_ERRORS as refused:
            log.warning(
                "board of game %s not shown (%s); trying again later",
                game.id,
                describe_failure(refused),
            )
            return False
        return True

    async def _written(
        self,
        game: LiveGame,
        picture: Picture | None,
        write: Callable[[Panel], Awaitable[discord.Message]],
        kept: discord.Attachment | None = None,
    ) -> discord.Message:
        """The board written with its picture (a new one, or the one it carries: ``kept``);
        where the channel refuses files (Attach Files is missing), the text alone, and text
        from now on."""
        seq = game.next_seq
        try:
            message = await write(self._panel(game, picture, kept))
        except discord.Forbidden as refused:
            if (picture is None and kept is None) or refused.code != MISSING_PERMISSIONS:
                raise
            await self._text_from_now(game)
            seq = game.next_seq
            message = await write(self.render(game))
        self._wrote(game, seq)
        return message

    async def _edit_board(
        self,
        channel: discord.PartialMessageable,
        game: LiveGame,
        picture: Picture | None,
        shows: Scene | None,
        kept: discord.Attachment | None,
    ) -> None:
        assert game.record.message_id is not None
        board = channel.get_partial_message(game.record.message_id)
        try:
            message = await self._written(
                game, picture, lambda panel: edit_panel(board, panel), kept
            )
        except discord.NotFound:
            log.info("board of game %s is gone; posting a new one", game.id)
            if kept is not None:  # the kept file went with the message: draw it anew
                picture, shows = await self._picture(game)
            await self._post(channel, game, picture, shows)
            return
        self._board(game.id).wrote(picture_of(message), shows)

    def _forget_later(self, game_id: int) -> None:
        """A finished game's board state is let go, but not at once: the press that
        finished it may still be answering over the board's picture."""
        asyncio.get_running_loop().call_later(self.forget_after_s, self._forget, game_id)

    def _forget(self, game_id: int) -> None:
        board = self._boards.get(game_id)
        if board is not None and board.retrying is None and not board.refreshing:
            del self._boards[game_id]

    def retrying(self, game_id: int) -> bool:
        """Whether the game's board is behind and an edit waits to be tried again."""
        board = self._boards.get(game_id)
        return board is not None and board.retrying is not None

    def _retry_later(self, game: LiveGame, board: BoardState) -> None:
        """Ask Discord again with back-off until the board is true (one pending retry per
        game; changes meanwhile are drawn by it)."""
        if board.retrying is None:
            board.retrying = self._spawn(self._retry(game, board))

    async def _retry(self, game: LiveGame, board: BoardState) -> None:
        attempt = 0
        covered = None
        try:
            while covered is None:
                delays = self.retry_delays_s
                # the back-off, cut short by a press on the board (`heal`): the pupils are
                # there, told their move counted, and Discord takes presses again
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(delays[min(attempt, len(delays) - 1)]):
                        await board.hurry.wait()
                board.hurry.clear()
                attempt += 1
                covered = await self._edit(game, board)
            log.info("board of game %s is true again (attempt %d)", game.id, attempt)
        finally:
            board.retrying = None
            if game.is_finished:
                self._forget_later(game.id)
        if board.asked > covered:  # changed while the retry was written
            await self.refresh(game)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    # -- after a restart, and boards found behind ----------

    async def catch_up(self, games: Sequence[LiveGame], *, every_first: bool = False) -> None:
        """Draw every given board again from its game's state, paced to Discord's limits
        (start-up: the log may be ahead of what Discord shows). A board known to be behind
        its game (its last action was committed but never shown: a crash came between), or
        not known to be true, and every board of a game that ended lately, is drawn before
        this returns, so before the bot takes its first press: a pupil never presses a board
        that is behind and is refused. The others follow in the background; with
        ``every_first`` (boards may be *ahead* of their games: the database lost its last
        moves) every board is drawn before this returns."""
        behind = [g for g in games if every_first or may_be_behind(g)]
        await self._catch_up(behind)
        if behind:
            log.info("redrew %d board(s) behind their games", len(behind))
        first = {id(g) for g in behind}
        self._spawn(self._catch_up([g for g in games if id(g) not in first]))

    async def _catch_up(self, games: list[LiveGame]) -> None:
        pending = []
        for game in games:
            pending.append(self._spawn(self.refresh(game)))
            await asyncio.sleep(1 / self.catch_up_per_s)
        await asyncio.gather(*pending, return_exceptions=True)

    def heal(self, game_id: int, pressed: discord.Message | None) -> None:
        """A press was refused as stale: if it was pressed on the game's board, that board
        may be behind its game; redraw it (in the background, at most every few seconds)."""
        now = asyncio.get_running_loop().time()
        if pressed is None:
            return
        board = self._board(game_id)
        if board.healed_at is not None and now - board.healed_at < HEAL_EVERY_S:
            return
        board.healed_at = now
        self._spawn(self._heal(game_id, pressed.id))

    async def _heal(self, game_id: int, pressed_id: int) -> None:
        try:
            game = await self.games.for_board(game_id)
        except Exception:  # gone meanwhile (forget-me, purge): nothing to draw
            log.info("game %s could not be loaded to redraw its board", game_id)
            self._forget_later(game_id)
            return
        if game.record.message_id == pressed_id:
            # A retry waiting out its back-off (Discord refused the board a while: 429s)
            # is tried now: the pupil was told the board would catch up.
            board = self._board(game_id)
            if board.retrying is not None:
                board.hurry.set()
            await self.refresh(game)  # lets a finished game's board go when it is done
        elif game.is_finished:
            self._forget_later(game_id)

    async def close(self) -> None:
        """Stop retrying and drawing (the next start redraws every board anyway). The
        worker process is the whole process's and ends with it."""
        self._closing = True
        self.shown_seqs.stop()
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        await self.shown_seqs.store_now()  # a clean stop leaves no board to redraw

    async def ping(self, game: LiveGame, presser: int | None) -> None:
        """Tell a player it is their turn, where one should be told (`bot.pings`)."""
        await self.pings.ping(game, self._board(game.id), presser)
