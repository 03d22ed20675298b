"""A table as HTML for one device: drawn from the engine's view for the device's side
(`engine.view.view(state, side)`; the one-screen table, which holds every side, draws the
table's view), in the Discord board's words (`classroom.text.board_text`, `classroom.text.results`),
with controls built from the view's choices and nothing else.

The page is made of parts with stable ids, so a live update replaces only what changed and
the answer box keeps what is being typed. Cards are page elements with an accessible name
("minus 6 of diamonds"). The answer box and whose turn it is come first, so they are in
sight without scrolling; the round's news is the polite live region, and the clock sits
outside it (a screen reader is not read the seconds).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from classroom.i18n import Lang, t
from classroom.text.board_text import (
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
from classroom.text.cards import MINUS, count_text, number_text
from classroom.text.naming import computer_name
from classroom.text.praise import answer_of, praise
from classroom.text.results import RoundBlock, faces_text, round_block
from engine.actions import FLIP_CHOICE, Choice, Shape
from engine.cards import Card
from engine.config import Mode
from engine.hints import swap_chances
from engine.levels import RESULT_LEVELS, AnswerForm
from engine.registry import descriptor
from engine.regnekrig import RANDOM_TARGET_CHOICE, TARGET_CHOICE
from engine.view import Now, SideView, View
from table.games import COMPUTER_SIDE, EXTENSIONS, TableGame
from table.page import button, esc, hidden, md

_LETTERS = {1: "A", 11: "J", 12: "Q", 13: "K"}


@dataclass(frozen=True, slots=True)
class Paths:
    """Where this page's forms go (the one-screen table and a pupil's device differ)."""

    act: str
    page: str
    replay: str
    more_time: str
    stop: str | None = None


@dataclass(frozen=True, slots=True)
class Seen:
    """Who looks: the sides this device plays, their seats, and what only it is told."""

    held: tuple[int, ...]
    seats: Mapping[int, str] = field(default_factory=dict)  # side -> seat id
    error: str | None = None
    typed: str = ""
    hint: bool = False
    paused: bool = False
    pupil: bool = False  # a pupil's own device (a class lesson)
    ended: bool = False  # the class lesson is over


def side_names(game: TableGame, lang: Lang) -> dict[int, str]:
    """Each side's name: as typed, the computer's in the page's language."""
    names = {i: name for i, name in enumerate(game.names)}
    if game.computer is not None:
        names[COMPUTER_SIDE] = computer_name(game.computer.value, lang)
    return names


# -- cards ----------------------------------------------------------------------------------


def card_name(card: Card, lang: Lang) -> str:
    """A card as a screen reader says it: "minus 6 of diamonds", "12 of spades (queen)"."""
    number = str(abs(card.value))
    value = t("table.card.minus", lang, number=number) if card.value < 0 else number
    if card.suit is None:
        return value
    name = t(
        "table.card.name", lang, value=value, suit=t(f"table.suit.{card.suit.value.lower()}", lang)
    )
    if card.rank in _LETTERS and card.rank is not None and abs(card.value) == card.rank:
        name += f" ({t(f'table.rank.{card.rank}', lang)})"
    return name


@lru_cache(maxsize=1024)
def card_html(card: Card, lang: Lang) -> str:
    """One card face up as a page element with its name; the face is drawn, not read."""
    red = card.suit is not None and card.suit.is_red
    face = number_text(card.value).replace("-", MINUS)
    suit = f'<span class="suit">{card.suit.symbol}</span>' if card.suit is not None else ""
    letter = ""
    if card.rank in _LETTERS and card.rank is not None and abs(card.value) == card.rank:
        letter = f'<span class="rank">{_LETTERS[card.rank]}</span>'
    return (
        f'<span class="card{" red" if red else ""}" role="img" '
        f'aria-label="{esc(card_name(card, lang))}">'
        f'<span class="value">{esc(face)}</span>{suit}{letter}</span>'
    )


