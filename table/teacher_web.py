"""The teacher's side of a class lesson, under the lesson's root (`table.host`): ``GET /teacher``
the projector view (``?key=`` once, from the terminal, gives the teacher's cookie),
``POST /teacher/<control>`` (what each does: `table.controls`), ``GET /teacher/summary`` and
``/teacher/summary.csv``."""

from __future__ import annotations

from aiohttp import web

from classroom.i18n import Lang, t
from classroom.summary import csv_bytes
from classroom.text.board_text import refusal_text
from table.class_pages import summary_body
from table.controls import apply_control
from table.host import LessonHost, host_of
from table.lesson_pages import teacher_document
from table.page import document
from table.press import Refused
from table.setup import SetupError
from table.summary import summarise
from table.web import TEACHER_COOKIE, html, lang_of, read_form


async def teacher(request: web.Request) -> web.StreamResponse:
    lang = lang_of(request)
    host = host_of(request)
    lesson = host.lesson
    key = request.query.get("key")
    if key is not None:
        if not lesson.is_teacher(key):
            raise Refused("lesson.error.not_teacher", 403)
        response = web.HTTPSeeOther(host.at(f"/teacher?lang={lang}"))
        host.set_cookie(response, request, TEACHER_COOKIE, key)
        raise response
    await host.teacher_only(request)
    host.seen_at(request)
    async with lesson.lock:
        return _teacher_document(host, lang)


def _teacher_document(host: LessonHost, lang: Lang, error: str | None = None,
                      status: int = 200) -> web.Response:  # fmt: skip
    return teacher_document(host.teacher_message(lang, error), lang, host.root, status)


async def control(request: web.Request) -> web.StreamResponse:
    """One of the teacher's buttons; every device hears of it at once."""
    host = host_of(request)
    await host.teacher_only(request)
    form = await read_form(request)
    lang = lang_of(request, form)
    lesson, hub = host.lesson, host.hub
    what = request.match_info["control"]
    async with lesson.lock:  # stored before anyone sees it
        try:
            games = apply_control(lesson, what, form)
        except SetupError as error:
            values = dict(error.values)
            if error.key == "error.bad_option":
                values["option"] = t(f"table.setup.{values['option']}", lang)
            return _teacher_document(host, lang, t(error.key, lang, **values), 400)
        except Refused as refused:
            text = refusal_text(refused.key, refused.values, lang)
            return _teacher_document(host, lang, text, refused.status)
        await lesson.save()
    if what == "remove" and form.get("confirm") != "yes":
        await hub.to_teachers()  # a question to the teacher only: no pupil's page changed
    else:
        for game in games:
            await hub.game_changed(game)
        await hub.lobby_changed()
    if what == "end" and host.home:
        raise web.HTTPSeeOther(f"{host.home}?lang={lang}")
    raise web.HTTPSeeOther(host.at(f"/teacher?lang={lang}"))


async def summary(request: web.Request) -> web.Response:
    host = host_of(request)
    await host.teacher_only(request)
    lang = lang_of(request)
    async with host.lesson.lock:
        body = summary_body(host.lesson, lang, root=host.root)
    return html(document(lang, "summary", t("lesson.summary.title", lang), body))


async def summary_csv(request: web.Request) -> web.Response:
    host = host_of(request)
    await host.teacher_only(request)
    lang = lang_of(request)
    async with host.lesson.lock:
        data = csv_bytes(summarise(host.lesson), lang)
    return web.Response(
        body=data,
        content_type="text/csv",
        charset="utf-8",
        headers={"Content-Disposition": 'attachment; filename="mattekrig-lesson.csv"'},
    )


def add_routes(app: web.Application, root: str = "") -> None:
    app.router.add_get(f"{root}/teacher", teacher)
    app.router.add_post(f"{root}/teacher/{{control}}", control)
    app.router.add_get(f"{root}/teacher/summary", summary)
    app.router.add_get(f"{root}/teacher/summary.csv", summary_csv)


__all__ = ["add_routes"]
