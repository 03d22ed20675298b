"""Time-based snowflakes, because discord.py derives creation and expiry times from ids."""

from __future__ import annotations

from .clock import FakeClock

DISCORD_EPOCH_MS = 1_420_070_400_000


def snowflake_time(snowflake: int) -> float:
    """The Unix time (seconds) encoded in a snowflake."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


class SnowflakeFactory:
    """Mints unique, increasing snowflakes whose timestamp is the fake clock's ``now``.

    A frozen clock would mint the same millisecond many times; the increment field (12 bits)
    keeps them unique and the timestamp is nudged forward when it overflows, so ids always grow.
    """

    def __init__(self, clock: FakeClock, *, worker: int = 1) -> None:
        self._clock = clock
        self._worker = worker & 0x1F
        self._last_ms = 0
        self._increment = 0
        self._backdated = 0

    def at(self, unix_seconds: float) -> int:
        """A fresh snowflake stamped with ``unix_seconds`` (used for back-dated interactions)."""
        ms = int(unix_seconds * 1000) - DISCORD_EPOCH_MS
        self._backdated = (self._backdated + 1) & 0xFFF
        return (ms << 22) | (self._worker << 17) | (1 << 12) | self._backdated

    def next(self) -> int:
        """A fresh snowflake stamped with the fake clock's current time, larger than the last."""
        ms = max(int(self._clock.now() * 1000) - DISCORD_EPOCH_MS, self._last_ms)
        if ms == self._last_ms:
            self._increment += 1
            if self._increment > 0xFFF:
                ms += 1
                self._increment = 0
        else:
            self._increment = 0
        self._last_ms = ms
        return (ms << 22) | (self._worker << 17) | self._increment
