"""Assignments, rendered: a pupil's progress under `/mattekrig stats` and the teacher's list
of who has met each goal (`/mattekrig admin assignment`)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.render.board import clip
from bot.render.records import ADMIN_COLOUR, FIELD_VALUE_MAX, STATS_COLOUR, date, display, percent
from bot.services.figures import AssignmentProgress
from classroom.i18n import Lang, t
from classroom.text.locale import as_lang
from storage.records import Assignment

MAX_FIELDS = 25  # Discord's limit per embed


def goal_text(assignment: Assignment, lang: Lang) -> str:
    return t(
        "assignment.goal",
        lang,
        count=assignment.rounds,
        level=assignment.level,
        name=t(f"level.{assignment.level}.name", lang),
        percent=assignment.best_percent,
        date=date(assignment.due_at),
    )


def progress_text(line: AssignmentProgress, lang: Lang) -> str:
    key = "assignment.met" if line.met else "assignment.progress"
    return t(
        key,
        lang,
        rounds=min(line.rounds, line.assignment.rounds),
        count=line.assignment.rounds,
        percent=percent(line.best_rate, lang),
    )


def render_my_assignments(lines: Sequence[AssignmentProgress], lang: str) -> discord.Embed:
    """The pupil's own progress: private, like their statistics."""
    lang = as_lang(lang)
    embed = discord.Embed(title=t("assignment.mine.title", lang), colour=STATS_COLOUR)
    for line in lines[:MAX_FIELDS]:
        embed.add_field(
            name=clip(goal_text(line.assignment, lang), 256),
            value=progress_text(line, lang),
            inline=False,
        )
    return embed


def render_assignments(
    overview: Sequence[tuple[Assignment, Sequence[AssignmentProgress]]],
    lang: str,
    *,
    note: str | None = None,
) -> discord.Embed:
    """For the teacher: each assignment, who has met it and who is on the way."""
    lang = as_lang(lang)
    embed = discord.Embed(
        title=t("assignment.title", lang),
        description=note or (None if overview else t("assignment.none", lang)),
        colour=ADMIN_COLOUR,
    )
    for assignment, lines in overview[:MAX_FIELDS]:
        met = [display(p.user_id, p.name) for p in lines if p.met]
        going = [
            f"{display(p.user_id, p.name)} ({progress_text(p, lang)})" for p in lines if not p.met
        ]
        value = "\n".join(
            [
                t("assignment.met_by", lang, names=", ".join(met) or "–"),
                t("assignment.not_yet", lang, names=", ".join(going) or "–"),
            ]
        )
        embed.add_field(
            name=clip(goal_text(assignment, lang), 256),
            value=clip(value, FIELD_VALUE_MAX),
            inline=False,
        )
    return embed
