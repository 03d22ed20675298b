"""``FakeDiscord``: one aiohttp server on 127.0.0.1 (REST + gateway), its state and recordings.

A test starts one per test on an ephemeral port, points discord.py at it with
:meth:`FakeDiscord.patch_discord` (``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``,
restored afterwards) and runs the real, unmodified client. The middleware records every REST
call in order, applies injected faults, checks the bot token and turns
:class:`~.errors.ApiError` into Discord's JSON errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord.gateway
import discord.http
import yarl
from aiohttp import web

from . import payloads, spec
from .bodies import BODY, INTERACTION, ROUTE, UPLOADS, Upload, read_body
from .clock import FakeClock
from .errors import (
    EMPTY_MESSAGE,
    INVALID_FORM_BODY,
    REQUEST_ENTITY_TOO_LARGE,
    ApiError,
    invalid_form_body,
)
from .faults import Faults
from .gateway import Gateway
from .messaging import json_response
from .problems import Problems
from .ratelimits import RateLimits
from .rest import RestApi
from .snowflake import SnowflakeFactory
from .state import (
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeRole,
    FakeUser,
    RejectedCall,
    World,
)

API_PREFIX = "/api/v10"
# Error codes that mean "Discord refuses this body" (see RecordedRequest.refused).
REFUSAL_CODES = frozenset({INVALID_FORM_BODY, EMPTY_MESSAGE, REQUEST_ENTITY_TOO_LARGE})
# Routes authenticated by the interaction token in the path, not the bot token.
TOKEN_ROUTES = ("/interactions/", "/webhooks/")


@dataclass
class RecordedRequest:
    """One REST call as the fake received it; interaction tokens in ``path`` are redacted."""

    method: str
    route: str
    path: str
    query: dict[str, str]
    body: Any
    files: list[str] = field(default_factory=list)
    at: float = 0.0
    status: int | None = None
    error_code: int | None = None
    interaction_id: int | None = None
    error: dict[str, Any] | None = None  # Discord's error body, when refused
    # the answer's rate-limit headers (X-RateLimit-*, Retry-After), as the bot read them
    limit_headers: dict[str, str] = field(default_factory=dict)

    @property
    def refused(self) -> bool:
        """Refused for what the body says (400 50035/50006, 413 40005): what Discord would
        refuse from this bot, as opposed to a state answer such as 404 or 401."""
        return self.error_code in REFUSAL_CODES

    @property
    def json(self) -> dict[str, Any]:
        """The body as a dict ({} when it was a list or empty)."""
        return self.body if isinstance(self.body, dict) else {}

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


class FakeDiscord:
    """A local Discord: ``async with FakeDiscord() as fake:``, then ``fake.patch_discord()``."""

    def __init__(
        self,
        *,
        clock: FakeClock | None = None,
        world: Callable[[FakeClock, SnowflakeFactory], World] = World.default,
        check_schemas: bool = True,
    ) -> None:
        self.clock = clock or FakeClock()
        self.ids = SnowflakeFactory(self.clock)
        self.world = world(self.clock, self.ids)
        # A fresh random token per server: nothing real, never printed.
        self.token = f"fake.{secrets.token_urlsafe(24)}"
        self.requests: list[RecordedRequest] = []
        self._change = asyncio.Event()
        self.gateway = Gateway(self.world, self.token, self._changed)
        self.rest = RestApi(self.world, self.gateway, lambda: str(self.gateway_url))
        self.faults = Faults(self.gateway, [template for _, template, _ in self.rest.routes])
        self.rate_limits = RateLimits(self.clock)
        # Every body against Discord's published schema (spec.py); installed and compiled
        # before the first request, so a missing install fails at once with what to run, and
        # no test's bot waits for a compile.
        self.check_schemas = check_schemas
        if check_schemas:
            spec.prepare()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on 127.0.0.1, ephemeral port."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        for method, template, handler in self.rest.routes:
            app.router.add_route(method, API_PREFIX + template, handler)
        app.router.add_get("/", self.gateway.handle)
        app.router.add_get("/resume", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._file)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        self.world.attachment_base_url = f"http://127.0.0.1:{self.port}"
        self.gateway.resume_url = f"ws://127.0.0.1:{self.port}/resume"

    async def stop(self) -> None:
        await self.gateway.shutdown()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> yarl.URL:
        return yarl.URL(f"ws://127.0.0.1:{self.port}/")

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py's REST base and gateway URL here; restored on exit, even on error."""
        route = discord.http.Route
        ws = discord.gateway.DiscordWebSocket
        old_base, old_gateway = route.BASE, ws.DEFAULT_GATEWAY
        route.BASE = self.api_base
        ws.DEFAULT_GATEWAY = self.gateway_url
        try:
            yield
        finally:
            route.BASE = old_base
            ws.DEFAULT_GATEWAY = old_gateway

    # -- middleware ---------------------------------------------------------------------------

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX):
            response: web.StreamResponse = await handler(request)
            return response
        info = request.match_info
        resource = info.route.resource
        canonical = resource.canonical if resource is not None else request.path
        route = canonical.removeprefix(API_PREFIX)
        request[ROUTE] = route
        redacted = {k: ("<token>" if k == "webhook_token" else v) for k, v in info.items()}
        path = route.format(**redacted) if resource is not None else request.path
        body, uploads = await read_body(request)
        request[BODY], request[UPLOADS] = body, uploads
        record = RecordedRequest(
            method=request.method,
            route=route,
            path=path,
            query={k: v for k, v in request.query.items()},
            body=body,
            files=[u.filename for u in uploads],
            at=self.clock.now(),
        )
        self.requests.append(record)
        try:
            response = await self._respond(request, handler, route)
        except ApiError as error:
            record.error_code = error.code
            record.error = error.body()
            response = json_response(error.body(), status=error.status)
            response.headers.update(error.headers)
        finally:
            interaction = request.get(INTERACTION)
            if isinstance(interaction, FakeInteraction):
                record.interaction_id = interaction.id
            elif "webhook_token" in info:
                record.interaction_id = self._interaction_id(info["webhook_token"])
        record.status = response.status
        record.limit_headers = {
            name: value
            for name, value in response.headers.items()
            if name.startswith("X-RateLimit-") or name == "Retry-After"
        }
        self._changed()
        return response

    async def _respond(
        self, request: web.Request, handler: Callable[[web.Request], Any], route: str
    ) -> web.StreamResponse:
        if request.match_info.http_exception is not None:
            raise ApiError(404, 0, "404: Not Found")
        rule = self.faults.take(request.method, route)
        if rule is not None:
            if rule.stalled is not None:
                rule.caught += 1
                self._changed()
                await rule.stalled.wait()
            if isinstance(rule.body, str):
                headers = {"Content-Type": "text/plain", **rule.headers}
                return web.Response(text=rule.body, status=rule.status, headers=headers)
            response = json_response(rule.body, status=rule.status)
            response.headers.update(rule.headers)
            return response
        bot_token = not route.startswith(TOKEN_ROUTES)
        if bot_token:
            auth = request.headers.get("Authorization", "")
            if not secrets.compare_digest(auth, f"Bot {self.token}"):
                raise ApiError(401, 0, "401: Unauthorized")
        verdict = self.rate_limits.check(
            request.method, route, request.match_info, bot_token=bot_token
        )
        if verdict.limited:
            limited = json_response(verdict.body(), status=429)
            limited.headers.update(verdict.headers)
            return limited
        try:
            if self.check_schemas:
                self._check_schema(request, route)
            result: web.StreamResponse = await handler(request)
        except ApiError as error:
            # Discord's buckets count a refused request too, and say so in its headers.
            error.headers.update(verdict.headers)
            raise
        result.headers.update(verdict.headers)
        return result

    def _check_schema(self, request: web.Request, route: str) -> None:
        """400 50035 for a body its operation's schema refuses (see :mod:`.spec`); an
        interaction refused so is told, as the handlers tell it."""
        problems = Problems()
        spec.check_body(request.method, route, request.get(BODY), problems)
        if not problems:
            return
        error = invalid_form_body(problems.errors)
        token = request.match_info.get("webhook_token")
        interaction = self.world.find_interaction(token) if token is not None else None
        if interaction is not None:
            request[INTERACTION] = interaction
            interaction.rejected.append(RejectedCall(request.method, route, 400, error.code))
        raise error

    def _interaction_id(self, token: str) -> int | None:
        interaction = self.world.find_interaction(token)
        return None if interaction is None else interaction.id

    async def _file(self, request: web.Request) -> web.Response:
        attachment_id = int(request.match_info["attachment_id"])
        for message in self.world.messages.values():
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return web.Response(
                        body=attachment.data, content_type="application/octet-stream"
                    )
        raise web.HTTPNotFound()

    # -- waiting ------------------------------------------------------------------------------

    def _changed(self) -> None:
        self._change.set()
        self._change = asyncio.Event()

    async def wait_until(
        self, predicate: Callable[[], object], *, timeout: float = 5.0, what: str = ""
    ) -> None:
        """Wait until ``predicate()`` is true; re-checked on every change the fake sees and
        every 20 ms (for predicates about the client's own state).

        Raises ``TimeoutError`` naming ``what`` when it has not become true within ``timeout``
        seconds of real time less the time the test's threads waited for a CPU (clock.py): a
        wait for the bot measures the bot, not how busy the machine is.
        """
        loop = asyncio.get_running_loop()
        waits = self.clock.waits
        started, waited = loop.time(), waits.snapshot()
        while not predicate():
            spent = loop.time() - started
            if spent >= timeout:  # only then ask how much of it the machine kept us waiting
                spent -= waits.since(waited)
            remaining = timeout - spent
            if remaining <= 0:
                raise TimeoutError(f"fake Discord: timed out waiting for {what or predicate}")
            # asyncio.wait, not wait_for: on Python 3.11 wait_for swallows a cancel that
            # arrives as the change is set, and a cancelled waiter would then wait on.
            change = asyncio.ensure_future(self._change.wait())
            try:
                await asyncio.wait({change}, timeout=min(remaining, 0.02))
            finally:
                change.cancel()

    # -- state shortcuts ----------------------------------------------------------------------

    @property
    def guild(self) -> FakeGuild:
        """The default guild ("Testskolen", preferred locale ``no``)."""
        return self.world.guild

    @property
    def channel(self) -> FakeChannel:
        """The default text channel ("klasserom")."""
        return self.world.channel

    @property
    def bot_user(self) -> FakeUser:
        return self.world.bot_user

    @property
    def application_id(self) -> int:
        return self.world.application_id

    def user(self, name: str) -> FakeUser:
        """A user by username: ``alice`` (no), ``bob`` (sv-SE), ``carol`` (en-US), ``teacher``."""
        return self.world.user(name)

    @property
    def messages(self) -> list[FakeMessage]:
        """Every message ever created, oldest first (check ``.deleted``)."""
        return list(self.world.messages.values())

    def messages_in(self, channel: FakeChannel | None = None) -> list[FakeMessage]:
        """Visible (live, non-ephemeral) messages of a channel, oldest first."""
        return self.world.channel_messages(channel or self.channel)

    def message(self, message_id: int) -> FakeMessage:
        return self.world.messages[message_id]

    @property
    def interactions(self) -> list[FakeInteraction]:
        """Every interaction the driver sent, oldest first."""
        return list(self.world.interactions.values())

    def commands(self, guild: FakeGuild | None = None) -> list[FakeCommand]:
        """Registered commands: global when ``guild`` is None, else that guild's."""
        if guild is None:
            return list(self.world.global_commands)
        return list(self.world.guild_commands.get(guild.id, []))

    def command(self, name: str, guild: FakeGuild | None = None) -> FakeCommand:
        for command in self.commands(guild):
            if command.name == name:
                return command
        raise KeyError(name)

    def refusals(self) -> list[RecordedRequest]:
        """Every request refused for its body (400 50035/50006, 413), oldest first."""
        return [r for r in self.requests if r.refused]

    def requests_to(self, route: str, method: str | None = None) -> list[RecordedRequest]:
        """Recorded calls to one discord.py route template, e.g.
        ``requests_to("/channels/{channel_id}/messages", "POST")``."""
        return [
            r for r in self.requests if r.route == route and (method is None or r.method == method)
        ]

    # -- things other people do ---------------------------------------------------------------

    async def post_message(
        self,
        channel: FakeChannel | None = None,
        *,
        author: FakeUser | None = None,
        content: str = "",
        embeds: Sequence[Mapping[str, Any]] = (),
        components: Sequence[Mapping[str, Any]] = (),
        files: Mapping[str, bytes] | None = None,
    ) -> FakeMessage:
        """Create a message without the bot sending it in this run — a board message left by a
        previous process (``author`` defaults to the bot), or a user's message."""
        body = {"content": content, "embeds": list(embeds), "components": list(components)}
        uploads = [
            Upload(i, name, None, data) for i, (name, data) in enumerate((files or {}).items())
        ]
        return await self.rest.inject_message(
            channel or self.channel, author or self.bot_user, body, uploads
        )

    async def set_permissions(
        self,
        channel: FakeChannel,
        target: FakeUser | FakeRole | None = None,
        *,
        allow: int = 0,
        deny: int = 0,
    ) -> None:
        """A teacher changes a channel's permissions for a member or role (the bot when
        ``target`` is None): the overwrite is replaced and the bot is told (CHANNEL_UPDATE), so
        its own view of its rights changes as it would on Discord. Bits from
        :mod:`.permissions`, e.g. ``deny=SEND_MESSAGES``."""
        self.world.set_overwrite(channel, target or self.bot_user, allow=allow, deny=deny)
        await self.gateway.dispatch("CHANNEL_UPDATE", payloads.channel(channel))

    async def delete_message(self, message: FakeMessage) -> None:
        """Someone (a teacher) deletes the message: later calls to it get 404 10008."""
        await self.rest.remove_message(message)
