"""`/mattekrig stats`, rendered: games, rating and trend, best moves of the rounds asked (with
misses) per operation and level, streaks and the level to try next (the command is in
`cogs/stats.py`)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.render.board import clip
from bot.render.records import FIELD_VALUE_MAX, STATS_COLOUR, display, percent
from bot.services.figures import PlayerStats
from classroom.advice import practice_text as practice_text
from classroom.i18n import Lang, t
from classroom.summary import notes_text
from classroom.text.locale import as_lang
from classroom.text.notation import seconds_text
from storage.records import OperationTally, RatingLine

LEVEL_OPS = ("add", "multiply", "divide", "subtract")  # levels 1-4, named like the levels


def op_name(op: str, lang: Lang) -> str:
    if op in LEVEL_OPS:
        return t(f"level.{LEVEL_OPS.index(op) + 1}.name", lang)
    return t(f"records.op.{op}", lang)


def _tally_line(key: str, tally: OperationTally, lang: Lang, **values: object) -> str:
    """Best moves of the rounds asked (not "legal": a legal answer can still be a poor
    move), with the misses beside it."""
    line = t(
        key,
        lang,
        percent=percent(tally.best_rate, lang),
        best=tally.best,
        asked=tally.asked,
        **values,
    )
    if tally.missed:
        line += " " + t("stats.tally.missed", lang, missed=tally.missed)
    if tally.median_ms is not None:
        seconds = seconds_text(tally.median_ms, lang)
        line += " " + t("stats.tally.median", lang, seconds=seconds)
    if tally.mistakes:
        code, count = tally.mistakes[0]
        line += " " + t("stats.tally.mistake", lang, kind=t(f"mistake.{code}", lang), count=count)
    return line


def trend_text(deltas: Sequence[int]) -> str:
    """The last rating changes as arrows and their sum: ``▲▲▼ +21``."""
    if not deltas:
        return ""
    arrows = "".join("▲" if d > 0 else "▼" if d < 0 else "•" for d in deltas)
    total = sum(deltas)
    sign = "+" if total > 0 else "−" if total < 0 else "±"
    return f"{arrows} {sign}{abs(total)}"


def render_stats(stats: PlayerStats, lang: str, name: str | None = None) -> discord.Embed:
    """`/mattekrig stats`: games, rating and trend, correct answers per operation and level,
    best streak and the level to try next. ``name`` overrides the stored display name (the
    member as Discord shows them now)."""
    lang = as_lang(lang)
    who = display(stats.user_id, name or stats.display_name)
    embed = discord.Embed(title=clip(t("stats.title", lang, name=who), 256), colour=STATS_COLOUR)
    if not stats.games:
        embed.description = t("stats.nothing", lang)
        embed.add_field(name=t("stats.next.title", lang), value=_suggestion(stats, lang))
        return embed
    games = t(
        "stats.games.value",
        lang,
        games=stats.games,
        wins=stats.wins,
        draws=stats.draws,
        losses=stats.losses,
    )
    if stats.win_rate is not None:
        games += "\n" + t("stats.games.win_rate", lang, percent=percent(stats.win_rate, lang))
    embed.add_field(name=t("stats.games.title", lang), value=games, inline=False)

    ratings = [
        t(
            "stats.rating.line",
            lang,
            game=t(f"game.{line.game}.name", lang),
            scope=t("stats.scope.all" if line.scope == "all" else "stats.scope.season", lang),
            rating=line.rating,
            trend=trend_text(line.trend),
        ).rstrip()
        for line in _distinct(stats.ratings)
    ]
    embed.add_field(
        name=t("stats.rating.title", lang),
        value=clip("\n".join(ratings) or t("stats.rating.none", lang), FIELD_VALUE_MAX),
        inline=False,
    )

    if stats.answers.asked:
        accuracy = [_tally_line("stats.accuracy.all", stats.answers, lang)]
        accuracy.extend(
            _tally_line("stats.accuracy.op", tally, lang, name=op_name(op, lang))
            for op, tally in stats.operations.items()
        )
    else:
        accuracy = [t("stats.accuracy.none", lang)]
    if stats.notes:  # RULES §2.6: typed again, never a mistake
        accuracy.append(t("summary.notes", lang, notes=notes_text(stats.notes, lang)))
    embed.add_field(
        name=t("stats.accuracy.title", lang),
        value=clip("\n".join(accuracy), FIELD_VALUE_MAX),
        inline=False,
    )
    if stats.levels:
        levels = [
            _tally_line(
                "stats.level", tally, lang, level=level, name=t(f"level.{level}.name", lang)
            )
            for level, tally in stats.levels.items()
        ]
        embed.add_field(
            name=t("stats.levels.title", lang),
            value=clip("\n".join(levels), FIELD_VALUE_MAX),
            inline=False,
        )
    embed.add_field(
        name=t("stats.streak.title", lang),
        value=t("stats.streak.value", lang, best=stats.best_streak, current=stats.current_streak),
        inline=False,
    )
    embed.add_field(name=t("stats.next.title", lang), value=_suggestion(stats, lang), inline=False)
    embed.set_footer(text=t("stats.footer", lang))
    return embed


def _suggestion(stats: PlayerStats, lang: Lang) -> str:
    s = stats.suggestion
    if s.practice is not None:
        return practice_text(s.practice, lang)
    return t(
        f"stats.next.{s.rule}",
        lang,
        level=s.level,
        name=t(f"level.{s.level}.name", lang),
        current=s.current if s.current is not None else s.level,
    )


def _distinct(lines: Sequence[RatingLine]) -> list[RatingLine]:
    """The rating lines worth reading: a season rating equal to the all-time one (the first
    season, say) is the same number told twice, so only the all-time line is kept."""
    all_time = {(line.game, line.rating, line.games) for line in lines if line.scope == "all"}
    return [
        line
        for line in lines
        if line.scope == "all" or (line.game, line.rating, line.games) not in all_time
    ]
