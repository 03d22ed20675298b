"""Every press of one of our buttons or selects (a custom_id ``mk:…``), handed to its item.

discord.py hands a press to a `DynamicItem` only after finding the pressed custom_id among the
components of the interaction's message (it builds a whole `View` from the message, on every
press, to look), and drops the press in silence when it is not there. That happens to a press
made on a board that has moved on since: two pupils pressing Flip at the same moment, or a
double click. Discord delivers the second press with the message as it is *now*, without the
pressed button, and the pupil would see "This interaction failed".

So the bot registers no dynamic item with discord.py: the client's ``on_interaction`` calls
`handle_press` for every component interaction, which finds the item by the custom_id alone
and runs it. What was pressed is then judged by the game, as every press is: a press from an
earlier decision window is stale and gets the same private explanation as any stale press, and
an id of ours that no item takes is answered as an unknown button."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.app import App
from bot.custom_ids import PREFIX
from bot.replies import lang_of, report_error, send_private
from bot.ui.admin import SeasonItem
from bot.ui.items import BOARD_ITEMS, ItemT, MattekrigItem
from bot.ui.leaderboard import PageItem
from bot.ui.privacy import ForgetItem
from bot.ui.report import ReportPageItem
from bot.ui.sessions import MyLineItem
from classroom.i18n import t

log = logging.getLogger(__name__)

ITEMS: tuple[type[MattekrigItem], ...] = (
    *BOARD_ITEMS,
    PageItem,
    ForgetItem,
    SeasonItem,
    MyLineItem,
    ReportPageItem,
)
BUTTON = discord.ComponentType.button.value
OURS = PREFIX + ":"


def _pressed(component_type: int, custom_id: str) -> ItemT:
    """The component as pressed, for the item to wrap (items read what they need from the
    custom_id and the interaction's data, never from the message)."""
    if component_type == BUTTON:
        return discord.ui.Button(custom_id=custom_id)
    return discord.ui.Select(custom_id=custom_id)


async def handle_press(interaction: discord.Interaction[App]) -> bool:
    """Answer a press of one of our components; False when the interaction is not one."""
    if interaction.type is not discord.InteractionType.component:
        return False
    data: Any = interaction.data
    custom_id = data.get("custom_id") if isinstance(data, dict) else None
    if not isinstance(custom_id, str) or not custom_id.startswith(OURS):
        return False
    try:
        for item_class in ITEMS:
            match = item_class.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None:
                pressed = _pressed(data.get("component_type"), custom_id)
                item = await item_class.from_custom_id(interaction, pressed, match)
                await item.callback(interaction)  # answers every press, errors included
                return True
        await send_private(interaction, t("error.unknown_button", lang_of(interaction)))
    except Exception as error:  # e.g. an id too long for a component: a press still answered
        await report_error(interaction, error)
    return True
