"""The class lesson's pages that are not a table: the join page, a pupil's waiting room, the
teacher's projector view and the lesson summary. Every page is parts with stable ids (see
`table.board`), so a live update replaces only what changed."""

from __future__ import annotations

from collections.abc import Mapping, Set

from classroom.i18n import Lang, t
from classroom.summary import (
    ClassSummary,
    PupilLine,
    mistakes_text,
    next_text,
    notes_text,
    operation_name,
    part_title,
    percent,
    pupil_name,
    when_text,
)
from classroom.text.board_text import game_title, settings_parts
from classroom.text.cards import count_text
from engine.options import Option
from engine.registry import GAMES, descriptor
from table.board import card_html, side_names, table_state
from table.games import TableGame
from table.lesson import MAX_SEATS, WAITING, Lesson, Seat
from table.page import button, esc, hidden, md, option_field, select_field
from table.projected import shown_part
from table.setup import MAX_NAME, form_options
from table.summary import summarise

# -- joining --------------------------------------------------------------------------------


def join_parts(
    lang: Lang, code: str = "", name: str = "", error: str | None = None, *, root: str = ""
) -> dict[str, str]:
    """The join page: the code and a first name or nickname, checked alike here and on the
    server (1–32 characters), and the connection check's line."""
    message = f'<p class="message error" id="message" role="alert">{md(error)}</p>' if error else ""
    name_help = t("lesson.join.name_help", lang, count=MAX_NAME)
    form = (
        f'<form method="post" action="{root}/join" class="join">{hidden("lang", lang)}'
        f'<label for="code">{esc(t("lesson.join.code", lang))}</label>'
        f'<input id="code" name="code" inputmode="numeric" autocomplete="off" required '
        f'pattern="[0-9 ]{{6,7}}" maxlength="7" value="{esc(code)}">'
        f'<label for="name">{esc(t("lesson.join.name", lang))}</label>'
        f'<p class="about" id="name-help">{esc(name_help)}</p>'
        f'<input id="name" name="name" autocomplete="nickname" required minlength="1" '
        f'maxlength="{MAX_NAME}" aria-describedby="name-help" value="{esc(name)}">'
        + button(t("lesson.join.button", lang), cls="primary")
        + "</form>"
    )
    check = (
        f'<p class="connection" id="connection" role="status" data-checking="'
        f'{esc(t("lesson.connection.checking", lang))}" data-ok="'
        f'{esc(t("lesson.connection.ok", lang))}" data-blocked="'
        f'{esc(t("lesson.connection.blocked", lang))}"></p>'
    )
    intro = f'<p class="intro">{esc(t("lesson.join.intro", lang))}</p>'
    return {"messages": message, "lobby": intro + form + check}


# -- waiting ----------------------------------------------------------------------------------


def waiting_parts(
    lesson: Lesson,
    seat: Seat,
    lang: Lang,
    error: str | None = None,
    welcome: bool = True,
    *,
    root: str = "",
) -> dict[str, str]:
    """A pupil waits to be paired: who else waits, and (when the teacher allows them) the
    challenges to send and to answer; first what the wait is (`welcome`: not after a game,
    whose end has said it)."""
    message = f'<p class="message error" id="message" role="alert">{md(error)}</p>' if error else ""
    key = "lesson.paused" if lesson.paused else "lesson.waiting"
    if lesson.ended:
        key = "lesson.ended"
    lines = [f'<h2 class="turn wait">{esc(t(key, lang, name=seat.name))}</h2>'] if welcome else []
    incoming = [a for a, b in lesson.challenges.items() if b == seat.id and a in lesson.seats]
    for challenger in incoming:
        name = lesson.seats[challenger].name
        lines.append(
            f'<form method="post" action="{root}/challenge/answer" class="challenge">'
            f"{hidden('lang', lang)}{hidden('seat', challenger)}"
            f"<p>{esc(t('lesson.challenged_by', lang, name=name))}</p>"
            + button(t("button.accept", lang), name="answer", value="accept", cls="primary")
            + button(t("button.decline", lang), name="answer", value="decline")
            + "</form>"
        )
    others = [s for s in lesson.waiting() if s.id != seat.id]
    sent = lesson.challenges.get(seat.id)
    if lesson.challenges_open and not lesson.ended and others:
        items = "".join(
            f"<li>{esc(s.name)} "
            + (
                f'<span class="sent">{esc(t("lesson.challenge_sent", lang))}</span>'
                if s.id == sent
                else f'<form method="post" action="{root}/challenge" class="inline">'
                f"{hidden('lang', lang)}"
                f"{hidden('seat', s.id)}"
                + button(t("lesson.challenge", lang, name=s.name))
                + "</form>"
            )
            + "</li>"
            for s in others
        )
        lines.append(
            f'<h2>{esc(t("lesson.waiting_list", lang))}</h2><ul class="waiting">{items}</ul>'
        )
    elif others:
        names = ", ".join(s.name for s in others)
        lines.append(f"<p>{esc(t('lesson.also_waiting', lang, names=names))}</p>")
    return {"messages": message, "lobby": "".join(lines)}


