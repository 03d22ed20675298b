"""The board: one message per game, edited in place after every change.

`render_board` is a pure function of the `LiveGame` (plus the board's language and the clock
for deadlines): no awaits, no storage, so the services can coalesce edits freely and a test
can render any position. It draws from the spectator's observation (`engine.observe`), so an
answer or a bet that is still secret can never reach the shared board. Countdowns are Discord
timestamps (``<t:SECONDS:R>``) that tick in every client without an edit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import discord

from bot.i18n import Lang, t
from bot.render.buttons import game_view
from bot.render.cards import card_face, cards_text, count_text, number_text
from bot.render.locale import as_lang
from bot.render.names import join_names, side_names
from bot.render.results import result_line
from bot.services.live import LiveGame
from bot.services.settings import IDLE_MINUTES
from engine.config import Mode
from engine.events import WarDeclared
from engine.hints import SwapChances
from engine.observe import Observation, SideView, observe
from engine.registry import GameDescriptor
from engine.state import Phase, Step

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
ENDGAME_ONE = 2  # RULES §3.4: two or one card → one card each
ENDGAME_THREE = 3
SELECT = 3  # component type of a string select


@dataclass(frozen=True, slots=True)
class Board:
    """One message's worth of board: send or edit with exactly these three."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View

    def __post_init__(self) -> None:
        # Every press is handled by the DynamicItems in bot/ui/items.py, which work on any
        # message, old or new. A stopped view is still sent, but discord.py does not keep it
        # in memory for each board forever (and does not dispatch presses to it twice).
        self.view.stop()


