"""The lessons this process serves: a lesson's code → its host, taken over from the database on
the lesson's first request and let go when it falls quiet, is asked for, or its lease is lost.

A school server runs several processes behind a proxy that sends every request of one lesson
to one process (by its code), and another process when that one dies. So no process starts
with its lessons: `Hosts.get` finds the lesson by its code, takes its lease
(`storage.leases`: one process at a time), brings it back from storage exactly as
`mattekrig class` does after a crash (`table.keep.restore`: every seat, every game replayed
action by action) and has the school app build its host. Its keeper's writes carry the
lease's fence: stored only while this process holds the lease, whether or not it has noticed
losing it yet (`storage.lessons`). Everything acknowledged was
committed before it was shown, so the lesson that comes back is the lesson that was served.

Letting a lesson go always goes the same way: its clock stops and its live connections close
(their pages reconnect to wherever the lesson is served next); under the lesson's lock, what
changed is saved and the lesson is fenced (a change after that is refused, never committed by
a process that no longer holds the lease); then the lease is released. Why a lesson is let
go:

* quiet: nobody asked for it and no page is connected for `quiet` (its state is in the
  database; memory is for the lessons in use);
* asked: another process was refused the lesson and asked for it (``NOTIFY``): the proxy
  sends the lesson there now (a restarted process gets its lessons back), unless this
  process took it only seconds ago (`HOLD_SECONDS`: no lesson is thrown back and forth);
* lost: the lease connection is gone, so another process may hold the lesson already:
  nothing more is saved, every host is fenced at once and closed;
* shutdown (`close_all`).

The sweep also ends the lessons nobody used for `idle` (each only while holding its lease,
so never one another process serves) and deletes the ended ones past their retention.

One lock per code: concurrent first requests for a lesson restore it once, and a lesson being
let go is not brought back until it is saved and released.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from storage.contract import LessonStore
from storage.errors import LeaseError, LeaseLostError, NotFoundError, StorageError
from storage.leases import Leases
from storage.records.lessons import LeaseFence, StoredLesson
from table.games import Clock
from table.keep import DAY_MS, DEFAULT_KEEP_DAYS, Keeper, Wall, restore
from table.lesson import Lesson
from table.live import Hub
from table.press import Refused

log = logging.getLogger(__name__)

QUIET_MINUTES = 10
IDLE_HOURS = 24
SWEEP_SECONDS = 60.0
RETRY_AFTER_SECONDS = 1  # a lesson being handed over is back within about a second
# A lesson taken this recently is not handed over yet when another process asks: a proxy
# that sends a lesson's requests now to one process, now to the other (a process it thinks
# down for a moment) would otherwise have them throw it back and forth, each time saving,
# closing every page's connection and replaying its games. The asker's pages try again.
HOLD_SECONDS = 5.0


class Host(Protocol):
    """What Hosts needs of a lesson's host (`table.host.LessonHost` is one)."""

    @property
    def lesson(self) -> Lesson: ...

    @property
    def keeper(self) -> Keeper | None: ...

    @property
    def hub(self) -> Hub: ...

    def start(self) -> None: ...

    async def close(self) -> None: ...


H = TypeVar("H", bound=Host)


@dataclass(frozen=True, slots=True)
class Restored:
    """A lesson brought back from storage, for the school app's factory to build its host
    around: the stored row (its owner is its teacher), the lesson and its keeper."""

    stored: StoredLesson
    lesson: Lesson
    keeper: Keeper


Factory = Callable[[Restored], Awaitable[H]]


@dataclass(frozen=True, slots=True)
class NoLesson:
    """No open lesson has this code (never had, or ended): a page that is not there."""

    code: str


@dataclass(frozen=True, slots=True)
class Busy:
    """Another process serves the lesson and was asked to hand it over (or the lease cannot
    be asked for now): answer 503 with ``Retry-After`` and the pupil's page tries again."""

    code: str
    retry_after: int = RETRY_AFTER_SECONDS


@dataclass(slots=True)
class _Held(Generic[H]):
    host: H
    lesson_id: int
    used: float  # the clock when it was last asked for
    taken: float  # the clock when this process took it


@dataclass(slots=True)
class _CodeLock:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


def _fenced(lesson: Lesson) -> None:
    """A lesson let go takes no more changes here: a page that still held it is told to try
    again (and reaches the lesson where it is served now)."""

    async def refuse(*_: object) -> None:
        raise Refused("table.error.storage", 503)

    lesson.saver, lesson.game_saver = refuse, refuse