# -- the teacher ----------------------------------------------------------------------------


def _join_box(
    lesson: Lesson, url: str, address_note: str, qr: str, lang: Lang, shown: str = ""
) -> str:
    """The join URL, the code and the QR code: big while pupils join, smaller once they play
    (the tables need the projector then; a late pupil still reads it). `shown`: the address
    pupils type when it is not the QR code's (a school server's front page, which asks for
    the code: short to type, while the QR code opens the lesson itself)."""
    code = f"{lesson.code[:3]} {lesson.code[3:]}"
    playing = any(not g.over for g in lesson.live_games())
    return (
        f'<div class="join-box{" compact" if playing else ""}" data-join-code="{esc(lesson.code)}" '
        f'data-join-url="{esc(url)}">'
        f'<h2 id="join-title">{esc(t("lesson.teacher.join", lang))}</h2>'
        f'<div class="join-grid"><div>'
        f'<p class="join-url">{esc(shown or url)}</p>'
        f'<p class="join-code"><span>{esc(t("lesson.teacher.code", lang))}</span> '
        f"<strong>{esc(code)}</strong></p>"
        f'<p class="about">{esc(address_note)}</p></div>'
        f'<div class="qr-box">{qr}</div></div></div>'
    )


def _button(label: str, control: str, cls: str = "", **attrs: str) -> str:
    """A teacher's button: its text is its label, `data-control` its stable hook."""
    extra = "".join(f' {k.replace("_", "-")}="{esc(v)}"' for k, v in attrs.items())
    klass = f' class="{esc(cls)}"' if cls else ""
    return (
        f'<button type="submit" data-control="{esc(control)}"{klass}{extra}>{esc(label)}</button>'
    )


def _setup(lesson: Lesson, lang: Lang, root: str) -> str:
    """The game for the class and the pairing, in one form: what the form shows when a
    pairing button is pressed is what the new games are (no separate save to forget). Every
    game's options are in the form; the script hides those the chosen game does not ask."""
    engine = lesson.setup.settings.engine
    game = descriptor(engine.game)
    current = {
        "level": str(engine.level),
        "deck": engine.deck.value,
        "mode": engine.mode.value,
        "answer_form": engine.answer_form.value,
        "answer_seconds": str(lesson.setup.settings.answer_seconds),
        "war_size": str(engine.war_size),
        "war_rule": engine.war_rule.value,
        "minutes": str(lesson.setup.settings.minutes),
    }
    asked = {g.key: {o.key for o in form_options(g, lesson=True)} for g in GAMES.values()}
    mine = asked[game.key]
    options: dict[str, Option] = {}
    for g in GAMES.values():
        options.update((o.key, o) for o in form_options(g, lesson=True) if o.key not in options)
    games = [(g.key, f"{g.emoji} {t(g.name_key, lang)}") for g in GAMES.values()]
    chooser = select_field("game", t("lesson.teacher.game", lang), games, game.key)
    fields = f'<div class="field">{chooser}</div>'
    for key, option in options.items():
        using = " ".join(g for g, keys in asked.items() if key in keys)
        shown = current if key in mine else {}
        fields += (
            f'<div class="field" data-games="{esc(using)}">'
            f"{option_field(option, lang, shown)}</div>"
        )
    teams = " checked" if lesson.setup.teams else ""
    fields += (
        f'<div class="field"><label class="check"><input type="checkbox" name="teams" '
        f'value="on"{teams}> {esc(t("lesson.teacher.teams", lang))}</label></div>'
    )
    challenges = "close" if lesson.challenges_open else "open"
    buttons = (
        _button(t("lesson.teacher.pair_random", lang), "pair-random", "primary",
                name="how", value="random")
        + _button(t("lesson.teacher.pair_results", lang), "pair-results",
                  name="how", value="results")
        + _button(t("lesson.teacher.new_partners", lang), "new-partners",
                  formaction=f"{root}/teacher/new-partners")
        + _button(t(f"lesson.teacher.challenges_{challenges}", lang), "challenges",
                  formaction=f"{root}/teacher/challenges")
    )  # fmt: skip
    # While the class plays, the options fold away under a line that says them (still in
    # the form, so a press uses exactly what the line says); open when pairing is next.
    playing = any(not g.over for g in lesson.live_games())
    chosen = " · ".join([game_title(game, engine.level, lang), *settings_parts(engine, lang)])
    return (
        f"<h2>{esc(t('lesson.teacher.pairing', lang))}</h2>"
        f'<form method="post" action="{root}/teacher/pair" class="setup lesson-setup">'
        f'{hidden("lang", lang)}<details id="setup-fields"{"" if playing else " open"}>'
        f"<summary>{esc(t('lesson.teacher.settings', lang))}: {esc(chosen)}</summary>"
        f'<fieldset><legend class="visually-hidden">{esc(t("lesson.teacher.settings", lang))}'
        f'</legend><p class="about">{esc(t("lesson.teacher.choose_then_pair", lang))}</p>'
        f'<div class="fields">{fields}</div></fieldset></details>'
        f'<div class="buttons">{buttons}</div></form>'
    )


