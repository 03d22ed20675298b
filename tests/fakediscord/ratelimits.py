"""Discord's rate limits as a bot sees them: per-route buckets, the global limit, and 429.

Off by default. discord.py obeys the ``X-RateLimit-*`` headers by sleeping *real* seconds
(after a bucket's fifth message edit it waits out the window before sending the sixth), so
buckets in every test would make the ordinary suite sleep; a test that is about rate limits
turns them on with ``fake.rate_limits.enable()``.

The windows are measured on the fake's clock. A test may jump it forward instead of waiting
(``fake.clock.advance(4.9)`` leaves a tenth of a second of a five-second window), which is
faithful: what the bot is told is always the time left by that clock, and what it does with
it (sleep ``retry_after``, retry) is its own unmodified code.

Modelled, from :data:`.limits.LIMITS`: the global 50 requests a second of every bot-token route
(interaction callbacks and interaction webhooks are not bound to it, as Discord documents), a
channel's message sends and edits, 5 per 5 s each, and an interaction's webhook: its followups,
its message edits (``@original`` is one more message id of the same route) and its deletes,
5 per 2 s each, counted apart for every interaction token. Each bucket's ``X-RateLimit-Bucket``
is the same for every channel or token, as Discord's hash leaves the top-level resource out.
Routes without a modelled bucket (the interaction callback, ``GET`` of a message) answer
without per-route headers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from .clock import FakeClock
from .limits import (
    CHANNEL_EDITS_PER_5S,
    CHANNEL_SENDS_PER_5S,
    GLOBAL_REQUESTS_PER_SECOND,
    INTERACTION_WEBHOOK_REQUESTS,
    INTERACTION_WEBHOOK_WINDOW,
)

SEND = ("POST", "/channels/{channel_id}/messages")
EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
WEBHOOK = "/webhooks/{webhook_id}/{webhook_token}"
FOLLOWUP = ("POST", WEBHOOK)
WEBHOOK_MESSAGES = (f"{WEBHOOK}/messages/@original", f"{WEBHOOK}/messages/{{message_id}}")


@dataclass(frozen=True)
class BucketRule:
    """``limit`` requests per ``per`` seconds, counted apart for each value of the ``major``
    path parameters (the top-level resource, as Discord counts them: a channel, or a webhook
    with its token); ``name`` is the bucket's hash, shared by every route that names it."""

    name: str
    limit: int
    per: float
    major: tuple[str, ...]

    def key(self, params: Mapping[str, str]) -> str:
        """Which of this bucket's windows a request with these path parameters counts in."""
        return "/".join(params.get(name, "") for name in self.major)


@dataclass
class Window:
    """One bucket's current window: requests counted since ``started``."""

    started: float
    used: int = 0


@dataclass
class Verdict:
    """What the limiter says about one request: the headers to send, and whether it is 429."""

    headers: dict[str, str] = field(default_factory=dict)
    retry_after: float | None = None
    is_global: bool = False

    @property
    def limited(self) -> bool:
        return self.retry_after is not None

    def body(self) -> dict[str, object]:
        """Discord's 429 body."""
        return {
            "message": "You are being rate limited.",
            "retry_after": self.retry_after,
            "global": self.is_global,
            "code": 0,
        }


def _interaction_webhook(name: str) -> BucketRule:
    return BucketRule(
        name,
        INTERACTION_WEBHOOK_REQUESTS,
        INTERACTION_WEBHOOK_WINDOW,
        ("webhook_id", "webhook_token"),
    )


_WEBHOOK_EDIT = _interaction_webhook("interaction-webhook-edit")
_WEBHOOK_DELETE = _interaction_webhook("interaction-webhook-delete")

BUCKETS: dict[tuple[str, str], BucketRule] = {
    SEND: BucketRule("channel-message-send", CHANNEL_SENDS_PER_5S, 5.0, ("channel_id",)),
    EDIT: BucketRule("channel-message-edit", CHANNEL_EDITS_PER_5S, 5.0, ("channel_id",)),
    FOLLOWUP: _interaction_webhook("interaction-webhook-send"),
    **{("PATCH", route): _WEBHOOK_EDIT for route in WEBHOOK_MESSAGES},
    **{("DELETE", route): _WEBHOOK_DELETE for route in WEBHOOK_MESSAGES},
}
GLOBAL = BucketRule("global", GLOBAL_REQUESTS_PER_SECOND, 1.0, ())


class RateLimits:
    """The fake's limiter (``fake.rate_limits``): off until :meth:`enable`."""

    def __init__(self, clock: FakeClock) -> None:
        self._clock = clock
        self.enabled = False
        self.buckets = dict(BUCKETS)
        self.global_rule = GLOBAL
        self._windows: dict[tuple[str, str], Window] = {}
        self.limited: list[tuple[str, str, float]] = []  # (method, route, retry_after) answered 429

    def enable(self) -> None:
        """Count requests from now on (every window starts empty)."""
        self.enabled = True
        self._windows.clear()

    def disable(self) -> None:
        self.enabled = False

    def _window(self, rule: BucketRule, key: str, now: float) -> Window:
        window = self._windows.get((rule.name, key))
        if window is None or now >= window.started + rule.per:
            window = Window(now)
            self._windows[(rule.name, key)] = window
        return window

    def check(
        self, method: str, route: str, params: Mapping[str, str], *, bot_token: bool
    ) -> Verdict:
        """Count one request (unless it is refused) and say what Discord would answer."""
        if not self.enabled:
            return Verdict()
        now = self._clock.now()
        everything = self._window(self.global_rule, "", now) if bot_token else None
        if everything is not None and everything.used >= self.global_rule.limit:
            wait = everything.started + self.global_rule.per - now
            verdict = Verdict(_limited_headers(wait, scope="global"), wait, is_global=True)
            verdict.headers["X-RateLimit-Global"] = "true"
            self.limited.append((method, route, wait))
            return verdict
        rule = self.buckets.get((method, route))
        if rule is None:
            if everything is not None:
                everything.used += 1
            return Verdict()
        window = self._window(rule, rule.key(params), now)
        reset_after = window.started + rule.per - now
        if window.used >= rule.limit:
            headers = _limited_headers(reset_after, scope="user")
            headers.update(_bucket_headers(rule, 0, reset_after, now))
            self.limited.append((method, route, reset_after))
            return Verdict(headers, reset_after)
        window.used += 1
        if everything is not None:
            everything.used += 1
        return Verdict(_bucket_headers(rule, rule.limit - window.used, reset_after, now))


def _bucket_headers(
    rule: BucketRule, remaining: int, reset_after: float, now: float
) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(rule.limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{now + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": rule.name,
    }


def _limited_headers(retry_after: float, *, scope: str) -> dict[str, str]:
    # discord.py retries a 429 only when it carries Via (else it reads it as Cloudflare's ban).
    return {
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "X-RateLimit-Scope": scope,
        "Via": "1.1 google",
    }