class Hosts(Generic[H]):
    """This process's lessons by code (see the module's docstring). The caller owns ``store``
    and ``leases`` (it closes them after `close_all`)."""

    def __init__(
        self,
        store: LessonStore,
        leases: Leases,
        factory: Factory[H],
        *,
        clock: Clock = time.monotonic,
        wall: Wall = time.time,
        seeds: Callable[[], int] | None = None,
        quiet_minutes: float = QUIET_MINUTES,
        idle_hours: float = IDLE_HOURS,
        keep_days: int = DEFAULT_KEEP_DAYS,
        sweep_seconds: float = SWEEP_SECONDS,
        hold_seconds: float = HOLD_SECONDS,
    ) -> None:
        self.store = store
        self.leases = leases
        self.factory = factory
        self.clock = clock
        self.wall = wall
        self.seeds = seeds
        self.quiet = quiet_minutes * 60
        self.idle_ms = round(idle_hours * 3_600_000)
        self.keep_ms = keep_days * DAY_MS
        self.sweep_seconds = sweep_seconds
        self.hold = hold_seconds
        self._hosts: dict[str, _Held[H]] = {}
        self._codes: dict[int, str] = {}  # lesson id -> code, of the lessons held or opening
        self._locks: dict[str, _CodeLock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeping: asyncio.Task[None] | None = None
        self._closed = False
        leases.watch(handover=self._asked, lost=self._lost)

    # -- asking for a lesson -----------------------------------------------------------------

    @property
    def codes(self) -> frozenset[str]:
        """The codes of the lessons served here now."""
        return frozenset(self._hosts)

    async def get(self, code: str) -> H | NoLesson | Busy:
        """The host of the lesson with this code, served here from now on if it was not."""
        held = self._hosts.get(code)
        if held is not None and not held.host.lesson.ended:
            held.used = self.clock()
            return held.host
        async with self._code(code):
            held = self._hosts.get(code)
            if held is not None and held.host.lesson.ended:
                # an ended lesson's code may be a newer lesson's now: looked up afresh
                await self._let_go(code, save=True)
                held = None
            if held is not None:
                held.used = self.clock()
                return held.host
            if self._closed:
                return Busy(code)
            return await self._open(code)

    async def _open(self, code: str) -> H | NoLesson | Busy:
        lesson_id = await self.store.open_lesson_by_code(code)
        if lesson_id is None:
            return NoLesson(code)
        self._codes[lesson_id] = code
        try:
            try:
                if not await self.leases.take(lesson_id):
                    return Busy(code)
                fence = self.leases.fence(lesson_id)
            except LeaseError as exc:
                log.warning("lesson %s cannot be served now: %s", code, exc)
                return Busy(code)
            return await self._restore(code, lesson_id, fence)
        finally:
            if code not in self._hosts:
                self._codes.pop(lesson_id, None)

    async def _restore(
        self, code: str, lesson_id: int, fence: LeaseFence | None
    ) -> H | NoLesson | Busy:
        try:
            stored = await self.store.load_lesson(lesson_id)
            if stored.info.status != "open" or stored.code != code:
                await self._release(lesson_id)  # ended (or deleted) while we looked it up
                return NoLesson(code)
            lesson, keeper = restore(
                stored, self.store, self.clock, key=None, keep_ms=self.keep_ms,
                wall=self.wall, seeds=self.seeds, fence=fence,
            )  # fmt: skip
            host = await self.factory(Restored(stored, lesson, keeper))
        except NotFoundError:
            await self._release(lesson_id)
            return NoLesson(code)
        except BaseException:
            await self._release(lesson_id)
            raise
        if lesson_id not in self.leases.held:  # lost while it was being restored
            _fenced(lesson)
            await host.close()
            return Busy(code)
        host.start()
        now = self.clock()
        self._hosts[code] = _Held(host, lesson_id, now, now)
        return host

    # -- letting go ----------------------------------------------------------------------------

    async def drop(self, code: str) -> None:
        """Save the lesson, close its connections and release it (it stays open in storage:
        the next request brings it back, here or in another process)."""
        async with self._code(code):
            await self._let_go(code, save=True)

    async def discard(self, code: str) -> None:
        """Let the lesson go without saving it: a write of it failed, so what it holds in
        memory may be ahead of the database, and only what the database holds was ever
        acknowledged. The next request brings the lesson back from there, so the change
        whose write failed (its device told to try again) changes nothing."""
        async with self._code(code):
            await self._let_go(code, save=False)

    async def _let_go(self, code: str, *, save: bool) -> None:
        """(The code's lock held.)"""
        held = self._hosts.pop(code, None)
        if held is None:
            return
        self._codes.pop(held.lesson_id, None)
        lesson = held.host.lesson
        try:
            await held.host.close()  # its clock first: no tick runs into the fence
        finally:
            try:
                async with lesson.lock:  # a press under way is committed (or refused) whole
                    if save and held.lesson_id in self.leases.held:  # (lost: not ours to save)
                        await self._save(code, lesson)
                    _fenced(lesson)
            finally:
                await self._release(held.lesson_id)

    @staticmethod
    async def _save(code: str, lesson: Lesson) -> None:
        try:
            await lesson.save()
        except (StorageError, Refused) as exc:  # every press was committed already
            log.warning("lesson %s: its last save failed: %s", code, exc)

    async def _release(self, lesson_id: int) -> None:
        with suppress(LeaseError):  # the connection is gone: so is the lease
            await self.leases.release(lesson_id)

    def _asked(self, lesson_id: int) -> None:
        """Another process was refused a lesson held here (see the module's docstring)."""
        code = self._codes.get(lesson_id)
        if code is None:  # a lease held without a lesson (a first request cancelled midway)
            self._spawn(self._release(lesson_id))
            return
        held = self._hosts.get(code)
        if held is not None and self.clock() - held.taken < self.hold:
            return  # taken just now: kept a moment (`HOLD_SECONDS`); the asker asks again
        log.info("lesson %s: handed over to the process that asked for it", code)
        self._spawn(self.drop(code))

    def _lost(self) -> None:
        """Every lease is gone: another process may serve these lessons already, so nothing
        more of them is saved here; each is fenced now and closed soon."""
        if self._hosts:
            log.warning("the leases are lost: %d lesson(s) let go", len(self._hosts))
        dropped = list(self._hosts.values())
        self._hosts.clear()
        self._codes.clear()
        for held in dropped:
            _fenced(held.host.lesson)
            self._spawn(held.host.close())

    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await work
            except (StorageError, Refused, OSError) as exc:
                log.warning("letting a lesson go failed: %s", exc)

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settled(self) -> None:
        """Until every handover and close under way has finished (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # -- the sweep -------------------------------------------------------------------------------

    def start(self) -> None:
        """Sweep every `sweep_seconds` while the server runs."""
        if self._sweeping is None:
            self._sweeping = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                await self.sweep()
            except StorageError as exc:  # the database is away: the next sweep tries again
                log.warning("the sweep of lessons failed: %s", exc)

    def quiet_codes(self) -> list[str]:
        """The lessons nobody asked for in `quiet` and no page is connected to (a page left
        connected keeps its lesson for as long as `idle`, no longer)."""
        now = self.clock()
        quiet = []
        for code, held in self._hosts.items():
            since = now - held.used
            hub = held.host.hub
            connected = bool(hub.teachers) or any(hub.pupils.values())
            if held.host.lesson.ended or (
                since >= self.quiet and (not connected or since * 1000 >= self.idle_ms)
            ):
                quiet.append(code)
        return quiet

    async def sweep(self) -> None:
        """Let the quiet lessons go, end the idle ones, delete those past their retention."""
        for code in self.quiet_codes():
            await self.drop(code)
        now = round(self.wall() * 1000)
        before = now - self.idle_ms
        for lesson_id, code in await self.store.idle_lessons(before):
            async with self._code(code):  # no first request restores it while it ends
                if lesson_id in self._codes:
                    continue  # served here: in use, whatever its last change
                try:
                    if not await self.leases.take(lesson_id, ask=False):
                        continue  # another process serves it: in use there
                    fence = self.leases.fence(lesson_id)
                except LeaseError:
                    return
                try:
                    await self.store.end_idle_lesson(lesson_id, before, self.keep_ms,
                                                     fence=fence)  # fmt: skip
                except LeaseLostError:  # taken over meanwhile: in use there
                    continue
                finally:
                    await self._release(lesson_id)
        await self.store.purge_lessons(now)

    async def close_all(self) -> None:
        """At shutdown: every lesson saved and released (still open: another process, or
        this one started again, brings each back on its next request)."""
        self._closed = True
        sweeping, self._sweeping = self._sweeping, None
        if sweeping is not None:
            sweeping.cancel()
            with suppress(asyncio.CancelledError):
                await sweeping
        for code in list(self._hosts):
            await self.drop(code)
        await self.settled()

    # -- one lock per code -----------------------------------------------------------------------

    @asynccontextmanager
    async def _code(self, code: str) -> AsyncIterator[None]:
        entry = self._locks.setdefault(code, _CodeLock())
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0:
                self._locks.pop(code, None)


__all__ = [
    "IDLE_HOURS",
    "QUIET_MINUTES",
    "RETRY_AFTER_SECONDS",
    "Busy",
    "Factory",
    "Host",
    "Hosts",
    "NoLesson",
    "Restored",
]