def _cards(cards: tuple[Card, ...], lang: Lang) -> str:
    return " ".join(card_html(c, lang) for c in cards)


def cards_group(cards: tuple[Card, ...], lang: Lang) -> str:
    """One laying's cards as one named group (a screen reader hears "face up" before them)."""
    label = esc(t("table.cards.face_up", lang))
    return f'<span class="cards" role="group" aria-label="{label}">{_cards(cards, lang)}</span>'


def drawn_line(line: str, laid: list[tuple[Card, ...]], lang: Lang, row: bool = False) -> str:
    """A line of a round as HTML, the cards it tells as text (``[ −3 ] [ 4 ]``) drawn as
    card elements in their place: the side's layings still to draw (`laid`, in the order the
    round laid them) that the line names, each lost from `laid` with any before it. A laying
    known only by its values is drawn by them, with no suit made up. Where the cards stand
    on a row of their own (`row`), the words around them are kept whole, with no separator
    left hanging before or after the row."""
    done, rest = "", md(line)
    i = 0
    while i < len(laid):
        text = esc(faces_text(tuple(c.value for c in laid[i])))
        if text not in rest:
            i += 1
            continue
        before, rest = rest.split(text, 1)
        if row:
            before = _words(before.rstrip().removesuffix("·").rstrip())
            rest = rest.removeprefix(" ·")
        done += before + cards_group(laid[i], lang)
        del laid[: i + 1]
        i = 0
    return done + (_words(rest.strip()) if row and done else rest)


def _words(html: str) -> str:
    """Words beside a row of cards, kept as one piece (bold and all) when the row lays out."""
    return f'<span class="words">{html}</span>' if html else ""


# -- the parts ------------------------------------------------------------------------------


def _side(table: View, side: SideView, name: str, lang: Lang, own: bool) -> str:
    marks = side_mark(table, side)
    count = t("board.side.out", lang) if side.out else f"🃏 {count_text(side.count, lang)}"
    lines = [f'<p class="count">{esc(count)}</p>']
    if not table.is_over:
        faces = _cards(side.face_up, lang)
        if side.third is not None and side.third not in side.face_up:
            faces += f' <span aria-hidden="true">→</span> {card_html(side.third, lang)}'
        if side.face_up and side.face_down:
            faces += " " + esc(t("board.side.in_pot", lang, count=side.face_down))
        if faces:
            label = esc(t("table.cards.face_up", lang))
            lines.append(f'<p class="cards" role="group" aria-label="{label}">{faces}</p>')
        status = status_text(side, table.now, lang)
        if status is not None:
            lines.append(f'<p class="status">{esc(status)}</p>')
    awaited = ' data-awaited="true"' if side.side in table.awaited else ""
    mine = f' <span class="you">{esc(t("lesson.you", lang))}</span>' if own else ""
    return (
        f'<article class="side" data-side="{side.side}"{awaited}>'
        f"<h2>{esc(marks + name)}{mine}</h2>{''.join(lines)}</article>"
    )


def _act_form(paths: Paths, table: View, side: int, lang: Lang, inner: str) -> str:
    return (
        f'<form method="post" action="{esc(paths.act)}" class="act" data-live="act">'
        f"{hidden('window', table.window)}{hidden('side', side)}{hidden('lang', lang)}"
        f"{inner}</form>"
    )


def _secret(game: TableGame, key: str, lang: Lang) -> str:
    """Hot-seat: the others look away (said only when others play at this screen)."""
    if not game.hot_seat:
        return ""
    return f'<p class="secret">{esc(t(key, lang))}</p>'


def _choice_value(choice: Choice) -> str:
    name = choice.kind.name
    return f"{name}:{choice.value}" if choice.value is not None else name


