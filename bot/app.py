"""What the Discord layer uses of the running bot: the services a command or a button calls,
the boards it shows games on, and the clock.

Buttons, modals and commands (bot/ui, cogs) type their interactions as
``discord.Interaction[App]`` and reach all of this through ``interaction.client``. They never
import the client (bot/client.py): it builds every part, loads the cogs and registers the
items, so it stands above them and nothing below imports it.

discord.py types an interaction's client as a `discord.Client`, which a `typing.Protocol`
cannot be: `App` is a `commands.Bot` that only declares what the Discord layer may use (no
storage, no result recorder), and `bot.client.MattekrigBot` is the bot that sets it.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord
from discord.ext import commands

from bot.services.admin import AdminService
from bot.services.assignments import AssignmentService
from bot.services.clock import Clock
from bot.services.games import GameService
from bot.services.invitations import InvitationService
from bot.services.leaderboard import LeaderboardService
from bot.services.live import GameUpdate, LiveGame
from bot.services.privacy import PrivacyService
from bot.services.scheduler import Scheduler
from bot.services.sessions import SessionService
from bot.services.stats import StatsService
from bot.services.summary import SummaryService
from bot.services.teachers import TeacherService


class Boards(Protocol):
    """What a press, a command or a start asks of the games' boards (`bot.boards`)."""

    async def respond(self, interaction: discord.Interaction[Any], update: GameUpdate) -> None:
        """Show what a press changed, on the pressed board when it is the board."""

    async def answer(self, interaction: discord.Interaction[Any], game: LiveGame) -> None:
        """The new game's board as the interaction's own answer."""

    async def post(self, channel: discord.abc.Messageable, game: LiveGame) -> discord.Message:
        """A new board message for the game in ``channel``."""

    async def refresh(self, game: LiveGame) -> None:
        """Edit the game's board to the game as it is now."""

    def heal(self, game_id: int, pressed: discord.Message | None) -> None:
        """A press was refused as stale: redraw the pressed board if it is behind its game."""


class App(commands.Bot):
    """The running bot as the Discord layer sees it."""

    clock: Clock
    boards: Boards
    games: GameService
    invitations: InvitationService
    summaries: SummaryService
    leaderboards: LeaderboardService
    stats: StatsService
    privacy: PrivacyService
    admin: AdminService
    teachers: TeacherService
    sessions: SessionService
    assignments: AssignmentService
    scheduler: Scheduler
