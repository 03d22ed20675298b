"""The lessons this computer keeps, on the teacher's side of a class lesson: what is kept
(each lesson's date, pupils, games and when its data goes), each one's summary, and deleting
a lesson's data at once (PRIVACY.md: nicknames, answers and results are kept for the
retention, and the teacher may delete them sooner).

Under the lesson's root (`table.host`): ``GET /teacher/lessons`` the list,
``GET /teacher/lessons/<id>`` one lesson's summary (the lesson brought back from storage and
counted as the summary counts any lesson),
``/teacher/lessons/<id>/summary.csv``, ``POST /teacher/lessons/<id>/delete`` (asked first).
"""

from __future__ import annotations

from datetime import datetime

from aiohttp import web

from classroom.i18n import Lang, t
from classroom.summary import csv_bytes
from storage.errors import NotFoundError
from storage.records.lessons import LessonInfo
from table.class_pages import summary_body
from table.host import host_of
from table.keep import Keeper, restore
from table.lesson import Lesson
from table.page import button, document, esc, hidden
from table.press import Refused
from table.summary import summarise
from table.web import html, lang_of, read_form


async def _teacher(request: web.Request) -> None:
    await host_of(request).teacher_only(request)


def _keeper(request: web.Request) -> Keeper:
    keeper = host_of(request).keeper
    if keeper is None:
        raise Refused("table.error.not_found", 404)
    return keeper


def _when(ms: int | None) -> str:
    """A time on this computer's clock, as a teacher files it (2026-12-07 09:15)."""
    return "–" if ms is None else datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M")


def _row(info: LessonInfo, current: bool, lang: Lang, root: str) -> str:
    status = t("lesson.kept.this" if current else f"lesson.kept.{info.status}", lang)
    summary = f"{root}/teacher/summary" if current else f"{root}/teacher/lessons/{info.id}"
    delete = (
        f'<form method="post" action="{root}/teacher/lessons/{info.id}/delete" class="inline">'
        f"{hidden('lang', lang)}"
        f"{button(t('lesson.kept.delete', lang), cls='danger')}</form>"
    )
    return (
        f"<tr><td>{esc(_when(info.created_at))}</td><td>{info.seats}</td><td>{info.games}</td>"
        f"<td>{esc(status)}</td><td>{esc(_when(info.keep_until))}</td>"
        f'<td><a href="{summary}?lang={lang}">{esc(t("lesson.kept.summary", lang))}</a> '
        f"{delete}</td></tr>"
    )


def _page(lang: Lang, root: str, body: str, status: int = 200) -> web.Response:
    title = t("lesson.kept.title", lang)
    head = f"<header><h1>{esc(title)}</h1></header>"
    back = f'<p><a href="{root}/teacher?lang={lang}">{esc(t("lesson.kept.back", lang))}</a></p>'
    return html(document(lang, "lessons", title, head + body + back), status)


async def lessons(request: web.Request) -> web.Response:
    await _teacher(request)
    lang = lang_of(request)
    keeper = _keeper(request)
    kept = await keeper.store.lessons(keeper.owner)
    days = keeper.keep_ms // 86_400_000
    intro = (
        t("lesson.kept.intro", lang, count=days) if days else t("lesson.kept.intro_at_end", lang)
    )
    columns = ("started", "pupils", "games", "status", "until", "actions")
    head = "".join(
        f'<th scope="col">{esc(t(f"lesson.kept.column.{c}", lang))}</th>' for c in columns
    )
    root = host_of(request).root
    rows = "".join(_row(i, i.id == keeper.lesson_id and not keeper.ended, lang, root) for i in kept)
    table = (
        f'<table class="summary"><caption>{esc(t("lesson.kept.title", lang))}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
        if kept
        else f"<p>{esc(t('lesson.kept.none', lang))}</p>"
    )
    return _page(lang, root, f'<p class="about">{esc(intro)}</p>{table}')


async def _earlier(request: web.Request) -> Lesson:
    """An earlier lesson, brought back from storage for its summary (nothing is stored)."""
    keeper = _keeper(request)
    try:
        lesson_id = int(request.match_info["lesson"])
        stored = await keeper.store.load_lesson(lesson_id)
    except (ValueError, NotFoundError):
        raise Refused("table.error.not_found", 404) from None
    if stored.info.owner != keeper.owner:  # another teacher's, on a school server
        raise Refused("table.error.not_found", 404)
    clock = host_of(request).lesson.clock
    lesson, _ = restore(stored, keeper.store, clock, key=None, keep_ms=keeper.keep_ms)
    lesson.saver = lesson.game_saver = None
    return lesson


async def earlier_summary(request: web.Request) -> web.Response:
    await _teacher(request)
    lang = lang_of(request)
    lesson = await _earlier(request)
    csv = f"/teacher/lessons/{request.match_info['lesson']}/summary.csv"
    body = summary_body(lesson, lang, csv_path=csv, root=host_of(request).root)
    return html(document(lang, "summary", t("lesson.summary.title", lang), body))


async def earlier_csv(request: web.Request) -> web.Response:
    await _teacher(request)
    lang = lang_of(request)
    data = csv_bytes(summarise(await _earlier(request)), lang)
    return web.Response(
        body=data,
        content_type="text/csv",
        charset="utf-8",
        headers={"Content-Disposition": 'attachment; filename="mattekrig-lesson.csv"'},
    )


async def delete(request: web.Request) -> web.StreamResponse:
    """Delete a lesson's data now (asked first: it cannot be undone). This lesson's own data
    too: it ends, and nothing of it is stored again."""
    await _teacher(request)
    form = await read_form(request)
    lang = lang_of(request, form)
    keeper = _keeper(request)
    host = host_of(request)
    try:
        lesson_id = int(request.match_info["lesson"])
        info = next(i for i in await keeper.store.lessons(keeper.owner) if i.id == lesson_id)
    except (ValueError, StopIteration):
        raise Refused("table.error.not_found", 404) from None
    if info.status == "open" and lesson_id != keeper.lesson_id and keeper.owner is not None:
        # on a school server another process may be serving it: it ends on its own page
        raise Refused("lesson.kept.delete_open", 409)
    if form.get("confirm") != "yes":
        if form.get("confirm") == "no":
            raise web.HTTPSeeOther(host.at(f"/teacher/lessons?lang={lang}"))
        ask = t("lesson.kept.delete_ask", lang, date=_when(info.created_at))
        yes = button(t("lesson.kept.delete_yes", lang), name="confirm", value="yes", cls="danger")
        no = button(t("lesson.kept.delete_no", lang), name="confirm", value="no")
        body = (
            f'<form method="post" action="{host.root}/teacher/lessons/{lesson_id}/delete">'
            f"{hidden('lang', lang)}<p>{esc(ask)}</p>{yes} {no}</form>"
        )
        return _page(lang, host.root, body)
    if lesson_id == keeper.lesson_id:
        async with host.lesson.lock:
            host.lesson.end()
            await keeper.delete()
        await host.tell_everyone()
    else:
        await keeper.store.delete_lesson(lesson_id, keeper.now_ms())
    raise web.HTTPSeeOther(host.at(f"/teacher/lessons?lang={lang}"))


def add_routes(app: web.Application, root: str = "") -> None:
    app.router.add_get(f"{root}/teacher/lessons", lessons)
    app.router.add_get(f"{root}/teacher/lessons/{{lesson}}", earlier_summary)
    app.router.add_get(f"{root}/teacher/lessons/{{lesson}}/summary.csv", earlier_csv)
    app.router.add_post(f"{root}/teacher/lessons/{{lesson}}/delete", delete)


__all__ = ["add_routes"]
