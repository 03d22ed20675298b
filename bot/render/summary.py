"""A pupil's end-of-game summary as the private message they read."""

from __future__ import annotations

from bot.render.lessons import best_move_text
from bot.render.records import percent
from bot.render.stats import practice_text
from bot.services.figures import PupilSummary
from classroom.i18n import Lang, t
from classroom.text.locale import as_lang
from engine.registry import descriptor

LEVEL_OPS = ("add", "multiply", "divide", "subtract")  # levels 1–4, named like the levels


def operation_name(op: str, lang: Lang) -> str:
    """An operation as the pupil knows it: levels 1–4 by their level's name."""
    if op in LEVEL_OPS:
        return t(f"level.{LEVEL_OPS.index(op) + 1}.name", lang)
    return t(f"records.op.{op}", lang)


def _render_summary(summary: PupilSummary, lang: Lang) -> str:
    game = descriptor(summary.game)
    lines = [
        t(
            "summary.title",
            lang,
            game=t(game.name_key, lang),
            level=summary.level,
            id=summary.game_id,
        ),
        t(
            "summary.best",
            lang,
            best=summary.best,
            count=summary.asked,
            percent=percent(summary.best_rate if summary.asked else None, lang),
        ),
    ]
    if summary.exact_hits:
        lines.append(t("summary.exact", lang, count=summary.exact_hits))
    if summary.missed:
        lines.append(t("summary.missed", lang, count=summary.missed))
    if summary.mistakes:
        kinds = ", ".join(
            f"{t(f'mistake.{code}', lang)} ({count})" for code, count in summary.mistakes
        )
        lines.append(t("summary.mistakes", lang, kinds=kinds))
    elif summary.asked:
        lines.append(t("summary.no_mistakes", lang))
    if summary.missed_best:  # told here, to the pupil alone: the board is the class's
        moves = "; ".join(
            t(
                "summary.best_move",
                lang,
                round=m.round,
                step=best_move_text(m.expression, m.value, lang),
            )
            for m in summary.missed_best
        )
        lines.append(t("summary.best_missed", lang, moves=moves))
    if summary.practice is not None:
        advice = practice_text(summary.practice, lang)
        lines.append(t("summary.suggest.practise", lang, advice=advice))
        return "\n".join(lines)
    level = summary.suggested_level
    advice = t(
        f"summary.suggest.{summary.direction}",
        lang,
        level=level,
        name=t(f"level.{level}.name", lang),
    )
    if summary.practise is not None:
        advice += " " + t(
            "summary.practise", lang, operation=operation_name(summary.practise, lang)
        )
    lines.append(advice)
    return "\n".join(lines)


def render_summary(summary: PupilSummary, lang: str) -> str:
    """The summary text (well under Discord's 2,000 characters)."""
    return _render_summary(summary, as_lang(lang))