def _control(root: str, action: str, label: str, lang: Lang, cls: str = "", control: str = "",
             **fields: str) -> str:  # fmt: skip
    extra = "".join(hidden(k, v) for k, v in fields.items())
    return (
        f'<form method="post" action="{root}/teacher/{action}" class="inline">'
        f"{hidden('lang', lang)}"
        f"{extra}{_button(label, control or action, cls)}</form>"
    )


def _summary_link(lang: Lang, root: str) -> str:
    return (
        f'<a class="button-link" href="{root}/teacher/summary?lang={lang}">'
        f"{esc(t('lesson.teacher.summary', lang))}</a>"
        f' <a class="button-link" href="{root}/teacher/lessons?lang={lang}">'
        f"{esc(t('lesson.kept.title', lang))}</a>"
    )


def _controls(lesson: Lesson, lang: Lang, root: str) -> str:
    if lesson.ended:
        return f"<p>{esc(t('lesson.ended', lang))}</p>" + _summary_link(lang, root)
    pause = (
        _control(root, "resume", t("lesson.teacher.resume", lang), lang, "primary")
        if lesson.paused
        else _control(root, "pause", t("lesson.teacher.pause", lang), lang)
    )
    return (
        f"<h2>{esc(t('lesson.teacher.everyone', lang))}</h2>"
        + pause
        + _control(root, "more-time", t("table.more_minutes", lang), lang)
        + _control(root, "end", t("lesson.teacher.end", lang), lang)
        + _summary_link(lang, root)
    )


def _joining(lesson: Lesson, lang: Lang, root: str) -> str:
    """Who may still join: the lesson closed to newcomers or open, and its number of seats."""
    if lesson.ended:
        return ""
    lock = (
        _control(root, "unlock", t("lesson.teacher.unlock", lang), lang, "primary")
        if lesson.locked
        else _control(root, "lock", t("lesson.teacher.lock", lang), lang)
    )
    seats = (
        f'<form method="post" action="{root}/teacher/seats" class="inline seat-cap">'
        f"{hidden('lang', lang)}"
        f'<label for="seat-cap">{esc(t("lesson.teacher.seat_cap", lang))}</label> '
        f'<input id="seat-cap" name="seats" type="number" min="1" max="{MAX_SEATS}" '
        f'inputmode="numeric" value="{lesson.seat_cap}"> '
        + _button(t("lesson.teacher.seat_cap_set", lang), "seats")
        + "</form>"
    )
    return f'<div class="joining">{lock}{seats}</div>'


