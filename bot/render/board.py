"""The board: one message per game, edited in place after every change.

`render_board` is a pure function of the `GameScreen` (the engine's view of the table plus
names and deadlines), the board's language and the clock for deadlines: no awaits, no storage,
so the services can coalesce edits freely and a test can render any position. It draws from
the table's view (`engine.view`), so an answer or a bet that is still secret can never reach
the shared board, and it offers the view's choices and nothing else. Countdowns are Discord
timestamps (``<t:SECONDS:R>``) that tick in every client without an edit.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import discord

from bot.render.buttons import game_view
from bot.render.lessons import round_lesson
from bot.render.panel import Panel
from bot.render.screen import GameScreen
from classroom.i18n import Lang, t
from classroom.settings import IDLE_MINUTES
from classroom.text.board_text import (
    clip,
    game_title,
    header_line,
    note_lines,
    outcome_lines,
    prompt_lines,
    render_hint,
    settings_parts,
    side_mark,
    status_text,
    waiting_lines,
)
from classroom.text.cards import card_face, cards_text, count_text, number_text
from classroom.text.locale import as_lang
from classroom.text.results import RoundBlock, round_block
from engine.registry import descriptor
from engine.view import SideView, View

# Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-limits)
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
MODAL_TITLE_MAX = 45
TEXT_INPUT_LABEL_MAX = 45
PLACEHOLDER_MAX = 100

ENDED_COLOUR = discord.Colour(0x6B7280)  # grey: stopped or abandoned
SELECT = 3  # component type of a string select


Board = Panel  # a game's board is one panel (the name other messages do not take)


def when(due_ms: int) -> str:
    """A client-side countdown: Discord shows ``in 45 seconds`` and keeps it ticking."""
    return f"<t:{max(0, due_ms) // 1000}:R>"


# -- title, colour, footer ----------------------------------------------------------------------


def _footer(screen: GameScreen, lang: Lang) -> str:
    parts = settings_parts(screen.view.config, lang)
    if screen.preset:
        parts.append(t("board.preset", lang))
    parts.append(t("board.game_number", lang, id=screen.game_id))
    return " · ".join(parts)


# -- what the board says now --------------------------------------------------------------------


def _deadlines(screen: GameScreen, now_ms: int, lang: Lang) -> list[str]:
    view = screen.view
    lines: list[str] = []
    due = screen.answer_due_ms
    if due is not None and view.decision is not None:
        if due > now_ms:
            lines.append(t("board.deadline.answer", lang, when=when(due)))
        else:
            lines.append(t("board.deadline.passed", lang))
    if view.time_up:
        lines.append(t("board.time_up", lang))
    elif screen.time_limit_due_ms is not None:
        if screen.time_limit_due_ms > now_ms:
            lines.append(t("board.time_limit", lang, when=when(screen.time_limit_due_ms)))
        else:
            lines.append(t("board.time_up", lang))
    return lines


def _game_over(screen: GameScreen, names: Mapping[int, str], lang: Lang) -> list[str]:
    lines = [t("over.title", lang)]
    outcome = screen.view.outcome
    if screen.ended is not None and outcome is None:
        key = f"over.reason.{screen.ended}"
        lines.append(
            t(key, lang, count=IDLE_MINUTES) if screen.ended == "abandoned" else t(key, lang)
        )
        return lines
    if outcome is None:  # pragma: no cover - finished says one of the two is set
        return lines
    return lines + outcome_lines(outcome, names, lang)


def _block(view: View, names: Mapping[int, str], lang: Lang) -> RoundBlock | None:
    """The round shown (the one in play once it revealed something, else the one before:
    the previous round stays until the next is played)."""
    rule = t(f"war_rule.{view.config.war_rule.value}.name", lang)
    return round_block(view.result, names, lang, war=view.war, war_rule=rule)


# -- the sides ----------------------------------------------------------------------------------


def _side_field(
    screen: GameScreen, side: SideView, name: str, played: tuple[str, ...], lang: Lang
) -> tuple[str, str]:
    view = screen.view
    marks = side_mark(view, side)
    lines = [
        t("board.side.out", lang) if side.out else f"🃏 **{count_text(side.count, lang)}**",
    ]
    if not screen.finished:
        cards = cards_text(side.face_up)
        if side.third is not None and side.third not in side.face_up:
            cards += f" → {card_face(side.third)}"
        # Earlier cards of a war: some were laid face down, some were face up in the round
        # before, so they are counted, never drawn as faces.
        if side.face_up and side.face_down:
            hidden = t("board.side.in_pot", lang, count=side.face_down)
            cards = f"{cards} {hidden}".strip()
        if cards:
            lines.append(cards)
        status = status_text(side, view.now, lang)
        if status is not None and not view.auto:  # auto mode: nobody is thinking
            lines.append(status)
    lines.extend(played)  # this side's part of the round block
    return clip(marks + name, FIELD_NAME_MAX), clip("\n".join(lines), FIELD_VALUE_MAX)


# -- the board ----------------------------------------------------------------------------------


def _render_board(screen: GameScreen, lang: Lang, now_ms: int) -> Panel:
    """The whole board for the game as it stands: embed (text) and view (controls)."""
    view = screen.view
    names = screen.names
    lines: list[str] = []
    if screen.finished:
        lines.extend(_game_over(screen, names, lang))
    else:
        lines.append(header_line(view, lang))
    block = _block(view, names, lang)
    if block is not None:
        lines.extend(block.head)
        lines.extend(round_lesson(view, names, lang, screen.humans))  # what the round teaches
    lines.extend(note_lines(view, names, lang))
    if screen.finished:
        lines.append(t("over.rematch", lang))
    else:
        lines.extend(prompt_lines(view, names, lang))
        lines.extend(waiting_lines(view, names, lang))
        lines.extend(_deadlines(screen, now_ms, lang))
    game = descriptor(view.config.game)
    colour = ENDED_COLOUR if screen.ended is not None else discord.Colour(game.colour)
    embed = discord.Embed(
        title=clip(game_title(game, view.config.level, lang), TITLE_MAX),
        description=clip("\n".join(lines), DESCRIPTION_MAX),
        colour=colour,
    )
    plays = block.plays if block is not None else {}
    for side in view.sides:
        played = tuple(plays.get(side.side, ()))
        name, value = _side_field(screen, side, names[side.side], played, lang)
        embed.add_field(name=name, value=value, inline=True)
    embed.set_footer(text=clip(_footer(screen, lang), FOOTER_MAX))
    return Panel(content=None, embed=embed, view=game_view(screen, lang))


# -- the answer modal and the hint --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AnswerModalText:
    """Every string of the answer modal, already within Discord's modal limits."""

    title: str  # ≤ 45
    label: str  # ≤ 45
    description: str  # ≤ 100 (the Label's description: the side's cards and the target)
    placeholder: str  # ≤ 100


