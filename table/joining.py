"""How often the lesson's code may be guessed.

The code has six digits; unchecked, a script tries them all in minutes. So:

* **a device waits** after a few wrong codes (`FREE_WRONG`), longer after each further one
  (2 s, 4 s, 8 s … at most `LONGEST_WAIT`); a device is the browser's visitor cookie, given
  by the join page, so one pupil's typos never hold back the pupil beside them on the same
  school address. A request without the cookie (a script) counts as its address's device.
* **the server checks at most `RATE` wrong codes a second in all**, from three buckets of
  tries: browsers that opened the join page a while before (`RIPE` seconds: a pupil reads
  the code off the board and types a name), browsers that opened it just now, and requests
  without the join page's mark (a script). A flood from a script, or from a script that
  fetches a fresh join page before every try, empties its own bucket only: a pupil with the
  right code still gets in at once. A try that finds its bucket empty is refused (429)
  before its code is compared, so a refused try tells nothing about the code.

The join page's mark is signed with the running server's own key and says when it was
given, so a script cannot make up marks, nor old ones (after a restart the join page gives a
new one). A school server's front page is answered by any of its processes, so its guard is
given a key every process shares and dates its marks by the wall clock: a mark one process
gave is recognised by the others. (A script that collects join pages in bulk and
waits can still make the pupils wait some seconds; it cannot guess any faster.)

A right code costs nothing: a class of 32 joining at once is never slowed.

Refusals come in bursts (a flood, a pupil's typos): each burst is logged once for the
operator, when it begins, with the count of the one before; never a name or a code typed.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import secrets
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from table.games import Clock
from table.press import Refused

log = logging.getLogger(__name__)

Lane = Literal["ripe", "fresh", "none"]
RATE = 10.0  # wrong codes checked a second, in all
# Each bucket's share of them, and its burst (a class typing at once; a script from nowhere).
SHARE: dict[Lane, float] = {"ripe": 4.0, "fresh": 3.0, "none": 3.0}
BURST: dict[Lane, float] = {"ripe": 12.0, "fresh": 3.0, "none": 3.0}
RIPE = 2.0  # seconds from opening the join page to a try that is a pupil's, not a script's
MARK_LIFE = 12 * 3600.0
FREE_WRONG = 3  # wrong codes a device may type before it waits
FIRST_WAIT = 2.0
LONGEST_WAIT = 60.0
FORGET = 15 * 60.0  # a device's tries are forgotten after this long without one
QUIET = 10.0  # seconds without a refusal end a burst
MAX_DEVICES = 10_000  # devices remembered; beyond, the oldest are forgotten


@dataclass
class _Bucket:
    rate: float
    burst: float
    tokens: float
    at: float

    def fill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def wait(self) -> float:
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate


@dataclass
class _Tries:
    wrong: int = 0
    until: float = 0.0  # may try again from then on
    last: float = 0.0


@dataclass
class _Bursts:
    """One log line per burst of refusals."""

    started: float | None = None
    last: float = 0.0
    kinds: Counter[str] = field(default_factory=Counter)

    def note(self, kind: str, now: float) -> None:
        if self.started is None or now - self.last > QUIET:
            before = ""
            if self.started is not None:
                total = sum(self.kinds.values())
                parts = ", ".join(f"{k} {n}" for k, n in sorted(self.kinds.items()))
                took = self.last - self.started
                before = f" (the burst before: {total} refused in {took:.0f} s: {parts})"
            log.warning(
                "lesson: joins are being refused (%s); this burst is logged once%s",
                kind,
                before,
            )
            self.started = now
            self.kinds = Counter()
        self.kinds[kind] += 1
        self.last = now


class JoinGuard:
    """See the module's docstring. ``key``: what marks are signed with (default: this
    process's own); ``rate``: wrong codes checked a second in all, shared by the buckets as
    `SHARE` shares `RATE`; ``marks``: the clock marks are dated by (default ``clock``; the
    wall clock where another process must read a mark's age)."""

    def __init__(
        self,
        clock: Clock,
        *,
        key: bytes | None = None,
        rate: float = RATE,
        marks: Clock | None = None,
    ) -> None:
        if not rate > 0:
            raise ValueError(f"a rate of wrong codes must be above 0, not {rate}")
        self.clock = clock
        self.marks = clock if marks is None else marks
        now = clock()
        self.key = secrets.token_bytes(32) if key is None else key
        self.buckets = {
            lane: _Bucket(SHARE[lane] * rate / RATE, BURST[lane], BURST[lane], now)
            for lane in SHARE
        }
        self.devices: dict[str, _Tries] = {}
        self.bursts = _Bursts()
        self.checked_wrong = 0  # wrong codes compared so far (the measurement reads it)

    def _sign(self, text: str) -> str:
        return hmac.new(self.key, text.encode(), hashlib.sha256).hexdigest()[:32]

    def mark(self) -> str:
        """The join page's mark for a browser: when it was given, a nonce, the signature."""
        text = f"{self.marks():.3f}.{secrets.token_hex(8)}"
        return f"{text}.{self._sign(text)}"

    def visitor(self, mark: str | None, address: str) -> tuple[str, Lane]:
        """Whose tries a join is, and its bucket: the mark's browser (ripe once it opened
        the join page `RIPE` seconds ago), else the address (a script that keeps no mark)."""
        given, nonce, signature = [".", ".", ".", *(mark or "").rsplit(".", 2)][-3:]
        try:
            at = float(given)
        except ValueError:
            return f"address:{address}", "none"
        age = self.marks() - at
        if not hmac.compare_digest(signature, self._sign(f"{given}.{nonce}")) or not (
            0 <= age <= MARK_LIFE
        ):
            return f"address:{address}", "none"
        return f"mark:{nonce}", "ripe" if age >= RIPE else "fresh"

    def before(self, device: str, lane: Lane) -> None:
        """Raises a 429 refusal when this try may not be checked now: the device waits,
        or its bucket is empty."""
        now = self.clock()
        tries = self.devices.get(device)
        if tries is not None and tries.until > now:
            self.refused("wait", now)
            raise Refused("lesson.error.wait", 429, count=math.ceil(tries.until - now))
        bucket = self.buckets[lane]
        bucket.fill(now)
        if bucket.tokens < 1:
            self.refused("busy", now)
            raise Refused("lesson.error.busy", 429, count=max(1, math.ceil(bucket.wait())))

    def wrong(self, device: str, lane: Lane) -> None:
        """A wrong code was checked: it costs its bucket a try and its device a free one."""
        now = self.clock()
        self.checked_wrong += 1
        self.buckets[lane].tokens -= 1
        tries = self.devices.pop(device, None) or _Tries()
        if now - tries.last > FORGET:
            tries = _Tries()
        tries.wrong += 1
        tries.last = now
        if tries.wrong >= FREE_WRONG:
            tries.until = now + min(LONGEST_WAIT, FIRST_WAIT * 2 ** (tries.wrong - FREE_WRONG))
        self.devices[device] = tries  # the newest last: the oldest go first
        for oldest in list(self.devices):
            if len(self.devices) <= MAX_DEVICES and now - self.devices[oldest].last <= FORGET:
                break
            del self.devices[oldest]
        self.refused("code", now)

    def right(self, device: str) -> None:
        self.devices.pop(device, None)

    def refused(self, kind: str, now: float | None = None) -> None:
        """A join refused (any kind: a wrong code, a name, a full or closed lesson)."""
        self.bursts.note(kind, self.clock() if now is None else now)
