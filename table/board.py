"""The table as HTML: drawn from the engine's view of the table (`engine.view.view(state,
None)`), in the Discord board's words (`bot.render.board_text`, `bot.render.results`), with
controls built from the view's choices and nothing else.

One screen is shared by everyone (hot-seat), so a decision is asked of one side at a time:
the first awaited side that people play gets the answer box or the bet buttons; what it
chose stays in the engine until every side has decided (the view never shows it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.i18n import Lang, t
from bot.render.board_text import (
    game_title,
    header_line,
    outcome_lines,
    prompt_lines,
    render_hint,
    settings_parts,
    side_mark,
    status_text,
    waiting_line,
)
from bot.render.cards import card_face, count_text, number_text
from bot.render.naming import computer_name
from bot.render.results import result_line
from engine.actions import Choice, ChoiceKind
from engine.cards import Card
from engine.hints import swap_chances
from engine.registry import descriptor
from engine.view import SideView, View, view
from table.games import COMPUTER_SIDE, TableGame
from table.page import button, document, esc, hidden, lang_switch, md, message


@dataclass(frozen=True, slots=True)
class Picture:
    """The table drawn as a picture (`bot.render.pictures.draw_table`): PNG and alt text."""

    url: str
    alt: str


def side_names(game: TableGame, lang: Lang) -> dict[int, str]:
    """Each side's name: as typed, the computer's in the page's language."""
    names = {i: name for i, name in enumerate(game.names)}
    if game.computer is not None:
        names[COMPUTER_SIDE] = computer_name(game.computer.value, lang)
    return names


def _face(card: Card) -> str:
    red = card.suit is not None and card.suit.is_red
    return f'<span class="card{" red" if red else ""}">{esc(card_face(card))}</span>'


def _side(game: TableGame, table: View, side: SideView, name: str, lang: Lang) -> str:
    marks = side_mark(table, side)
    count = t("board.side.out", lang) if side.out else f"🃏 {count_text(side.count, lang)}"
    lines = [f'<p class="count">{esc(count)}</p>']
    if not table.is_over:
        faces = " ".join(_face(c) for c in side.face_up)
        if side.third is not None and side.third not in side.face_up:
            faces += f" → {_face(side.third)}"
        if side.face_up and side.face_down:
            faces += " " + esc(t("board.side.in_pot", lang, count=side.face_down))
        if faces:
            label = esc(t("table.cards.face_up", lang))
            lines.append(f'<p class="cards" aria-label="{label}">{faces}</p>')
        status = status_text(side, table.now, lang)
        if status is not None:
            lines.append(f'<p class="status">{esc(status)}</p>')
    awaited = ' data-awaited="true"' if side.side in table.awaited else ""
    return (
        f'<article class="side" data-side="{side.side}"{awaited}>'
        f"<h2>{esc(marks + name)}</h2>{''.join(lines)}</article>"
    )


def _act_form(game: TableGame, table: View, side: int, lang: Lang, inner: str) -> str:
    return (
        f'<form method="post" action="/game/{esc(game.id)}/act" class="act">'
        f"{hidden('window', table.window)}{hidden('side', side)}{hidden('lang', lang)}"
        f"{inner}</form>"
    )


def _secret(game: TableGame, key: str, lang: Lang) -> str:
    """Hot-seat: the others look away (said only when others play at this screen)."""
    if len(game.humans) < 2:
        return ""
    return f'<p class="secret">{esc(t(key, lang))}</p>'


def _choice_value(choice: Choice) -> str:
    return f"{choice.kind.value}:{choice.value}" if choice.value is not None else choice.kind.value


def _target_controls(game: TableGame, table: View, offered: list[Choice], lang: Lang) -> str:
    buttons = []
    for c in offered:
        if c.kind is ChoiceKind.TARGET and c.value is not None:
            buttons.append(button(number_text(c.value), name="choice", value=_choice_value(c)))
    random = [c for c in offered if c.kind is ChoiceKind.RANDOM_TARGET]
    extra = "".join(
        button(t("button.random_target", lang), name="choice", value=_choice_value(c))
        for c in random
    )
    side = offered[0].side
    return _act_form(
        game, table, side, lang, f'<div class="targets">{"".join(buttons)}</div>{extra}'
    )


def _answer_controls(game: TableGame, table: View, choice: Choice, lang: Lang, typed: str) -> str:
    side = table.sides[choice.side]
    cards = " ".join(card_face(c) for c in side.face_up)
    if table.target is not None:
        about = t("modal.answer.cards_target", lang, cards=cards, target=number_text(table.target))
    else:
        about = t("modal.answer.cards", lang, cards=cards)
    level = table.config.level
    inner = (
        _secret(game, "table.answer.secret", lang)
        + f'<label for="answer">{esc(t("modal.answer.label", lang))}</label>'
        f'<p class="about" id="about">{esc(about)}</p>'
        f'<input id="answer" name="answer" autocomplete="off" autocapitalize="off" '
        f'spellcheck="false" maxlength="100" aria-describedby="about" '
        f'placeholder="{esc(t(f"modal.answer.placeholder.{level}", lang))}" '
        f'value="{esc(typed)}">'
        + button(t("button.answer", lang), name="choice", value="answer", cls="primary")
    )
    return _act_form(game, table, choice.side, lang, inner)


_BET_LABELS = {0: "button.bet_left", 1: "button.bet_right"}


