"""The pages of a class that remembers, as HTML: the join form of a class lesson (a pupil's
card), the roster page (the pupils, their cards, a card replaced, a pupil forgotten), and the
cards' print view (one A4 page of cards to cut out, each a name, a code and its QR code).

Plain forms, no script; the print view's cutting lines and page size are CSS
(`table/static/class.css`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from classroom.i18n import Lang, t
from storage.records.classes import ClassInfo, Pupil
from table.lesson import Lesson
from table.net import qr_svg
from table.page import button, document, esc, hidden, href, lang_switch, md, message
from table.roster import CARD_LENGTH, shown_card
from table.setup import MAX_NAME

CLASS_CSS = '<link rel="stylesheet" href="/static/class.css">'


def class_document(lang: Lang, state: str, title: str, body: str) -> str:
    """A page of the class's (the lesson's page, with the class's own style sheet)."""
    return document(lang, state, title, body).replace("</head>", CLASS_CSS + "</head>", 1)


def head(title: str, lang: Lang, action: str, keep: dict[str, str] | None = None) -> str:
    return (
        f'<header id="top"><h1>{esc(title)}</h1>'
        + lang_switch(lang, action, keep or {})
        + "</header>"
    )


def link(path: str, text: str, lang: Lang) -> str:
    """A link to another page of the lesson's, in the page's language."""
    return f'<a href="{href(path, lang=lang)}">{esc(text)}</a>'


def about(id_: str, text: str) -> str:
    return f'<p class="about" id="{esc(id_)}">{esc(text)}</p>'


def card_url(base: str, card: str) -> str:
    """The address a card's QR code opens: the card's own page, its code filled in."""
    return f"{base}card/{card}"


def card_join_parts(
    lang: Lang, code: str = "", error: str | None = None, *, root: str = ""
) -> dict[str, str]:
    """A class lesson's join page: the code of the pupil's own card (its QR code opens this
    page with the code filled in); no name to type: the card says who the pupil is."""
    alert = f'<p class="message error" id="message" role="alert">{md(error)}</p>' if error else ""
    longest = CARD_LENGTH + 2
    form = (
        f'<form method="post" action="{root}/join" class="join">{hidden("lang", lang)}'
        f'<label for="code">{esc(t("class.join.code", lang))}</label>'
        f'<p class="about" id="code-help">{esc(t("class.join.code_help", lang))}</p>'
        f'<input id="code" name="code" autocomplete="off" autocapitalize="characters" required '
        f'maxlength="{longest}" aria-describedby="code-help" value="{esc(code)}">'
        + button(t("lesson.join.button", lang), cls="primary")
        + "</form>"
    )
    intro = f'<p class="intro">{esc(t("class.join.intro", lang))}</p>'
    return {"messages": alert, "lobby": intro + form}


