"""The fake's clock: Discord's time limits (3 s to answer, 15 min per token) measured on it.

Tests can jump it forward instead of sleeping, so the time rules stay fast to prove. By default
it follows real time plus an offset, because a bot that really is slow should fail as it would on
Discord; ``frozen=True`` makes it move only when advanced, for fully deterministic tests.
"""

from __future__ import annotations

import time


class FakeClock:
    """Seconds since the Unix epoch, as the fake Discord server sees them."""

    def __init__(self, *, frozen: bool = False, start: float | None = None) -> None:
        self._frozen = frozen
        self._start = time.time() if start is None else start
        self._real_start = time.monotonic()
        self._offset = 0.0

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
