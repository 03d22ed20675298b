"""The school server's web application (`mattekrig serve`): the front page, the teachers'
sign-in and their own page, and every lesson this process holds, each under ``/l/<code>``
on exactly the pages `mattekrig class` serves.

A request to ``/l/<code>/…`` finds its lesson in `school.hosts` (taken from the database on
its first request, under the lesson's lease: one process serves a lesson at a time), and is
then the lesson's own. A lesson another process holds is a localised 503 that the page tries
again in a moment (the holder was asked to hand it over); a code of no open lesson is the
lesson's 404. Every change (a POST) passes the shared server's limits first
(`school.limits`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiohttp import web

from school.front import FRONT_GUARD, STORE, VISIT_COOKIE, SchoolStore
from school.front import add_routes as add_front
from school.hosts import Busy, Hosts, NoLesson
from school.kept import add_routes as add_kept
from school.limits import ChangeLimits
from school.mine import MineSetup
from school.mine import add_routes as add_mine
from school.sessions import SESSION_COOKIE
from school.settings import RateLimits
from storage.faults import is_fault
from table import class_web
from table.class_web import VISIT_COOKIE as LESSON_VISIT_COOKIE
from table.games import Clock
from table.host import LessonHost, set_host
from table.joining import JoinGuard
from table.web import DEVICE_COOKIE, MAX_BODY, SERVED, Served, error_page, guard, no_icon, static

LESSONS = "/l/"
HOSTS = web.AppKey("hosts", Hosts[LessonHost])
LIMITS = web.AppKey("limits", ChangeLimits)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _code_of(path: str) -> str | None:
    if not path.startswith(LESSONS):
        return None
    return path[len(LESSONS) :].split("/", 1)[0]


@web.middleware
async def lessons(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A lesson's path is served by its lesson, found (or taken over) here."""
    code = _code_of(request.path)
    if code is None:
        return await handler(request)
    if not (code.isascii() and code.isdigit()):
        return error_page(request, "table.error.not_found", 404)
    host = await request.app[HOSTS].get(code)
    if isinstance(host, Busy):
        response = error_page(request, "server.busy", 503)
        response.headers["Retry-After"] = str(host.retry_after)
        return response
    if isinstance(host, NoLesson):
        return error_page(request, "table.error.not_found", 404)
    set_host(request, host)
    try:
        return await handler(request)
    except Exception as error:
        if is_fault(error):  # the lesson may be ahead of the database: it is read anew
            await request.app[HOSTS].discard(code)
        raise


@web.middleware
async def limits(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every change is counted against its device and its lesson before it reaches it."""
    if request.method in ("GET", "HEAD"):
        return await handler(request)
    code = _code_of(request.path) or ""
    # A school's devices share one address (its NAT, and the proxy's), so a browser is known
    # by its cookies first: a seat, a door's or the front page's mark, a teacher's session.
    device = (
        request.cookies.get(DEVICE_COOKIE)
        or request.cookies.get(LESSON_VISIT_COOKIE)
        or request.cookies.get(VISIT_COOKIE)
        or request.cookies.get(SESSION_COOKIE)
        or str(request.remote)
    )
    wait = request.app[LIMITS].admit(code, device)
    if wait:
        response = error_page(request, "server.too_fast", 429, count=wait)
        response.headers["Retry-After"] = str(wait)
        return response
    return await handler(request)


def make_school_app(
    store: SchoolStore,
    hosts: Hosts[LessonHost],
    served: Served,
    mine: MineSetup,
    clock: Clock,
    rates: RateLimits,
    front: JoinGuard,
    add_signin_routes: Callable[[web.Application], None],
) -> web.Application:
    """The server's app: the lessons' routes are added once, under ``/l/{code}``."""
    app = web.Application(middlewares=[guard, lessons, limits], client_max_size=MAX_BODY)
    app[SERVED] = served
    app[STORE] = store
    app[HOSTS] = hosts
    app[LIMITS] = ChangeLimits(clock, rates.device_per_second, rates.lesson_per_second)
    app[FRONT_GUARD] = front
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/favicon.ico", no_icon)
    add_front(app)
    add_mine(app, mine)
    add_kept(app)
    add_signin_routes(app)
    class_web.add_routes(app, "/l/{code}")
    return app
