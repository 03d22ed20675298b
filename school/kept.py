"""A signed-in teacher's ended lessons on the school server, kept for their retention: each
one's summary and CSV, and deleting one at once (asked first).

A lesson's own pages close with it on a server (its code may open a newer lesson), so what
is kept of an ended lesson is reached from the teacher's own page instead, by its id, and only
by its teacher: another teacher's lesson id is a page that is not there. An open lesson is
not deleted here: another process may be serving it; it ends on its own page first.

``GET /mine/lessons/<id>``, ``GET /mine/lessons/<id>/summary.csv``,
``POST /mine/lessons/<id>/delete``.
"""

from __future__ import annotations

import time

from aiohttp import web

from classroom.i18n import t
from classroom.summary import ClassSummary, csv_bytes
from school.front import STORE
from school.mine import MINE, SignedIn, signed_in, when
from storage.errors import NotFoundError
from storage.records.lessons import StoredLesson
from table.class_pages import summary_body
from table.keep import restore
from table.lesson import Lesson
from table.page import button, document, esc, hidden
from table.press import Refused, whole
from table.summary import summarise
from table.web import html, lang_of, read_form


async def _stored(request: web.Request, teacher: SignedIn) -> StoredLesson:
    """The teacher's own ended lesson the address names; anything else is not there."""
    lesson_id = whole(request.match_info["lesson"])
    if lesson_id is None:
        raise Refused("table.error.not_found", 404)
    try:
        stored = await request.app[STORE].load_lesson(lesson_id)
    except NotFoundError:
        raise Refused("table.error.not_found", 404) from None
    if stored.info.owner != teacher.id or stored.info.status != "ended":
        raise Refused("table.error.not_found", 404)
    return stored


async def _summary_of(
    request: web.Request, teacher: SignedIn
) -> tuple[StoredLesson, ClassSummary, Lesson]:
    stored = await _stored(request, teacher)
    lesson, _ = restore(stored, request.app[STORE], request.app[MINE].clock, key=None, keep_ms=0)
    lesson.saver = lesson.game_saver = None  # read only: nothing of it is stored again
    return stored, summarise(lesson), lesson


async def summary(request: web.Request) -> web.Response:
    lang = lang_of(request)
    teacher = await signed_in(request, lang)
    stored, _, lesson = await _summary_of(request, teacher)
    csv = f"/mine/lessons/{stored.info.id}/summary.csv"
    body = summary_body(lesson, lang, csv_path=csv, back="/mine")
    return html(document(lang, "summary", t("lesson.summary.title", lang), body))


async def summary_csv(request: web.Request) -> web.Response:
    lang = lang_of(request)
    teacher = await signed_in(request, lang)
    _, summarised, _ = await _summary_of(request, teacher)
    return web.Response(
        body=csv_bytes(summarised, lang),
        content_type="text/csv",
        charset="utf-8",
        headers={"Content-Disposition": 'attachment; filename="mattekrig-lesson.csv"'},
    )


async def delete(request: web.Request) -> web.StreamResponse:
    """Delete an ended lesson's data now, once the teacher said yes (it cannot be undone)."""
    form = await read_form(request)
    lang = lang_of(request, form)
    teacher = await signed_in(request, lang)
    stored = await _stored(request, teacher)
    if form.get("confirm") != "yes":
        if form.get("confirm") == "no":
            raise web.HTTPSeeOther(f"/mine?lang={lang}")
        ask = t("lesson.kept.delete_ask", lang, date=when(stored.info.created_at))
        yes = button(t("lesson.kept.delete_yes", lang), name="confirm", value="yes", cls="danger")
        no = button(t("lesson.kept.delete_no", lang), name="confirm", value="no")
        body = (
            f"<header><h1>{esc(t('lesson.kept.title', lang))}</h1></header>"
            f'<form method="post" action="/mine/lessons/{stored.info.id}/delete">'
            f"{hidden('lang', lang)}<p>{esc(ask)}</p>{yes} {no}</form>"
        )
        return html(document(lang, "lessons", t("lesson.kept.title", lang), body))
    await request.app[STORE].delete_lesson(stored.info.id, round(time.time() * 1000))
    raise web.HTTPSeeOther(f"/mine?lang={lang}")


def add_routes(app: web.Application) -> None:
    app.router.add_get("/mine/lessons/{lesson}", summary)
    app.router.add_get("/mine/lessons/{lesson}/summary.csv", summary_csv)
    app.router.add_post("/mine/lessons/{lesson}/delete", delete)