def clip(text: str, limit: int) -> str:
    """Cut to Discord's limit with an ellipsis (a safety net: normal boards are far shorter)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def when(due_ms: int) -> str:
    """A client-side countdown: Discord shows ``in 45 seconds`` and keeps it ticking."""
    return f"<t:{max(0, due_ms) // 1000}:R>"


# -- title, colour, footer ----------------------------------------------------------------------


def game_title(game: GameDescriptor, level: int, lang: Lang) -> str:
    name = t(game.name_key, lang)
    if game.has_levels:
        level_name = t(f"level.{level}.name", lang)
        name = f"{name} · {t('board.level', lang, level=level, name=level_name)}"
    return f"{game.emoji} {name}"


def _footer(game: LiveGame, lang: Lang) -> str:
    config = game.state.config
    parts = [t(f"deck.{config.deck.value}.name", lang)]
    game_options = config.descriptor
    if game_options.option("mode") is not None:
        parts.append(t(f"mode.{config.mode.value}.name", lang))
    if game_options.option("war_size") is not None:
        parts.append(t("board.war_size", lang, count=config.war_size))
    if game_options.option("war_rule") is not None:
        parts.append(t(f"war_rule.{config.war_rule.value}.name", lang))
    parts.append(t("board.game_number", lang, id=game.id))
    return " · ".join(parts)


# -- what the board says now --------------------------------------------------------------------


def _display_round(obs: Observation) -> int:
    """The round being played, or about to be when the board waits for a target or a flip."""
    between = obs.phase is Phase.TARGET or (obs.phase is Phase.FLIP and obs.step is Step.ROUND)
    return max(1, obs.round + 1 if between else obs.round)


def _in_comparison(obs: Observation) -> bool:
    """Whether the face-up cards belong to the comparison now (not to the round just won)."""
    if obs.phase in (Phase.ANSWER, Phase.BET):
        return True
    return obs.phase is Phase.FLIP and obs.step is not Step.ROUND


def _regnekrig_war(game: LiveGame) -> bool:
    """A regnekrig comparison is a war when the pot holds more than the cards face up now."""
    state = game.state
    return state.table_count > sum(len(up) for up in state.up)


def _war_sentence(kind: str, names: list[str], lang: Lang) -> str:
    return t(f"board.war.{kind}", lang, names=join_names(names, lang))


def _rule_name(game: LiveGame, lang: Lang) -> str:
    return t(f"war_rule.{game.state.config.war_rule.value}.name", lang)


def _prompt(game: LiveGame, obs: Observation, names: dict[int, str], lang: Lang) -> list[str]:
    """What happens now, and what a player should do."""
    config = obs.config
    lines: list[str] = []
    battle = [names[s] for s in obs.battle]
    # The result line already says "war between …" when the war began in this change.
    announced = any(isinstance(e, WarDeclared) for e in game.recent)
    auto = config.mode is Mode.AUTO and not config.descriptor.betting
    next_round = _display_round(obs)
    if obs.phase is Phase.TARGET:
        if auto:
            lines.append(t("board.prompt.target_auto", lang, round=next_round))
        else:
            lines.append(t("board.prompt.target", lang, name=names[obs.namer], round=next_round))
    elif obs.phase is Phase.ANSWER:
        if _regnekrig_war(game):
            if not announced:
                lines.append(_war_sentence("war", battle, lang))
            explain = t("board.war_explain.regnekrig", lang)
            if obs.target is not None:
                target = number_text(obs.target)
                explain += " " + t("board.war_explain.same_target", lang, target=target)
            lines.append(explain)
        how = t(f"level.{config.level}.desc", lang)
        key = "board.prompt.answer_auto" if auto else "board.prompt.answer"
        lines.append(t(key, lang, how=how))
    elif obs.phase is Phase.BET:
        lines.append(t("board.prompt.bet", lang))
    elif obs.phase is Phase.FLIP:
        rule = _rule_name(game, lang)
        if obs.step is Step.ROUND:
            live = [s.count for s in obs.sides if not s.out]
            smallest = min(live) if live else 0
            if smallest <= ENDGAME_ONE:
                lines.append(t("board.endgame.one_card", lang, rule=rule))
            elif smallest == ENDGAME_THREE:
                lines.append(t("board.endgame.three", lang))
            lines.append(t("board.prompt.flip", lang))
        else:
            kind = {Step.WAR: "war", Step.THREE_CARD_WAR: "three_card"}.get(obs.step, "one_card")
            if not announced:
                lines.append(_war_sentence(kind, battle, lang))
            lines.append(t(f"board.war_explain.{kind}", lang, rule=rule))
    return lines


def _waiting_line(obs: Observation, names: dict[int, str], lang: Lang) -> str | None:
    """Who has decided (✓) and who we still wait for (⏳), never what they decided."""
    if obs.phase not in (Phase.ANSWER, Phase.BET):
        return None
    marks = []
    for side in obs.battle:
        view = obs.sides[side]
        if side in obs.pending:
            marks.append(f"⏳ {names[side]}")
        elif view.decided:
            marks.append(f"✓ {names[side]}")
    if not marks:
        return None
    return t("board.waiting", lang, sides=" · ".join(marks))


def _deadlines(game: LiveGame, obs: Observation, now_ms: int, lang: Lang) -> list[str]:
    lines: list[str] = []
    due = game.answer_due_ms
    if due is not None and obs.phase in (Phase.TARGET, Phase.ANSWER, Phase.BET):
        if due > now_ms:
            lines.append(t("board.deadline.answer", lang, when=when(due)))
        else:
            lines.append(t("board.deadline.passed", lang))
    if obs.time_up:
        lines.append(t("board.time_up", lang))
    elif game.time_limit_due_ms is not None:
        if game.time_limit_due_ms > now_ms:
            lines.append(t("board.time_limit", lang, when=when(game.time_limit_due_ms)))
        else:
            lines.append(t("board.time_up", lang))
    return lines


def _header(game: LiveGame, obs: Observation, lang: Lang) -> str:
    parts = [t("board.round", lang, round=_display_round(obs))]
    if obs.target is not None and obs.phase is Phase.ANSWER:
        parts.append(t("board.target", lang, target=number_text(obs.target)))
    if obs.pot:
        parts.append(t("board.pot", lang, cards=count_text(obs.pot, lang)))
    return " · ".join(parts)


def _game_over(game: LiveGame, obs: Observation, names: dict[int, str], lang: Lang) -> list[str]:
    lines = [t("over.title", lang)]
    if game.ended is not None and obs.outcome is None:
        key = f"over.reason.{game.ended}"
        lines.append(
            t(key, lang, minutes=IDLE_MINUTES) if game.ended == "abandoned" else t(key, lang)
        )
        return lines
    outcome = obs.outcome
    if outcome is None:  # pragma: no cover - is_finished says one of the two is set
        return lines
    if outcome.winner is None:
        lines.append(t("over.draw", lang))
    else:
        lines.append(t("over.winner", lang, name=names[outcome.winner]))
    lines.append(t(f"over.reason.{outcome.reason.value}", lang))
    return lines


# -- the sides ----------------------------------------------------------------------------------


def _hidden_on_table(game: LiveGame, side: int) -> int:
    """The side's cards on the table that are not face up in the comparison now."""
    state = game.state
    visible = {c.id for c in state.up[side]}
    third = state.third[side]
    if third is not None:
        visible.add(third.id)
    return sum(1 for c in state.pot[side] if c.id not in visible)


