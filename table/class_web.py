"""A class lesson (`mattekrig class`): pupils join on their own devices with the lesson's code
and a name, the teacher pairs them from the projector view, every device plays its own seat
and is kept up to date over the live connection (`table.live`).

Every path is under the lesson's root (`table.host`: "" for `mattekrig class`, "/l/<CODE>" on
the school server). Pupils: ``GET /`` join, ``POST /join``, ``GET /table`` the pupil's page
(waiting, playing, over), ``POST /table/act``, ``POST /table/more-time``,
``GET /table/replay.json`` (once the game is over), ``POST /challenge``,
``POST /challenge/answer``, ``GET /seat`` (whether this device holds a seat: the join page
asks, for a pupil who came back by the QR code), ``GET /live`` the WebSocket. The teacher's
pages: `table.teacher_web`, `table.lessons_web`, and a class's: `table.progress_pages`.
"""

from __future__ import annotations

import json
from typing import Any

from aiohttp import WSMsgType, web

from classroom.i18n import t
from classroom.text.board_text import refusal_text
from table import lessons_web, progress_pages, teacher_web
from table.class_pages import LOBBY_ORDER, wrap_parts
from table.games import TableGame
from table.host import host_of
from table.joining import JoinGuard
from table.lang import page_lang
from table.lesson_pages import head, join_form, pupil_document, pupil_page, root_data
from table.live import REPLACED, Hub
from table.page import document
from table.press import Refused, press, whole
from table.web import DEVICE_COOKIE, html, lang_of, read_form, refused_json, replay_file, wants_json

VISIT_COOKIE = "mk_visit"  # the join page's mark of a browser: its own tries of the code
# A laptop's app's one lesson's parts by their own keys (`table.app`; its host has them).
HUB = web.AppKey("hub", Hub)
GUARD = web.AppKey("guard", JoinGuard)


# -- pupils -----------------------------------------------------------------------------------


def _device(request: web.Request) -> str | None:
    return host_of(request).lesson.device(request.cookies.get(DEVICE_COOKIE))


# -- pupils -----------------------------------------------------------------------------------


async def join_page(request: web.Request) -> web.StreamResponse:
    lang = lang_of(request)
    host = host_of(request)
    device = _device(request)
    if host.lesson.seat_of(device) is not None:
        raise web.HTTPSeeOther(host.at(f"/table?lang={lang}"))
    async with host.lesson.lock:
        message = pupil_page(host.lesson, device, lang, host.root)
    response = pupil_document(message, lang, host.root)
    guard = host.guard
    if guard.visitor(request.cookies.get(VISIT_COOKIE), "")[1] == "none":
        host.set_cookie(response, request, VISIT_COOKIE, guard.mark())
    return response


async def seat_state(request: web.Request) -> web.Response:
    seat = host_of(request).lesson.seat_of(_device(request))
    return web.json_response({"seat": seat is not None})


async def join(request: web.Request) -> web.StreamResponse:
    form = await read_form(request)
    lang = lang_of(request, form)
    host = host_of(request)
    lesson, guard = host.lesson, host.guard
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
        body = head(t("lesson.join.title", lang), lang, host.at("/")) + wrap_parts(
            join_form(lesson, lang, host.root, form.get("code", ""), form.get("name", ""), text),
            LOBBY_ORDER,
        )
        live = ' data-live="true"' + root_data(host.root)
        page = document(lang, "join", t("lesson.join.title", lang), body, data=live)
        response = html(page, refused.status)
        if refused.status == 429 and "count" in refused.values:
            response.headers["Retry-After"] = str(refused.values["count"])
        return response
    await host.hub.lobby_changed()
    response = web.HTTPSeeOther(host.at(f"/table?lang={lang}"))
    if secret is not None:
        host.set_cookie(response, request, DEVICE_COOKIE, secret)
    raise response


async def pupil(request: web.Request) -> web.StreamResponse:
    lang = lang_of(request)
    host = host_of(request)
    lesson = host.lesson
    device = _device(request)
    if lesson.seat_of(device) is None:
        raise web.HTTPSeeOther(host.at(f"/?lang={lang}"))
    async with lesson.lock.table(lambda: lesson.table_of(device)):
        seat = lesson.seat_of(device)
        game = lesson.game_of(seat)
        side = whole(request.query.get("hint"))
        mine = game is not None and seat is not None and side in game.sides_of({seat.id})
        if mine and game is not None and seat is not None and side in game.view(None).hints:
            game.hinted[seat.id] = game.state.window  # kept until the pupil acts
        message = pupil_page(lesson, device, lang, host.root)
    return pupil_document(message, lang, host.root)


def _seat_game(request: web.Request) -> tuple[TableGame, tuple[int, ...], dict[int, str]]:
    lesson = host_of(request).lesson
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
    host = host_of(request)
    if refused is None:
        if wants_json(request):
            return web.json_response({"ok": True})
        raise web.HTTPSeeOther(host.at(f"/table?lang={lang}"))
    if wants_json(request):
        response = refused_json(refused, lang)
        if refused.key == "lesson.error.no_seat":  # the page's script goes to the join page
            body = {
                "error": refusal_text(refused.key, refused.values, lang),
                "to": host.at(f"/?lang={lang}"),
            }
            response = web.json_response(body, status=refused.status)
        return response
    text = refusal_text(refused.key, refused.values, lang)
    typed = form.get("answer", "") if refused.status != 409 else ""
    message = pupil_page(host.lesson, _device(request), lang, host.root, error=text, typed=typed)
    return pupil_document(message, lang, host.root, refused.status)