def _bet_controls(
    game: TableGame, table: View, offered: list[Choice], lang: Lang, hint: bool
) -> str:
    side = offered[0].side
    buttons = []
    for c in offered:
        key = _BET_LABELS[c.value or 0] if c.kind is ChoiceKind.BET else "button.no_bet"
        buttons.append(button(t(key, lang), name="choice", value=_choice_value(c)))
    inner = _secret(game, "table.bet.secret", lang) + "".join(buttons)
    out = _act_form(game, table, side, lang, inner)
    if side in table.hints:
        if hint:
            text = render_hint(swap_chances(game.state, side), lang)
            lines = "".join(f"<p>{md(line)}</p>" for line in text.splitlines())
            out += f'<section class="hint" aria-live="polite">{lines}</section>'
        else:
            out += (
                f'<form method="get" action="/game/{esc(game.id)}" class="hint-form">'
                f"{hidden('lang', lang)}{hidden('hint', side)}"
                f"{button(t('button.hint', lang))}</form>"
            )
    return out


def _controls(
    game: TableGame, table: View, names: Mapping[int, str], lang: Lang, typed: str, hint: bool
) -> str:
    """The controls for now: a flip, the target, one side's answer box or its bet."""
    choices = table.choices
    flips = [c for c in choices if c.kind is ChoiceKind.FLIP]
    if flips:
        first = next((c for c in flips if c.side in game.humans), flips[0])
        label = button(t("button.flip", lang), name="choice", value="flip", cls="primary")
        return _act_form(game, table, first.side, lang, label)
    humans = [c for c in choices if c.side in game.humans]
    if not humans:
        return ""  # only the computer decides now, and it already has
    side = humans[0].side
    offered = [c for c in humans if c.side == side]
    turn = f'<h2 class="turn">{esc(t("table.turn", lang, name=names[side]))}</h2>'
    kinds = {c.kind for c in offered}
    if kinds & {ChoiceKind.TARGET, ChoiceKind.RANDOM_TARGET}:
        return turn + _target_controls(game, table, offered, lang)
    if ChoiceKind.ANSWER in kinds:
        return turn + _answer_controls(game, table, offered[0], lang, typed)
    return turn + _bet_controls(game, table, offered, lang, hint)


def _time(game: TableGame, table: View, now: float, lang: Lang) -> str:
    if table.time_up:
        return f'<p class="time">{esc(t("board.time_up", lang))}</p>'
    if game.deadline is None or table.is_over:
        return ""
    left = max(0, int(game.deadline - now + 0.999))
    clock = f'<time data-seconds="{left}">{left // 60}:{left % 60:02d}</time>'
    text = esc(t("table.time_left", lang, time="\0")).replace("\0", clock)
    return f'<p class="time">{text}</p>'


def _summary(game: TableGame, table: View, names: Mapping[int, str], lang: Lang) -> str:
    lines = [t("over.title", lang)]
    if table.outcome is not None:
        lines += outcome_lines(table.outcome, names, lang)
    counts = "".join(
        f"<li>{esc(names[s.side])}: {esc(count_text(s.count, lang))}</li>" for s in table.sides
    )
    rounds = t("table.summary.rounds", lang, rounds=game.state.round)
    return (
        f'<section class="summary" aria-labelledby="summary">'
        f'<h2 id="summary">{esc(t("table.summary.heading", lang))}</h2>'
        + "".join(f"<p>{md(line)}</p>" for line in lines)
        + f"<ul>{counts}</ul><p>{esc(rounds)}</p>"
        f'<form method="get" action="/game/{esc(game.id)}/replay.json">'
        f"{button(t('table.download', lang))}</form>"
        f'<form method="get" action="/">{hidden("lang", lang)}'
        f"{button(t('table.new_game', lang), cls='primary')}</form></section>"
    )


def _footer(table: View, lang: Lang) -> str:
    return f"<footer><p>{esc(' · '.join(settings_parts(table.config, lang)))}</p></footer>"


def table_page(
    game: TableGame,
    lang: Lang,
    now: float,
    *,
    note: str | None = None,
    error: str | None = None,
    typed: str = "",
    hint: bool = False,
    picture: Picture | None = None,
) -> str:
    """The whole page of a game in play or over."""
    table = view(game.state, None)
    names = side_names(game, lang)
    title = game_title(descriptor(table.config.game), table.config.level, lang)
    over = table.is_over
    status: list[str] = [] if over else [header_line(table, lang)]
    result = result_line(table.result, names, lang)
    if result:
        status.append(result)
    if not over:
        status += prompt_lines(table, names, lang)
        waiting = waiting_line(table, names, lang)
        if waiting:
            status.append(waiting)
    body = [
        f"<header><h1>{esc(title)}</h1>" + lang_switch(lang, f"/game/{game.id}", {}) + "</header>",
        message(error, error=True),
        message(note, error=False),
    ]
    if picture is not None:
        body.append(f'<img class="picture" src="{esc(picture.url)}" alt="{esc(picture.alt)}">')
    body.append(
        '<section class="now" aria-live="polite">'
        + "".join(f"<p>{md(line)}</p>" for line in status)
        + _time(game, table, now, lang)
        + "</section>"
    )
    sides = "".join(_side(game, table, s, names[s.side], lang) for s in table.sides)
    # With the picture, the text sides stay for screen readers and scripts, out of sight.
    shown = "sides" if picture is None else "sides visually-hidden"
    body.append(f'<section class="{shown}">{sides}</section>')
    if over:
        body.append(_summary(game, table, names, lang))
    else:
        body.append(
            f'<section class="actions">{_controls(game, table, names, lang, typed, hint)}</section>'
        )
    body.append(_footer(table, lang))
    data = f' data-window="{table.window}" data-game="{esc(game.id)}"'
    return document(lang, "over" if over else "playing", title, "".join(body), data=data)
