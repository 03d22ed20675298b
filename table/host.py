"""One class lesson as the web serves it, under its own root: the lesson, where it is reached,
its live connections (`table.live`), its join guard (`table.joining`), its storage and its
class, and who its teacher is.

`mattekrig class` serves one lesson at the root "" (the app's own host, `HOST`). The school
server serves many in one process, each under ``/l/<CODE>``: it adds the lesson's routes once
(`table.class_web.add_routes(app, root="/l/{code}")`) and a middleware of its own puts the
request's host on the request (`set_host`); `host_of` finds either. Every page, link, form,
redirect, cookie path and the live connection's address is under `LessonHost.root`, so two
lessons open in one browser never share a seat.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from classroom.i18n import Lang
from storage.faults import database_faults, is_fault
from table.class_pages import goal_part
from table.games import TableGame
from table.joining import JoinGuard
from table.keep import Keeper
from table.lesson import Lesson
from table.lesson_pages import pupil_page, teacher_page
from table.live import Hub
from table.press import Refused
from table.roster import Class
from table.web import TEACHER_COOKIE, Served

TICK_SECONDS = 0.25
COOKIE_HOURS = 12
# Whether a request is the lesson's teacher's (the school server: the signed-in teacher who
# owns the lesson).
TeacherCheck = Callable[[web.Request], Awaitable[bool]]


class LessonHost:
    """One lesson and everything its pages reach it by; `start` and `close` run its clock and
    end its live connections (the laptop's app does both with the app, the school server when
    it takes and drops the lesson)."""

    def __init__(
        self,
        lesson: Lesson,
        served: Served,
        *,
        root: str = "",
        keeper: Keeper | None = None,
        klass: Class | None = None,
        teacher: TeacherCheck | None = None,
        front: str = "",
        home: str = "",
    ) -> None:
        if root and (not root.startswith("/") or root.endswith("/")):
            raise ValueError(f"a lesson's root is '' or '/…' without a final '/': {root!r}")
        self.lesson = lesson
        self.served = served  # where it is reached (a server's may serve every lesson)
        self.root = root
        self.keeper = keeper
        self.klass = klass
        self._teacher = teacher
        # A school server's front page (its public address): what pupils type, the code then
        # taking them here; and what a class's printed card opens, since a card outlives the
        # lesson it was printed in. "" on a laptop.
        self.front = front
        # Where the teacher goes once the lesson ended, when its own pages close with it (a
        # school server's teacher's page, which lists the lessons kept); "" on a laptop, whose
        # teacher's page stays.
        self.home = home
        self.address = ""  # where the teacher's page was first opened (`seen_at`)
        self.hub = Hub(lesson, self._render, self._goal)
        self.guard = JoinGuard(lesson.clock)
        self._ticking: asyncio.Task[None] | None = None

    # -- addresses -------------------------------------------------------------------------

    def at(self, path: str) -> str:
        """A path of the lesson's: "/table" is "/l/ABCD/table" under the root "/l/ABCD"."""
        return self.root + path

    @property
    def cookie_path(self) -> str:
        """The lesson's cookies are sent to its own pages only."""
        return self.root + "/"

    def join_url(self, request: web.Request | None = None) -> str:
        """Where pupils go: on a laptop the address announced; else the public address, else
        the one the teacher's page was opened at (or this request came by), under the root.
        A root's lesson never takes the announced address: `served` may be the server's,
        shared by every lesson."""
        if not self.root and self.served.join_url:
            return self.served.join_url
        base = self.served.base_url or self.address
        if not base:
            base = f"{request.scheme}://{request.host}/" if request else "http://127.0.0.1/"
        return base + (self.root.lstrip("/") + "/" if self.root else "")

    def card_base(self, request: web.Request | None = None) -> str:
        """Where a class's card leads (its QR code opens `card/<code>` there): the school
        server's front page, which finds the class's lesson open then; a laptop's lesson."""
        return self.front or self.join_url(request)

    def seen_at(self, request: web.Request) -> None:
        """The teacher's page was opened at this address: with nothing else to say where
        pupils go, they go there (a laptop's lesson announces it from then on)."""
        if not self.address:
            self.address = f"{request.scheme}://{request.host}/"
        if not self.root and not self.served.join_url:
            self.served.join_url = self.join_url()

    def set_cookie(
        self, response: web.StreamResponse, request: web.Request, name: str, value: str
    ) -> None:
        """A device's secret for this lesson: never readable by a script, never sent by
        another site, never sent to another lesson's pages."""
        response.set_cookie(
            name,
            value,
            httponly=True,
            samesite="Strict",
            secure=self.served.secure,
            path=self.cookie_path,
            max_age=COOKIE_HOURS * 3600,
        )

    # -- who asks --------------------------------------------------------------------------

    async def is_teacher(self, request: web.Request) -> bool:
        """The lesson's teacher: by default the one whose browser holds the lesson's key
        cookie (given once by the ``?key=`` link the terminal prints)."""
        if self._teacher is not None:
            return await self._teacher(request)
        return self.lesson.is_teacher(request.cookies.get(TEACHER_COOKIE))

    async def teacher_only(self, request: web.Request) -> None:
        if not await self.is_teacher(request):
            raise Refused("lesson.error.not_teacher", 403)

    # -- the live pages --------------------------------------------------------------------

    def teacher_message(self, lang: Lang, error: str | None = None) -> dict[str, Any]:
        """The teacher's projector view now (the lesson's lock held)."""
        connected = {device for device, sockets in self.hub.pupils.items() if sockets}
        return teacher_page(self.lesson, self.join_url(), self.served.address_note, connected,
                            lang, self.root, error, self.front)  # fmt: skip

    def _render(self, device: str | None, lang: Lang) -> dict[str, Any]:
        if device is None:
            return self.teacher_message(lang)
        return pupil_page(self.lesson, device, lang, self.root)

    def _goal(self, lang: Lang) -> dict[str, str]:
        return {"goal": goal_part(self.lesson, lang)}

    async def tell_everyone(self) -> None:
        """Every device's page anew (the lesson's data deleted: it ended)."""
        for game in self.lesson.live_games():
            await self.hub.game_changed(game)
        await self.hub.lobby_changed()

    # -- the clock -------------------------------------------------------------------------

    def start(self) -> None:
        """Deadlines pass without anybody pressing: time limits and answer times run out
        (unless the lesson is paused), told to every device of the game."""
        if self._ticking is None:
            self._ticking = asyncio.create_task(self._tick())

    async def _tick(self) -> None:
        lesson = self.lesson
        unsaved: dict[str, TableGame] = {}  # changed by the clock, its save failed: not seen
        while True:
            await asyncio.sleep(TICK_SECONDS)
            now = lesson.clock()
            due = not lesson.paused and any(g.due(now) for g in lesson.games)
            if not due and not unsaved:
                continue  # nothing runs out: the presses at the tables go on undisturbed
            async with lesson.lock:  # the timeouts stored before anyone sees them
                unsaved |= {game.id: game for game in lesson.tick()}
                if not unsaved:
                    continue
                try:
                    await lesson.save()
                except Refused:
                    return  # the lesson was let go here (fenced): its clock stops with it
                except Exception as error:
                    if not is_fault(error):
                        raise
                    # The database failed (said once to the operator): the clock goes on, and
                    # its next tick tries again, as a press stays stored by the first save
                    # that works.
                    database_faults.failed(error)
                    continue
            changed, unsaved = list(unsaved.values()), {}
            for game in changed:
                await self.hub.game_changed(game)

    async def close(self) -> None:
        """The clock stops and every live connection closes (their pages reconnect to the
        lesson wherever it is served next)."""
        task, self._ticking = self._ticking, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.hub.close()


# The app's one lesson (`mattekrig class`), and the lesson a school server's middleware found
# for a request.
HOST = web.AppKey("lesson_host", LessonHost)
REQUEST_HOST = web.RequestKey("lesson_host", LessonHost)


def set_host(request: web.Request, host: LessonHost) -> None:
    """The school server's middleware: this request is to `host`'s lesson."""
    request[REQUEST_HOST] = host


def host_of(request: web.Request) -> LessonHost:
    """The lesson a request is to: the one its middleware set, else the app's own; neither
    (a school server's path of no lesson) is a page that is not there."""
    found = request.get(REQUEST_HOST) or request.app.get(HOST)
    if found is None:
        raise Refused("table.error.not_found", 404)
    return found


async def hosting(app: web.Application) -> Any:
    """The app's own lesson runs its clock while the app runs (an app's cleanup context)."""
    host = app[HOST]
    host.start()
    yield
    await host.close()


__all__ = [
    "HOST",
    "REQUEST_HOST",
    "LessonHost",
    "TeacherCheck",
    "host_of",
    "hosting",
    "set_host",
]
