"""Leases: a lesson is served by one process at a time.

A school server runs several processes (on several machines) over one database; a lesson's
state lives in the memory of the process serving it, so two processes serving the same
lesson would each accept presses the other never sees. Before a process brings a lesson back
from storage it takes the lesson's lease; it serves the lesson only while it holds it.

What a lease promises, on every backend:

* `take` is refused while another process holds the lesson (and, where processes can talk,
  asks the holder to hand it over: the holder is told through ``handover``);
* a process that dies loses its leases at once, whatever killed it (kill -9 too), because
  the database or the kernel releases them, never a timeout of ours;
* a process that can no longer be sure it holds its leases (its lease connection is gone) is
  told through ``lost`` and must drop every lesson it serves: another may take them now;
* where a process can lose its leases without knowing it at once (PostgreSQL: a silent
  network), a lease gives a `LeaseFence` that its lesson's writes carry, so a write made
  after the lease is gone is refused by the database itself (`storage.lessons`).

Two implementations: PostgreSQL session advisory locks on one connection a process keeps for
its leases (`storage.postgres.leases`), and, for SQLite (one server process on one file),
a lock on a side file that refuses a second process on the same database (`FileLeases`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Protocol
from urllib.parse import urlsplit

from storage.errors import LeaseError
from storage.records.lessons import LeaseFence

log = logging.getLogger(__name__)

Handover = Callable[[int], None]
Lost = Callable[[], None]


class Leases(Protocol):
    """A process's leases of lessons (by lesson id)."""

    @property
    def held(self) -> frozenset[int]:
        """The lessons this process holds now."""
        ...

    def watch(self, *, handover: Handover, lost: Lost) -> None:
        """Who to tell (on the event loop, synchronously: they may not await) when another
        process asks for a lesson held here, and when every lease is lost at once."""
        ...

    async def take(self, lesson_id: int, *, ask: bool = True) -> bool:
        """True: this process holds the lesson (taking it again is harmless). False: another
        process holds it, and (``ask``) it was asked to hand it over. LeaseError: cannot tell
        now (the lease connection is down)."""
        ...

    def fence(self, lesson_id: int) -> LeaseFence | None:
        """What the lesson's writes carry to be stored only while this lease holds (None:
        nothing to check, the lease cannot be lost unnoticed). LeaseError: not held."""
        ...

    async def release(self, lesson_id: int) -> None:
        """Let another process take the lesson (a lesson not held: nothing happens)."""
        ...

    async def close(self) -> None:
        """Release every lease; safe to call twice."""
        ...


class FileLeases:
    """SQLite's leases: one server process per database file.

    SQLite has no sessions to hold a lock for a process, and a school server on SQLite is
    one process on one machine, so the lease is the whole file's: the first lesson taken
    takes an exclusive ``flock`` on ``<database>.lease`` for as long as this object lives,
    and a second process on the same file is refused every lesson. The kernel releases a
    flock when its process dies, however it dies. (A flock belongs to its open file, not to
    the process, so two of these in one process refuse each other too, as two processes do.)
    An in-memory database cannot be opened by another process: its leases are always ours.
    Nobody can be asked to hand over and nothing is ever lost, so the callbacks never run.
    """

    def __init__(self, path: str | None) -> None:
        self.path = None if path in (None, ":memory:") else f"{path}.lease"
        self._fd: int | None = None
        self._held: set[int] = set()
        self._closed = False

    @property
    def held(self) -> frozenset[int]:
        return frozenset(self._held)

    def watch(self, *, handover: Handover, lost: Lost) -> None:
        """Nothing to watch: see the class's docstring."""

    async def take(self, lesson_id: int, *, ask: bool = True) -> bool:
        if self._closed:
            raise LeaseError("the leases are closed")
        if lesson_id not in self._held:
            if not self._own_file():
                return False
            self._held.add(lesson_id)
        return True

    def _own_file(self) -> bool:
        if self.path is None or self._fd is not None:
            return True
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            import fcntl  # POSIX only: Windows has no flock, and imports this module too

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            log.warning("another process serves the lessons of %s: refused", self.path)
            return False
        self._fd = fd
        return True

    def fence(self, lesson_id: int) -> LeaseFence | None:
        """None: a flock is lost only with its process, so a write needs no fence."""
        if lesson_id not in self._held:
            raise LeaseError(f"lesson {lesson_id} is not held by this process")
        return None

    async def release(self, lesson_id: int) -> None:
        self._held.discard(lesson_id)

    async def close(self) -> None:
        self._closed = True
        self._held.clear()
        if self._fd is not None:
            os.close(self._fd)  # closing the file releases the flock
            self._fd = None


async def open_leases(target: str) -> Leases:
    """The leases for the database at ``target`` (a PostgreSQL URL, a SQLite file or
    ``:memory:``), as `bot.config`/`table.cli` name databases."""
    if urlsplit(target).scheme in ("postgresql", "postgres"):  # psycopg only when needed
        from storage.postgres.leases import PgLeases

        return await PgLeases.open(target)
    return FileLeases(target)


__all__ = [
    "FileLeases",
    "Handover",
    "LeaseError",
    "LeaseFence",
    "Leases",
    "Lost",
    "open_leases",
]
