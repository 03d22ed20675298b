"""A class lesson (`mattekrig class`): pupils join on their own devices with the lesson's code
and a name, the teacher pairs them from the projector view, every device plays its own seat
and is kept up to date over the live connection (`table.live`).

Pupils: ``GET /`` join, ``POST /join``, ``GET /table`` the pupil's page (waiting, playing,
over), ``POST /table/act``, ``POST /table/more-time``, ``GET /table/replay.json`` (once the
game is over), ``POST /challenge``, ``POST /challenge/answer``, ``GET /seat`` (whether this
device holds a seat: the join page asks, for a pupil who came back by the QR code),
``GET /live`` the WebSocket. The teacher: ``GET /teacher`` (``?key=`` once, from the
terminal, gives the teacher's cookie), ``POST /teacher/<control>`` (what each does:
`table.controls`), ``GET /teacher/summary`` and ``/teacher/summary.csv``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from aiohttp import WSMsgType, web

from classroom.i18n import Lang, t
from classroom.summary import csv_bytes
from classroom.text.board_text import refusal_text
from table import lessons_web
from table.board import Paths, Seen, table_parts, table_state, table_title, wrap
from table.class_pages import (
    GOAL_OPEN,
    LOBBY_ORDER,
    TEACHER_ORDER,
    goal_part,
    join_parts,
    summary_body,
    teacher_parts,
    waiting_parts,
    wrap_parts,
)
from table.controls import apply_control
from table.games import TableGame
from table.joining import JoinGuard
from table.lang import page_lang
from table.lesson import Lesson
from table.live import REPLACED, Hub
from table.net import qr_svg
from table.page import document, esc, lang_switch
from table.press import Refused, press, whole
from table.roster_pages import card_join_parts, class_link, own_link
from table.setup import SetupError
from table.summary import summarise
from table.web import (
    DEVICE_COOKIE,
    LESSON,
    SERVED,
    TEACHER_COOKIE,
    html,
    lang_of,
    read_form,
    refused_json,
    replay_file,
    set_cookie,
    wants_json,
)

HUB = web.AppKey("hub", Hub)
GUARD = web.AppKey("guard", JoinGuard)
VISIT_COOKIE = "mk_visit"  # the join page's mark of a browser: its own tries of the code
TICK_SECONDS = 0.25
PUPIL_PATHS = Paths("/table/act", "/table", "/table/replay.json", "/table/more-time")


# -- drawing a device's page ------------------------------------------------------------------


def _head(title: str, lang: Lang, action: str, who: str = "") -> str:
    """The page's head; a pupil's own page (`who`: the seat's name) keeps it to one short
    line, so a phone's first screen belongs to the table: its language switch is at the
    page's end (`_langs`)."""
    if who:
        name = f'<p class="who">{esc(who)}</p>'
        return f'<header id="top" class="pupil"><h1>{esc(title)}</h1>{name}</header>'
    return f'<header id="top"><h1>{esc(title)}</h1>' + lang_switch(lang, action, {}) + "</header>"


def _langs(lang: Lang) -> str:
    """A pupil's page ends with the language switch."""
    return f'<div id="langs" class="part part-langs">{lang_switch(lang, "/table", {})}</div>'


def pupil_page(
    lesson: Lesson,
    device: str | None,
    lang: Lang,
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
        # knows the code already, so it is filled in.
        code = lesson.code if device is not None and not lesson.ended else ""
        body = _head(t("lesson.join.title", lang), lang, "/") + wrap_parts(
            _join_parts(lesson, lang, code, error=error), LOBBY_ORDER
        )
        return {"state": "join", "title": t("lesson.join.title", lang), "html": body, "data": {}}
    game = lesson.game_of(seat)
    goal = f"{GOAL_OPEN}{goal_part(lesson, lang)}</section>"
    if game is None:
        parts = waiting_parts(lesson, seat, lang, error)
        title = t("table.title", lang)
        body = _head(title, lang, "/table", seat.name) + wrap_parts(parts, LOBBY_ORDER) + goal
        return {"state": "waiting", "title": title, "html": body + _langs(lang), "data": {}}
    held = game.sides_of({seat.id})
    seats = {side: seat.id for side in held}
    hint = hint or game.hinted.get(seat.id) == game.state.window
    seen = Seen(held, seats, error=error, typed=typed, hint=hint, paused=lesson.paused,
                pupil=True, ended=lesson.ended)  # fmt: skip
    parts = table_parts(game, lang, lesson.clock(), PUPIL_PATHS, seen)
    title = table_title(game, lang)
    body = _head(title, lang, "/table", seat.name) + wrap(parts)
    if game.over:
        # The game's end says what comes next: the lobby adds who else waits, no second
        # welcome.
        lobby = waiting_parts(lesson, seat, lang, welcome=False)["lobby"]
        body += f'<section id="lobby" class="part part-lobby">{lobby}</section>'
        body += own_link(lesson, seat.id, lang)
    body += goal + _langs(lang)
    data = {"window": str(game.state.window), "now": str(game.view(None).now)}
    return {"state": table_state(game), "title": title, "html": body, "data": data}


def _join_parts(
    lesson: Lesson, lang: Lang, code: str = "", name: str = "", error: str | None = None
) -> dict[str, str]:
    """The join form: a lesson of a class asks for the pupil's card, any other for the
    lesson's code and a name."""
    if lesson.roster is not None:
        return card_join_parts(lang, code, error)
    return join_parts(lang, code, name, error)


def teacher_page(app: web.Application, lang: Lang, error: str | None = None) -> dict[str, Any]:
    """The teacher's projector view now (as a live message)."""
    lesson = app[LESSON]
    url = app[SERVED].join_url or app[SERVED].base_url or "http://127.0.0.1/"
    qr = qr_svg(url, t("lesson.teacher.qr", lang, url=url))
    connected = {device for device, sockets in app[HUB].pupils.items() if sockets}
    parts = teacher_parts(lesson, url, app[SERVED].address_note, qr, lang, error, connected)
    title = t("lesson.teacher.title", lang)
    body = (
        _head(title, lang, "/teacher") + class_link(lesson, lang) + wrap_parts(parts, TEACHER_ORDER)
    )
    return {"state": "teacher", "title": title, "html": body, "data": {}}


def _lost(lang: Lang) -> str:
    """What a live page says when its connection is lost, and when a press waits for it to
    come back (the script shows them)."""
    return (
        f' data-lost="{esc(t("lesson.connection.lost", lang))}"'
        f' data-queued="{esc(t("lesson.offline.queued", lang))}"'
    )


def _document(message: dict[str, Any], lang: Lang, status: int = 200) -> web.Response:
    data = (
        ' data-live="true"'
        + _lost(lang)
        + "".join(f' data-{k}="{esc(v)}"' for k, v in message["data"].items())
    )
    return html(
        document(lang, message["state"], message["title"], message["html"], data=data), status
    )


def _device(request: web.Request) -> str | None:
    return request.app[LESSON].device(request.cookies.get(DEVICE_COOKIE))


# -- pupils -----------------------------------------------------------------------------------


async def join_page(request: web.Request) -> web.StreamResponse:
    lang = lang_of(request)
    device = _device(request)
    if request.app[LESSON].seat_of(device) is not None:
        raise web.HTTPSeeOther(f"/table?lang={lang}")
    async with request.app[LESSON].lock:
        response = _document(pupil_page(request.app[LESSON], device, lang), lang)
    guard = request.app[GUARD]
    if guard.visitor(request.cookies.get(VISIT_COOKIE), "")[1] == "none":
        set_cookie(response, request, VISIT_COOKIE, guard.mark())
    return response


async def seat_state(request: web.Request) -> web.Response:
    return web.json_response({"seat": request.app[LESSON].seat_of(_device(request)) is not None})


async def join(request: web.Request) -> web.StreamResponse:
    form = await read_form(request)
    lang = lang_of(request, form)
    lesson = request.app[LESSON]
    guard = request.app[GUARD]
    visitor, lane = guard.visitor(request.cookies.get(VISIT_COOKIE), str(request.remote))
    try:
        guard.before(visitor, lane)  # a flood is refused here, without waiting for the lock
        async with lesson.lock:
            guard.before(visitor, lane)  # … and each try counted, one at a time
            try:
                secret, _ = lesson.join(
                    _device(request), form.get("code", ""), form.get("name", "")
                )
            except Refused as refused:
                if refused.key in ("lesson.error.code", "lesson.error.card"):
                    guard.wrong(visitor, lane)
                else:
                    guard.refused(refused.key.rsplit(".", 1)[-1])
                raise
            await lesson.save()
        guard.right(visitor)
    except Refused as refused:
        text = refusal_text(refused.key, refused.values, lang)
        body = _head(t("lesson.join.title", lang), lang, "/") + wrap_parts(
            _join_parts(lesson, lang, form.get("code", ""), form.get("name", ""), text),
            LOBBY_ORDER,
        )
        page = document(lang, "join", t("lesson.join.title", lang), body, data=' data-live="true"')
        response = html(page, refused.status)
        if refused.status == 429 and "count" in refused.values:
            response.headers["Retry-After"] = str(refused.values["count"])
        return response
    await request.app[HUB].lobby_changed()
    response = web.HTTPSeeOther(f"/table?lang={lang}")
    if secret is not None:
        set_cookie(response, request, DEVICE_COOKIE, secret)
    raise response


async def pupil(request: web.Request) -> web.StreamResponse:
    lang = lang_of(request)
    lesson = request.app[LESSON]
    device = _device(request)
    if lesson.seat_of(device) is None:
        raise web.HTTPSeeOther(f"/?lang={lang}")
    async with lesson.lock.table(lambda: lesson.table_of(device)):
        seat = lesson.seat_of(device)
        game = lesson.game_of(seat)
        side = whole(request.query.get("hint"))
        mine = game is not None and seat is not None and side in game.sides_of({seat.id})
        if mine and game is not None and seat is not None and side in game.view(None).hints:
            game.hinted[seat.id] = game.state.window  # kept until the pupil acts
        return _document(pupil_page(lesson, device, lang), lang)


def _seat_game(request: web.Request) -> tuple[TableGame, tuple[int, ...], dict[int, str]]:
    lesson = request.app[LESSON]
    seat = lesson.seat_of(_device(request))
    if seat is None:
        raise Refused("lesson.error.no_seat", 403)
    game = lesson.game_of(seat)
    if game is None:
        raise Refused("lesson.error.not_playing", 409)
    held = game.sides_of({seat.id})
    return game, held, {side: seat.id for side in held}


async def _answer(
    request: web.Request, form: dict[str, str], refused: Refused | None
) -> web.StreamResponse:
    """After a press: the script's JSON, or the page again (an error) or a redirect."""
    lang = lang_of(request, form)
    if refused is None:
        if wants_json(request):
            return web.json_response({"ok": True})
        raise web.HTTPSeeOther(f"/table?lang={lang}")
    if wants_json(request):
        response = refused_json(refused, lang)
        if refused.key == "lesson.error.no_seat":  # the page's script goes to the join page
            body = {
                "error": refusal_text(refused.key, refused.values, lang),
                "to": f"/?lang={lang}",
            }
            response = web.json_response(body, status=refused.status)
        return response
    text = refusal_text(refused.key, refused.values, lang)
    typed = form.get("answer", "") if refused.status != 409 else ""
    message = pupil_page(request.app[LESSON], _device(request), lang, error=text, typed=typed)
    return _document(message, lang, refused.status)


async def act(request: web.Request) -> web.StreamResponse:
    form = await read_form(request)
    lesson = request.app[LESSON]
    device = _device(request)
    async with lesson.lock.table(lambda: lesson.table_of(device)):  # stored before it is seen
        try:
            if lesson.ended:
                raise Refused("lesson.error.over", 403)
            if lesson.paused:
                raise Refused("lesson.paused", 409)
            game, held, seats = _seat_game(request)
            press(game, held, seats, form, lesson.clock())
        except Refused as refused:
            return await _answer(request, form, refused)
        await lesson.save_game(game)
    await request.app[HUB].game_changed(game)
    return await _answer(request, form, None)


async def more_time(request: web.Request) -> web.StreamResponse:
    """WCAG 2.2.1: a pupil asks for more answer time (the answer time again, ten times)."""
    form = await read_form(request)
    lesson = request.app[LESSON]
    async with lesson.lock:
        try:
            game, held, _ = _seat_game(request)
            if not held or not game.extend(held[0]):
                raise Refused("lesson.error.no_more_time", 409)
        except Refused as refused:
            return await _answer(request, form, refused)
        await lesson.save()
    await request.app[HUB].game_changed(game)
    return await _answer(request, form, None)


async def replay(request: web.Request) -> web.Response:
    """RULES §1.6: the replay file, once the game is over (it holds the seed and every
    answer, which must stay secret while the game runs)."""
    game, _, _ = _seat_game(request)
    return replay_file(game)


async def challenge(request: web.Request) -> web.StreamResponse:
    form = await read_form(request)
    lesson = request.app[LESSON]
    seat = lesson.seat_of(_device(request))
    async with lesson.lock:
        try:
            if seat is None:
                raise Refused("lesson.error.no_seat", 403)
            lesson.challenge(seat, form.get("seat", ""))
        except Refused as refused:
            return await _answer(request, form, refused)
        await lesson.save()
    await request.app[HUB].lobby_changed()
    return await _answer(request, form, None)


async def answer_challenge(request: web.Request) -> web.StreamResponse:
    form = await read_form(request)
    lesson = request.app[LESSON]
    seat = lesson.seat_of(_device(request))
    async with lesson.lock:
        try:
            if seat is None:
                raise Refused("lesson.error.no_seat", 403)
            lesson.answer_challenge(seat, form.get("seat", ""), form.get("answer") == "accept")
        except Refused as refused:
            return await _answer(request, form, refused)
        await lesson.save()
    await request.app[HUB].lobby_changed()
    return await _answer(request, form, None)


async def live(request: web.Request) -> web.StreamResponse:
    """The WebSocket: the page's new parts whenever they change. A device without a seat is
    told that the connection works (the join page's check) and, from a live page, given the
    join page."""
    lesson = request.app[LESSON]
    lang = page_lang(request.query.get("lang"), request.headers.get("Accept-Language"))
    teacher = request.query.get("as") == "teacher"
    if teacher and not lesson.is_teacher(request.cookies.get(TEACHER_COOKIE)):
        raise Refused("lesson.error.not_teacher", 403)
    device = None if teacher else _device(request)
    ws = web.WebSocketResponse(heartbeat=20, max_msg_size=4096)
    await ws.prepare(request)
    hub = request.app[HUB]
    if not teacher and lesson.seat_of(device) is None:
        # The join page's check, or a live page whose seat is gone (a lesson started anew,
        # a seat removed): it is sent the join page, the way back in, and does not reconnect.
        told: dict[str, Any] = {"check": "ok"}
        if request.query.get("page") == "live":  # a live page, not the join page's check
            async with lesson.lock:
                told.update(pupil_page(lesson, device, lang))
        await ws.send_str(json.dumps(told, ensure_ascii=False))
        await ws.close()
        return ws
    for old in hub.add(device, ws, lang):
        hub.drop(device, old)
        await old.close(code=REPLACED)
    try:
        if teacher:
            async with lesson.lock:
                first = teacher_page(request.app, lang)
        else:
            async with lesson.lock.table(lambda: lesson.table_of(device)):
                first = pupil_page(lesson, device, lang)
        await ws.send_str(json.dumps(first, ensure_ascii=False))
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                break  # the page never sends anything but pings; anything else ends it
    finally:
        hub.drop(device, ws)
    return ws


# -- the teacher ------------------------------------------------------------------------------


def _teacher(request: web.Request) -> None:
    if not request.app[LESSON].is_teacher(request.cookies.get(TEACHER_COOKIE)):
        raise Refused("lesson.error.not_teacher", 403)


async def teacher(request: web.Request) -> web.StreamResponse:
    lang = lang_of(request)
    lesson = request.app[LESSON]
    key = request.query.get("key")
    if key is not None:
        if not lesson.is_teacher(key):
            raise Refused("lesson.error.not_teacher", 403)
        response = web.HTTPSeeOther(f"/teacher?lang={lang}")
        set_cookie(response, request, TEACHER_COOKIE, key)
        raise response
    _teacher(request)
    served = request.app[SERVED]
    if not served.join_url:
        served.join_url = served.base_url or f"{request.scheme}://{request.host}/"
    async with lesson.lock:
        return _teacher_document(request, lang)


def _teacher_document(request: web.Request, lang: Lang, error: str | None = None,
                      status: int = 200) -> web.Response:  # fmt: skip
    message = teacher_page(request.app, lang, error)
    page = document(lang, "teacher", message["title"], message["html"],
                    data=' data-live="teacher"' + _lost(lang))  # fmt: skip
    return html(page, status)


async def control(request: web.Request) -> web.StreamResponse:
    """One of the teacher's buttons; every device hears of it at once."""
    _teacher(request)
    form = await read_form(request)
    lang = lang_of(request, form)
    lesson = request.app[LESSON]
    hub = request.app[HUB]
    what = request.match_info["control"]
    async with lesson.lock:  # stored before anyone sees it
        try:
            games = apply_control(lesson, what, form)
        except SetupError as error:
            values = dict(error.values)
            if error.key == "error.bad_option":
                values["option"] = t(f"table.setup.{values['option']}", lang)
            return _teacher_document(request, lang, t(error.key, lang, **values), 400)
        except Refused as refused:
            text = refusal_text(refused.key, refused.values, lang)
            return _teacher_document(request, lang, text, refused.status)
        await lesson.save()
    if what == "remove" and form.get("confirm") != "yes":
        await hub.to_teachers()  # a question to the teacher only: no pupil's page changed
    else:
        for game in games:
            await hub.game_changed(game)
        await hub.lobby_changed()
    raise web.HTTPSeeOther(f"/teacher?lang={lang}")


async def summary(request: web.Request) -> web.Response:
    _teacher(request)
    lang = lang_of(request)
    async with request.app[LESSON].lock:
        body = summary_body(request.app[LESSON], lang)
    return html(document(lang, "summary", t("lesson.summary.title", lang), body))


async def summary_csv(request: web.Request) -> web.Response:
    _teacher(request)
    lang = lang_of(request)
    async with request.app[LESSON].lock:
        data = csv_bytes(summarise(request.app[LESSON]), lang)
    return web.Response(
        body=data,
        content_type="text/csv",
        charset="utf-8",
        headers={"Content-Disposition": 'attachment; filename="mattekrig-lesson.csv"'},
    )


# -- the clock ------------------------------------------------------------------------------


async def _ticker(app: web.Application) -> Any:
    """Deadlines pass without anybody pressing: time limits and answer times (unless the
    lesson is paused), told to every device of the game."""
    lesson, hub = app[LESSON], app[HUB]

    async def run() -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            now = lesson.clock()
            if lesson.paused or not any(g.due(now) for g in lesson.games):
                continue  # nothing runs out: the presses at the tables go on undisturbed
            async with lesson.lock:  # the timeouts stored before anyone sees them
                changed = lesson.tick()
                if changed:
                    await lesson.save()
            for game in changed:
                await hub.game_changed(game)

    task = asyncio.create_task(run())
    yield
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await hub.close()


def add_routes(app: web.Application) -> None:
    lesson = app[LESSON]

    def render(device: str | None, lang: Lang) -> dict[str, Any]:
        return teacher_page(app, lang) if device is None else pupil_page(lesson, device, lang)

    def goal(lang: Lang) -> dict[str, str]:
        return {"goal": goal_part(lesson, lang)}

    app[HUB] = Hub(lesson, render, goal)

    async def everyone(app: web.Application) -> None:
        for game in lesson.live_games():
            await app[HUB].game_changed(game)
        await app[HUB].lobby_changed()

    app[lessons_web.CHANGED] = everyone
    lessons_web.add_routes(app)
    app[GUARD] = JoinGuard(lesson.clock)
    app.cleanup_ctx.append(_ticker)
    app.router.add_get("/", join_page)
    app.router.add_get("/seat", seat_state)
    app.router.add_post("/join", join)
    app.router.add_get("/table", pupil)
    app.router.add_post("/table/act", act)
    app.router.add_post("/table/more-time", more_time)
    app.router.add_get("/table/replay.json", replay)
    app.router.add_post("/challenge", challenge)
    app.router.add_post("/challenge/answer", answer_challenge)
    app.router.add_get("/live", live)
    app.router.add_get("/teacher", teacher)
    app.router.add_post("/teacher/{control}", control)
    app.router.add_get("/teacher/summary", summary)
    app.router.add_get("/teacher/summary.csv", summary_csv)