def _target_controls(paths: Paths, table: View, offered: list[Choice], lang: Lang) -> str:
    """The targets as one group the arrow keys move through (one Tab stop, Enter names it)."""
    buttons = []
    for c in offered:
        if c.kind is TARGET_CHOICE and c.value is not None:
            current = ' tabindex="0"' if c.value == 0 else ' tabindex="-1"'
            buttons.append(
                f'<button type="submit" name="choice" value="{esc(_choice_value(c))}"{current}>'
                f"{esc(number_text(c.value))}</button>"
            )
    extra = "".join(
        button(t("button.random_target", lang), name="choice", value=_choice_value(c))
        for c in offered
        if c.kind is RANDOM_TARGET_CHOICE
    )
    label = esc(t("table.targets", lang))
    inner = (
        f'<p class="about" id="targets-help">{esc(t("table.targets_help", lang))}</p>'
        f'<div class="targets" role="group" aria-label="{label}" '
        f'aria-describedby="targets-help" data-roving="true">{"".join(buttons)}</div>{extra}'
    )
    return _act_form(paths, table, offered[0].side, lang, inner)


def _answer_controls(
    game: TableGame, paths: Paths, table: View, choice: Choice, lang: Lang, typed: str
) -> str:
    side = table.sides[choice.side]
    cards = _cards(side.face_up, lang)
    if table.target is not None:
        about = t("modal.answer.cards_target", lang, cards="\0", target=number_text(table.target))
    else:
        about = t("modal.answer.cards", lang, cards="\0")
    level = table.config.level
    inner = (
        _secret(game, "table.answer.secret", lang)
        + f'<label for="answer">{esc(t(answer_label(table), lang))}</label>'
        f'<p class="about" id="about">{esc(about).replace(chr(0), cards)}</p>'
        f'<div class="answer-row"><input id="answer" name="answer" autocomplete="off" '
        f'autocapitalize="off" spellcheck="false" maxlength="100" aria-describedby="about" '
        f'placeholder="{esc(t(f"modal.answer.placeholder.{level}", lang))}" '
        f'value="{esc(typed)}">'
        + button(t(choice.kind.label, lang), name="choice", value=choice.kind.name, cls="primary")
        + "</div>"
    )
    return _act_form(paths, table, choice.side, lang, inner)


def answer_label(table: View) -> str:
    """The answer box's label in plain words, as the teacher chose the answer's form (RULES
    §2.2): the number, or (levels 3–7, if chosen) the calculation alone is enough."""
    config = table.config
    form = AnswerForm.NUMBER if config.level in RESULT_LEVELS else config.answer_form
    return f"lesson.answer.label.{form.value}"


def _label(choice: Choice, lang: Lang) -> str:
    """The words on a choice's button: its kind's, or a picked value's own number."""
    kind = choice.kind
    if kind.shape is Shape.PICK and choice.value is not None:
        return number_text(choice.value)
    return t(kind.label_for(choice.value), lang)


def _press_controls(
    game: TableGame, paths: Paths, table: View, offered: list[Choice], lang: Lang, hint: bool
) -> str:
    """A decision made with a press (satsing's bet or no bet, any game's own): one button
    per choice, in secret at a shared screen, beside the side's face-up cards."""
    side = offered[0].side
    buttons = [button(_label(c, lang), name="choice", value=_choice_value(c)) for c in offered]
    cards = _cards(table.sides[side].face_up, lang)
    yours = esc(t("modal.answer.cards", lang, cards=chr(0))).replace(chr(0), cards)
    about = f'<p class="about">{yours}</p>'
    inner = _secret(game, "table.bet.secret", lang) + about + "".join(buttons)
    out = _act_form(paths, table, side, lang, inner)
    if side in table.hints:
        if hint:
            text = render_hint(swap_chances(game.state, side), lang)
            lines = "".join(f"<p>{md(line)}</p>" for line in text.splitlines())
            out += f'<section class="hint">{lines}</section>'
        else:
            out += (
                f'<form method="get" action="{esc(paths.page)}" class="hint-form">'
                f"{hidden('lang', lang)}{hidden('hint', side)}"
                f"{button(t('button.hint', lang))}</form>"
            )
    return out


