"""The live connection: every device of a game gets its own new page the moment the game
changes, over a WebSocket (no polling). Each message is drawn for that device alone, from
the view of the side its seat plays, so no device is ever sent what its side may not see;
the teacher's devices get the overview. A message is JSON: the page root's state, the
title and the page's parts (`{"state", "title", "data", "html"}`), or a few parts alone by
id (`{"parts": {id: html}}`: the class goal, moved by a round at another table)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from classroom.i18n import Lang
from table.games import TableGame
from table.lesson import Lesson

log = logging.getLogger(__name__)

# (device digest or None for the teacher, lang) -> the message to send
Render = Callable[[str | None, Lang], dict[str, Any]]
# lang -> the class goal's parts of a pupil's page, by id
Goal = Callable[[Lang], dict[str, str]]
GoalKey = tuple[int, int, int | None]  # best moves and exact hits found, the goal
TEACHER_DELAY = 0.5  # the overview is drawn at most this often while many tables move
# The class goal moves with every round revealed anywhere: told at most this often, so a
# busy class costs a message a second per device, and a screen reader a sentence a second.
GOAL_DELAY = 1.0
MAX_SOCKETS = 4  # live connections kept per device (its tabs); older ones are closed
# The close code of a connection closed for a newer tab of its device: the page does not
# reconnect (it would close the next-oldest, and the tabs would take turns for ever).
REPLACED = 4001


@dataclass
class Later:
    """Work that runs a little after it is asked for, once however often it is asked meanwhile:
    a burst of rounds costs one message per device (the work reads the lesson as it is when it
    runs, so nothing asked for is missed)."""

    delay: float
    _due: asyncio.TimerHandle | None = None
    _running: asyncio.Task[None] | None = None  # kept, so the loop does not drop it

    def soon(self, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        if self._due is not None:
            return
        loop = asyncio.get_running_loop()

        def due() -> None:
            self._due = None
            self._running = loop.create_task(work())

        self._due = loop.call_later(self.delay, due)

    @property
    def waiting(self) -> bool:
        return self._due is not None

    def cancel(self) -> None:
        if self._due is not None:
            self._due.cancel()
            self._due = None


@dataclass
class Hub:
    lesson: Lesson
    render: Render
    goal: Goal
    pupils: dict[str, dict[web.WebSocketResponse, Lang]] = field(default_factory=dict)
    teachers: dict[web.WebSocketResponse, Lang] = field(default_factory=dict)
    _teachers_later: Later = field(default_factory=lambda: Later(TEACHER_DELAY))
    _goals_later: Later = field(default_factory=lambda: Later(GOAL_DELAY))
    # The class goal each pupil's connection shows (its last page or goal part).
    _goal_of: dict[web.WebSocketResponse, GoalKey] = field(default_factory=dict)
    sent: int = 0  # messages sent (the benchmark reads it)

    def add(
        self, device: str | None, ws: web.WebSocketResponse, lang: Lang
    ) -> list[web.WebSocketResponse]:
        """Keep `ws` for the device (None: a teacher); returns a pupil device's oldest
        connections beyond `MAX_SOCKETS` for the caller to close: a device with a few tabs
        is normal, one that opens hundreds would make every change cost hundreds of pages."""
        if device is None:  # the teacher's pages (the key is the teacher's alone)
            self.teachers[ws] = lang
            return []
        held = self.pupils.setdefault(device, {})
        held[ws] = lang
        self.teacher_soon()  # the seat grid shows who is connected
        self._goal_of[ws] = self._goal_now()  # its first page is drawn now
        extra = len(held) - MAX_SOCKETS
        return list(held)[:extra] if extra > 0 else []

    def drop(self, device: str | None, ws: web.WebSocketResponse) -> None:
        if device is None:
            self.teachers.pop(ws, None)
        else:
            self.pupils.get(device, {}).pop(ws, None)
            self._goal_of.pop(ws, None)
            self.teacher_soon()

    async def _send(self, ws: web.WebSocketResponse, message: dict[str, Any]) -> None:
        if ws.closed:
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_str(json.dumps(message, ensure_ascii=False))
            self.sent += 1

    async def to_device(self, device: str) -> None:
        for ws, lang in list(self.pupils.get(device, {}).items()):
            # Drawn from what is stored, never a change in flight (`table.writer`).
            async with self.lesson.lock.table(lambda: self.lesson.table_of(device)):
                self._goal_of[ws] = self._goal_now()  # its new page shows the goal as it is now
                message = self.render(device, lang)
            await self._send(ws, message)

    async def game_changed(self, game: TableGame) -> None:
        """Every device of the game, at once; when its round moved the class goal, every
        other pupil's device soon after; the teacher's overview soon after."""
        devices = {self.lesson.seats[s].device for s in game.all_seats if s in self.lesson.seats}
        for device in devices:
            await self.to_device(device)
        self.goal_soon()
        self.teacher_soon()

    def _goal_now(self) -> GoalKey:
        return (*self.lesson.found(), self.lesson.goal)

    def goal_soon(self) -> None:
        if self._goals_later.waiting:
            return
        now = self._goal_now()
        if all(shown == now for shown in self._goal_of.values()):
            return
        self._goals_later.soon(self.to_goals)

    async def to_goals(self) -> None:
        """Every pupil's device whose page shows an older class goal gets the goal's part
        alone (`{"parts": {id: html}}`): class totals, so nothing a seat may not see, and no
        whole page drawn for a device whose own table did not change."""
        async with self.lesson.lock:
            now = self._goal_now()
            drawn = {lang: self.goal(lang) for lang in {*self.langs()}}
        for sockets in list(self.pupils.values()):
            for ws, lang in list(sockets.items()):
                if self._goal_of.get(ws) == now:
                    continue
                self._goal_of[ws] = now
                await self._send(ws, {"parts": drawn[lang]})

    async def lobby_changed(self) -> None:
        """Joins, pairings, pauses, the goal set: every pupil's page (each drawn for its own
        seat)."""
        for device in list(self.pupils):
            await self.to_device(device)
        await self.to_teachers()

    def langs(self) -> set[Lang]:
        """The languages the pupils' pages are drawn in."""
        return {lang for sockets in self.pupils.values() for lang in sockets.values()}

    async def to_teachers(self) -> None:
        self._teachers_later.cancel()
        for ws, lang in list(self.teachers.items()):
            async with self.lesson.lock:
                message = self.render(None, lang)
            await self._send(ws, message)

    def teacher_soon(self) -> None:
        if self.teachers:
            self._teachers_later.soon(self.to_teachers)

    async def close(self) -> None:
        for later in (self._goals_later, self._teachers_later):
            later.cancel()
        for sockets in [*self.pupils.values(), self.teachers]:
            for ws in list(sockets):
                await ws.close()
        self.teachers.clear()  # nothing more to tell (a pupil's page closing after this)
