"""A signed-in teacher's own page on the school server: their open lessons (open one, end
one), and a new lesson (of one of their classes, or of none yet).

A teacher sees only lessons and classes they own (`lessons.owner`, `classes.owner`: the
teacher's opaque id). A new lesson is stored here and served by whichever process the proxy
sends its code to (it takes the lesson from the database on its first request), so this page
holds no lesson in memory; ending one is the lesson's own control, sent to its own address.
A teacher has at most `lessons_per_teacher` lessons open at once: a forgotten tab cannot fill
a shared server.

``GET /mine``, ``POST /mine/new``.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from aiohttp import web

from classroom.i18n import Lang, t
from school.front import STORE, lesson_path
from storage.records.classes import ClassInfo
from storage.records.lessons import LessonInfo
from table.games import Clock
from table.keep import DEFAULT_KEEP_DAYS, new_lesson
from table.page import button, document, esc, hidden, lang_switch, message
from table.press import Refused, whole
from table.web import html, lang_of, read_form


class SignedIn(Protocol):
    """The teacher a request is signed in as."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


TeacherOf = Callable[[web.Request], Awaitable[SignedIn | None]]


@dataclass(frozen=True, slots=True)
class MineSetup:
    teacher_of: TeacherOf
    clock: Clock
    lessons_per_teacher: int = 6
    keep_days: int = DEFAULT_KEEP_DAYS
    wall: Callable[[], float] = time.time


MINE = web.AppKey("mine", MineSetup)


async def signed_in(request: web.Request, lang: Lang) -> SignedIn:
    """The teacher of this request; a page without a session goes to the sign-in page."""
    teacher = await request.app[MINE].teacher_of(request)
    if teacher is None:
        raise web.HTTPSeeOther(f"/signin?lang={lang}")
    return teacher


def when(ms: int | None) -> str:
    """A time on the server's clock, as a teacher files it (2026-12-07 09:15)."""
    return "–" if ms is None else datetime.fromtimestamp(ms / 1000).strftime("%Y-%m-%d %H:%M")


def kept_rows(kept: list[LessonInfo], lang: Lang) -> str:
    """The teacher's ended lessons, for their own page: when, how big, until when kept."""
    if not kept:
        return ""
    heads = "".join(
        f'<th scope="col">{esc(t(f"lesson.kept.column.{c}", lang))}</th>'
        for c in ("started", "pupils", "games", "until", "actions")
    )
    rows = "".join(
        f"<tr><td>{esc(when(i.created_at))}</td><td>{i.seats}</td><td>{i.games}</td>"
        f"<td>{esc(when(i.keep_until))}</td>"
        f'<td><a href="/mine/lessons/{i.id}?lang={lang}">{esc(t("lesson.kept.summary", lang))}'
        f"</a> "
        f'<form method="post" action="/mine/lessons/{i.id}/delete" class="inline">'
        f"{hidden('lang', lang)}{button(t('lesson.kept.delete', lang), cls='danger')}</form>"
        "</td></tr>"
        for i in kept
    )
    return (
        f'<table class="kept"><caption>{esc(t("server.mine.kept", lang))}</caption>'
        f"<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>"
    )


def _lesson_row(info: LessonInfo, lang: Lang) -> str:
    root = lesson_path(info.code)
    end = (
        f'<form method="post" action="{root}/teacher/end" class="inline">{hidden("lang", lang)}'
        f"{button(t('server.mine.end', lang), cls='danger')}</form>"
    )
    return (
        f"<tr><td><code>{esc(info.code)}</code></td><td>{esc(when(info.created_at))}</td>"
        f"<td>{info.seats}</td><td>{info.games}</td>"
        f'<td><a href="{root}/teacher?lang={lang}">{esc(t("server.mine.open", lang))}</a> '
        f"{end}</td></tr>"
    )


