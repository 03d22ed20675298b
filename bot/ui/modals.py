# mypy: disable-error-code="override"
# (discord.py types item callbacks for any client; these items are only ever added to the App)
"""The answer modal (regn mode). Its submissions are handled by `handle_answer_submit`, called
from the client's `on_interaction` for every `mk:answer` modal: a modal that was open on a
pupil's screen across a bot restart still reaches the game that way (discord.py only routes
submits to modals it holds in memory)."""

from __future__ import annotations

from typing import Any

import discord

from bot.app import App
from bot.custom_ids import CustomId, parse
from bot.render.board import AnswerModalText
from bot.render.buttons import CHOICE_VERBS, choice_of
from bot.replies import reply_lang, report_error, send_private
from classroom.errors import UserFacingError
from classroom.text.board_text import answer_explanation
from engine.actions import Shape
from engine.expressions import MAX_ANSWER_LENGTH

ANSWER_FIELD = "answer_text"


class AnswerModal(discord.ui.Modal):
    """One text field in a Label that shows the side's own cards (and the target)."""

    def __init__(self, custom_id: str, text: AnswerModalText) -> None:
        super().__init__(title=text.title, custom_id=custom_id)
        self.answer: discord.ui.TextInput[AnswerModal] = discord.ui.TextInput(
            custom_id=ANSWER_FIELD,
            placeholder=text.placeholder or None,
            max_length=MAX_ANSWER_LENGTH,
            required=True,
        )
        self.add_item(
            discord.ui.Label(
                text=text.label, description=text.description or None, component=self.answer
            )
        )

    async def on_submit(self, interaction: discord.Interaction[App]) -> None:
        """Deliberately empty: `handle_answer_submit` answers every submission (see module)."""


def submitted_text(data: Any) -> str | None:
    """The answer text from a modal's payload (plain action rows or discord.py 2.6 labels)."""
    if isinstance(data, dict):
        if data.get("custom_id") == ANSWER_FIELD and isinstance(data.get("value"), str):
            return str(data["value"])
        for value in data.values():
            found = submitted_text(value)
            if found is not None:
                return found
    elif isinstance(data, list):
        for value in data:
            found = submitted_text(value)
            if found is not None:
                return found
    return None


async def handle_answer_submit(interaction: discord.Interaction[App]) -> bool:
    """Answer a submitted answer modal (the form of any game's typed choice, its id the
    control's); False when the interaction is not one."""
    if interaction.type is not discord.InteractionType.modal_submit or interaction.data is None:
        return False
    cid: CustomId | None = parse(interaction.data.get("custom_id"))
    if cid is None or cid.verb not in CHOICE_VERBS or cid.game_id is None:
        return False
    bot = interaction.client
    try:
        game = bot.games.live(cid.game_id)
        kind = choice_of(game.state.config.game, cid.verb, cid.arg)
        if kind is None or kind.shape is not Shape.TYPE:
            raise UserFacingError("error.unknown_button")
        text = submitted_text(interaction.data.get("components")) or ""
        update = await bot.games.choose(
            cid.game_id, interaction.user.id, cid.window, kind, text=text
        )
        await bot.boards.respond(interaction, update)
        # Quiet: an accepted answer is acknowledged by the board's ✓; only an answer that
        # counts as no value is explained (RULES §2.2), so the mistake teaches something.
        lang = reply_lang(interaction, update.game.settings.locale)
        reply = answer_explanation(update.verdict, lang)
        if reply is not None:
            await send_private(interaction, reply)
    except Exception as error:
        await report_error(interaction, error)
    return True
