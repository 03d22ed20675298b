"""A tiny discord.py bot used by the fake's own tests (the real bot is tested elsewhere).

``/mattekrig start`` posts a board with a view; ``/mattekrig run`` runs whatever coroutine the
test put in ``bot.action`` so each test can exercise one discord.py call; ``CounterButton`` is a
``DynamicItem`` whose state lives in its custom_id, so it works on messages from before a
restart. Exceptions raised by actions are collected in ``bot.errors`` for the test to inspect.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

Action = Callable[[discord.Interaction], Awaitable[Any]]


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"counter:(?P<n>\d+)"):
    """A button that counts its presses in its own custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(label=f"Pressed {n}", custom_id=f"counter:{n}"),
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, SampleBot)
        bot.record_press(self.n)
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(self.n + 1))
        await interaction.response.edit_message(content=f"count {self.n + 1}", view=view)


class BoardView(discord.ui.View):
    """An ordinary (in-memory) view: a join button and a level select."""

    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.joined: list[int] = []

    @discord.ui.button(label="Bli med", custom_id="board:join")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        self.joined.append(interaction.user.id)
        await interaction.response.edit_message(content=f"players: {len(self.joined)}")

    @discord.ui.button(label="Oppdater", custom_id="board:refresh")
    async def refresh(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="oppdatert")

    @discord.ui.select(
        custom_id="board:level",
        options=[discord.SelectOption(label=f"Nivå {n}", value=str(n)) for n in (1, 2, 3)],
    )
    async def level(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"level {select.values[0]}", ephemeral=True)


class AnswerModal(discord.ui.Modal, title="Ditt svar"):
    """A modal with one text input inside a Label (discord.py ≥ 2.6 style)."""

    answer: discord.ui.Label[Any] = discord.ui.Label(
        text="Svar", component=discord.ui.TextInput(custom_id="answer", max_length=20)
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        assert isinstance(self.answer.component, discord.ui.TextInput)
        bot = interaction.client
        assert isinstance(bot, SampleBot)
        bot.answers.append(self.answer.component.value)
        await interaction.response.send_message(f"svar: {self.answer.component.value}")


class Mattekrig(app_commands.Group):
    """The sample command group (``/mattekrig ...``)."""

    def __init__(self, bot: SampleBot) -> None:
        super().__init__(name="mattekrig", description="Mattekrig")
        self.bot = bot

    @app_commands.command(description="Start a game")
    @app_commands.describe(mode="Which game", rounds="How many rounds")
    @app_commands.choices(
        mode=[
            app_commands.Choice(name="Regnekrig", value="regnekrig"),
            app_commands.Choice(name="Intervallkrig", value="intervallkrig"),
        ]
    )
    async def start(self, interaction: discord.Interaction, mode: str, rounds: int = 3) -> None:
        view = BoardView()
        self.bot.views.append(view)
        embed = discord.Embed(title=mode, description=f"{rounds} rounds")
        await interaction.response.send_message(
            f"{mode} by {interaction.user.id}", embed=embed, view=view
        )

    @app_commands.command(description="Pick a level")
    @app_commands.describe(level="Level 1-5")
    async def level(self, interaction: discord.Interaction, level: str) -> None:
        await interaction.response.send_message(f"level {level}")

    @level.autocomplete("level")
    async def level_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=f"Nivå {n}", value=str(n))
            for n in range(1, 6)
            if current in str(n)
        ]

    @app_commands.command(description="Run the test's action")
    async def run(self, interaction: discord.Interaction) -> None:
        await self.bot.run_action(interaction)


class SampleBot(discord.Client):
    """A client with a command tree synced to the fake's guild and a dynamic button."""

    def __init__(self, guild_id: int, *, database: Path | None = None, **options: Any) -> None:
        options.setdefault("intents", discord.Intents.default())
        options.setdefault("guild_ready_timeout", 0)
        super().__init__(**options)
        self.guild_id = guild_id
        self.database = database
        self.tree: app_commands.CommandTree[SampleBot] = app_commands.CommandTree(self)
        self.action: Action | None = None
        self.errors: list[BaseException] = []
        self.results: list[Any] = []
        self.presses: list[int] = []
        self.answers: list[str] = []
        self.views: list[BoardView] = []
        self.socket_events: list[str] = []

    async def setup_hook(self) -> None:
        guild = discord.Object(self.guild_id)
        self.tree.add_command(Mattekrig(self), guild=guild)
        self.add_dynamic_items(CounterButton)
        await self.tree.sync(guild=guild)
        if self.database is not None:
            with contextlib.closing(sqlite3.connect(self.database)) as db, db:
                db.execute("CREATE TABLE IF NOT EXISTS presses (n INTEGER NOT NULL)")

    def tracks(self, message_id: int) -> bool:
        """Whether discord.py has stored the view sent with the message: it does so only
        after the response that sent it returns, so a press sent the moment the fake shows
        the message could still find no view to dispatch to."""
        return self._connection._view_store.is_message_tracked(message_id)

    def record_press(self, n: int) -> None:
        """Remember a press in memory and, when the bot has a database, in SQLite."""
        self.presses.append(n)
        if self.database is not None:
            with contextlib.closing(sqlite3.connect(self.database)) as db, db:
                db.execute("INSERT INTO presses (n) VALUES (?)", (n,))

    async def run_action(self, interaction: discord.Interaction) -> None:
        if self.action is None:
            return
        try:
            self.results.append(await self.action(interaction))
        except Exception as error:  # collected for the test to inspect
            self.errors.append(error)

    async def on_socket_event_type(self, event: str) -> None:
        self.socket_events.append(event)
