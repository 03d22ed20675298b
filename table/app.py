"""The web application of one lesson: the one-screen table (`mattekrig play`) or a class
lesson (`mattekrig class`), on the same pages, headers and checks (`table.web`). Either is
the app's one lesson (`table.host`), at the root "" of its address."""

from __future__ import annotations

import time
from collections.abc import Callable

from aiohttp import web

from table import class_web, play_web
from table.class_web import GUARD, HUB
from table.host import HOST, LessonHost, hosting
from table.keep import KEEPER, Keeper
from table.lesson import Kind, Lesson
from table.roster import Class
from table.roster_web import CLASS
from table.web import LESSON, MAX_BODY, SERVED, Served, guard, no_icon, static


def make_app(
    kind: Kind = "play",
    clock: Callable[[], float] = time.monotonic,
    seeds: Callable[[], int] | None = None,
    *,
    lesson: Lesson | None = None,
    served: Served | None = None,
    keeper: Keeper | None = None,
    klass: Class | None = None,
) -> web.Application:
    """The web application of one lesson (tests inject the clock, the seeds or the lesson);
    a class lesson kept in storage has its `keeper`, and its `klass` once it may have one."""
    app = web.Application(middlewares=[guard], client_max_size=MAX_BODY)
    host = LessonHost(lesson or Lesson(kind, clock, seeds), served or Served(),
                      keeper=keeper, klass=klass)  # fmt: skip
    app[HOST] = host
    # The same parts by their own keys, for what reads the one lesson of a laptop's app.
    app[LESSON], app[SERVED], app[HUB], app[GUARD] = host.lesson, host.served, host.hub, host.guard
    if keeper is not None:
        app[KEEPER] = keeper
    if klass is not None:
        app[CLASS] = klass
    app.router.add_get("/static/{name}", static)
    app.router.add_get("/favicon.ico", no_icon)
    if host.lesson.kind == "play":
        play_web.add_routes(app)
    else:
        class_web.add_routes(app, classes=klass is not None)
        app.cleanup_ctx.append(hosting)
    return app
