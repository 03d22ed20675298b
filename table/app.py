"""The web application of one lesson: the one-screen table (`mattekrig play`) or a class
lesson (`mattekrig class`), on the same pages, headers and checks (`table.web`)."""

from __future__ import annotations

import time
from collections.abc import Callable

from aiohttp import web

from table import class_web, play_web
from table.lesson import Kind, Lesson
from table.web import LESSON, MAX_BODY, SERVED, Served, guard, no_icon, static


def make_app(
    kind: Kind = "play",
    clock: Callable[[], float] = time.monotonic,
    seeds: Callable[[], int] | None = None,
    *,
    lesson: Lesson | None = None,
    served: Served | None = None,
) -> web.Application:
    """The web application of one lesson (tests inject the clock, the seeds or the lesson)."""
    app = web.Application(middlewares=[guard], client_max_size=MAX_BODY)
    app[LESSON] = lesson or Lesson(kind, clock, seeds)
    app[SERVED] = served or Served()
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/favicon.ico", no_icon)
    if app[LESSON].kind == "play":
        play_web.add_routes(app)
    else:
        class_web.add_routes(app)
    return app
