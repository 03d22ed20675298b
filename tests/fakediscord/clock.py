"""The fake's clock: Discord's time limits (3 s to answer, 15 min per token) measured on it.

Tests can jump it forward instead of sleeping, so the time rules stay fast to prove. By default
it follows real time plus an offset, because a bot that really is slow should fail as it would on
Discord; ``frozen=True`` makes it move only when advanced, for fully deterministic tests.

What a time limit counts (`FakeClock.elapsed`): real time less the time the machine kept the
test's processes waiting for a CPU. On a shared machine a process can sit ready to run for a
second or more while others run (measured on a two-core machine at load 11: half of a press's
answer time was the loop thread waiting for a CPU). That wait is the neighbours', not the bot's:
it is not counted. Everything the bot does is: its code running, its database's fsync, its
sleeps, its threads waiting for the interpreter's lock. Where the system does not say how long
a thread waited (not Linux), nothing is taken off: plain real time, as before.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable

Mark = tuple[float, dict[str, float]]  # a time and the CPU waits then (FakeClock.mark)


def _waited(stat: str) -> float | None:
    """Seconds a thread has waited on a run queue, from its ``schedstat`` file (Linux)."""
    try:
        with open(stat, encoding="ascii") as source:
            return int(source.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


class CpuWaits:
    """How long the threads that answer for a test's time waited for a CPU: the calling thread
    (the test's event loop: the fake and an in-process bot) and the main thread of each bot
    process being watched. Two snapshots give, per thread, the wait between them; the largest
    of those is what is taken off (never the sum: the threads may have waited side by side)."""

    def __init__(self) -> None:
        self._processes: set[int] = set()

    def watch(self, pid: int) -> None:
        """Count the wait of this bot process's main thread (its event loop) too."""
        self._processes.add(pid)

    def forget(self, pid: int) -> None:
        self._processes.discard(pid)

    def _files(self) -> Iterable[tuple[str, str]]:
        thread = threading.get_native_id()  # a mark read on another thread shares no key
        yield f"thread {thread}", f"/proc/self/task/{thread}/schedstat"
        for pid in sorted(self._processes):
            yield f"process {pid}", f"/proc/{pid}/schedstat"

    def snapshot(self) -> dict[str, float]:
        found = {}
        for key, stat in self._files():
            waited = _waited(stat)
            if waited is not None:
                found[key] = waited
        return found

    def since(self, before: dict[str, float]) -> float:
        """Seconds of CPU wait since ``before`` (the largest per thread; a thread that ended or
        was not there then counts nothing)."""
        now = self.snapshot()
        return max((now[k] - v for k, v in before.items() if k in now), default=0.0)


class FakeClock:
    """Seconds since the Unix epoch, as the fake Discord server sees them."""

    def __init__(
        self, *, frozen: bool = False, start: float | None = None, waits: CpuWaits | None = None
    ) -> None:
        self._frozen = frozen
        self._start = time.time() if start is None else start
        self._real_start = time.monotonic()
        self._offset = 0.0
        self.waits = CpuWaits() if waits is None else waits

    def mark(self) -> Mark:
        """Now, for a time limit that starts now (see `elapsed`)."""
        return self.now(), ({} if self._frozen else self.waits.snapshot())

    def elapsed(self, mark: Mark) -> float:
        """Seconds since ``mark`` as a time limit counts them: the clock's seconds less the time
        the test's threads waited for a CPU meanwhile (that wait is part of the real time that
        passed, so time added with `advance` is always counted whole)."""
        at, waits = mark
        waited = 0.0 if self._frozen or not waits else self.waits.since(waits)
        return self.now() - at - waited

    @property
    def frozen(self) -> bool:
        """Whether the clock moves only when :meth:`advance` is called."""
        return self._frozen

    def now(self) -> float:
        """The current fake time, in Unix seconds."""
        elapsed = 0.0 if self._frozen else time.monotonic() - self._real_start
        return self._start + elapsed + self._offset

    def freeze(self) -> None:
        """Stop following real time here: from now on only :meth:`advance` moves the clock
        (a test of rate-limit windows must not see them pass while the machine is busy)."""
        self._start, self._offset = self.now(), 0.0
        self._frozen = True

    def advance(self, seconds: float) -> None:
        """Jump forward, e.g. ``advance(15 * 60)`` to expire every interaction token."""
        if seconds < 0:
            raise ValueError("the fake clock never goes back")
        self._offset += seconds