def roster_body(
    klass: ClassInfo,
    pupils: Sequence[Pupil],
    lang: Lang,
    *,
    note: str | None = None,
    error: str | None = None,
    typed: str = "",
    forgetting: Pupil | None = None,
    own: tuple[bool, Mapping[int, int]] = (False, {}),
    root: str = "",
) -> str:
    """The teacher's page of the class: who is on the roster and their cards; whether each
    table plays at its pupils' own level (`own`: on or off, and each pupil's level)."""
    title = t("class.roster.title", lang, name=klass.name)
    out = head(title, lang, f"{root}/teacher/class")
    out += message(error, error=True) + message(note, error=False)
    out += (
        '<nav class="class-links" aria-label="'
        + esc(t("class.roster.links", lang))
        + '"><ul>'
        + f'<li><a href="{href(f"{root}/teacher/class/cards", lang=lang)}">'
        + esc(t("class.roster.print", lang))
        + "</a></li>"
        + f'<li><a href="{href(f"{root}/teacher/progress", lang=lang)}">'
        + esc(t("class.progress.title", lang, name=klass.name))
        + "</a></li>"
        + f'<li><a href="{href(f"{root}/teacher", lang=lang)}">'
        + esc(t("lesson.summary.back", lang))
        + "</a></li></ul></nav>"
    )
    if forgetting is not None:
        confirm = t("class.roster.forget_confirm", lang, name=forgetting.name)
        out += (
            '<section class="part confirm" aria-labelledby="forget-h">'
            + f'<h2 id="forget-h">{esc(confirm)}</h2>'
            f'<form method="post" action="{root}/teacher/class/forget">{hidden("lang", lang)}'
            f"{hidden('pupil', forgetting.id)}{hidden('confirm', 'yes')}"
            + button(t("class.roster.forget_yes", lang), cls="danger")
            + "</form>"
            + f"<p>{link(f'{root}/teacher/class', t('class.roster.keep', lang), lang)}</p>"
            "</section>"
        )
    out += (
        '<section class="part" aria-labelledby="roster-h">'
        f'<h2 id="roster-h">{esc(t("class.roster.pupils", lang))}</h2>'
    )
    if not pupils:
        out += f"<p>{esc(t('class.roster.empty', lang))}</p>"
    else:
        rows = "".join(
            f'<tr><th scope="row">{esc(p.name)}</th><td><code>{esc(shown_card(p.card))}</code></td>'
            f'<td><form method="post" action="{root}/teacher/class/card">{hidden("lang", lang)}'
            f"{hidden('pupil', p.id)}"
            + button(t("class.roster.replace", lang, name=p.name))
            + "</form></td>"
            f'<td><a href="{href(f"{root}/teacher/progress/pupil/{p.id}", lang=lang)}">'
            f"{esc(t('class.progress.note_link', lang, name=p.name))}</a></td>"
            f'<td><form method="post" action="{root}/teacher/class/forget">{hidden("lang", lang)}'
            f"{hidden('pupil', p.id)}"
            + button(t("class.roster.forget", lang, name=p.name))
            + "</form></td></tr>"
            for p in pupils
        )
        out += (
            '<table class="roster"><thead><tr>'
            f'<th scope="col">{esc(t("class.roster.column.name", lang))}</th>'
            f'<th scope="col">{esc(t("class.roster.column.card", lang))}</th>'
            f'<th scope="col">{esc(t("class.roster.column.new_card", lang))}</th>'
            f'<th scope="col">{esc(t("class.roster.column.note", lang))}</th>'
            f'<th scope="col">{esc(t("class.roster.column.forget", lang))}</th>'
            f"</tr></thead><tbody>{rows}</tbody></table>"
        )
    out += "</section>"
    out += levels_part(own, pupils, lang, root)
    out += (
        '<section class="part" aria-labelledby="add-h">'
        f'<h2 id="add-h">{esc(t("class.roster.add_title", lang))}</h2>'
        f'<form method="post" action="{root}/teacher/class/add" class="add-pupils">'
        f"{hidden('lang', lang)}"
        f'<label for="names">{esc(t("class.roster.names", lang))}</label>'
        + about("names-help", t("class.roster.names_help", lang, count=MAX_NAME))
        + '<textarea id="names" name="names" rows="6" aria-describedby="names-help">'
        + f"{esc(typed)}</textarea>"
        + button(t("class.roster.add", lang), cls="primary")
        + "</form></section>"
    )
    out += (
        '<section class="part" aria-labelledby="privacy-h">'
        f'<h2 id="privacy-h">{esc(t("class.privacy.title", lang))}</h2>'
        f"<p>{esc(t('class.privacy.kept', lang))}</p>"
        f"<p>{esc(keep_text(klass, lang))}</p>"
        f'<p><a href="{href(f"{root}/teacher/class/export.csv", lang=lang)}">'
        f"{esc(t('class.privacy.export', lang))}</a></p>"
        f'<form method="post" action="{root}/teacher/class/delete">{hidden("lang", lang)}'
        + button(t("class.privacy.delete", lang, name=klass.name), cls="danger")
        + "</form></section>"
    )
    return out


def levels_part(
    own: tuple[bool, Mapping[int, int]], pupils: Sequence[Pupil], lang: Lang, root: str = ""
) -> str:
    """Each table at its pupils' own level: the switch, and the level each pupil would play."""
    on, levels = own
    state = t("class.levels.on" if on else "class.levels.off", lang)
    listed = "".join(
        f"<li>{esc(t('class.levels.pupil', lang, name=p.name, level=levels[p.id]))}</li>"
        for p in pupils
        if p.id in levels
    )
    return (
        '<section class="part" aria-labelledby="levels-h">'
        f'<h2 id="levels-h">{esc(t("class.levels.title", lang))}</h2>'
        f"<p>{esc(t('class.levels.intro', lang))}</p>"
        f'<p role="status">{esc(state)}</p>'
        f'<form method="post" action="{root}/teacher/class/levels">{hidden("lang", lang)}'
        f"{hidden('own', 'off' if on else 'on')}"
        + button(t("class.levels.turn_off" if on else "class.levels.turn_on", lang))
        + "</form>"
        + (f"<ul>{listed}</ul>" if listed else f"<p>{esc(t('class.levels.none', lang))}</p>")
        + "</section>"
    )


