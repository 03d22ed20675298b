"""A class session, rendered: the teacher's confirmation, the summary posted when every game
of the session has ended (`bot/services/sessions.py` makes it) with a button that shows each
pupil their own line privately (`bot/ui/sessions.py`), and that line."""

from __future__ import annotations

import discord

from bot.custom_ids import Verb, build
from bot.render.board import clip, when
from bot.render.panel import Panel
from bot.render.records import (
    ADMIN_COLOUR,
    DESCRIPTION_MAX,
    FIELD_VALUE_MAX,
    STATS_COLOUR,
    date,
    display,
    percent,
)
from bot.render.report import mistake_in, note_name
from bot.render.stats import op_name
from bot.services.figures import SessionLine, SessionSummary
from classroom.i18n import Lang, t
from classroom.summary import notes_text
from classroom.text.locale import as_lang
from storage.records import ClassSession


def render_session_started(session: ClassSession, lang: str) -> str:
    text = t("session.started", as_lang(lang), when=when(session.ends_at))
    if session.preset is not None:
        text += "\n" + t("session.started_preset", as_lang(lang), name=session.preset.name)
    return text


def pupil_line(pupil: SessionLine, lang: str) -> str:
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


def render_session_summary(summary: SessionSummary, lang: str) -> Panel:
    """The class's round, posted for all: how many games, the class's accuracy per
    operation, its most common mistake kinds, the most improved pupil, and a button that
    shows each pupil their own line (nobody sees another's; nobody is ranked)."""
    lang = as_lang(lang)
    view = discord.ui.View(timeout=None)
    view.add_item(
        discord.ui.Button(
            label=t("session.button.mine", lang),
            custom_id=build(Verb.MY_LINE, summary.session.id),
            style=discord.ButtonStyle.primary,
            emoji="📋",
        )
    )
    return Panel(content=None, embed=_summary_embed(summary, lang), view=view)


def _summary_embed(summary: SessionSummary, lang: Lang) -> discord.Embed:
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
            count=tally.answers,
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
                count=round((best.gain or 0) * 100),  # the most improved: always a gain
            ),
            inline=False,
        )
    mistakes = [
        t(
            "session.summary.mistake",
            lang,
            kind=mistake_in(m.code, m.op, lang),
            count=m.count,
            pupils=m.pupils,
        )
        for m in summary.mistakes
    ]
    if summary.pupils:
        embed.add_field(
            name=t("session.summary.mistakes", lang),
            value=clip(
                "\n".join(mistakes) or t("session.summary.no_mistakes", lang), FIELD_VALUE_MAX
            ),
            inline=False,
        )
        if summary.notes:  # RULES §2.6: typed again, named apart from the mistakes
            notes = [
                t("session.summary.mistake", lang, kind=note_name(n.code, lang), count=n.count,
                  pupils=n.pupils)
                for n in summary.notes
            ]  # fmt: skip
            embed.add_field(
                name=t("session.summary.notes", lang),
                value=clip("\n".join(notes), FIELD_VALUE_MAX),
                inline=False,
            )
        embed.set_footer(text=t("session.summary.private", lang, count=len(summary.pupils)))
    embed.description = clip(embed.description or "", DESCRIPTION_MAX)
    return embed


def render_my_session(session: ClassSession, line: SessionLine, lang: str) -> discord.Embed:
    """A pupil's own line of a class session, for their eyes only: their numbers, their
    most common mistakes in words, and their gain over their own games before it."""
    lang = as_lang(lang)
    text = pupil_line(line, lang)
    if line.mistakes:
        kinds = ", ".join(f"{mistake_in(code, op, lang)} ({n})" for op, code, n in line.mistakes)
        text += "\n" + t("summary.mistakes", lang, kinds=kinds)
    elif line.answers:
        text += "\n" + t("summary.no_mistakes", lang)
    if line.notes:
        text += "\n" + t("summary.notes", lang, notes=notes_text(line.notes, lang))
    if line.gain is not None:
        points = round(line.gain * 100)
        text += "\n" + t("session.mine.gain", lang, points=f"{points:+d}", count=abs(points))
    return discord.Embed(
        title=t("session.mine.title", lang, date=date(session.ends_at)),
        description=clip(text, DESCRIPTION_MAX),
        colour=STATS_COLOUR,
    )