def goal_progress(lesson: Lesson, lang: Lang) -> str:
    """How far the class has come together: the count, the goal and its bar (never who)."""
    best, exact = lesson.found()
    done = best + exact
    text = t("lesson.goal.progress", lang, best=best, exact=exact)
    bar = ""
    if lesson.goal:
        shown = min(done, lesson.goal)
        text += " " + t("lesson.goal.of", lang, done=done, goal=lesson.goal)
        bar = (
            f'<progress max="{lesson.goal}" value="{shown}" aria-label="'
            f'{esc(t("lesson.goal.title", lang))}">{shown}</progress>'
        )
        if done >= lesson.goal:
            bar += f'<p class="reached">{esc(t("lesson.goal.reached", lang))}</p>'
    return f"<p>{esc(text)}</p>{bar}"


def _goal(lesson: Lesson, lang: Lang, root: str) -> str:
    """What the class achieves together (never who did it), and the goal the teacher sets."""
    form = (
        f'<form method="post" action="{root}/teacher/goal" class="inline goal-form">'
        f"{hidden('lang', lang)}"
        f'<label for="goal-set">{esc(t("lesson.goal.set", lang))}</label>'
        f'<input id="goal-set" name="goal" type="number" min="0" max="9999" inputmode="numeric" '
        f'value="{lesson.goal or ""}">{button(t("lesson.goal.save", lang))}</form>'
    )
    title = esc(t("lesson.goal.title", lang))
    return f"<h2>{title}</h2>{goal_progress(lesson, lang)}{form}"


# A pupil's device: the class goal, a polite live region of its own (a change anywhere in
# the class is told when the reader is free; it never ticks), at the page's end.
GOAL_OPEN = '<section id="goal" class="part part-goal" aria-live="polite">'


def goal_part(lesson: Lesson, lang: Lang) -> str:
    """The class goal on a pupil's device: the same count as on the projector, for everyone
    alike (no name, no rank)."""
    return (
        f"<h2>{esc(t('lesson.goal.title', lang))}</h2>"
        f'<p class="about">{esc(t("lesson.goal.about", lang))}</p>' + goal_progress(lesson, lang)
    )


def _seats(lesson: Lesson, lang: Lang, connected: Set[str], root: str) -> str:
    """Every seat at a glance, live: its name, playing or waiting, and whether its device
    is connected (a shape and a word, not a colour alone). Removing is in a menu below, not
    a button beside every name on the projector."""
    cells = []
    seats = sorted(lesson.seats.values(), key=lambda s: s.joined)
    for seat in seats:
        game = lesson.game_of(seat)
        playing = game is not None and not game.over
        where = t("lesson.teacher.playing" if playing else "lesson.teacher.waits", lang)
        online = seat.device in connected
        link = t("lesson.teacher.connected" if online else "lesson.teacher.offline", lang)
        cells.append(
            f'<li data-seat="{esc(seat.id)}" data-connected="{"true" if online else "false"}" '
            f'data-playing="{"true" if playing else "false"}">'
            f'<span class="dot" aria-hidden="true">{"●" if online else "○"}</span> '
            f'<span class="name">{esc(seat.name)}</span> '
            f'<span class="where">{esc(where)}<span class="visually-hidden">, {esc(link)}'
            f"</span></span></li>"
        )
    count = t("lesson.teacher.seats_of", lang, joined=len(seats), cap=lesson.seat_cap)
    locked = (
        f'<p class="about">{esc(t("lesson.teacher.locked", lang))}</p>' if lesson.locked else ""
    )
    return (
        f'<div class="seats-head"><h2>{esc(count)}</h2>{_joining(lesson, lang, root)}</div>{locked}'
        f'<ul class="seat-grid">{"".join(cells)}</ul>'
    ) + (_remove_menu(lesson, lang, root) if seats else "")


def _remove_menu(lesson: Lesson, lang: Lang, root: str) -> str:
    waiting = len(lesson.waiting())
    choices = [(WAITING, t("lesson.teacher.remove_waiting", lang, count=waiting))] + [
        (s.id, s.name) for s in sorted(lesson.seats.values(), key=lambda s: s.joined)
    ]
    items = "".join(f'<option value="{esc(v)}">{esc(text)}</option>' for v, text in choices)
    return (
        f'<details class="remove-menu" id="remove-menu">'
        f"<summary>{esc(t('lesson.teacher.remove_menu', lang))}</summary>"
        f'<form method="post" action="{root}/teacher/remove" class="inline">{hidden("lang", lang)}'
        f'<label for="remove-seat">{esc(t("lesson.teacher.remove_who", lang))}</label> '
        f'<select id="remove-seat" name="seat">{items}</select> '
        + _button(t("lesson.teacher.remove_button", lang), "remove")
        + "</form></details>"
    )


