"""The teacher's screens, rendered: the new-season question and the server's settings (the
commands are in `cogs/admin.py`, the season buttons in `bot/ui/admin.py`)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.custom_ids import Verb, build
from bot.render.board import clip
from bot.render.panel import Panel
from bot.render.records import ADMIN_COLOUR, DANGER_COLOUR, FIELD_VALUE_MAX, date, render_question
from classroom.i18n import t
from classroom.level_path import path_text
from classroom.text.locale import as_lang
from storage.records import (
    PRESET_KEYS,
    SERVER_WIDE,
    ClassPreset,
    GuildSettings,
    NamedPreset,
    Season,
)


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

    def switch(key: str, on: bool) -> str:
        return t(f"admin.settings.{key}.{'on' if on else 'off'}", lang)

    for name, value in (
        ("admin.settings.board", t(f"admin.settings.board.{settings.board}", lang)),
        ("admin.settings.channels", clip(channels, FIELD_VALUE_MAX)),
        ("admin.settings.language", language),
        ("admin.settings.threads", switch("threads", settings.threads)),
        ("admin.settings.pings", switch("pings", settings.pings)),
        ("admin.settings.answer_form", t(f"answer_form.{settings.answer_form}.name", lang)),
        ("admin.settings.public_board", t(f"choice.sort.{settings.public_board}", lang)),
        ("admin.settings.pictures", switch("pictures", settings.pictures)),
    ):
        embed.add_field(name=t(name, lang), value=value, inline=False)
    return embed


def preset_lines(preset: ClassPreset | NamedPreset, lang: str) -> list[str]:
    """A preset's options, one short line each, in the game's own words."""
    lang = as_lang(lang)
    options = preset.options
    lines = []
    for key in PRESET_KEYS:
        if key not in options:
            continue
        value = options[key]
        if key == "game":
            shown = t(f"game.{value}.name", lang)
        elif key == "level":
            shown = t("board.level", lang, level=value, name=t(f"level.{value}.name", lang))
        elif key in ("deck", "mode"):
            shown = t(f"{key}.{value}.name", lang)
        elif key in ("answer_form", "computer"):
            shown = t(f"choice.{key}.{value}", lang)
        else:
            shown = str(value)
        lines.append(f"• {t(f'preset.option.{key}', lang)}: {shown}")
    if preset.locked:
        lines.append(f"🔒 {t('preset.locked_note', lang)}")
    return lines or [t("preset.empty", lang)]


def render_preset_embed(preset: ClassPreset, lang: str) -> discord.Embed:
    """The teacher's setup as a pupil sees it under `/mattekrig help` (a class session's
    named preset says its name)."""
    lang = as_lang(lang)
    lines = preset_lines(preset, lang)
    if preset.name is not None:
        lines.insert(0, t("preset.session_named", lang, name=preset.name))
    return discord.Embed(
        title=t("preset.help_title", lang),
        description=clip("\n".join(lines), FIELD_VALUE_MAX),
        colour=ADMIN_COLOUR,
    )


MAX_PRESET_FIELDS = 24  # Discord's limit of 25 fields in an embed, less the level path


def render_presets(
    presets: Sequence[ClassPreset],
    lang: str,
    *,
    note: str | None = None,
    named: Sequence[NamedPreset] = (),
) -> discord.Embed:
    """The server's presets, for the teacher: the server's own first, then each channel's,
    then the named ones (as many as an embed holds)."""
    lang = as_lang(lang)
    embed = discord.Embed(
        title=t("preset.title", lang),
        description=note or (None if presets or named else t("preset.none", lang)),
        colour=ADMIN_COLOUR,
    )
    fields: list[tuple[str, ClassPreset | NamedPreset]] = []
    for preset in presets:
        if preset.channel_id == SERVER_WIDE:
            fields.append((t("preset.server", lang), preset))
        else:
            fields.append((t("preset.channel", lang, channel=f"<#{preset.channel_id}>"), preset))
    fields += [(t("preset.named", lang, name=saved.name), saved) for saved in named]
    for name, shown in fields[:MAX_PRESET_FIELDS]:
        value = clip("\n".join(preset_lines(shown, lang)), FIELD_VALUE_MAX)
        embed.add_field(name=name, value=value, inline=False)
    # What to set for a year group: the level path, beside the presets it helps to choose.
    embed.add_field(name=t("path.title", lang), value=path_text(lang), inline=False)
    return embed
