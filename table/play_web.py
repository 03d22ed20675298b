"""The one-screen table (`mattekrig play`): a lesson whose single device holds every seat.

The device that starts a game holds its seats (its cookie), so only that browser plays it;
another device with the link is refused. After an accepted press the browser is redirected
to the table (post/redirect/get), so a reload never plays a move twice.

Routes: ``GET /`` setup (``?game=`` its options), ``POST /games`` start, ``GET /game/{id}``
the table (``?hint=side`` the betting hint), ``POST /game/{id}/act`` a choice,
``POST /game/{id}/more-time`` five more minutes, ``POST /game/{id}/stop`` end it now (as when
time runs out), ``GET /game/{id}/replay.json`` the replay file, once the game is over.
"""

from __future__ import annotations

from aiohttp import web

from classroom.i18n import Lang, t
from classroom.text.board_text import refusal_text
from table.board import Paths, Seen, table_parts, table_state, table_title, wrap
from table.games import TableGame
from table.host import host_of
from table.page import button, document, esc, hidden, lang_switch, not_found_page, setup_page
from table.press import Refused, press, whole
from table.setup import SetupError, read_game, read_setup
from table.web import (
    DEVICE_COOKIE,
    html,
    lang_of,
    read_form,
    replay_file,
    set_cookie,
)

MORE_MINUTES = 5


async def setup(request: web.Request) -> web.Response:
    lang = lang_of(request)
    chosen = request.query.get("game")
    if chosen is None:
        return html(setup_page(lang, None, {}))
    try:
        game = read_game(chosen)
    except SetupError as error:
        return html(setup_page(lang, None, {}, t(error.key, lang, **error.values)), 400)
    return html(setup_page(lang, game, {}))


async def start(request: web.Request) -> web.Response:
    form = await read_form(request)
    lang = lang_of(request, form)
    try:
        new = read_setup(form)
    except SetupError as error:
        values = dict(error.values)
        if error.key == "error.bad_option":
            values["option"] = t(f"table.setup.{values['option']}", lang)
        message = t(error.key, lang, **values)
        known = form.get("game", "") if error.key != "table.error.unknown_game" else None
        kind = read_game(known) if known else None
        return html(setup_page(lang, kind, form, message), 400)
    lesson = host_of(request).lesson
    secret = request.cookies.get(DEVICE_COOKIE)
    device = lesson.device(secret)
    if device is None:
        secret = lesson.new_device()
        device = lesson.device(secret)
    assert device is not None and secret is not None
    try:
        game = lesson.start_at_one_screen(device, new)
    except Refused as refused:
        lesson.forget_device(device)  # a refused start leaves nothing behind
        return html(not_found_page(lang, refused.key, refused.values), refused.status)
    response = web.HTTPSeeOther(f"/game/{game.id}?lang={lang}")
    set_cookie(response, request, DEVICE_COOKIE, secret)
    raise response


def _paths(game: TableGame) -> Paths:
    base = f"/game/{game.id}"
    return Paths(f"{base}/act", base, f"{base}/replay.json", f"{base}/more-time", f"{base}/stop")


def _mine(request: web.Request) -> tuple[TableGame, tuple[int, ...], dict[int, str]]:
    """The game in the path and the sides this device holds in it (refused otherwise)."""
    lesson = host_of(request).lesson
    game = lesson.games.get(request.match_info["id"])
    if game is None:
        raise Refused("table.error.no_game", 404)
    device = lesson.device(request.cookies.get(DEVICE_COOKIE))
    held = lesson.held(device, game)
    if not held:
        raise Refused("table.error.not_your_table", 403)
    lesson.tick()
    return game, held, lesson.seat_by_side(device, game)


def _page(
    request: web.Request, game: TableGame, seen: Seen, lang: Lang, status: int = 200
) -> web.Response:
    now = host_of(request).lesson.clock()
    parts = table_parts(game, lang, now, _paths(game), seen)
    stop = ""
    if not game.over:
        stop = (
            f'<form method="post" action="{esc(_paths(game).stop)}" class="stop">'
            f"{hidden('lang', lang)}{button(t('table.stop', lang))}</form>"
        )
    parts["footer"] += stop
    title = table_title(game, lang)
    head = f"<header><h1>{esc(title)}</h1>" + _switch(game, lang) + "</header>"
    waits = str(game.view(None).now)
    data = f' data-window="{game.state.window}" data-game="{esc(game.id)}" data-now="{waits}"'
    return html(document(lang, table_state(game), title, head + wrap(parts), data=data), status)


def _switch(game: TableGame, lang: Lang) -> str:
    return lang_switch(lang, f"/game/{game.id}", {})


async def table(request: web.Request) -> web.Response:
    lang = lang_of(request)
    game, held, seats = _mine(request)
    hint = whole(request.query.get("hint")) in game.view(None).hints
    return _page(request, game, Seen(held, seats, hint=hint), lang)


async def act(request: web.Request) -> web.Response:
    form = await read_form(request)
    lang = lang_of(request, form)
    game, held, seats = _mine(request)
    try:
        press(game, held, seats, form, host_of(request).lesson.clock())
    except Refused as refused:
        text = refusal_text(refused.key, refused.values, lang)
        if refused.about is not None and 0 <= refused.about < len(game.names) and len(held) > 1:
            text = t("table.note.side", lang, name=game.names[refused.about], text=text)
        typed = form.get("answer", "") if refused.status != 409 else ""
        return _page(
            request, game, Seen(held, seats, error=text, typed=typed), lang, refused.status
        )
    raise web.HTTPSeeOther(f"/game/{game.id}?lang={lang}")


async def more_time(request: web.Request) -> web.Response:
    """WCAG 2.2.1: the time limit can be extended (five more minutes each press)."""
    form = await read_form(request)
    lang = lang_of(request, form)
    game, _, _ = _mine(request)
    game.more_minutes(MORE_MINUTES)
    raise web.HTTPSeeOther(f"/game/{game.id}?lang={lang}")


async def stop(request: web.Request) -> web.Response:
    """Stop the game: it ends as when its time runs out (RULES §1.5)."""
    form = await read_form(request)
    lang = lang_of(request, form)
    game, _, _ = _mine(request)
    game.end_as_time_up(host_of(request).lesson.clock())
    raise web.HTTPSeeOther(f"/game/{game.id}?lang={lang}")


async def replay(request: web.Request) -> web.Response:
    """RULES §1.6: the replay file, once the game is over (it holds the seed, which tells
    every card to come, and every answer)."""
    game, _, _ = _mine(request)
    return replay_file(game)


def add_routes(app: web.Application) -> None:
    app.router.add_get("/", setup)
    app.router.add_post("/games", start)
    app.router.add_get("/game/{id}", table)
    app.router.add_post("/game/{id}/act", act)
    app.router.add_post("/game/{id}/more-time", more_time)
    app.router.add_post("/game/{id}/stop", stop)
    app.router.add_get("/game/{id}/replay.json", replay)
