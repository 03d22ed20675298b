"""What the record screens (leaderboard, stats, privacy, the teacher's) share: their colours,
Discord's text limits, and how a percentage, a date and a stored name are shown. Each screen
is drawn in its own module (`leaderboard`, `stats`, `privacy`, `admin`), beside its command in
cogs/ and its buttons in bot/ui/ of the same name."""

from __future__ import annotations

from datetime import UTC, datetime

import discord

from bot.custom_ids import Verb, build
from bot.render.display_names import clean_name
from bot.render.panel import Panel
from classroom.i18n import Lang, t

LEADERBOARD_COLOUR = discord.Colour(0xEAB308)  # gold
STATS_COLOUR = discord.Colour(0x3B82F6)  # blue
ADMIN_COLOUR = discord.Colour(0x6B7280)  # grey
DANGER_COLOUR = discord.Colour(0xDC2626)  # red
DESCRIPTION_MAX = 4096
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048


def percent(value: float | None, lang: Lang) -> str:
    """A whole percentage in the language's own style (``85 %`` in nb/nn/sv, ``85%`` in en)."""
    return t("records.percent", lang, percent=0 if value is None else round(value * 100))


def date(ms: int) -> str:
    """A date every client shows in its own format and time zone."""
    return discord.utils.format_dt(datetime.fromtimestamp(ms / 1000, UTC), "D")


def display(user_id: int, name: str | None) -> str:
    """A stored display name made safe, or a mention (shown as the name, never a ping: every
    message here is sent with no allowed mentions)."""
    return clean_name(name) if name else f"<@{user_id}>"


def render_question(embed: discord.Embed, *, yes: tuple[str, str], no: tuple[str, str]) -> Panel:
    """A question with a red button and a grey one, each a (label, custom_id): the shape of
    every confirmation before something cannot be undone."""
    view = discord.ui.View(timeout=None)
    for (label, custom_id), style in (
        (yes, discord.ButtonStyle.danger),
        (no, discord.ButtonStyle.secondary),
    ):
        view.add_item(discord.ui.Button(label=label, custom_id=custom_id, style=style))
    return Panel(content=None, embed=embed, view=view)


def page_turner(verb: Verb, ref: int, page: int, pages: int, arg: str) -> discord.ui.View:
    """◀ ▶ to the page before and after ``page`` of ``pages`` (each greyed at its end): the
    leaderboard's and the report's, each id naming the page it shows."""
    view = discord.ui.View(timeout=None)
    for emoji, to, disabled in (("◀️", page - 1, page == 0), ("▶️", page + 1, page >= pages - 1)):
        view.add_item(
            discord.ui.Button(
                emoji=emoji,
                custom_id=build(verb, ref, max(0, min(to, pages - 1)), arg),
                disabled=disabled,
                style=discord.ButtonStyle.secondary,
            )
        )
    return view


def render_done(text: str, *, colour: discord.Colour = ADMIN_COLOUR) -> Panel:
    """A confirmation message after its button was pressed: the sentence, no buttons."""
    return Panel(
        content=None,
        embed=discord.Embed(description=text, colour=colour),
        view=discord.ui.View(timeout=None),
    )