def _removing(lesson: Lesson, lang: Lang, root: str) -> str:
    """The question before a seat is removed (its game ends as given up)."""
    if lesson.removing == WAITING:
        count = len(lesson.waiting())
        return (
            f'<div class="message correction ask" role="alert">'
            f"<p>{esc(t('lesson.teacher.remove_waiting_ask', lang, count=count))}</p>"
            + _control(root, "remove", t("lesson.teacher.remove_waiting_yes", lang, count=count),
                       lang, "primary", seat=WAITING, confirm="yes")
            + _control(root, "remove", t("lesson.teacher.remove_waiting_no", lang), lang,
                       seat=WAITING, confirm="no")
            + "</div>"
        )  # fmt: skip
    seat = lesson.seats.get(lesson.removing or "")
    if seat is None:
        return ""
    name = seat.name
    return (
        f'<div class="message correction ask" role="alert">'
        f"<p>{esc(t('lesson.teacher.remove_ask', lang, name=name))}</p>"
        + _control(root, "remove", t("lesson.teacher.remove_yes", lang, name=name), lang, "primary",
                   seat=seat.id, confirm="yes")
        + _control(root, "remove", t("lesson.teacher.remove_no", lang, name=name), lang,
                   seat=seat.id, confirm="no")
        + "</div>"
    )  # fmt: skip


def _table_card(game: TableGame, lang: Lang, root: str) -> str:
    table = game.view(None)
    names = side_names(game, lang)
    state = table_state(game)
    players = " – ".join(names[s] for s in range(len(game.names)))
    sides = "".join(
        f"<li>{esc(names[s.side])}: {esc(count_text(s.count, lang))} "
        + " ".join(card_html(c, lang) for c in s.face_up)
        + "</li>"
        for s in table.sides
    )
    waiting = [names[s] for s in table.awaited if s in names]
    now = t("lesson.teacher.waiting_for", lang, names=", ".join(waiting)) if waiting else ""
    if table.is_over:
        now = t("lesson.teacher.over", lang)
    every = ",".join(names[s] for s in range(len(game.names)))
    line = md(t("board.round", lang, round=table.round)) + (f" · {esc(now)}" if now else "")
    return (
        f'<article class="table-card" data-table="{esc(game.id)}" data-state="{state}" '
        f'data-players="{esc(every)}"><div class="table-head"><h3>{esc(players)}</h3>'
        + _control(root, "show", t("lesson.teacher.show", lang), lang, table=game.id)
        + f'</div><ul class="table-sides">{sides}</ul><p class="table-now">{line}</p></article>'
    )


def _tables(lesson: Lesson, lang: Lang, root: str) -> str:
    """The live tables first; the finished ones folded away below them."""
    games = lesson.live_games()
    live = [g for g in games if not g.over]
    over = [g for g in games if g.over]
    head = f"<h2>{esc(t('lesson.teacher.tables', lang))}</h2>"
    if not games:
        return head + f"<p>{esc(t('lesson.teacher.no_tables', lang))}</p>"
    out = head + f'<div class="tables">{"".join(_table_card(g, lang, root) for g in live)}</div>'
    if over:
        out += (
            f'<details class="finished" id="finished"><summary>'
            f"{esc(t('lesson.teacher.finished', lang, count=len(over)))}</summary>"
            f'<div class="tables">{"".join(_table_card(g, lang, root) for g in over)}</div>'
            "</details>"
        )
    return out


def teacher_parts(lesson: Lesson, url: str, address_note: str, qr: str, lang: Lang,
                  error: str | None = None,
                  connected: Set[str] = frozenset(), *,
                  root: str = "", shown: str = "") -> dict[str, str]:  # fmt: skip
    """The teacher's page; `connected`: the devices whose live connection is open."""
    message = f'<p class="message error" id="message" role="alert">{md(error)}</p>' if error else ""
    if lesson.paused:
        message += f'<p class="message note" role="status">{esc(t("lesson.paused", lang))}</p>'
    message += _removing(lesson, lang, root)
    return {
        "messages": message,
        "join": _join_box(lesson, url, address_note, qr, lang, shown),
        "setup": "" if lesson.ended else _setup(lesson, lang, root),
        "controls": _controls(lesson, lang, root),
        "goal": _goal(lesson, lang, root),
        "shown": shown_part(lesson, lang, root),
        "tables": _tables(lesson, lang, root),
        "seats": _seats(lesson, lang, connected, root),
    }


