"""What most services hold: the storage they read and write through (a protocol of
`storage.contract`, never a backend) and the clock they ask the time."""

from __future__ import annotations

from typing import Generic, TypeVar

from bot.services.clock import Clock

S = TypeVar("S")


class StoredService(Generic[S]):
    def __init__(self, storage: S, clock: Clock) -> None:
        self.storage = storage
        self.clock = clock
