"""Fault injection: one call makes the next matching request (or the gateway) misbehave.

REST faults are rules consumed by the server's middleware before the real handler runs, so a
faulted request is recorded like any other and a retry shows up as a second request. Routes are
named with discord.py's templates, optionally with a method: ``"PATCH
/channels/{channel_id}/messages/{message_id}"``; ``None`` matches any route.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from .errors import MISSING_PERMISSIONS, UNKNOWN_MESSAGE
from .gateway import Gateway

METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE"})


@dataclass
class FaultRule:
    """Answer ``times`` matching requests with ``status``/``body``/``headers`` instead."""

    method: str | None
    route: str | None
    status: int
    body: dict[str, Any] | str
    headers: dict[str, str] = field(default_factory=dict)
    times: int = 1
    hits: int = 0
    stalled: asyncio.Event | None = None  # answer only once set (a request caught in flight)
    caught: int = 0  # requests held by the stall so far

    def matches(self, method: str, route: str) -> bool:
        if self.hits >= self.times:
            return False
        if self.method is not None and self.method != method:
            return False
        return self.route is None or self.route == route

    @property
    def exhausted(self) -> bool:
        return self.hits >= self.times


class Faults:
    """The fault switchboard of one fake server (``fake.faults``)."""

    def __init__(self, gateway: Gateway, known_routes: Collection[str]) -> None:
        self._gateway = gateway
        self._known = frozenset(known_routes)
        self.rules: list[FaultRule] = []

    def _parse(self, route: str | None) -> tuple[str | None, str | None]:
        if route is None:
            return None, None
        first, _, rest = route.partition(" ")
        method: str | None = None
        if first.upper() in METHODS and rest:
            method, route = first.upper(), rest
        if route not in self._known:
            known = "\n  ".join(sorted(self._known))
            raise ValueError(f"unknown route {route!r}; the fake serves:\n  {known}")
        return method, route

    def add(
        self,
        route: str | None,
        status: int,
        body: dict[str, Any] | str,
        *,
        headers: dict[str, str] | None = None,
        times: int = 1,
    ) -> FaultRule:
        """Any answer at all for the next ``times`` requests to ``route``."""
        method, path = self._parse(route)
        rule = FaultRule(method, path, status, body, dict(headers or {}), times)
        self.rules.append(rule)
        return rule

    def take(self, method: str, route: str) -> FaultRule | None:
        """The first live rule for this request, used up by one hit (called by the server)."""
        for rule in self.rules:
            if rule.matches(method, route):
                rule.hits += 1
                return rule
        return None

    # -- REST ---------------------------------------------------------------------------------

    def rate_limit(
        self,
        route: str | None = None,
        *,
        retry_after: float = 0.05,
        is_global: bool = False,
        via: bool = True,
        times: int = 1,
    ) -> FaultRule:
        """429 as Discord sends it. discord.py retries only when ``Via`` is present (without it
        the 429 looks like a Cloudflare ban and raises ``HTTPException``)."""
        headers = {
            "Retry-After": str(max(1, round(retry_after))),
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Scope": "global" if is_global else "user",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers["X-RateLimit-Bucket"] = "fakebucket"
        if via:
            headers["Via"] = "1.1 google"
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": is_global,
            "code": 0,
        }
        return self.add(route, 429, body, headers=headers, times=times)

    def server_error(self, route: str | None = None, *, times: int = 1) -> FaultRule:
        """500: discord.py sleeps ``1 + 2*tries`` seconds and retries (up to 5 tries)."""
        return self.add(
            route, 500, {"message": "500: Internal Server Error", "code": 0}, times=times
        )

    def unavailable(self, route: str | None = None, *, times: int = 1) -> FaultRule:
        """503: the bot client raises ``DiscordServerError`` at once (webhook calls retry)."""
        body = "upstream connect error or disconnect/reset before headers"
        return self.add(route, 503, body, headers={"Content-Type": "text/plain"}, times=times)

    def message_deleted(self, route: str | None = None, *, times: int = 1) -> FaultRule:
        """404 10008 Unknown Message, as if someone deleted the message just now."""
        body = {"message": "Unknown Message", "code": UNKNOWN_MESSAGE}
        return self.add(route, 404, body, times=times)

    def stall(self, route: str | None = None, *, times: int = 1) -> FaultRule:
        """Hold the next matching requests unanswered until ``rule.stalled`` is set, then
        answer 503: the way to catch the bot between two requests (a commit done, its board
        edit not yet seen by Discord) and kill it there. A held request never reaches its
        handler, so nothing it asked for happens."""
        body = "upstream request timeout"
        rule = self.add(route, 503, body, headers={"Content-Type": "text/plain"}, times=times)
        rule.stalled = asyncio.Event()
        return rule

    def missing_permissions(self, route: str | None = None, *, times: int = 1) -> FaultRule:
        """403 50013 Missing Permissions (a teacher removed the bot's rights)."""
        body = {"message": "Missing Permissions", "code": MISSING_PERMISSIONS}
        return self.add(route, 403, body, times=times)

    # -- gateway ------------------------------------------------------------------------------

    async def gateway_reconnect(self) -> None:
        """Op 7 RECONNECT: discord.py closes and RESUMEs."""
        await self._gateway.send_reconnect()

    async def invalidate_session(self, *, resumable: bool = False) -> None:
        """Op 9: resumable → RESUME; not resumable → a fresh IDENTIFY (after
        ``before_identify_hook``, 5 s unless overridden)."""
        await self._gateway.invalidate_session(resumable=resumable)

    def close_gateway(self, code: int = 4000) -> None:
        """Close the socket with ``code`` (4000 Unknown error → discord.py RESUMEs)."""
        self._gateway.close(code)

    def drop_gateway(self) -> None:
        """Cut TCP without a close frame; events dispatched meanwhile are replayed on RESUME."""
        self._gateway.drop()