# The round put on the projector comes first: the page opens at its top after the press.
TEACHER_ORDER = ("messages", "shown", "join", "controls", "setup", "tables", "seats", "goal")
LOBBY_ORDER = ("messages", "lobby")


def wrap_parts(parts: Mapping[str, str], order: tuple[str, ...]) -> str:
    return "".join(
        f'<section id="{k}" class="part part-{k}">{parts.get(k, "")}</section>'
        if k not in ("messages",)
        else f'<div id="{k}">{parts.get(k, "")}</div>'
        for k in order
    )


# -- the summary ----------------------------------------------------------------------------


_SUMMARY_COLUMNS = ("name", "games", "rounds", "answers", "rate", "exact", "mistakes", "missed",
                    "notes", "next")  # fmt: skip


def _summary_row(p: PupilLine, lang: Lang) -> str:
    cells = (p.games, p.rounds, p.answers, percent(p.rate, lang), p.exact,
             mistakes_text(p.mistakes, lang) or "–", p.missed, notes_text(p.notes, lang) or "–",
             next_text(p.next, lang) or "–")  # fmt: skip
    return (
        f'<tr><th scope="row">{esc(pupil_name(p, lang))}</th>'
        + "".join(f"<td>{esc(str(cell))}</td>" for cell in cells)
        + "</tr>"
    )


def _summary_parts(summary: ClassSummary, lang: Lang) -> str:
    """One table per game and level played (RULES §2.6 counts), then who played nothing."""
    head = "".join(
        f'<th scope="col">{esc(t(f"lesson.summary.column.{c}", lang))}</th>'
        for c in _SUMMARY_COLUMNS
    )
    out = []
    for n, (key, pupils) in enumerate(summary.parts()):
        if key is None:
            names = ", ".join(pupil_name(p, lang) for p in pupils)
            out.append(f"<p>{esc(t('lesson.summary.no_games', lang))}: {esc(names)}</p>")
            continue
        title = part_title(key[0], key[1], lang)
        rows = "".join(_summary_row(p, lang) for p in pupils)
        out.append(
            f'<h3 id="part-{n}">{esc(title)}</h3>'
            f'<div class="scroll"><table class="summary-table" aria-labelledby="part-{n}">'
            f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>"
        )
    return "".join(out)


def summary_body(
    lesson: Lesson,
    lang: Lang,
    csv_path: str = "/teacher/summary.csv",
    *,
    root: str = "",
    back: str | None = None,
) -> str:
    """The lesson's summary; `csv_path` (under `root`) its CSV; `back` the page it returns to
    (the lesson's teacher page unless another is given)."""
    summary = summarise(lesson)
    weak = ", ".join(
        f"{operation_name(op, lang)} ({percent(rate, lang)})"
        for op, rate in summary.weak_operations
    )
    kinds = mistakes_text(summary.mistakes, lang)
    cls = [
        t("lesson.goal.progress", lang, best=summary.best, exact=summary.exact),
        t("lesson.summary.weak", lang, operations=weak or "–"),
        t("lesson.summary.kinds", lang, kinds=kinds or "–"),
    ]
    when = when_text(summary, lang)
    return (
        f"<header><h1>{esc(t('lesson.summary.title', lang))}</h1></header>"
        + (f'<p class="about">{esc(when)}</p>' if when else "")
        + f'<section aria-labelledby="class-h">'
        f'<h2 id="class-h">{esc(t("lesson.summary.class", lang))}</h2>'
        + "".join(f"<p>{esc(line)}</p>" for line in cls)
        + f'</section><section aria-labelledby="pupils-h"><h2 id="pupils-h">'
        f"{esc(t('lesson.summary.pupils', lang))}</h2>"
        + _summary_parts(summary, lang)
        + "</section>"
        f'<p class="no-print">'
        f'<a class="button-link" href="{root}{csv_path}?lang={lang}" download>'
        f"{esc(t('lesson.summary.csv', lang))}</a> "
        f'<button type="button" data-print="true">{esc(t("lesson.summary.print", lang))}</button> '
        f'<a class="button-link" href="{back or f"{root}/teacher"}?lang={lang}">'
        f"{esc(t('lesson.summary.back', lang))}</a></p>"
    )
