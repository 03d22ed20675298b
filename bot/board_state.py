"""What the board publisher (`bot.boards`) keeps of each game's board, and what a board shows
of a live game: one `BoardState` per board, holding everything the publisher remembers for
it, so that all of it is let go together once the game is over."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import discord

from bot.render.display_names import side_names
from bot.render.panel import Panel
from bot.render.pictures import FILENAME
from bot.render.pictures.scene import Scene
from bot.render.screen import GameScreen
from bot.services.live import LiveGame
from classroom.text.locale import as_lang
from engine.view import View, view


@dataclass(frozen=True, slots=True)
class BoardInputs:
    """Everything of a live game its board's text is rendered from. Objects the services
    replace on every change (the state, the record, the settings) are compared by identity:
    a new one is a change, whatever it holds."""

    state: object
    record: object
    settings: object
    autoplay: bool
    ended: object
    answer_due_ms: int | None
    time_limit_due_ms: int | None

    @classmethod
    def of(cls, game: LiveGame) -> BoardInputs:
        return cls(
            game.state,
            game.record,
            game.settings,
            game.autoplay,
            game.ended,
            game.board_due_ms,
            game.time_limit_due_ms,
        )

    def same(self, other: BoardInputs) -> bool:
        return (
            self.state is other.state
            and self.record is other.record
            and self.settings is other.settings
            and self.ended is other.ended
            and (self.autoplay, self.answer_due_ms, self.time_limit_due_ms)
            == (other.autoplay, other.answer_due_ms, other.time_limit_due_ms)
        )


@dataclass(frozen=True, slots=True)
class Rendered:
    inputs: BoardInputs
    seen: View
    panel: Panel
    at_ms: int

    def fits(self, inputs: BoardInputs, now_ms: int) -> bool:
        """Still the board's text: nothing it shows changed, and no deadline it shows has
        passed since (a passed deadline leaves the board)."""
        dues = (inputs.answer_due_ms, inputs.time_limit_due_ms)
        passed = any(due is not None and self.at_ms < due <= now_ms for due in dues)
        return not passed and self.inputs.same(inputs)


@dataclass(eq=False)
class BoardState:
    """Everything kept for one game's board, let go as one a while after its game is over."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one write to it at a time
    refreshing: bool = False  # a pass is bringing it up to date
    asked: int = 0  # refreshes asked for so far; a pass covers those asked before it writes
    picture_known: bool = False  # whether `picture` is what this process last wrote
    picture: discord.Attachment | None = None  # the picture file on it
    scene: Scene | None = None  # what that picture shows, when known
    text_only: bool = False  # its channel refuses attachments
    retrying: asyncio.Task[None] | None = None  # an edit that failed waits to be tried again
    # set by a press on the board while it is behind: the retry waiting goes at once
    hurry: asyncio.Event = field(default_factory=asyncio.Event)
    healed_at: float | None = None  # when a stale press last redrew it (loop time)
    pinged: int | None = None  # the decision window its players were last pinged for
    rendered: Rendered | None = None  # its text, last rendered
    viewed: tuple[object, View] | None = None  # a state not rendered yet, and its view

    def wrote(self, picture: discord.Attachment | None, scene: Scene | None = None) -> None:
        self.picture_known, self.picture = True, picture
        self.scene = scene if picture is not None else None

    def seen(self, game: LiveGame) -> View:
        """The engine's view of the game now: the one its text was rendered from when that is
        of this state (a press's answer, its picture and its ping share it), else the one
        view read of this state before its text (so its picture's scene is built once)."""
        last = self.rendered
        if last is not None and last.inputs.state is game.state:
            return last.seen
        viewed = self.viewed
        if viewed is None or viewed[0] is not game.state:
            viewed = self.viewed = (game.state, view(game.state, None))
        return viewed[1]

    def shows(self, scene: Scene | None) -> discord.Attachment | None:
        """The picture file on the board when it shows `scene` already (no new picture is
        needed), else None."""
        if scene is None or not self.picture_known or self.scene != scene:
            return None
        return self.picture


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
        answer_due_ms=game.board_due_ms,
        time_limit_due_ms=game.time_limit_due_ms,
        preset=game.settings.preset,
    )


def picture_of(message: discord.Message) -> discord.Attachment | None:
    """The board's picture file among a message's attachments."""
    return next((a for a in message.attachments if a.filename == FILENAME), None)