def _status(game: LiveGame, obs: Observation, view: SideView, lang: Lang) -> str | None:
    side = view.side
    if view.out or game.is_finished:
        return None
    if obs.phase is Phase.TARGET and side == obs.namer:
        return t("board.status.naming", lang)
    if obs.phase is Phase.ANSWER:
        if side not in obs.battle:
            return t("board.status.watching", lang)
        key = "board.status.thinking" if side in obs.pending else "board.status.answered"
        return t(key, lang)
    if obs.phase is Phase.BET:
        if side in obs.pending:
            return t("board.status.deciding", lang)
        if view.decided:
            return t("board.status.decided", lang)
        return t("board.status.cannot_bet", lang)
    return None


def _side_field(
    game: LiveGame, obs: Observation, view: SideView, name: str, lang: Lang
) -> tuple[str, str]:
    marks = ""
    outcome = obs.outcome
    if outcome is not None and outcome.winner == view.side:
        marks = "🏆 "
    elif view.out:
        marks = "💤 "
    elif obs.phase is Phase.TARGET and view.side == obs.namer:
        marks = "🎯 "
    lines = [
        t("board.side.out", lang) if view.out else f"🃏 **{count_text(view.count, lang)}**",
    ]
    if _in_comparison(obs) and not game.is_finished:
        shown = list(view.face_up)
        cards = cards_text(shown)
        if view.third is not None and view.third not in shown:
            cards += f" → {card_face(view.third)}"
        # Earlier cards of a war: some were laid face down, some were face up in the round
        # before, so they are counted, never drawn as faces.
        hidden = _hidden_on_table(game, view.side)
        if hidden:
            cards = f"{cards} {t('board.side.in_pot', lang, count=hidden)}".strip()
        if cards:
            lines.append(cards)
    status = _status(game, obs, view, lang)
    if status:
        lines.append(status)
    return clip(marks + name, FIELD_NAME_MAX), clip("\n".join(lines), FIELD_VALUE_MAX)


# -- the board ----------------------------------------------------------------------------------


def _render_board(game: LiveGame, lang: Lang, now_ms: int) -> Board:
    """The whole board for the game as it stands: embed (text) and view (controls)."""
    obs = observe(game.state, None)
    names = side_names(game, lang)
    lines: list[str] = []
    if game.is_finished:
        lines.extend(_game_over(game, obs, names, lang))
    else:
        lines.append(_header(game, obs, lang))
    result = result_line(game.recent, names, lang, obs.round)
    if result:
        lines.append(result)
    if game.is_finished:
        lines.append(t("over.rematch", lang))
    else:
        lines.extend(_prompt(game, obs, names, lang))
        waiting = _waiting_line(obs, names, lang)
        if waiting:
            lines.append(waiting)
        lines.extend(_deadlines(game, obs, now_ms, lang))
    kind = obs.config.descriptor
    colour = ENDED_COLOUR if game.ended is not None else discord.Colour(kind.colour)
    embed = discord.Embed(
        title=clip(game_title(kind, obs.config.level, lang), TITLE_MAX),
        description=clip("\n".join(lines), DESCRIPTION_MAX),
        colour=colour,
    )
    for view in obs.sides:
        name, value = _side_field(game, obs, view, names[view.side], lang)
        embed.add_field(name=name, value=value, inline=True)
    embed.set_footer(text=clip(_footer(game, lang), FOOTER_MAX))
    return Board(content=None, embed=embed, view=game_view(game, lang))


