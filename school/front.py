"""The school server's front page: the one address a class types. A pupil gives the code on
the board (and is taken to that lesson's own pages, under ``/l/<code>/``) or the code on
their own card (and is offered the seat in their class's lesson that is open now).

A wrong code costs what a wrong code costs at a lesson's own door (`table.joining`): the
codes of every lesson on the server are guessed here at once, so the same buckets and waits
hold for the whole server, and a refused try tells nothing about which codes exist. The
front page answers a code only with a way in: it never names the lesson's class, teacher or
pupils.

Any process of the server answers the front page (the proxy hashes only a lesson's own
paths), so the browser's mark given by one process must be recognised by the next: the
guard signs marks with a key every process derives from the database they share, dates them
by the wall clock, and checks the wrong codes the settings allow (`front_guard`). Each
process counts its own tries: N processes check at most N times the rate.
"""

from __future__ import annotations

import time
from typing import Protocol

from aiohttp import web

from classroom.i18n import Lang, t
from classroom.text.board_text import refusal_text
from school.settings import RateLimits
from storage.contract import ClassStore, KeyStore, LessonStore
from table.games import Clock
from table.joining import JoinGuard
from table.lesson import CODE_DIGITS, card_code
from table.page import button, document, esc, hidden, lang_switch, message
from table.press import Refused
from table.web import html, lang_of, read_form, set_cookie

# The front page's mark of a browser, as a lesson's join page gives its own (``mk_visit``) but
# under another name: the front's is sent to every path, and a browser holding both would
# send it to the lesson's join page beside the lesson's own, whose mark it would hide.
VISIT_COOKIE = "mk_front"
MAX_CODE = 20  # a card's code with its dashes and spaces, and then some
MARK_KEY = "front page marks"  # the purpose the guard's key is derived for


class SchoolStore(LessonStore, ClassStore, Protocol):
    """What the front page reads: the lessons and the classes' cards."""


STORE = web.AppKey("store", SchoolStore)
FRONT_GUARD = web.AppKey("front_guard", JoinGuard)


async def front_guard(
    store: KeyStore, limits: RateLimits, clock: Clock = time.monotonic, wall: Clock = time.time
) -> JoinGuard:
    """The front page's guard (`FRONT_GUARD`) of this process, made at start: its marks are
    recognised by every process on the same database (see the module's docstring), and it
    checks at most ``limits.wrong_codes_per_minute`` wrong codes a minute."""
    key = await store.derived_key(MARK_KEY)
    return JoinGuard(clock, key=key, rate=limits.wrong_codes_per_minute / 60, marks=wall)


def lesson_path(code: str) -> str:
    """A lesson's root on the server: its code is the first segment, so a proxy can send
    every request of one lesson to the one process that holds it."""
    return f"/l/{code}"


def _page(lang: Lang, typed: str = "", error: str | None = None, status: int = 200) -> web.Response:
    title = t("server.title", lang)
    alert = message(error, error=True) if error else ""
    form = (
        f'<form method="post" action="/go" class="join">{hidden("lang", lang)}'
        f'<label for="code">{esc(t("server.front.code", lang))}</label>'
        f'<input id="code" name="code" autocomplete="off" autocapitalize="characters" '
        f'inputmode="text" required maxlength="{MAX_CODE}" value="{esc(typed)}">'
        + button(t("server.front.go", lang), cls="primary")
        + "</form>"
    )
    body = (
        f"<header><h1>{esc(title)}</h1></header>"
        f'<p class="intro">{esc(t("server.front.intro", lang))}</p>'
        + alert
        + form
        + f'<p><a href="/signin?lang={lang}">{esc(t("server.front.teachers", lang))}</a></p>'
        + lang_switch(lang, "/", {})
    )
    return html(document(lang, "join", title, body), status)


async def front(request: web.Request) -> web.StreamResponse:
    lang = lang_of(request)
    response = _page(lang)
    guard = request.app[FRONT_GUARD]
    if guard.visitor(request.cookies.get(VISIT_COOKIE), "")[1] == "none":
        set_cookie(response, request, VISIT_COOKIE, guard.mark())
    return response


def _found_card(lang: Lang, code: str, card: str) -> web.Response:
    """The pupil's class has a lesson open: one press takes the seat (the card is sent to the
    lesson itself, whose own door checks it, as when it is typed there)."""
    title = t("server.title", lang)
    body = (
        f"<header><h1>{esc(title)}</h1></header>"
        f'<p class="intro">{esc(t("server.front.card_found", lang))}</p>'
        f'<form method="post" action="{lesson_path(code)}/join" class="join">'
        f"{hidden('lang', lang)}{hidden('code', card)}"
        + button(t("lesson.join.button", lang), cls="primary")
        + "</form>"
    )
    return html(document(lang, "join", title, body))


async def _lesson_of_card(store: SchoolStore, card: str) -> str | None:
    """The code of the open lesson of the card's class, the one used last (a teacher has at
    most a handful open, so each is read rather than indexed)."""
    pupil = await store.pupil_by_card(card)
    if pupil is None:
        return None
    klass = await store.class_info(pupil.class_id)
    for info in await store.lessons(klass.owner):
        if info.status != "open":
            continue
        stored = await store.load_lesson(info.id)
        if stored.state.get("class_id") == pupil.class_id:
            return info.code
    return None


async def go(request: web.Request) -> web.StreamResponse:
    form = await read_form(request)
    lang = lang_of(request, form)
    typed = form.get("code", "")[:MAX_CODE]
    guard = request.app[FRONT_GUARD]
    store = request.app[STORE]
    visitor, lane = guard.visitor(request.cookies.get(VISIT_COOKIE), str(request.remote))
    try:
        guard.before(visitor, lane)
        code = "".join(typed.split())
        if len(code) == CODE_DIGITS and code.isdigit():
            if await store.open_lesson_by_code(code) is not None:
                guard.right(visitor)
                raise web.HTTPSeeOther(f"{lesson_path(code)}/?lang={lang}")
        elif (card := card_code(typed)) and (found := await _lesson_of_card(store, card)):
            guard.right(visitor)
            return _found_card(lang, found, card)
        guard.wrong(visitor, lane)
        return _page(lang, typed, t("server.front.unknown", lang), 404)
    except Refused as refused:
        text = refusal_text(refused.key, refused.values, lang)
        response = _page(lang, typed, text, refused.status)
        if refused.status == 429 and "count" in refused.values:
            response.headers["Retry-After"] = str(refused.values["count"])
        return response


async def card_link(request: web.Request) -> web.StreamResponse:
    """A card's QR code (printed once, for every lesson of the class): the card's page in the
    class's lesson open now, or, with none open, the front page saying so."""
    lang = lang_of(request)
    guard = request.app[FRONT_GUARD]
    visitor, lane = guard.visitor(request.cookies.get(VISIT_COOKIE), str(request.remote))
    typed = request.match_info["card"][:MAX_CODE]
    try:
        guard.before(visitor, lane)
    except Refused as refused:
        text = refusal_text(refused.key, refused.values, lang)
        return _page(lang, "", text, refused.status)
    found = await _lesson_of_card(request.app[STORE], card_code(typed))
    if found is None:
        guard.wrong(visitor, lane)
        return _page(lang, "", t("server.front.no_lesson", lang), 404)
    guard.right(visitor)
    raise web.HTTPSeeOther(f"{lesson_path(found)}/card/{card_code(typed)}?lang={lang}")


def add_routes(app: web.Application) -> None:
    app.router.add_get("/", front)
    app.router.add_post("/go", go)
    app.router.add_get("/card/{card}", card_link)
