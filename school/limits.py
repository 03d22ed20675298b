"""How fast a shared server lets anyone change things.

A lesson on a teacher's laptop has one class; a school's server has every class of the
hour, so one pupil's script (or a stuck key) must not slow the lessons beside it. Every
change (a POST: a press, a join, a teacher's control) is counted in two buckets:

* **the device's own** (its seat's cookie in that lesson, else the lesson door's or the front
  page's mark, else a signed-in teacher's session, else its address): a pupil presses a few
  times a second at the most, so `DEVICE_RATE` a second with a burst of `DEVICE_BURST` never
  holds back a pupil and stops a loop at once;
* **the lesson's** (`LESSON_RATE`, burst `LESSON_BURST`): 30 devices pressing together fit
  with room to spare, a flood into one lesson stays in that lesson.

A school shares one address behind its network's NAT, so nothing is counted by address when
a device is known. A change refused here is a localised 429 with ``Retry-After``, before it
reaches the lesson (it changes nothing). Reading pages and the live connection are not
counted: a page costs no write.

The wrong codes typed at the front page and at a lesson's door have their own, stricter
guard (`table.joining`).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

DEVICE_RATE = 5.0  # changes a second, per device
DEVICE_BURST = 15.0
LESSON_RATE = 60.0  # changes a second, per lesson
LESSON_BURST = 150.0
MAX_KEYS = 20_000  # buckets remembered; beyond, the least recently used are forgotten


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


class Buckets:
    """Token buckets by key, the least recently used forgotten beyond `MAX_KEYS` (a forgotten
    key starts full, which only ever lets a device more, never less)."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float], max_keys: int = MAX_KEYS
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def wait(self, key: str) -> float:
        """Seconds until `key` may change something (0: now), without taking a token."""
        bucket = self._fill(key)
        return 0.0 if bucket.tokens >= 1 else (1 - bucket.tokens) / self.rate

    def take(self, key: str) -> None:
        self._fill(key).tokens -= 1

    def _fill(self, key: str) -> _Bucket:
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(self.burst, now)
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
            bucket.at = now
        return bucket


class ChangeLimits:
    """The two buckets every change passes: its device's and its lesson's."""

    def __init__(
        self,
        clock: Callable[[], float],
        device_rate: float = DEVICE_RATE,
        lesson_rate: float = LESSON_RATE,
    ) -> None:
        """The rates are the server's settings (`RateLimits`); each burst stays as many
        seconds of its rate as the defaults give (3 s a device, 2.5 s a lesson)."""
        self.devices = Buckets(device_rate, device_rate * DEVICE_BURST / DEVICE_RATE, clock)
        self.lessons = Buckets(lesson_rate, lesson_rate * LESSON_BURST / LESSON_RATE, clock)

    def admit(self, lesson: str, device: str) -> int:
        """0 when the change may go on (its tokens taken), else the whole seconds to wait."""
        device_key = f"{lesson}\x00{device}"
        wait = max(self.devices.wait(device_key), self.lessons.wait(lesson))
        if wait > 0:
            return max(1, math.ceil(wait))
        self.devices.take(device_key)
        self.lessons.take(lesson)
        return 0