# -- the answer modal and the hint --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AnswerModalText:
    """Every string of the answer modal, already within Discord's modal limits."""

    title: str  # ≤ 45
    label: str  # ≤ 45
    description: str  # ≤ 100 (the Label's description: the side's cards and the target)
    placeholder: str  # ≤ 100


def _render_modal_title(game: LiveGame, lang: Lang) -> str:
    """The answer modal's title (Discord allows 45 characters)."""
    return clip(
        t("modal.answer.title_round", lang, round=max(1, game.state.round)), MODAL_TITLE_MAX
    )


def _render_answer_modal(game: LiveGame, side: int, lang: Lang) -> AnswerModalText:
    """The modal a side answers in: its own two cards (and the target) so nobody has to switch
    back to the board, and an example of what may be typed at this level."""
    state = game.state
    cards = cards_text(state.up[side]) if 0 <= side < len(state.up) else ""
    if state.target is not None:
        description = t(
            "modal.answer.cards_target", lang, cards=cards, target=number_text(state.target)
        )
    else:
        description = t("modal.answer.cards", lang, cards=cards)
    level = state.config.level
    return AnswerModalText(
        title=_render_modal_title(game, lang),
        label=clip(t("modal.answer.label", lang), TEXT_INPUT_LABEL_MAX),
        description=clip(description, PLACEHOLDER_MAX),
        placeholder=clip(t(f"modal.answer.placeholder.{level}", lang), PLACEHOLDER_MAX),
    )


def percent_text(chance: float, lang: Lang) -> str:
    return t("hint.percent", lang, percent=round(chance * 100))


def _chance(chance: Fraction, lang: Lang) -> str:
    return f"{number_text(chance)} ({percent_text(float(chance), lang)})"


def _render_hint(chances: SwapChances, lang: Lang) -> str:
    """The betting hint: the chance to land inside now and after each swap, as exact fractions
    and rounded percentages, with the best choice marked."""
    options = [
        ("hint.keep", chances.now),
        ("hint.swap_left", chances.swap[0]),
        ("hint.swap_right", chances.swap[1]),
    ]
    top = max(chance for _, chance in options)
    lines = [t("hint.title", lang)]
    for key, chance in options:
        line = f"• {t(key, lang)}: **{_chance(chance, lang)}**"
        if chance == top:
            line += " " + t("hint.best", lang)
        lines.append(line)
    lines.append(t("hint.cost", lang))
    return "\n".join(lines)


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


def dump_board(board: Board, now_ms: int | None = None) -> str:
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


def render_board(game: LiveGame, lang: str, now_ms: int) -> Board:
    """The whole board for the game as it stands: embed (text) and view (controls). `lang` may
    be any locale spelling (`as_lang`)."""
    return _render_board(game, as_lang(lang), now_ms)


def render_modal_title(game: LiveGame, lang: str) -> str:
    """The answer modal's title (Discord allows 45 characters)."""
    return _render_modal_title(game, as_lang(lang))


def render_answer_modal(game: LiveGame, side: int, lang: str) -> AnswerModalText:
    """The answer modal's texts for `side`: its own cards (and the target) and an example."""
    return _render_answer_modal(game, side, as_lang(lang))


def render_hint(chances: SwapChances, lang: str) -> str:
    """The betting hint: chances now and after each swap, exact and in percent."""
    return _render_hint(chances, as_lang(lang))
