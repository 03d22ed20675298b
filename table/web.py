"""The lesson's web server: what every page shares — the security headers (HSTS behind
HTTPS; a `Server:` that names no version), the check that a request names one of the
lesson's own addresses (its Host: a DNS rebinding names another), the check that a
POST or a live connection comes from the lesson's own pages (its Origin), localised pages
for every refusal (400, 403, 404, 405, 409, 413, 429: never a 500), the device cookie, the
page's CSS and script — and the app for either kind of lesson.

`table.app` puts the routes of either kind of lesson on it: the one-screen table
(`table.play_web`) or a class lesson (`table.class_web`); both draw tables with `table.board`.
"""

from __future__ import annotations

import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from urllib.parse import urlsplit

from aiohttp import web, web_response
from aiohttp.http_exceptions import HttpProcessingError

from classroom.i18n import Lang
from classroom.text.board_text import refusal_text
from storage.faults import database_faults, is_fault
from table.games import TableGame
from table.lang import page_lang
from table.lesson import Lesson
from table.page import document, not_found_page
from table.press import Refused

log = logging.getLogger(__name__)

LESSON = web.AppKey("lesson", Lesson)
DEVICE_COOKIE = "mk_device"
TEACHER_COOKIE = "mk_teacher"
STATIC = {"table.css": "text/css", "table.js": "text/javascript", "class.css": "text/css"}
# The page loads nothing from anywhere else (no CDN, no fonts, no trackers); the live
# connection goes back to the page's own server.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; "
        "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # no-referrer would make a POST's Origin "null"
    "Cache-Control": "no-store",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
# Behind the school's HTTPS proxy the browser is told to come back by HTTPS only, for a year
# (no includeSubDomains: the school's other hosts are not the lesson's to decide).
HSTS = "max-age=31536000"
# aiohttp names itself and its version in every `Server:` header, even on the answer to a
# malformed request that no handler sees: that default is the only place to say less.
SERVER = "Mattekrig"
setattr(web_response, "SERVER_SOFTWARE", SERVER)  # noqa: B010 - not exported by aiohttp
MAX_FIELD = 200  # longer form values are malformed (an answer is at most 100 characters)
MAX_BODY = 64 * 1024

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(slots=True)
class Served:
    """Where the lesson is reached: the join URL shown (set once the port is known; else the
    address the teacher's own page was opened at), and what the teacher is told about it."""

    base_url: str | None = None  # the public address behind a proxy (its origin is allowed)
    address_note: str = ""
    join_url: str = ""
    names: tuple[str, ...] = ()  # host names the lesson listens on or is announced at

    @property
    def secure(self) -> bool:
        return (self.base_url or "").startswith("https://")

    def own_host(self, host: str) -> bool:
        """A Host the lesson answers: an address (a DNS rebinding always names a host
        name: the attacker's), this computer's own name, or a name the lesson was given
        (`--host`, `--base-url`). Any other name reached it through someone else's DNS."""
        name = urlsplit(f"//{host}").hostname if host else None
        if not name:
            return False
        try:
            ipaddress.ip_address(name)
            return True
        except ValueError:
            pass
        given = {urlsplit(self.base_url or "").hostname, *(n.lower() for n in self.names)}
        return name in ("localhost", *(g for g in given if g))


SERVED = web.AppKey("served", Served)


def lang_of(request: web.Request, form: dict[str, str] | None = None) -> Lang:
    chosen = (form or {}).get("lang") or request.query.get("lang")
    return page_lang(chosen, request.headers.get("Accept-Language"))


def html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")


async def read_form(request: web.Request) -> dict[str, str]:
    """The form's text fields (files are ignored); a body that cannot be read is an empty
    form, which every handler refuses in words."""
    try:
        data = await request.post()
    except (ValueError, UnicodeDecodeError, HttpProcessingError):
        return {}
    return {k: v[:MAX_FIELD] for k, v in data.items() if isinstance(v, str)}


def wants_json(request: web.Request) -> bool:
    """The page's script sends its presses with fetch and reads the answer as JSON (the
    live connection brings the new table); a plain form gets a page."""
    return request.headers.get("Accept", "").startswith("application/json")


def refused_json(refused: Refused, lang: Lang) -> web.Response:
    text = refusal_text(refused.key, refused.values, lang)
    return web.json_response({"error": text}, status=refused.status)


def error_page(request: web.Request, key: str, status: int, **values: object) -> web.Response:
    """A refusal before (or outside) a handler's own: a page, or for the page's script its
    JSON (the script says the sentence), in the language the request names."""
    lang = lang_of(request)
    if wants_json(request):
        return web.json_response({"error": refusal_text(key, values, lang)}, status=status)
    return html(not_found_page(lang, key, values), status)


