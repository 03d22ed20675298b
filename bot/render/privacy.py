"""`/mattekrig forget-me`, rendered: the question before anything is deleted (the command is
in `cogs/privacy.py`, its buttons in `bot/ui/privacy.py`)."""

from __future__ import annotations

import discord

from bot.custom_ids import Verb, build
from bot.render.panel import Panel
from bot.render.records import DANGER_COLOUR, render_question
from classroom.i18n import t
from classroom.text.locale import as_lang


def render_forget_confirm(user_id: int, lang: str) -> Panel:
    """The one chance to change one's mind: a red button only the asker can press."""
    lang = as_lang(lang)
    embed = discord.Embed(
        title=t("privacy.forget.title", lang),
        description=t("privacy.forget.text", lang),
        colour=DANGER_COLOUR,
    )
    return render_question(
        embed,
        yes=(t("button.forget_yes", lang), build(Verb.FORGET, user_id, None, "yes")),
        no=(t("button.forget_no", lang), build(Verb.FORGET, user_id, None, "no")),
    )