def _controls(
    game: TableGame,
    paths: Paths,
    table: View,
    names: Mapping[int, str],
    lang: Lang,
    seen: Seen,
) -> tuple[str, str]:
    """Whose turn it is, and the controls for now: a flip, the target, the device's answer
    box or its bet (at one screen: the first awaited side's)."""
    if seen.paused:
        return f'<p class="turn">{esc(t("lesson.paused", lang))}</p>', ""
    held = [s for s in seen.held if s in game.humans]
    choices = [c for c in table.choices if c.side in held]
    flips = [c for c in choices if c.kind is FLIP_CHOICE]
    if flips:
        label = button(t("button.flip", lang), name="choice", value="flip", cls="primary")
        return "", _act_form(paths, table, flips[0].side, lang, label)
    if not choices:
        if table.awaited and not table.is_over:
            waiting = [names[s] for s in table.awaited if s in names]
            text = t("lesson.wait_for", lang, names=", ".join(waiting))
            return f'<p class="turn wait">{esc(text)}</p>', ""
        return "", ""
    side = choices[0].side
    offered = [c for c in choices if c.side == side]
    key = "lesson.your_turn" if seen.pupil else "table.turn"
    turn = f'<h2 class="turn">{esc(t(key, lang, name=names[side]))}</h2>'
    kinds = {c.kind for c in offered}
    if kinds & {TARGET_CHOICE, RANDOM_TARGET_CHOICE}:
        return turn, _target_controls(paths, table, offered, lang)
    typed = next((c for c in offered if c.kind.shape is Shape.TYPE), None)
    if typed is not None:
        return turn, _answer_controls(game, paths, table, typed, lang, seen.typed)
    return turn, _press_controls(game, paths, table, offered, lang, seen.hint)


def _clock(game: TableGame, paths: Paths, table: View, now: float, lang: Lang, seen: Seen) -> str:
    """The time left (a count the script moves on, outside the live region; in a pause it
    stands, marked so the script leaves it) and the button that gives more time (WCAG
    2.2.1)."""
    parts: list[str] = []
    stopped = game.stopped_at is not None
    left = game.time_left(now)
    if table.time_up:
        parts.append(f'<p class="time">{esc(t("board.time_up", lang))}</p>')
    elif left is not None and not table.is_over:
        parts.append(_time_line("table.time_left", left, lang, stopped))
        if not seen.pupil and not seen.paused:
            parts.append(
                f'<form method="post" action="{esc(paths.more_time)}" class="inline">'
                f"{hidden('lang', lang)}{button(t('table.more_minutes', lang))}</form>"
            )
    mine = [s for s in seen.held if s in game.answer_deadlines]
    answer = game.answer_left(mine[0], now) if mine else None
    if answer is not None and not table.is_over:
        parts.append(_time_line("lesson.answer_time_left", answer, lang, stopped))
        if not seen.paused and game.extensions.get(mine[0], 0) < EXTENSIONS:
            parts.append(
                f'<form method="post" action="{esc(paths.more_time)}" class="inline" '
                'data-live="act">'
                f"{hidden('lang', lang)}{hidden('side', mine[0])}"
                f"{button(t('lesson.more_time', lang))}</form>"
            )
    return "".join(parts)


def _time_line(key: str, seconds: float, lang: Lang, stopped: bool = False) -> str:
    left = max(0, int(seconds + 0.999))
    stands = ' data-stopped="true"' if stopped else ""
    clock = f'<time data-seconds="{left}"{stands}>{left // 60}:{left % 60:02d}</time>'
    return f'<p class="time">{esc(t(key, lang, time=chr(0))).replace(chr(0), clock)}</p>'


def shown_block(table: View, names: Mapping[int, str], lang: Lang) -> RoundBlock | None:
    """The round shown, in the board's words, with its war rule named (RULES §3.2)."""
    war_rule = t(f"war_rule.{table.config.war_rule.value}.name", lang)
    return round_block(table.result, names, lang, war=table.war, war_rule=war_rule)


