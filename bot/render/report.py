"""The teacher's report in Discord: a class overview by mistake kind ("sign slip in
subtraction (level 4): Alice, Bob") and one page per pupil, each line a level and operation
with its most common mistakes (`bot/services/report.py` makes the report; the command in
`cogs/admin.py` attaches the same report as CSV)."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.custom_ids import Verb
from bot.render.board import clip
from bot.render.records import (
    ADMIN_COLOUR,
    DESCRIPTION_MAX,
    FIELD_VALUE_MAX,
    display,
    page_turner,
    percent,
)
from bot.render.stats import op_name
from bot.services.figures import ClassReport, SkillLine
from classroom.advice import together_text
from classroom.i18n import Lang, t
from classroom.level_path import aim_text
from classroom.summary import notes_text
from classroom.text.locale import as_lang
from classroom.text.notation import seconds_text

MAX_EMBEDS = 10  # Discord's limit per message: the overview and nine pupils
PUPILS_PER_PAGE = MAX_EMBEDS - 1
MAX_FIELDS = 25
Days = tuple[int | None, int | None]  # the report's [start, end) in milliseconds


@dataclass(frozen=True)
class ReportPage:
    """One page of the report: the overview and up to nine pupils, with ◀ ▶ to the others."""

    embeds: list[discord.Embed]
    view: discord.ui.View | None


def days_arg(days: Days) -> str:
    """The report's days in a button's id (``0`` for an open end), so a page pressed later,
    even after a restart, shows the same days."""
    return ".".join(str(ms or 0) for ms in days)


def days_from_arg(arg: str | None) -> Days | None:
    parts = (arg or "").split(".")
    if len(parts) != 2 or not all(p.isdigit() and len(p) <= 15 for p in parts):
        return None
    start, end = (int(p) or None for p in parts)
    return start, end


def op_names(report: ClassReport, lang: str) -> dict[str, str]:
    """The report's operations in words, for the CSV."""
    return {line.op: op_name(line.op, as_lang(lang)) for line in report.lines}


def mistake_name(code: str, lang: str) -> str:
    """A mistake kind (the engine's reason code) in the catalogue's words (``mistake.<code>``)."""
    return t(f"mistake.{code}", as_lang(lang))


def note_name(code: str, lang: Lang) -> str:
    """A practice note (RULES §2.6) in the lesson summary's words: "rounded", "not simplified"."""
    return t(f"lesson.summary.note.{code}", lang)


def mistake_in(code: str, op: str, lang: Lang) -> str:
    """A mistake kind in an operation, in running text ("fortegnsfeil ved subtraksjon")."""
    name = op_name(op, lang)
    return t("mistake.in_op", lang, kind=mistake_name(code, lang), op=name[:1].lower() + name[1:])


def _skill(line: SkillLine, helped: tuple[str, ...], lang: Lang) -> str:
    trend = " → ".join(percent(b / a, lang) for _, a, b in line.weeks[-4:] if a)
    text = t(
        "report.line",
        lang,
        answers=line.answers,
        correct=percent(line.accuracy, lang),
        best=percent(line.best_rate, lang),
        missed=line.missed,
        exact=line.exact_hits,
        seconds="–" if line.median_ms is None else seconds_text(line.median_ms, lang),
        trend=trend or "–",
    )
    if line.mistakes:
        kinds = ", ".join(f"{mistake_name(code, lang)} ({n})" for code, n in line.mistakes[:3])
        text += "\n" + t("summary.mistakes", lang, kinds=kinds)
    if helped:
        kinds = ", ".join(mistake_name(code, lang) for code in helped)
        text += "\n" + t("report.help_with", lang, kinds=kinds)
    if line.notes:  # RULES §2.6: practice, never a mistake nor a reason to help
        text += "\n" + t("summary.notes", lang, notes=notes_text(line.notes, lang))
    return text


TREND_KINDS = 4  # the commonest kinds of the class, each a line
TREND_WEEKS = 4  # the last weeks with answers, oldest first


def trend_text(report: ClassReport, lang: Lang) -> str:
    """The class's kinds × weeks: "sign slip: 6 of 40 → 4 of 38 → 1 of 41 (weeks 37–39)",
    each week the kind's count of the answers given that week."""
    lines = []
    for kind, weeks in report.trend[:TREND_KINDS]:
        shown = [w for w in weeks if w[2]][-TREND_WEEKS:]
        if len(shown) < 2:
            continue
        counts = " → ".join(t("report.trend.count", lang, count=n, answers=a) for _, n, a in shown)
        first, last = shown[0][0] % 100, shown[-1][0] % 100
        lines.append(t("report.trend.line", lang, kind=mistake_name(kind, lang), counts=counts,
                       first=first, last=last))  # fmt: skip
    return "\n".join(lines)


def render_report(
    report: ClassReport, lang: str, *, guild_id: int, days: Days = (None, None), page: int = 0
) -> ReportPage:
    """The overview first, then a page of pupils; a class of more than nine pages through
    the rest with ◀ ▶ (the CSV files have everyone at once)."""
    lang = as_lang(lang)
    overview = []
    for group in report.struggling():
        told = t(
            "report.overview.kind",
            lang,
            count=len(group.lines),
            kind=mistake_in(group.code, group.op, lang),
            level=group.level,
            names=", ".join(display(s.user_id, s.name) for s in group.lines),
        )
        together = together_text(group.op, group.code, group.level, len(group.lines), lang)
        overview.append(told if together is None else f"{told}\n↳ {together}")
    helped = report.help_of()
    pupils: dict[int, list[SkillLine]] = {}
    for line in report.lines:
        pupils.setdefault(line.user_id, []).append(line)
    pages = max(1, -(-len(pupils) // PUPILS_PER_PAGE))
    page = min(max(page, 0), pages - 1)
    head = discord.Embed(
        title=t("report.title", lang),
        description=clip(
            "\n".join(overview or [t("report.overview.none", lang)])
            + "\n\n"
            + t("report.pupils", lang, count=len(pupils)),
            DESCRIPTION_MAX,
        ),
        colour=ADMIN_COLOUR,
    )
    trend = trend_text(report, lang)
    if trend:
        head.add_field(name=t("report.trend.title", lang), value=clip(trend, FIELD_VALUE_MAX),
                       inline=False)  # fmt: skip
    levels = sorted({line.level for line in report.lines})
    if levels:  # the curriculum aim each level of the report serves
        aims = "\n".join(f"**{level}** · {aim_text(level, lang)}" for level in levels)
        head.add_field(name=t("path.aims", lang), value=clip(aims, FIELD_VALUE_MAX), inline=False)
    embeds = [head]
    shown = list(pupils.items())[page * PUPILS_PER_PAGE : (page + 1) * PUPILS_PER_PAGE]
    for user_id, lines in shown:
        sheet = discord.Embed(title=display(user_id, lines[0].name), colour=ADMIN_COLOUR)
        for line in lines[:MAX_FIELDS]:
            sheet.add_field(
                name=t("report.skill", lang, level=line.level, op=op_name(line.op, lang)),
                value=clip(
                    _skill(line, helped[(user_id, line.level, line.op)], lang), FIELD_VALUE_MAX
                ),
                inline=False,
            )
        embeds.append(sheet)
    if pages == 1:
        return ReportPage(embeds, None)
    head.set_footer(text=t("report.page", lang, page=page + 1, pages=pages))
    return ReportPage(embeds, page_turner(Verb.REPORT, guild_id, page, pages, days_arg(days)))
