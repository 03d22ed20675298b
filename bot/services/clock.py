"""Time, injected: services ask a `Clock`, so tests can move time instead of sleeping
(`tests.bot.clock.FakeClock`)."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> int:
        """Milliseconds since the Unix epoch (the unit storage uses for every time)."""
        ...


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000