def _render_modal_title(view: View, lang: Lang) -> str:
    """The answer modal's title (Discord allows 45 characters)."""
    return clip(t("modal.answer.title_round", lang, round=view.round), MODAL_TITLE_MAX)


def _render_answer_modal(view: View, side: int, lang: Lang) -> AnswerModalText:
    """The modal a side answers in: its own two cards (and the target) so nobody has to switch
    back to the board, and an example of what may be typed at this level."""
    cards = cards_text(view.sides[side].face_up) if 0 <= side < len(view.sides) else ""
    if view.target is not None:
        description = t(
            "modal.answer.cards_target", lang, cards=cards, target=number_text(view.target)
        )
    else:
        description = t("modal.answer.cards", lang, cards=cards)
    level = view.config.level
    return AnswerModalText(
        title=_render_modal_title(view, lang),
        label=clip(t("modal.answer.label", lang), TEXT_INPUT_LABEL_MAX),
        description=clip(description, PLACEHOLDER_MAX),
        placeholder=clip(t(f"modal.answer.placeholder.{level}", lang), PLACEHOLDER_MAX),
    )


# -- plain-text dump ----------------------------------------------------------------------------

_TIMESTAMP = re.compile(r"<t:(\d+):R>")
_ESCAPE = re.compile(r"\\([\\*_~`|>])")


def _plain(text: str, now_ms: int | None) -> str:
    def relative(match: re.Match[str]) -> str:
        due = int(match.group(1))
        if now_ms is None:
            return datetime.fromtimestamp(due, UTC).strftime("%H:%M:%S UTC")
        seconds = due - now_ms // 1000
        return f"in {seconds} s" if seconds >= 0 else f"{-seconds} s ago"

    text = _TIMESTAMP.sub(relative, text)
    text = text.replace("**", "")
    return _ESCAPE.sub(r"\1", text)


def _component_text(component: dict[str, Any]) -> str:
    if component.get("type") == SELECT:
        values = [o["label"] for o in component.get("options", [])]
        span = f"{values[0]}…{values[-1]}" if values else ""
        return f"<{component.get('placeholder', '')} ▾ {span}>"
    emoji = component.get("emoji") or {}
    prefix = f"{emoji['name']} " if emoji.get("name") else ""
    return f"[{prefix}{component.get('label', '')}]"


def dump_board(board: Panel, now_ms: int | None = None) -> str:
    """The board as plain text, roughly as Discord shows it (bold and escapes removed, countdowns
    as seconds from `now_ms`): for snapshot tests and for reading a board in a review."""
    out: list[str] = []
    if board.content:
        out.append(_plain(board.content, now_ms))
    embed = board.embed
    if embed.title:
        out.append(f"# {_plain(embed.title, now_ms)}")
    if embed.description:
        out.append(_plain(embed.description, now_ms))
    for field in embed.fields:
        out.append(f"## {_plain(field.name or '', now_ms)}")
        out.extend(f"   {line}" for line in _plain(field.value or "", now_ms).splitlines())
    if embed.footer and embed.footer.text:
        out.append(f"-- {_plain(embed.footer.text, now_ms)}")
    for row in board.view.to_components():
        out.append(" ".join(_component_text(c) for c in row.get("components", [])))
    return "\n".join(out)


__all__ = [
    "AnswerModalText",
    "Board",
    "clip",
    "dump_board",
    "game_title",
    "render_answer_modal",
    "render_board",
    "render_hint",
    "render_modal_title",
]


def render_board(screen: GameScreen, lang: str, now_ms: int) -> Panel:
    """The whole board for the game as it stands: embed (text) and view (controls). `lang` may
    be any locale spelling (`as_lang`)."""
    return _render_board(screen, as_lang(lang), now_ms)


def render_modal_title(view: View, lang: str) -> str:
    """The answer modal's title (Discord allows 45 characters)."""
    return _render_modal_title(view, as_lang(lang))


def render_answer_modal(view: View, side: int, lang: str) -> AnswerModalText:
    """The answer modal's texts for `side`: its own cards (and the target) and an example."""
    return _render_answer_modal(view, side, as_lang(lang))
