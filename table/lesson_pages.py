"""A class lesson's live pages as the devices see them: the join page, a pupil's waiting room
or table, and the teacher's projector view. Each is a message of the live connection
(`table.live`: state, title, the page's parts) and, as a whole page, the first answer.

Every path on them starts with the lesson's root ("" for `mattekrig class`, "/l/ABCD" on the
school server: `table.host`); the page's script reads the root from ``data-root``.
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from aiohttp import web

from classroom.i18n import Lang, t
from table.board import Paths, Seen, table_parts, table_state, table_title, wrap
from table.class_pages import (
    GOAL_OPEN,
    LOBBY_ORDER,
    TEACHER_ORDER,
    goal_part,
    join_parts,
    teacher_parts,
    waiting_parts,
    wrap_parts,
)
from table.lesson import Lesson
from table.net import qr_svg
from table.page import document, esc, lang_switch
from table.roster_pages import card_join_parts, class_link, own_link
from table.web import html


def pupil_paths(root: str) -> Paths:
    """Where a pupil's table sends its presses (the one-screen table has its own)."""
    return Paths(f"{root}/table/act", f"{root}/table", f"{root}/table/replay.json",
                 f"{root}/table/more-time")  # fmt: skip


def head(title: str, lang: Lang, action: str, who: str = "") -> str:
    """The page's head; a pupil's own page (`who`: the seat's name) keeps it to one short
    line, so a phone's first screen belongs to the table: its language switch is at the
    page's end (`_langs`)."""
    if who:
        name = f'<p class="who">{esc(who)}</p>'
        return f'<header id="top" class="pupil"><h1>{esc(title)}</h1>{name}</header>'
    return f'<header id="top"><h1>{esc(title)}</h1>' + lang_switch(lang, action, {}) + "</header>"


def _langs(lang: Lang, root: str) -> str:
    """A pupil's page ends with the language switch."""
    return f'<div id="langs" class="part part-langs">{lang_switch(lang, f"{root}/table", {})}</div>'


def pupil_page(
    lesson: Lesson,
    device: str | None,
    lang: Lang,
    root: str = "",
    *,
    error: str | None = None,
    typed: str = "",
    hint: bool = False,
) -> dict[str, Any]:
    """What a device shows now: the join page, its seat's waiting room, or its seat's table."""
    seat = lesson.seat_of(device)
    if seat is None:
        if error is None and device in lesson.devices_removed:
            error = t("lesson.removed", lang)
        # The way back in, never a dead end: a device this lesson gave a seat (removed since)
        # knows the code already, and under a school server's root the address names the
        # lesson (the pupil typed its code on the front page), so it is filled in; a class's
        # lesson asks for the pupil's own card instead, never filled in.
        known = (device is not None or bool(root)) and not lesson.ended
        code = lesson.code if known and lesson.roster is None else ""
        body = head(t("lesson.join.title", lang), lang, f"{root}/") + wrap_parts(
            join_form(lesson, lang, root, code, error=error), LOBBY_ORDER
        )
        return {"state": "join", "title": t("lesson.join.title", lang), "html": body, "data": {}}
    game = lesson.game_of(seat)
    goal = f"{GOAL_OPEN}{goal_part(lesson, lang)}</section>"
    if game is None:
        parts = waiting_parts(lesson, seat, lang, error, root=root)
        title = t("table.title", lang)
        body = head(title, lang, f"{root}/table", seat.name) + wrap_parts(parts, LOBBY_ORDER)
        return {"state": "waiting", "title": title, "html": body + goal + _langs(lang, root),
                "data": {}}  # fmt: skip
    held = game.sides_of({seat.id})
    seats = {side: seat.id for side in held}
    hint = hint or game.hinted.get(seat.id) == game.state.window
    seen = Seen(held, seats, error=error, typed=typed, hint=hint, paused=lesson.paused,
                pupil=True, ended=lesson.ended)  # fmt: skip
    parts = table_parts(game, lang, lesson.clock(), pupil_paths(root), seen)
    title = table_title(game, lang)
    body = head(title, lang, f"{root}/table", seat.name) + wrap(parts)
    if game.over:
        # The game's end says what comes next: the lobby adds who else waits, no second
        # welcome.
        lobby = waiting_parts(lesson, seat, lang, welcome=False, root=root)["lobby"]
        body += f'<section id="lobby" class="part part-lobby">{lobby}</section>'
        body += own_link(lesson, seat.id, lang, root)
    body += goal + _langs(lang, root)
    data = {"window": str(game.state.window), "now": str(game.view(None).now)}
    return {"state": table_state(game), "title": title, "html": body, "data": data}


def join_form(
    lesson: Lesson,
    lang: Lang,
    root: str,
    code: str = "",
    name: str = "",
    error: str | None = None,
) -> dict[str, str]:
    """The join form: a lesson of a class asks for the pupil's card, any other for the
    lesson's code and a name."""
    if lesson.roster is not None:
        return card_join_parts(lang, code, error, root=root)
    return join_parts(lang, code, name, error, root=root)


def teacher_page(
    lesson: Lesson,
    url: str,
    address_note: str,
    connected: Set[str],
    lang: Lang,
    root: str = "",
    error: str | None = None,
    shown: str = "",
) -> dict[str, Any]:
    """The teacher's projector view now (as a live message); `url`: where pupils join (the
    QR code's); `shown`: the address to type, when it is another (a school's front page)."""
    qr = qr_svg(url, t("lesson.teacher.qr", lang, url=url))
    parts = teacher_parts(
        lesson, url, address_note, qr, lang, error, connected, root=root, shown=shown
    )
    title = t("lesson.teacher.title", lang)
    body = (
        head(title, lang, f"{root}/teacher")
        + class_link(lesson, lang, root)
        + wrap_parts(parts, TEACHER_ORDER)
    )
    return {"state": "teacher", "title": title, "html": body, "data": {}}


def live_data(lang: Lang, root: str) -> str:
    """What a live page's script reads: what it says when its connection is lost, and when a
    press waits for it to come back; the lesson's root (its addresses)."""
    data = (
        f' data-lost="{esc(t("lesson.connection.lost", lang))}"'
        f' data-queued="{esc(t("lesson.offline.queued", lang))}"'
    )
    return data + root_data(root)


def root_data(root: str) -> str:
    """The page's lesson root for its script (none on a laptop's lesson: its root is "")."""
    return f' data-root="{esc(root)}"' if root else ""


def pupil_document(
    message: dict[str, Any], lang: Lang, root: str = "", status: int = 200
) -> web.Response:
    """A pupil's live page as a whole page (its first answer; a form's answer)."""
    data = (
        ' data-live="true"'
        + live_data(lang, root)
        + "".join(f' data-{k}="{esc(v)}"' for k, v in message["data"].items())
    )
    return html(
        document(lang, message["state"], message["title"], message["html"], data=data), status
    )


def teacher_document(message: dict[str, Any], lang: Lang, root: str = "",
                     status: int = 200) -> web.Response:  # fmt: skip
    """The teacher's live page as a whole page."""
    page = document(lang, "teacher", message["title"], message["html"],
                    data=' data-live="teacher"' + live_data(lang, root))  # fmt: skip
    return html(page, status)


__all__ = [
    "head",
    "join_form",
    "live_data",
    "pupil_document",
    "pupil_page",
    "pupil_paths",
    "root_data",
    "teacher_document",
    "teacher_page",
]