def name_body(known: Sequence[str], lang: Lang, error: str | None = None, root: str = "") -> str:
    """The form that makes a lesson one of a class: a class's name (those kept offered)."""
    options = "".join(f'<option value="{esc(n)}"></option>' for n in known)
    return (
        message(error, error=True)
        + f"<p>{esc(t('class.open.intro', lang))}</p>"
        + f'<form method="post" action="{root}/teacher/class/open">{hidden("lang", lang)}'
        + f'<label for="class-name">{esc(t("class.open.name", lang))}</label>'
        + '<input id="class-name" name="name" required maxlength="32" autocomplete="off" '
        + 'list="classes-kept">'
        + f'<datalist id="classes-kept">{options}</datalist>'
        + button(t("class.open.button", lang), cls="primary")
        + "</form>"
        + f"<p>{link(f'{root}/teacher', t('lesson.summary.back', lang), lang)}</p>"
    )


def keep_text(klass: ClassInfo, lang: Lang) -> str:
    if klass.keep_days is None:
        return t("class.privacy.keep_year", lang)
    return t("class.privacy.keep_days", lang, count=klass.keep_days)


def cards_body(
    klass: ClassInfo, pupils: Sequence[Pupil], base: str, lang: Lang, root: str = ""
) -> str:
    """The cards to print (A4, cut along the dashed lines): each pupil's name, where to go,
    the code and its QR code, which opens the card's page with the code filled in."""
    title = t("class.cards.title", lang, name=klass.name)
    out = (
        f'<header id="top" class="no-print"><h1>{esc(title)}</h1>'
        + lang_switch(lang, f"{root}/teacher/class/cards", {})
        + "</header>"
        + f'<p class="no-print">{esc(t("class.cards.how_to_print", lang))} '
        + link(f"{root}/teacher/class", t("class.roster.back", lang), lang)
        + "</p>"
    )
    if not pupils:
        return out + f"<p>{esc(t('class.roster.empty', lang))}</p>"
    cards = []
    for p in pupils:
        url = card_url(base, p.card)
        qr = qr_svg(url, t("class.cards.qr", lang, name=p.name))
        cards.append(
            '<li class="card">'
            f'<p class="card-name">{esc(p.name)}</p>'
            f'<p class="card-class">{esc(t("class.cards.class", lang, name=klass.name))}</p>'
            f'<p class="card-how">{esc(t("class.cards.how", lang, url=base))}</p>'
            f'<p class="card-code"><code>{esc(shown_card(p.card))}</code></p>'
            f'<div class="card-qr">{qr}</div></li>'
        )
    return out + f'<ul class="cards" aria-label="{esc(title)}">{"".join(cards)}</ul>'


__all__ = [
    "CLASS_CSS",
    "card_join_parts",
    "card_url",
    "cards_body",
    "class_document",
    "class_link",
    "head",
    "keep_text",
    "levels_part",
    "name_body",
    "own_link",
    "roster_body",
]


def class_link(lesson: Lesson, lang: Lang, root: str = "") -> str:
    """The teacher's page of a lesson of a class: one line to the class's roster, cards and
    progress; of a lesson that may become one (`Lesson.classes`), one line to name its class."""
    if lesson.class_id is None:
        if not lesson.classes:
            return ""
        return (
            f'<p class="class-link"><a href="{href(f"{root}/teacher/class", lang=lang)}">'
            f"{esc(t('class.teacher.open', lang))}</a></p>"
        )
    return (
        f'<p class="class-link"><a href="{href(f"{root}/teacher/class", lang=lang)}">'
        f"{esc(t('class.teacher.link', lang))}</a></p>"
    )


def own_link(lesson: Lesson, seat: str, lang: Lang, root: str = "") -> str:
    """After a game, a pupil of a class may look at their own progress (only they can)."""
    if seat not in lesson.pupils:
        return ""
    return f'<p class="own-link">{link(f"{root}/mine", t("class.mine.link", lang), lang)}</p>'
