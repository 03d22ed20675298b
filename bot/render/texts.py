"""`/mattekrig rules [game]` and `/mattekrig help`: the rule book for a 12-year-old.

Every sentence lives in the catalogues (a teacher can correct a word without touching
Python); this module only arranges them into embeds. The level list and command list are
built from the same catalogue keys the slash commands and the board use, so a level or
command name reads the same everywhere. Each game's embeds fit in one message (Discord allows
6000 characters across all embeds of a message).
"""

from __future__ import annotations

import discord

from classroom.i18n import Lang, t
from classroom.level_path import path_text
from classroom.text.locale import as_lang
from engine.descriptor import GameDescriptor
from engine.registry import GAMES
from engine.regnekrig import REGNEKRIG

HELP_COLOUR = discord.Colour(0x8B5CF6)
RULE_BOOK = "docs/rules.md"  # the full rule book, with every decision explained
COMMANDS = ("start", "stop", "rules", "help", "leaderboard", "stats", "my_data", "forget_me")


def command(name: str, lang: Lang) -> str:
    """A slash command as the pupil types it in their own Discord language."""
    group = t("group.mattekrig.name", lang)
    return f"`/{group} {t(f'cmd.{name}.name', lang)}`"


def _levels(lang: Lang) -> str:
    return "\n".join(
        f"**{n} · {t(f'level.{n}.name', lang)}** — {t(f'level.{n}.desc', lang)}"
        for n in REGNEKRIG.levels
    )


def _game_embed(game: GameDescriptor, lang: Lang) -> discord.Embed:
    name = t(game.name_key, lang)
    embed = discord.Embed(
        title=f"{game.emoji} {t('rules.title', lang, game=name)}",
        description=t(f"rules.{game.key}.intro", lang),
        colour=discord.Colour(game.colour),
    )
    for heading, body in game.rules:
        embed.add_field(name=t(heading, lang), value=t(body, lang), inline=False)
        if game.has_levels and heading == "rules.heading.round":
            embed.add_field(name=t("rules.heading.levels", lang), value=_levels(lang), inline=False)
    footer = t("rules.footer", lang, help=command("help", lang).strip("`"))
    embed.set_footer(text=f"{footer}\n{t('rules.book', lang, path=RULE_BOOK)}")
    return embed


def _overview(lang: Lang) -> discord.Embed:
    embed = discord.Embed(
        title=t("rules.overview.title", lang),
        description=t("rules.overview.text", lang),
        colour=HELP_COLOUR,
    )
    for game in GAMES.values():
        embed.add_field(
            name=f"{game.emoji} {t(game.name_key, lang)}",
            value=t(f"game.{game.key}.desc", lang),
            inline=False,
        )
    footer = t("rules.overview.footer", lang, rules=command("rules", lang).strip("`"))
    embed.set_footer(text=f"{footer}\n{t('rules.book', lang, path=RULE_BOOK)}")
    return embed


def _rules_text(game: str | None, lang: Lang) -> list[discord.Embed]:
    """The rules of one game (``regnekrig``, ``intervallkrig``, ``satsing``), or an overview of
    all three when no game (or an unknown one) is asked for. Fits in one message."""
    kind = GAMES.get(game or "")
    if kind is None:
        return [_overview(lang)]
    return [_game_embed(kind, lang)]


def _help_text(lang: Lang) -> list[discord.Embed]:
    """The commands and how a game flows, from challenge to rematch."""
    embed = discord.Embed(
        title=t("help.title", lang),
        description=t("help.intro", lang),
        colour=HELP_COLOUR,
    )
    commands = "\n".join(f"{command(c, lang)} — {t(f'cmd.{c}.desc', lang)}" for c in COMMANDS)
    embed.add_field(name=t("help.heading.commands", lang), value=commands, inline=False)
    embed.add_field(name=t("help.heading.flow", lang), value=t("help.flow", lang), inline=False)
    embed.add_field(
        name=t("help.heading.answers", lang), value=t("help.answers", lang), inline=False
    )
    embed.add_field(
        name=t("help.heading.buttons", lang), value=t("help.buttons", lang), inline=False
    )
    embed.add_field(
        name=t("help.heading.ratings", lang), value=t("help.ratings", lang), inline=False
    )
    embed.add_field(name=t("path.title", lang), value=path_text(lang), inline=False)
    embed.set_footer(text=t("help.footer", lang, rules=command("rules", lang).strip("`")))
    return [embed]


def rules_text(game: str | None, lang: str) -> list[discord.Embed]:
    """The rules of one game, or an overview of all three (no game, or an unknown one)."""
    return _rules_text(game, as_lang(lang))


def help_text(lang: str) -> list[discord.Embed]:
    """The commands and how a game flows, from challenge to rematch."""
    return _help_text(as_lang(lang))