def round_lines(table: View, names: Mapping[int, str], lang: Lang) -> list[str]:
    """The round shown, told in full: its outcome, then each side's play after its name."""
    block = shown_block(table, names, lang)
    if block is None:
        return []
    lines = list(block.head)
    for side in sorted(block.plays):
        lines.append(f"{names[side]}: " + " · ".join(block.plays[side]))
    return lines


def _around(table: View, names: Mapping[int, str], lang: Lang) -> tuple[list[str], list[str]]:
    """The news before the round shown (the round in play) and after it (what to do now)."""
    if table.is_over:
        return [], []
    after = prompt_lines(table, names, lang)
    waiting = waiting_line(table, names, lang)
    return [header_line(table, lang)], after + ([waiting] if waiting else [])


def _praised(game: TableGame, table: View, lang: Lang) -> dict[int, str]:
    """The praise for each side a pupil plays that found the best move or hit the target in
    the round shown, as the Discord board gives it (`classroom.text.praise`): for the last
    comparison answered, never for the computer, nor in auto mode, where nobody answers."""
    facts = table.result
    if facts is None or table.config.mode is Mode.AUTO:
        return {}
    answered = [c for c in facts.comparisons if any(answer_of(p) for p in c.plays)]
    if not answered:
        return {}
    out: dict[int, str] = {}
    for play in answered[-1].plays:
        answer = answer_of(play)
        if play.side in game.humans and answer is not None and answer.played:
            text = praise(facts, play, table.config.level, lang)
            if text is not None:
                out[play.side] = text
    return out


def news_html(game: TableGame, table: View, names: Mapping[int, str], lang: Lang) -> str:
    """The news box: the status lines, the round shown with its cards drawn as the sides'
    own tables drew them (`TableGame.laid_in`), each side's after its name."""
    before, after = _around(table, names, lang)
    lines = [md(line) for line in before]
    block = shown_block(table, names, lang)
    if block is not None and table.result is not None:
        laid = game.laid_in(table.result)
        lines += [md(line) for line in block.head]
        praised = _praised(game, table, lang)
        for side in sorted(block.plays):
            left = list(laid.get(side, ()))
            # A side's lines stand on one line here (`result_line`'s separators).
            plays = " · ".join(drawn_line(line, left, lang) for line in block.plays[side])
            lines.append(f"{md(names[side])}: {plays}")
        lines += [
            f'<span class="praise">{md(names[side])}: {esc(text)}</span>'
            for side, text in sorted(praised.items())
        ]
    lines += [md(line) for line in after]
    return "".join(f"<p>{line}</p>" for line in lines)


def _summary(game: TableGame, paths: Paths, table: View, names: Mapping[int, str], lang: Lang,
             seen: Seen) -> str:  # fmt: skip
    lines = [t("over.title", lang)]
    if table.outcome is not None:
        lines += outcome_lines(table.outcome, names, lang)
    counts = "".join(
        f"<li>{esc(names[s.side])}: {esc(count_text(s.count, lang))}</li>" for s in table.sides
    )
    rounds = t("table.summary.rounds", lang, rounds=game.state.round)
    next_key = "lesson.ended" if seen.ended else "lesson.after_game"
    after = (
        f'<p class="next">{esc(t(next_key, lang))}</p>'
        if seen.pupil
        else f'<form method="get" action="/">{hidden("lang", lang)}'
        f"{button(t('table.new_game', lang), cls='primary')}</form>"
    )
    return (
        f'<section class="summary" aria-labelledby="summary">'
        f'<h2 id="summary">{esc(t("table.summary.heading", lang))}</h2>'
        + "".join(f"<p>{md(line)}</p>" for line in lines)
        + f"<ul>{counts}</ul><p>{esc(rounds)}</p>"
        f'<form method="get" action="{esc(paths.replay)}">{hidden("lang", lang)}'
        f"{button(t('table.download', lang))}</form>{after}</section>"
    )


