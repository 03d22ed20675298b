"""A class session, rendered: the teacher's confirmation and the summary posted when every
game of the session has ended (`bot/services/sessions.py` makes it)."""

from __future__ import annotations

import discord

from bot.i18n import t
from bot.render.board import clip, when
from bot.render.locale import as_lang
from bot.render.records import (
    ADMIN_COLOUR,
    DESCRIPTION_MAX,
    FIELD_VALUE_MAX,
    STATS_COLOUR,
    date,
    display,
    percent,
)
from bot.render.stats import op_name
from bot.reports import PupilLine, SessionSummary
from bot.storage.records import ClassSession


def render_session_started(session: ClassSession, lang: str) -> str:
    return t("session.started", as_lang(lang), when=when(session.ends_at))


def pupil_line(pupil: PupilLine, lang: str) -> str:
    """One pupil's session: games, answers, correct share, best moves, misses, exact hits."""
    return t(
        "session.pupil",
        as_lang(lang),
        name=display(pupil.user_id, pupil.name),
        games=pupil.games,
        answers=pupil.answers,
        percent=percent(pupil.accuracy, as_lang(lang)),
        best=pupil.best,
        missed=pupil.missed,
        exact=pupil.exact_hits,
    )


def render_session_summary(summary: SessionSummary, lang: str) -> discord.Embed:
    """The class's round: how many games, the class's accuracy per operation, the most
    improved pupil and every pupil's line (each sees their own numbers; nobody is ranked)."""
    lang = as_lang(lang)
    embed = discord.Embed(
        title=t("session.summary.title", lang),
        description=t("session.summary.games", lang, games=summary.games),
        colour=ADMIN_COLOUR,
    )
    ops = [
        t(
            "session.summary.op",
            lang,
            op=op_name(tally.op, lang),
            percent=percent(tally.accuracy, lang),
            answers=tally.answers,
        )
        for tally in summary.operations
        if tally.answers
    ]
    embed.add_field(
        name=t("session.summary.operations", lang),
        value=clip("\n".join(ops) or t("session.summary.no_answers", lang), FIELD_VALUE_MAX),
        inline=False,
    )
    if summary.most_improved is not None:
        best = summary.most_improved
        embed.add_field(
            name=t("session.summary.improved", lang),
            value=t(
                "session.summary.improved_line",
                lang,
                name=display(best.user_id, best.name),
                points=round((best.gain or 0) * 100),  # the most improved: always a gain
            ),
            inline=False,
        )
    lines = [pupil_line(p, lang) for p in summary.pupils]
    if lines:
        embed.add_field(
            name=t("session.summary.pupils", lang),
            value=clip("\n".join(lines), FIELD_VALUE_MAX),
            inline=False,
        )
    embed.description = clip(embed.description or "", DESCRIPTION_MAX)
    return embed


def render_my_session(session: ClassSession, line: PupilLine, lang: str) -> discord.Embed:
    """A pupil's own line of the last class session, for their eyes only."""
    lang = as_lang(lang)
    text = pupil_line(line, lang)
    if line.gain is not None:
        text += "\n" + t("session.mine.gain", lang, points=f"{round(line.gain * 100):+d}")
    return discord.Embed(
        title=t("session.mine.title", lang, date=date(session.ends_at)),
        description=clip(text, DESCRIPTION_MAX),
        colour=STATS_COLOUR,
    )
