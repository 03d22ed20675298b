"""The teacher's report in Discord: a class overview by mistake kind ("sign slip in
subtraction (level 4): Alice, Bob") and one page per pupil, each line a level and operation
with its most common mistakes (`bot/services/report.py` makes the report; the command in
`cogs/admin.py` attaches the same report as CSV)."""

from __future__ import annotations

import discord

from bot.i18n import Lang, t
from bot.render.board import clip
from bot.render.locale import as_lang
from bot.render.records import ADMIN_COLOUR, DESCRIPTION_MAX, FIELD_VALUE_MAX, display, percent
from bot.render.stats import op_name
from bot.reports import ClassReport, SkillLine

MAX_EMBEDS = 10  # Discord's limit per message: the overview and nine pupils
MAX_FIELDS = 25


def op_names(report: ClassReport, lang: str) -> dict[str, str]:
    """The report's operations in words, for the CSV."""
    return {line.op: op_name(line.op, as_lang(lang)) for line in report.lines}


def mistake_name(code: str, lang: str) -> str:
    """A mistake kind (the engine's reason code) in the words of issue 11's catalogues."""
    return t(f"mistake.{code}", as_lang(lang))


def mistake_in(code: str, op: str, lang: Lang) -> str:
    """A mistake kind in an operation, in running text ("fortegnsfeil ved subtraksjon")."""
    name = op_name(op, lang)
    return t("mistake.in_op", lang, kind=mistake_name(code, lang), op=name[:1].lower() + name[1:])


def _skill(line: SkillLine, lang: Lang) -> str:
    trend = " → ".join(percent(b / a, lang) for _, a, b in line.weeks[-4:] if a)
    text = t(
        "report.line",
        lang,
        answers=line.answers,
        correct=percent(line.accuracy, lang),
        best=percent(line.best_rate, lang),
        missed=line.missed,
        exact=line.exact_hits,
        seconds="–" if line.median_ms is None else f"{line.median_ms / 1000:.1f}",
        trend=trend or "–",
    )
    if line.mistakes:
        kinds = ", ".join(f"{mistake_name(code, lang)} ({n})" for code, n in line.mistakes[:3])
        text += "\n" + t("summary.mistakes", lang, kinds=kinds)
    if line.needs_help:
        kinds = ", ".join(mistake_name(code, lang) for code in line.help_kinds)
        text += "\n" + t("report.help_with", lang, kinds=kinds)
    return text


def render_report(report: ClassReport, lang: str) -> list[discord.Embed]:
    """The overview first, then a page per pupil (as many as a message holds; the CSV has
    everyone)."""
    lang = as_lang(lang)
    overview = [
        t(
            "report.overview.kind",
            lang,
            count=len(group.lines),
            kind=mistake_in(group.code, group.op, lang),
            level=group.level,
            names=", ".join(display(s.user_id, s.name) for s in group.lines),
        )
        for group in report.struggling()
    ]
    pupils: dict[int, list[SkillLine]] = {}
    for line in report.lines:
        pupils.setdefault(line.user_id, []).append(line)
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
    embeds = [head]
    for user_id, lines in list(pupils.items())[: MAX_EMBEDS - 1]:
        page = discord.Embed(title=display(user_id, lines[0].name), colour=ADMIN_COLOUR)
        for line in lines[:MAX_FIELDS]:
            page.add_field(
                name=t("report.skill", lang, level=line.level, op=op_name(line.op, lang)),
                value=clip(_skill(line, lang), FIELD_VALUE_MAX),
                inline=False,
            )
        embeds.append(page)
    if len(pupils) > MAX_EMBEDS - 1:
        head.set_footer(text=t("report.more", lang, count=len(pupils) - (MAX_EMBEDS - 1)))
    return embeds