def set_cookie(response: web.StreamResponse, request: web.Request, name: str, value: str) -> None:
    """A device's secret: never readable by a script, never sent by another site."""
    response.set_cookie(
        name,
        value,
        httponly=True,
        samesite="Strict",
        secure=request.app[SERVED].secure,
        path="/",
        max_age=12 * 3600,
    )


def device_of(request: web.Request) -> str | None:
    return request.app[LESSON].device(request.cookies.get(DEVICE_COOKIE))


def _origins(request: web.Request) -> set[str]:
    allowed = {f"{request.scheme}://{request.host}"}
    base = request.app[SERVED].base_url
    if base:
        parts = urlsplit(base)
        allowed.add(f"{parts.scheme}://{parts.netloc}")
    return allowed


def same_origin(request: web.Request) -> bool:
    """The request comes from this lesson's own pages: its Origin is the server's own (or
    the public address behind the proxy). A browser sends Origin with every POST and every
    WebSocket; a request without it is refused too."""
    origin = request.headers.get("Origin")
    return origin is not None and origin in _origins(request)


def _upgrading(request: web.Request) -> bool:
    return request.headers.get("Upgrade", "").lower() == "websocket"


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every response carries the security headers; a cross-site POST or live connection is
    refused; an unknown page or method, a body too large or a bad one is a localised page,
    never aiohttp's English text and never a traceback."""
    try:
        if not request.app[SERVED].own_host(request.headers.get("Host", "")):
            response: web.StreamResponse = error_page(request, "table.error.wrong_host", 421)
        elif (request.method not in ("GET", "HEAD") or _upgrading(request)) and not same_origin(
            request
        ):
            response = error_page(request, "table.error.cross_site", 403)
        else:
            response = await handler(request)
    except web.HTTPException as error:
        if error.status in (404, 405):
            key = "table.error.not_found"
        elif error.status == 413:
            key = "table.error.too_large"
        elif 400 <= error.status < 500:
            key = "table.error.bad_request"
        elif 300 <= error.status < 400:
            for name, value in _headers(request).items():
                error.headers.setdefault(name, value)
            raise
        else:
            raise
        response = error_page(request, key, error.status)
    except Refused as refused:
        response = error_page(request, refused.key, refused.status, **refused.values)
    except (ConnectionResetError, ConnectionError):
        raise
    except Exception as error:
        if not is_fault(error):
            log.exception("the lesson could not answer %s %s", request.method, request.path)
            response = error_page(request, "table.error.server", 500)
        else:  # the database, not a bug: one line for the operator, try again for the pupil
            database_faults.failed(error)
            response = error_page(request, "table.error.storage", 503)
    if not response.prepared:
        for name, value in _headers(request).items():
            response.headers.setdefault(name, value)
    return response


def _headers(request: web.Request) -> dict[str, str]:
    if request.app[SERVED].secure:
        return {**SECURITY_HEADERS, "Strict-Transport-Security": HSTS}
    return SECURITY_HEADERS


async def no_icon(request: web.Request) -> web.Response:
    """The browser asks for an icon; there is none (an answer, not a 404 in its console)."""
    return web.Response(status=204)


async def static(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    if name not in STATIC:
        return error_page(request, "table.error.not_found", 404)
    data = resources.files("table").joinpath("static", name).read_bytes()
    response = web.Response(body=data, content_type=STATIC[name], charset="utf-8")
    response.headers["Cache-Control"] = "max-age=3600"  # the pages themselves are no-store
    return response


def replay_file(game: TableGame) -> web.Response:
    """RULES §1.6: a game's replay file, to download once the game is over (it holds the seed,
    which tells every card to come, and every answer, which stay secret while it runs)."""
    if not game.over:
        raise Refused("table.error.replay_after", 409)
    body = json.dumps(game.replay(), ensure_ascii=False, indent=1)
    name = f"mattekrig-{game.state.config.game}-{game.id}.json"
    return web.Response(
        text=body + "\n",
        content_type="application/json",
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def runner(app: web.Application) -> web.AppRunner:
    """How the lesson is served: with no access log. A log line would hold the teacher's
    `?key=` on its first request and every device's address; the lesson logs only its faults."""
    return web.AppRunner(app, access_log=None)


def page(lang: Lang, state: str, title: str, body: str, data: str = "") -> str:
    return document(lang, state, title, body, data=data)