def _start_form(classes: list[ClassInfo], lang: Lang, full: bool) -> str:
    options = f'<option value="">{esc(t("server.mine.no_class", lang))}</option>' + "".join(
        f'<option value="{c.id}">{esc(c.name)}</option>' for c in classes
    )
    disabled = " disabled" if full else ""
    return (
        f'<form method="post" action="/mine/new" class="start">{hidden("lang", lang)}'
        f'<label for="class">{esc(t("server.mine.class", lang))}</label>'
        f'<select id="class" name="class"{disabled}>{options}</select>'
        + button(t("server.mine.new", lang), cls="primary")
        + "</form>"
    )


async def _page(
    request: web.Request, teacher: SignedIn, lang: Lang, error: str | None = None, status: int = 200
) -> web.Response:
    store = request.app[STORE]
    setup = request.app[MINE]
    kept = await store.lessons(teacher.id)
    open_ = [i for i in kept if i.status == "open"]
    ended = [i for i in kept if i.status == "ended"]
    classes = await store.classes(teacher.id)
    title = t("server.mine.title", lang)
    rows = "".join(_lesson_row(i, lang) for i in open_)
    heads = "".join(
        f'<th scope="col">{esc(t(f"server.mine.column.{c}", lang))}</th>'
        for c in ("code", "started", "pupils", "games", "actions")
    )
    lessons = (
        f'<table class="kept"><caption>{esc(t("server.mine.open_lessons", lang))}</caption>'
        f"<thead><tr>{heads}</tr></thead><tbody>{rows}</tbody></table>"
        if open_
        else f"<p>{esc(t('server.mine.none', lang))}</p>"
    )
    full = len(open_) >= setup.lessons_per_teacher
    cap = t("server.mine.cap", lang, count=setup.lessons_per_teacher)
    signout = (
        f'<form method="post" action="/signout" class="inline">{hidden("lang", lang)}'
        f"{button(t('server.mine.signout', lang))}</form>"
    )
    body = (
        f"<header><h1>{esc(title)}</h1>"
        f'<p class="who">{esc(t("server.mine.signed_in", lang, name=teacher.name))} {signout}'
        "</p></header>"
        + message(error, error=True)
        + _start_form(classes, lang, full)
        + (message(cap, error=False) if full and not error else "")
        + lessons
        + kept_rows(ended, lang)
        + lang_switch(lang, "/mine", {})
    )
    return html(document(lang, "mine", title, body), status)


async def mine(request: web.Request) -> web.Response:
    lang = lang_of(request)
    return await _page(request, await signed_in(request, lang), lang)


async def new(request: web.Request) -> web.Response:
    """A new lesson of this teacher's (and of one of their classes, when one is chosen),
    stored at once; the teacher is taken to its own teacher's page."""
    form = await read_form(request)
    lang = lang_of(request, form)
    teacher = await signed_in(request, lang)
    store = request.app[STORE]
    setup = request.app[MINE]
    chosen: ClassInfo | None = None
    if form.get("class"):
        wanted = whole(form.get("class"))
        chosen = next((c for c in await store.classes(teacher.id) if c.id == wanted), None)
        if chosen is None:  # another teacher's class, or none: a forged form
            raise Refused("table.error.bad_request", 400)
    open_ = [i for i in await store.lessons(teacher.id) if i.status == "open"]
    if len(open_) >= setup.lessons_per_teacher:
        text = t("server.mine.cap", lang, count=setup.lessons_per_teacher)
        return await _page(request, teacher, lang, text, 409)
    lesson, _ = await new_lesson(
        store, setup.clock, owner=teacher.id, keep_days=setup.keep_days, wall=setup.wall
    )
    if chosen is not None:
        lesson.class_id = chosen.id
        await lesson.save()
    raise web.HTTPSeeOther(f"{lesson_path(lesson.code)}/teacher?lang={lang}")


def add_routes(app: web.Application, setup: MineSetup) -> None:
    app[MINE] = setup
    app.router.add_get("/mine", mine)
    app.router.add_post("/mine/new", new)
