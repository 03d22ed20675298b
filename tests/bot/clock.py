"""A clock the tests move by hand: services and the bot take any `bot.services.clock.Clock`."""

from __future__ import annotations


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self, start_ms: int = 1_767_225_600_000) -> None:
        self.ms = start_ms

    def now_ms(self) -> int:
        return self.ms

    def advance(self, seconds: float) -> None:
        self.ms += int(seconds * 1000)