async def act(request: web.Request) -> web.StreamResponse:
    form = await read_form(request)
    host = host_of(request)
    lesson = host.lesson
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
    await host.hub.game_changed(game)
    return await _answer(request, form, None)


async def more_time(request: web.Request) -> web.StreamResponse:
    """WCAG 2.2.1: a pupil asks for more answer time (the answer time again, ten times)."""
    form = await read_form(request)
    host = host_of(request)
    lesson = host.lesson
    async with lesson.lock:
        try:
            game, held, _ = _seat_game(request)
            if not held or not game.extend(held[0]):
                raise Refused("lesson.error.no_more_time", 409)
        except Refused as refused:
            return await _answer(request, form, refused)
        await lesson.save()
    await host.hub.game_changed(game)
    return await _answer(request, form, None)


async def replay(request: web.Request) -> web.Response:
    """RULES §1.6: the replay file, once the game is over (it holds the seed and every
    answer, which must stay secret while the game runs)."""
    game, _, _ = _seat_game(request)
    return replay_file(game)


async def challenge(request: web.Request) -> web.StreamResponse:
    form = await read_form(request)
    host = host_of(request)
    lesson = host.lesson
    seat = lesson.seat_of(_device(request))
    async with lesson.lock:
        try:
            if seat is None:
                raise Refused("lesson.error.no_seat", 403)
            lesson.challenge(seat, form.get("seat", ""))
        except Refused as refused:
            return await _answer(request, form, refused)
        await lesson.save()
    await host.hub.lobby_changed()
    return await _answer(request, form, None)


async def answer_challenge(request: web.Request) -> web.StreamResponse:
    form = await read_form(request)
    host = host_of(request)
    lesson = host.lesson
    seat = lesson.seat_of(_device(request))
    async with lesson.lock:
        try:
            if seat is None:
                raise Refused("lesson.error.no_seat", 403)
            lesson.answer_challenge(seat, form.get("seat", ""), form.get("answer") == "accept")
        except Refused as refused:
            return await _answer(request, form, refused)
        await lesson.save()
    await host.hub.lobby_changed()
    return await _answer(request, form, None)


async def live(request: web.Request) -> web.StreamResponse:
    """The WebSocket: the page's new parts whenever they change. A device without a seat is
    told that the connection works (the join page's check) and, from a live page, given the
    join page."""
    host = host_of(request)
    lesson = host.lesson
    lang = page_lang(request.query.get("lang"), request.headers.get("Accept-Language"))
    teacher = request.query.get("as") == "teacher"
    if teacher:
        await host.teacher_only(request)
    device = None if teacher else _device(request)
    ws = web.WebSocketResponse(heartbeat=20, max_msg_size=4096)
    await ws.prepare(request)
    hub = host.hub
    if not teacher and lesson.seat_of(device) is None:
        # The join page's check, or a live page whose seat is gone (a lesson started anew,
        # a seat removed): it is sent the join page, the way back in, and does not reconnect.
        told: dict[str, Any] = {"check": "ok"}
        if request.query.get("page") == "live":  # a live page, not the join page's check
            async with lesson.lock:
                told.update(pupil_page(lesson, device, lang, host.root))
        await ws.send_str(json.dumps(told, ensure_ascii=False))
        await ws.close()
        return ws
    for old in hub.add(device, ws, lang):
        hub.drop(device, old)
        await old.close(code=REPLACED)
    try:
        if teacher:
            async with lesson.lock:
                first = host.teacher_message(lang)
        else:
            async with lesson.lock.table(lambda: lesson.table_of(device)):
                first = pupil_page(lesson, device, lang, host.root)
        await ws.send_str(json.dumps(first, ensure_ascii=False))
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                break  # the page never sends anything but pings; anything else ends it
    finally:
        hub.drop(device, ws)
    return ws


def add_routes(app: web.Application, root: str = "", *, classes: bool = True) -> None:
    """A class lesson's routes under `root` ("" for `mattekrig class`; the school server adds
    them once with "/l/{code}", its middleware naming each request's lesson); `classes`: with
    the pages of a class (a laptop's lesson kept nowhere has none)."""
    if root:
        app.router.add_get(root, to_root)
    app.router.add_get(f"{root}/", join_page)
    app.router.add_get(f"{root}/seat", seat_state)
    app.router.add_post(f"{root}/join", join)
    app.router.add_get(f"{root}/table", pupil)
    app.router.add_post(f"{root}/table/act", act)
    app.router.add_post(f"{root}/table/more-time", more_time)
    app.router.add_get(f"{root}/table/replay.json", replay)
    app.router.add_post(f"{root}/challenge", challenge)
    app.router.add_post(f"{root}/challenge/answer", answer_challenge)
    app.router.add_get(f"{root}/live", live)
    teacher_web.add_routes(app, root)
    lessons_web.add_routes(app, root)
    if classes:
        progress_pages.add_routes(app, root)


async def to_root(request: web.Request) -> web.StreamResponse:
    """The lesson's address without its final "/" (typed by hand): its join page."""
    query = f"?{request.query_string}" if request.query_string else ""
    raise web.HTTPSeeOther(host_of(request).at(f"/{query}"))