def notes_of(
    game: TableGame, seen: Seen, names: Mapping[int, str], lang: Lang
) -> list[tuple[str, bool]]:
    """The notes for this device's seats that are still current, as (text, correction); at a
    shared screen each is named by its side."""
    out: list[tuple[str, bool]] = []
    window = game.state.window
    for side, seat in sorted(seen.seats.items()):
        note = game.notes.get(seat)
        # A note belongs to its decision window: gone once a later one opens, or the game
        # ends in it ("wait for the others" is never said with nobody left to wait for).
        if note is None or note.until < window or (note.until == window and game.over):
            continue
        text = note.text(lang)
        if len(seen.seats) > 1:
            text = t("table.note.side", lang, name=names[side], text=text)
        out.append((text, note.correction))
    return out


def messages(error: str | None, notes: list[tuple[str, bool]]) -> str:
    """The message area: an error (an alert), news and corrections (a status; a correction is
    never drawn as a success)."""
    parts = []
    if error:
        parts.append(f'<p class="message error" id="message" role="alert">{md(error)}</p>')
    plain = " ".join(text for text, correction in notes if not correction)
    fixes = " ".join(text for text, correction in notes if correction)
    if fixes:
        parts.append(f'<p class="message correction" id="correction" role="status">{md(fixes)}</p>')
    if plain:
        parts.append(f'<p class="message note" id="note" role="status">{md(plain)}</p>')
    return "".join(parts)


def table_parts(
    game: TableGame, lang: Lang, now: float, paths: Paths, seen: Seen
) -> dict[str, str]:
    """The page's parts by id, for this device."""
    viewer = seen.held[0] if len(seen.held) == 1 else None
    table = game.view(viewer)
    names = side_names(game, lang)
    over = table.is_over
    turn, actions = ("", "") if over else _controls(game, paths, table, names, lang, seen)
    sides = "".join(
        _side(table, s, names[s.side], lang, seen.pupil and s.side in seen.held)
        for s in table.sides
    )
    notes = notes_of(game, seen, names, lang)
    parts = {
        "messages": messages(seen.error, notes),
        "turn": turn,
        "actions": actions,
        "now": news_html(game, table, names, lang),
        "clock": _clock(game, paths, table, now, lang, seen),
        "sides": sides,
        "end": _summary(game, paths, table, names, lang, seen) if over else "",
        "footer": f"<p>{esc(' · '.join(settings_parts(table.config, lang)))}</p>",
    }
    if seen.paused and not over:
        parts["messages"] += (
            f'<p class="message note" role="status">{esc(t("lesson.paused", lang))}</p>'
        )
    return parts


def table_state(game: TableGame) -> str:
    """The page root's data-state: playing, war or over."""
    table = game.view(None)
    if table.now is Now.OVER:
        return "over"
    if table.now is Now.WAR or table.war is not None:
        return "war"
    return "playing"


def table_title(game: TableGame, lang: Lang) -> str:
    config = game.state.config
    return game_title(descriptor(config.game), config.level, lang)


PART_ORDER = ("messages", "turn", "actions", "now", "clock", "sides", "end", "footer")
_WRAP = {
    "messages": '<div id="messages">{}</div>',
    "turn": '<div id="turn">{}</div>',
    "actions": '<section id="actions" class="actions">{}</section>',
    "now": '<section id="now" class="now" aria-live="polite">{}</section>',
    "clock": '<div id="clock" class="clock">{}</div>',
    "sides": '<section id="sides" class="sides">{}</section>',
    "end": '<div id="end">{}</div>',
    "footer": '<footer id="footer">{}</footer>',
}


def wrap(parts: Mapping[str, str]) -> str:
    """The parts in page order, each in its element with a stable id."""
    return "".join(_WRAP[k].format(parts.get(k, "")) for k in PART_ORDER)
