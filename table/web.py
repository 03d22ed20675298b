"""The web server: aiohttp routes from a form or a button to the engine and back to a page.

A press names the decision window it was drawn in; a press from an earlier window (a second
tab, a double click) is refused as stale and changes nothing. Anything else the engine refuses
is told in the page's language, and the game is unchanged (states are frozen values). After
an accepted action the browser is redirected to the table (post/redirect/get), so a reload
never plays a move twice.

Routes: ``GET /`` setup (``?game=`` its options), ``POST /games`` start, ``GET /game/{id}``
the table (``?hint=side`` the betting hint), ``POST /game/{id}/act`` a choice,
``GET /game/{id}/replay.json`` the replay file, ``GET /game/{id}/table.png`` the table as a
picture (when pictures are switched on), ``GET /static/{name}`` the page's CSS and script.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from bot.i18n import Lang, t
from bot.render.board_text import answer_reply, refusal_text
from bot.render.cards import number_text
from bot.services.errors import UserFacingError
from engine.actions import ChoiceKind, choice_action
from engine.errors import EngineError
from engine.game import judge_answer
from engine.state import Phase
from engine.view import view
from table.board import Picture, side_names, table_page
from table.games import Clock, Games, TableGame, Text
from table.lang import page_lang
from table.page import not_found_page, setup_page
from table.pictures import Drawer
from table.setup import SetupError, read_game, read_setup

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Tables:
    """What the handlers share: the games in memory and the picture drawer (None: text)."""

    games: Games
    drawer: Drawer | None


TABLES = web.AppKey("tables", Tables)
STATIC = {"table.css": "text/css", "table.js": "text/javascript"}
# The page loads nothing from anywhere else (no CDN, no fonts, no trackers).
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
_WHOLE = re.compile(r"-?[0-9]{1,6}")
MAX_FIELD = 200  # longer form values are malformed (an answer is at most 100 characters)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _lang(request: web.Request, form: dict[str, str] | None = None) -> Lang:
    chosen = (form or {}).get("lang") or request.query.get("lang")
    return page_lang(chosen, request.headers.get("Accept-Language"))


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")


async def _form(request: web.Request) -> dict[str, str]:
    """The form's text fields (files are ignored); a body that cannot be read is an empty
    form, which every handler refuses in words."""
    try:
        data = await request.post()
    except (ValueError, UnicodeDecodeError, HttpProcessingError):
        return {}
    return {k: v[:MAX_FIELD] for k, v in data.items() if isinstance(v, str)}


def whole(text: str | None) -> int | None:
    """A whole number as a form or a query writes it ("-3", "12"), else None."""
    if text is None or not _WHOLE.fullmatch(text):
        return None
    return int(text)


def _picture(request: web.Request, game: TableGame, lang: Lang) -> Picture | None:
    drawer = request.app[TABLES].drawer
    if drawer is None:
        return None
    drawn = drawer(view(game.state, None), side_names(game, lang), lang)
    url = f"/game/{game.id}/table.png?w={game.state.window}&lang={lang}"
    return Picture(url, drawn.alt)


def _game(request: web.Request) -> TableGame | None:
    return request.app[TABLES].games.get(request.match_info["id"])


def _page(
    request: web.Request, game: TableGame, lang: Lang, status: int = 200, **extra: Any
) -> web.Response:
    now = request.app[TABLES].games.clock()
    picture = _picture(request, game, lang)
    return _html(table_page(game, lang, now, picture=picture, **extra), status)


def _no_game(lang: Lang) -> web.Response:
    return _html(not_found_page(lang, "table.error.no_game"), 404)


# -- setup --------------------------------------------------------------------------------------


async def setup(request: web.Request) -> web.Response:
    lang = _lang(request)
    chosen = request.query.get("game")
    if chosen is None:
        return _html(setup_page(lang, None, {}))
    try:
        game = read_game(chosen)
    except SetupError as error:
        return _html(setup_page(lang, None, {}, t(error.key, lang, **error.values)), 400)
    return _html(setup_page(lang, game, {}))


async def start(request: web.Request) -> web.Response:
    form = await _form(request)
    lang = _lang(request, form)
    try:
        new = read_setup(form)
    except SetupError as error:
        values = dict(error.values)
        if error.key == "error.bad_option":
            values["option"] = t(f"table.setup.{values['option']}", lang)
        message = t(error.key, lang, **values)
        known = form.get("game", "") if error.key != "table.error.unknown_game" else None
        kind = read_game(known) if known else None
        return _html(setup_page(lang, kind, form, message), 400)
    game = request.app[TABLES].games.start(new.settings, new.names)
    raise web.HTTPSeeOther(f"/game/{game.id}?lang={lang}")


# -- the table ----------------------------------------------------------------------------------


async def table(request: web.Request) -> web.Response:
    lang = _lang(request)
    game = _game(request)
    if game is None:
        return _no_game(lang)
    note = game.take_note(whole(request.query.get("note")))
    note_text = None
    if note is not None:
        names = side_names(game, lang)
        note_text = " ".join(
            t("table.note.side", lang, name=names[side], text=text(lang))
            for side, text in note.told
        )
    show_hint = whole(request.query.get("hint")) in view(game.state, None).hints
    return _page(request, game, lang, note=note_text, hint=show_hint)


class Refused(Exception):
    """A press the page refuses: a catalogue key, its values and the HTTP status."""

    def __init__(self, key: str, status: int = 400, side: int | None = None, **values: Any):
        super().__init__(key)
        self.key, self.status, self.side, self.values = key, status, side, values


def _whole(text: str | None) -> int:
    number = whole(text)
    if number is None:
        raise Refused("engine.malformed_action")
    return number


def _press(game: TableGame, form: dict[str, str]) -> int | None:
    """Play one press; returns the number of the note it leaves, if any."""
    if _whole(form.get("window")) != game.state.window:
        raise Refused("reply.stale", 409)
    side = _whole(form.get("side"))
    kind_text, _, value_text = form.get("choice", "").partition(":")
    try:
        kind = ChoiceKind(kind_text)
    except ValueError:
        raise Refused("engine.malformed_action") from None
    value = _whole(value_text) if value_text else None
    if kind is not ChoiceKind.FLIP and side not in game.humans:
        raise Refused("error.not_your_side")
    text = form.get("answer", "").strip()
    try:
        if kind is ChoiceKind.ANSWER:
            return _answer(game, side, text)
        game.play(choice_action(kind, side, value, text))
    except EngineError as error:
        refusal = UserFacingError.from_engine(error)
        raise Refused(refusal.key, 400, side, **refusal.values) from None
    reply = _reply(game, kind, value)
    return game.add_note((side, reply)) if reply is not None else None


def _answer(game: TableGame, side: int, text: str) -> int:
    """RULES §2.2: an answer that breaks a rule is accepted as no value, and the side is told
    which rule (the verdict is asked of the unchanged state first). At a shared screen that
    is told once the comparison is revealed; until then only that the answer is in."""
    verdict = None
    if game.state.phase is Phase.ANSWER and side in game.state.pending:
        verdict = judge_answer(game.state, side, text)
    window = game.state.window
    game.play(choice_action(ChoiceKind.ANSWER, side, None, text))

    def told(lang: str) -> str:
        return answer_reply(verdict, lang)

    if game.hot_seat and game.state.window == window:
        if verdict is not None and verdict.value is None:
            game.held.append((side, told))
        return game.add_note((side, lambda lang: answer_reply(None, lang)))
    held, game.held = game.held, []
    return game.add_note(*held, (side, told))


def _reply(game: TableGame, kind: ChoiceKind, value: int | None) -> Text | None:
    """The Discord reply to a target or a bet; at a shared screen a bet is only "in" (what
    it was stays secret until every side has decided, RULES §3.3)."""
    if kind in (ChoiceKind.BET, ChoiceKind.PASS) and game.hot_seat:
        return lambda lang: t("table.note.decided", lang)
    if kind is ChoiceKind.BET:
        card_key = "reply.bet_left" if value == 0 else "reply.bet_right"
        return lambda lang: t("reply.bet_received", lang, card=t(card_key, lang))
    if kind is ChoiceKind.PASS:
        return lambda lang: t("reply.pass_received", lang)
    if kind is ChoiceKind.TARGET and value is not None:
        target = number_text(value)
        return lambda lang: t("reply.target_named", lang, target=target)
    return None


async def act(request: web.Request) -> web.Response:
    form = await _form(request)
    lang = _lang(request, form)
    game = _game(request)
    if game is None:
        return _no_game(lang)
    try:
        note = _press(game, form)
    except Refused as refused:
        text = refusal_text(refused.key, refused.values, lang)
        if refused.side is not None and 0 <= refused.side < len(game.names):
            name = side_names(game, lang)[refused.side]
            text = t("table.note.side", lang, name=name, text=text)
        typed = form.get("answer", "") if refused.status != 409 else ""
        return _page(request, game, lang, refused.status, error=text, typed=typed)
    suffix = f"&note={note}" if note is not None else ""
    raise web.HTTPSeeOther(f"/game/{game.id}?lang={lang}{suffix}")


async def replay(request: web.Request) -> web.Response:
    game = _game(request)
    if game is None:
        return _no_game(_lang(request))
    body = json.dumps(game.replay(), ensure_ascii=False, indent=1)
    name = f"mattekrig-{game.state.config.game}-{game.id}.json"
    return web.Response(
        text=body + "\n",
        content_type="application/json",
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


async def picture(request: web.Request) -> web.Response:
    lang = _lang(request)
    game = _game(request)
    drawer = request.app[TABLES].drawer
    if game is None or drawer is None:
        return _html(not_found_page(lang, "table.error.not_found"), 404)
    drawn = drawer(view(game.state, None), side_names(game, lang), lang)
    return web.Response(body=drawn.png, content_type="image/png")


async def static(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    if name not in STATIC:
        return _html(not_found_page(_lang(request), "table.error.not_found"), 404)
    data = resources.files("table").joinpath("static", name).read_bytes()
    response = web.Response(body=data, content_type=STATIC[name], charset="utf-8")
    response.headers["Cache-Control"] = "max-age=3600"  # the pages themselves are no-store
    return response


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every response carries the security headers; an unknown page or method is a localised
    page, not aiohttp's English text."""
    try:
        response = await handler(request)
    except web.HTTPException as error:
        if error.status in (404, 405):
            key = "table.error.not_found"
        elif 400 <= error.status < 500:
            key = "table.error.bad_request"  # e.g. a body larger than any form
        else:
            raise
        response = _html(not_found_page(_lang(request), key), error.status)
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def make_app(
    clock: Clock = time.monotonic,
    seeds: Callable[[], int] | None = None,
    drawer: Drawer | None = None,
) -> web.Application:
    """The table's web application (tests inject the clock, the seeds and the drawer)."""
    app = web.Application(middlewares=[guard], client_max_size=64 * 1024)
    app[TABLES] = Tables(Games(clock, seeds), drawer)
    app.router.add_get("/", setup)
    app.router.add_post("/games", start)
    app.router.add_get("/game/{id}", table)
    app.router.add_post("/game/{id}/act", act)
    app.router.add_get("/game/{id}/replay.json", replay)
    app.router.add_get("/game/{id}/table.png", picture)
    app.router.add_get("/static/{name}", static)
    return app
