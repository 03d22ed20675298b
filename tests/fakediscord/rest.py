"""The fake's REST API: the subset of Discord's HTTP routes a bot uses, with Discord's rules.

Handlers take the already-parsed body (see :mod:`.bodies`), change the :class:`~.state.World`,
tell the gateway (MESSAGE_CREATE …) and answer with Discord's JSON. Routes are named with
discord.py's own ``Route`` templates so recorded calls and fault rules read the same as the
library's source. Every refusal is an :class:`~.errors.ApiError` with Discord's status and code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aiohttp import web

from . import payloads
from .bodies import BODY, Upload
from .command_checks import check_commands
from .errors import (
    CANNOT_EDIT_OTHERS_MESSAGE,
    UNKNOWN_MESSAGE,
    ApiError,
    not_found,
)
from .interaction_routes import InteractionRoutes
from .limits import (
    FLAGS_CREATE,
    FLAGS_EDIT,
)
from .messaging import (
    SENDABLE_FLAGS,
    Handler,
    json_response,
    no_content,
    snowflake_param,
    type_error,
)
from .permissions import (
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    MANAGE_MESSAGES,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)
from .problems import Problems
from .state import (
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    FakeChannel,
    FakeCommand,
    FakeMessage,
    FakeUser,
)


class RestApi(InteractionRoutes):
    """All REST handlers; ``routes`` lists them as (method, discord.py template, handler)."""

    @property
    def routes(self) -> list[tuple[str, str, Handler]]:
        return [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("GET", "/applications/{application_id}/commands", self.get_commands),
            ("PUT", "/applications/{application_id}/commands", self.put_commands),
            ("POST", "/applications/{application_id}/commands", self.post_command),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self.get_commands),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self.put_commands),
            (
                "POST",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self.post_command,
            ),
            ("POST", "/interactions/{webhook_id}/{webhook_token}/callback", self.callback),
            ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", self.get_original),
            (
                "PATCH",
                "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                self.edit_original,
            ),
            (
                "DELETE",
                "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
                self.delete_original,
            ),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}", self.post_followup),
            (
                "GET",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self.get_followup,
            ),
            (
                "PATCH",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self.edit_followup,
            ),
            (
                "DELETE",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self.delete_followup,
            ),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("POST", "/channels/{channel_id}/messages", self.post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self.thread_from_message,
            ),
            ("POST", "/channels/{channel_id}/threads", self.thread_in_channel),
            ("POST", "/channels/{channel_id}/typing", self.typing),
        ]

    # -- identity -----------------------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        data = payloads.user(self.world.bot_user)
        data.update({"verified": True, "mfa_enabled": False, "flags": 0, "locale": "en-US"})
        return json_response(data)

    async def get_application(self, request: web.Request) -> web.Response:
        world = self.world
        owner = world.users[world.guild.owner_id]
        return json_response(
            {
                "id": str(world.application_id),
                "name": world.bot_user.username,
                "description": "Fake Discord test application",
                "icon": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "owner": payloads.user(owner),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "rpc_origins": [],
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": len(world.guilds),
                "bot": payloads.user(world.bot_user),
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self._gateway_url()})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self._gateway_url(),
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 86_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    # -- application commands -----------------------------------------------------------------

    def _command_scope(self, request: web.Request) -> tuple[int | None, list[FakeCommand]]:
        if snowflake_param(request.match_info["application_id"]) != self.world.application_id:
            raise not_found(10002, "Application")
        raw_guild = request.match_info.get("guild_id")
        if raw_guild is None:
            return None, self.world.global_commands
        guild_id = snowflake_param(raw_guild)
        if guild_id not in self.world.guilds:
            raise ApiError(403, 50001, "Missing Access")
        return guild_id, self.world.guild_commands.setdefault(guild_id, [])

    def _stored_command(
        self, data: Mapping[str, Any], guild_id: int | None, existing: list[FakeCommand]
    ) -> FakeCommand:
        kind = int(data.get("type", 1))
        previous = next((c for c in existing if c.type == kind and c.name == data["name"]), None)
        stored: dict[str, Any] = {
            "type": kind,
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "name_localizations": None,
            "description_localizations": None,
            "description": "",
            **data,
            "id": str(previous.id if previous else self.world.ids.next()),
            "application_id": str(self.world.application_id),
            "version": str(self.world.ids.next()),
        }
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        return FakeCommand(stored)

    async def get_commands(self, request: web.Request) -> web.Response:
        _, commands = self._command_scope(request)
        return json_response([c.data for c in commands])

    async def put_commands(self, request: web.Request) -> web.Response:
        guild_id, existing = self._command_scope(request)
        body = request.get(BODY)
        commands = body if isinstance(body, list) else []
        problems = Problems()
        check_commands(commands, problems)
        problems.raise_if_any()
        stored = [self._stored_command(c, guild_id, existing) for c in commands]
        existing[:] = stored
        return json_response([c.data for c in stored])

    async def post_command(self, request: web.Request) -> web.Response:
        guild_id, existing = self._command_scope(request)
        body = self._body(request)
        problems = Problems()
        check_commands([body], problems)
        problems.raise_if_any()
        command = self._stored_command(body, guild_id, existing)
        existing[:] = [c for c in existing if c.id != command.id]
        existing.append(command)
        return json_response(command.data, status=201)

    # -- channels and messages ----------------------------------------------------------------

    def _channel(self, request: web.Request, needed: int = VIEW_CHANNEL) -> FakeChannel:
        """The channel of the path, once the bot is seen to have ``needed`` there."""
        channel = self.world.channel_by_id(snowflake_param(request.match_info["channel_id"]))
        self._require(channel, needed)
        return channel

    def _channel_message(self, request: web.Request, needed: int = VIEW_CHANNEL) -> FakeMessage:
        channel = self._channel(request, needed)
        message = self.world.message_by_id(
            snowflake_param(request.match_info["message_id"]), channel_id=channel.id
        )
        if message.ephemeral:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return message

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(payloads.channel(self._channel(request)))

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request, VIEW_CHANNEL | READ_MESSAGE_HISTORY)
        limit = max(1, min(100, int(request.query.get("limit", "50"))))
        messages = self.world.channel_messages(channel)
        if "before" in request.query:
            before = int(request.query["before"])
            messages = [m for m in messages if m.id < before]
        if "after" in request.query:
            after = int(request.query["after"])
            messages = [m for m in messages if m.id > after][:limit]
        newest_first = list(reversed(messages))[:limit]
        return json_response([self._message_json(m) for m in newest_first])

    async def post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body = self._body(request)
        needed = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
        if isinstance(body.get("message_reference"), Mapping):
            needed |= READ_MESSAGE_HISTORY  # a reply
        self._require(channel, needed)
        self._check_message(body, FLAGS_CREATE)
        limit = self.world.attachment_size_limit
        self._check_files(body, self._uploads(request), None, limit=limit)
        self._may_attach(self._uploads(request), channel.id)
        self._require_not_empty(body, self._uploads(request))
        flags = int(body.get("flags") or 0) & SENDABLE_FLAGS
        message = self._new_message(channel, body, self._uploads(request), flags=flags)
        await self._announce("MESSAGE_CREATE", message)
        return json_response(self._message_json(message))

    async def get_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request, VIEW_CHANNEL | READ_MESSAGE_HISTORY)
        return json_response(self._message_json(message))

    async def edit_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message.author.id != self.world.bot_user.id:
            body = self._body(request)
            if set(body) - {"flags"}:
                raise ApiError(
                    403,
                    CANNOT_EDIT_OTHERS_MESSAGE,
                    "Cannot edit a message authored by another user",
                )
        limit = self.world.attachment_size_limit
        return await self._edit(message, request, limit=limit, flags=FLAGS_EDIT)

    async def delete_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message.author.id != self.world.bot_user.id:
            self._require(self.world.channel_by_id(message.channel_id), MANAGE_MESSAGES)
        return await self._delete(message)

    async def _new_thread(
        self, parent: FakeChannel, body: Mapping[str, Any], *, kind: int, thread_id: int | None
    ) -> FakeChannel:
        problems = Problems()
        problems.length(("name",), body.get("name"), 1, 100)
        problems.raise_if_any()
        if parent.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        thread = FakeChannel(
            thread_id if thread_id is not None else self.world.ids.next(),
            parent.guild_id,
            str(body["name"]),
            type=kind,
            parent_id=parent.id,
            owner_id=self.world.bot_user.id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        self.world.channels[thread.id] = thread
        self.world.guilds[parent.guild_id].channel_ids.append(thread.id)
        await self.gateway.dispatch(
            "THREAD_CREATE", {**payloads.channel(thread), "newly_created": True}
        )
        return thread

    async def thread_from_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request, VIEW_CHANNEL | CREATE_PUBLIC_THREADS)
        if message.thread_id is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        parent = self.world.channel_by_id(message.channel_id)
        # A thread started from a message has the message's id.
        thread = await self._new_thread(
            parent, self._body(request), kind=PUBLIC_THREAD, thread_id=message.id
        )
        message.thread_id = thread.id
        return json_response(payloads.channel(thread), status=201)

    async def thread_in_channel(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        body = self._body(request)
        kind = int(body.get("type") or PRIVATE_THREAD)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise ApiError(400, 50035, "Invalid Form Body", type_error("invalid thread type"))
        public = kind == PUBLIC_THREAD
        self._require(parent, CREATE_PUBLIC_THREADS if public else CREATE_PRIVATE_THREADS)
        thread = await self._new_thread(parent, body, kind=kind, thread_id=None)
        return json_response(payloads.channel(thread), status=201)

    async def typing(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES)
        return no_content()

    # -- injected by tests --------------------------------------------------------------------

    async def inject_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        body: Mapping[str, Any],
        uploads: list[Upload],
    ) -> FakeMessage:
        """A message that exists without the bot having sent it in this run."""
        self._check_message(body, FLAGS_CREATE)
        message = self.world.new_message(channel, author)
        self._apply(message, body, uploads, editing=False)
        await self._announce("MESSAGE_CREATE", message)
        return message

    async def remove_message(self, message: FakeMessage) -> None:
        """Someone else deleted the message."""
        await self._delete(message)
