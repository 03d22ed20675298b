"""The teacher's screens, rendered: the new-season question and the server's settings (the
commands are in `cogs/admin.py`, the season buttons in `bot/ui/admin.py`)."""

from __future__ import annotations

import discord

from bot.i18n import t
from bot.render.board import clip
from bot.render.locale import as_lang
from bot.render.panel import Panel
from bot.render.records import ADMIN_COLOUR, DANGER_COLOUR, FIELD_VALUE_MAX, date, render_question
from bot.storage.records import GuildSettings, Season
from bot.ui.custom_ids import Verb, build


def render_season_confirm(guild_id: int, current: Season | None, lang: str) -> Panel:
    """What a new season does, with a red button (Manage Server only) and Cancel. The round
    slot of both ids holds the season running now (0: none), so a second press, or a press
    after someone else started a season, is refused instead of starting yet another."""
    lang = as_lang(lang)
    running = current.season if current is not None else 0
    if current is None:
        now = t("admin.season.none", lang)
        number = 1
    else:
        now = t("admin.season.current", lang, season=current.season, date=date(current.started_at))
        number = current.season + 1
    embed = discord.Embed(
        title=t("admin.season.title", lang),
        description=f"{now}\n\n{t('admin.season.confirm', lang)}",
        colour=DANGER_COLOUR,
    )
    return render_question(
        embed,
        yes=(
            t("button.season_new", lang, season=number),
            build(Verb.SEASON, guild_id, running, "new"),
        ),
        no=(t("button.cancel", lang), build(Verb.SEASON, guild_id, running, "no")),
    )


def render_settings(
    settings: GuildSettings, lang: str, server_lang: str, *, saved: bool = False
) -> discord.Embed:
    """The teacher's settings as they are now. ``server_lang``: the language Discord reports
    for the server (what "the server's language" means today)."""
    lang = as_lang(lang)
    if settings.channels:
        channels = ", ".join(f"<#{c}>" for c in settings.channels)
    else:
        channels = t("admin.settings.channels.all", lang)
    if settings.language is None:
        language = t(
            "admin.settings.language.server",
            lang,
            language=t(f"choice.language.{as_lang(server_lang)}", lang),
        )
    else:
        language = t(f"choice.language.{as_lang(settings.language)}", lang)
    language += "\n" + t("admin.settings.language.note", lang)
    embed = discord.Embed(
        title=t("admin.settings.title", lang),
        description=t("admin.settings.saved", lang) if saved else None,
        colour=ADMIN_COLOUR,
    )
    threads = "admin.settings.threads.on" if settings.threads else "admin.settings.threads.off"
    for name, value in (
        ("admin.settings.board", t(f"admin.settings.board.{settings.board}", lang)),
        ("admin.settings.channels", clip(channels, FIELD_VALUE_MAX)),
        ("admin.settings.language", language),
        ("admin.settings.threads", t(threads, lang)),
        ("admin.settings.answer_form", t(f"answer_form.{settings.answer_form}.name", lang)),
    ):
        embed.add_field(name=t(name, lang), value=value, inline=False)
    return embed
