"""Requests sent to the fake exactly as written, with nobody's client in between.

discord.py checks some things before it sends and obeys rate-limit headers by sleeping; the
fake's own rules are proven with plain HTTP instead, so what answers is the fake alone.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import aiohttp

from .server import FakeDiscord


@dataclass(frozen=True)
class Answer:
    """One HTTP answer: status, JSON body (None when empty) and headers."""

    status: int
    body: Any
    headers: Mapping[str, str]

    @property
    def code(self) -> int | None:
        """Discord's JSON error code, if the body has one."""
        return self.body.get("code") if isinstance(self.body, dict) else None

    def error_at(self, path: str) -> list[dict[str, str]]:
        """The ``_errors`` Discord reports at ``path`` (``"embeds.0.title"``; ``""``: the
        body's root), [] when there are none."""
        node: Any = self.body.get("errors", {}) if isinstance(self.body, dict) else {}
        for part in filter(None, path.split(".")):
            node = node.get(part, {}) if isinstance(node, dict) else {}
        found = node.get("_errors", []) if isinstance(node, dict) else []
        return list(found)


class RawApi:
    """``async with RawApi(fake) as api: await api.call("POST", "/channels/1/messages", …)``."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> RawApi:
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._session is not None:
            await self._session.close()

    async def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        files: Mapping[str, bytes] | None = None,
        bot_token: bool = True,
    ) -> Answer:
        """Send ``body`` as JSON (or as ``payload_json`` beside ``files[n]`` when ``files``
        maps names to bytes) with the bot's token (``bot_token=False``: none, as interaction
        routes are called)."""
        assert self._session is not None, "use RawApi as an async context manager"
        headers = {"Authorization": f"Bot {self.fake.token}"} if bot_token else {}
        data: Any = None
        if files is not None:
            form = aiohttp.FormData(quote_fields=False)
            form.add_field("payload_json", json.dumps(body), content_type="application/json")
            for index, (name, content) in enumerate(files.items()):
                form.add_field(
                    f"files[{index}]",
                    content,
                    filename=name,
                    content_type="application/octet-stream",
                )
            data = form
        elif body is not None:
            data = json.dumps(body)
            headers["Content-Type"] = "application/json"
        url = self.fake.api_base + path
        async with self._session.request(method, url, data=data, headers=headers) as response:
            raw = await response.read()
            parsed = json.loads(raw) if raw else None
            return Answer(response.status, parsed, dict(response.headers))
