"""The fake's REST API: the subset of Discord's HTTP routes a bot uses, with Discord's rules.

Handlers take the already-parsed body (see :mod:`.bodies`), change the :class:`~.state.World`,
tell the gateway (MESSAGE_CREATE …) and answer with Discord's JSON. Routes are named with
discord.py's own ``Route`` templates so recorded calls and fault rules read the same as the
library's source. Every refusal is an :class:`~.errors.ApiError` with Discord's status and code.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from aiohttp import web

from . import payloads
from .bodies import BODY, INTERACTION, ROUTE, UPLOADS, Upload
from .errors import (
    ALREADY_ACKNOWLEDGED,
    CANNOT_EDIT_OTHERS_MESSAGE,
    EMPTY_MESSAGE,
    INVALID_WEBHOOK_TOKEN,
    MISSING_PERMISSIONS,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    ApiError,
    not_found,
    too_large,
)
from .gateway import Gateway
from .limits import (
    ATTACHMENT_SCHEME,
    EMBED_URL_FIELDS,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    Problems,
    check_attachments,
    check_autocomplete,
    check_commands,
    check_message,
    check_modal,
)
from .state import (
    APPLICATION_COMMAND,
    ATTACH_FILES,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    PING,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeInteraction,
    FakeMessage,
    FakeModal,
    FakeUser,
    RejectedCall,
    World,
)

ANSWER_WINDOW = 3.0  # seconds to send the initial callback
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token can be used for webhooks

FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
SENDABLE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2

# Message types Discord gives responses.
DEFAULT = 0
REPLY = 19
CHAT_INPUT_COMMAND = 20
THREAD_STARTER_MESSAGE = 21
CONTEXT_MENU_COMMAND = 23

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON with ``Content-Type: application/json`` exactly: discord.py compares the header
    byte for byte and reads anything else (``; charset=utf-8``) as text."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json"},
    )


def no_content() -> web.Response:
    return web.Response(status=204)


def _snowflake(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ApiError(
            400,
            50035,
            "Invalid Form Body",
            {"id": {"_errors": [{"code": "NUMBER_TYPE_COERCE", "message": "Not a snowflake."}]}},
        ) from None


class RestApi:
    """All REST handlers; ``routes`` lists them as (method, discord.py template, handler)."""

    def __init__(self, world: World, gateway: Gateway, gateway_url: Callable[[], str]) -> None:
        self.world = world
        self.gateway = gateway
        self._gateway_url = gateway_url

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

    # -- helpers ------------------------------------------------------------------------------

    @staticmethod
    def _body(request: web.Request) -> dict[str, Any]:
        body = request.get(BODY)
        return body if isinstance(body, dict) else {}

    @staticmethod
    def _uploads(request: web.Request) -> list[Upload]:
        uploads: list[Upload] = request.get(UPLOADS, [])
        return uploads

    def _message_json(self, message: FakeMessage) -> dict[str, Any]:
        return payloads.message(self.world, message)

    async def _announce(self, event: str, message: FakeMessage) -> None:
        """Tell the gateway about a message change (ephemeral messages never go out)."""
        if message.ephemeral:
            return
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {
                "id": str(message.id),
                "channel_id": str(message.channel_id),
            }
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            await self.gateway.dispatch(event, data)
        else:
            await self.gateway.dispatch(event, self._message_json(message))

    def _apply(
        self,
        message: FakeMessage,
        body: Mapping[str, Any],
        uploads: list[Upload],
        *,
        editing: bool,
    ) -> None:
        """Copy a create/edit body onto ``message`` (limits are checked by the caller)."""
        world = self.world
        if editing:
            message.history.append(message.snapshot())
            message.edited_at = world.clock.now()
            message.flags &= ~FLAG_LOADING
        if "content" in body:
            message.content = body.get("content") or ""
        if "embeds" in body:
            message.embeds = [{"type": "rich", **e} for e in body.get("embeds") or []]
        if "components" in body:
            message.components = list(body.get("components") or [])
        if "flags" in body and body.get("flags") is not None:
            keep = message.flags & ~SENDABLE_FLAGS
            message.flags = keep | (int(body["flags"]) & SENDABLE_FLAGS)
        reference = body.get("message_reference")
        if isinstance(reference, Mapping) and reference.get("message_id") and not editing:
            message.reference_id = int(reference["message_id"])
            message.type = REPLY if message.type == DEFAULT else message.type
        by_index = {u.index: u for u in uploads}
        if "attachments" in body and body.get("attachments") is not None:
            kept = {a.id: a for a in message.attachments}
            result = []
            for entry in body["attachments"]:
                raw_id = int(entry.get("id"))
                if raw_id in by_index and raw_id not in kept:
                    upload = by_index.pop(raw_id)
                    result.append(self._attachment(message, upload, entry.get("description")))
                elif raw_id in kept:
                    result.append(kept[raw_id])
            message.attachments = result
        for upload in by_index.values():
            message.attachments.append(self._attachment(message, upload, None))
        self._resolve_attachment_urls(message)

    @staticmethod
    def _resolve_attachment_urls(message: FakeMessage) -> None:
        """Discord stores an embed's ``attachment://NAME`` as the file's own URL."""
        by_name = {a.filename: a for a in message.attachments}
        for embed in message.embeds:
            for part, key in EMBED_URL_FIELDS:
                field = embed.get(part)
                url = field.get(key) if isinstance(field, dict) else None
                if isinstance(url, str) and url.startswith(ATTACHMENT_SCHEME):
                    attachment = by_name.get(url.removeprefix(ATTACHMENT_SCHEME))
                    if attachment is not None:
                        assert isinstance(field, dict)  # where the URL was read from
                        embed[part] = {**field, key: attachment.url, "proxy_url": attachment.url}

    def _check_files(
        self,
        body: Mapping[str, Any],
        uploads: list[Upload],
        message: FakeMessage | None,
        *,
        limit: int,
        prefix: tuple[str, ...] = (),
    ) -> None:
        """Discord's file rules: each file at most `limit` bytes (413 40005), at most 10 on the
        message, and every ``attachment://NAME`` in an embed a file of this request (50035)."""
        if any(len(upload.data) > limit for upload in uploads):
            raise too_large()
        existing = message.attachments if message is not None else []
        listed = body.get("attachments")
        if isinstance(listed, list):
            ids = {str(_dict_get(entry, "id")) for entry in listed}
            kept = [a.filename for a in existing if str(a.id) in ids]
            total = len(kept) + len(uploads)
        else:
            kept = []
            total = len(existing) + len(uploads)
        problems = Problems()
        files = [u.filename for u in uploads] + kept
        check_attachments(body, files, total, problems, prefix)
        problems.raise_if_any()

    def _may_attach(self, uploads: list[Upload], channel_id: int | None) -> None:
        """A file needs the bot's Attach Files permission where it is posted (403 50013)."""
        if not uploads or channel_id is None:
            return
        guild = self.world.guilds.get(self.world.channel_by_id(channel_id).guild_id)
        if guild is not None and not self.world.permissions(self.world.bot_user, guild) & (
            ATTACH_FILES
        ):
            raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")

    def _interaction_limit(self, interaction: FakeInteraction) -> int:
        """The upload limit the interaction told the bot (`Interaction.filesize_limit`)."""
        limit = interaction.payload.get("attachment_size_limit")
        return limit if isinstance(limit, int) else self.world.attachment_size_limit

    def _attachment(self, message: FakeMessage, upload: Upload, description: Any) -> FakeAttachment:
        return self.world.new_attachment(
            upload.filename,
            upload.data,
            channel_id=message.channel_id,
            content_type=upload.content_type,
            description=description if isinstance(description, str) else None,
            ephemeral=message.ephemeral,
        )

    @staticmethod
    def _check_message(body: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> None:
        problems = Problems()
        check_message(body, problems, prefix)
        problems.raise_if_any()

    @staticmethod
    def _require_not_empty(
        body: Mapping[str, Any], uploads: list[Upload], message: FakeMessage | None = None
    ) -> None:
        """Refuse (50006) a body that would leave the message with nothing to show."""

        def after(key: str, current: Any) -> Any:
            return body.get(key) if key in body else current

        has_content = after("content", message.content if message else "")
        has_embeds = after("embeds", message.embeds if message else [])
        has_components = after("components", message.components if message else [])
        has_files = bool(uploads) or after("attachments", message.attachments if message else [])
        if not (has_content or has_embeds or has_components or has_files or body.get("poll")):
            raise ApiError(400, EMPTY_MESSAGE, "Cannot send an empty message")

    def _new_message(
        self,
        channel: FakeChannel,
        body: Mapping[str, Any],
        uploads: list[Upload],
        *,
        flags: int = 0,
        type: int = DEFAULT,
        interaction: FakeInteraction | None = None,
    ) -> FakeMessage:
        message = self.world.new_message(channel, self.world.bot_user, flags=flags, type=type)
        if interaction is not None:
            message.interaction_id = interaction.id
            message.webhook_id = self.world.application_id
            message.application_id = self.world.application_id
        self._apply(message, body, uploads, editing=False)
        return message

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
        if _snowflake(request.match_info["application_id"]) != self.world.application_id:
            raise not_found(10002, "Application")
        raw_guild = request.match_info.get("guild_id")
        if raw_guild is None:
            return None, self.world.global_commands
        guild_id = _snowflake(raw_guild)
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

    # -- interaction callback -----------------------------------------------------------------

    def _reject(self, interaction: FakeInteraction, request: web.Request, error: ApiError) -> None:
        route = request.get(ROUTE, request.path)
        interaction.rejected.append(RejectedCall(request.method, route, error.status, error.code))

    async def callback(self, request: web.Request) -> web.Response:
        interaction = self.world.interaction_by_token(
            _snowflake(request.match_info["webhook_id"]), request.match_info["webhook_token"]
        )
        try:
            response = await self._callback(interaction, request)
        except ApiError as error:
            self._reject(interaction, request, error)
            raise
        return response

    async def _callback(self, interaction: FakeInteraction, request: web.Request) -> web.Response:
        world = self.world
        if interaction.answered:
            raise ApiError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        if world.clock.now() - interaction.created_at > ANSWER_WINDOW:
            raise not_found(UNKNOWN_INTERACTION, "interaction")
        body = self._body(request)
        kind = body.get("type")
        data = body.get("data") or {}
        self._check_callback_type(interaction, kind)
        problems = Problems()
        if kind in (4, 7):
            check_message(data, problems, ("data",))
        elif kind == 8:
            check_autocomplete(data, problems, ("data",))
        elif kind == 9:
            check_modal(data, problems, ("data",))
        problems.raise_if_any()

        channel = world.channel_by_id(interaction.channel_id)
        uploads = self._uploads(request)
        if kind in (4, 7):
            source = self._source_message(interaction) if kind == 7 else None
            limit = self._interaction_limit(interaction)
            self._check_files(data, uploads, source, limit=limit, prefix=("data",))
            self._may_attach(uploads, interaction.channel_id)
        resource: dict[str, Any] = {"type": kind}
        message: FakeMessage | None = None
        event: str | None = None
        if kind == 4:
            self._require_not_empty(data, uploads)
            flags = int(data.get("flags") or 0) & (SENDABLE_FLAGS | FLAG_EPHEMERAL)
            message = self._new_message(
                channel,
                data,
                uploads,
                flags=flags,
                type=self._response_type(interaction),
                interaction=interaction,
            )
            event = "MESSAGE_CREATE"
        elif kind == 5:
            flags = FLAG_LOADING | (int(data.get("flags") or 0) & FLAG_EPHEMERAL)
            message = self._new_message(
                channel,
                {},
                [],
                flags=flags,
                type=self._response_type(interaction),
                interaction=interaction,
            )
            event = "MESSAGE_CREATE"
        elif kind in (6, 7):
            message = world.message_by_id(self._source_message(interaction).id)
            if kind == 7:
                self._require_not_empty(data, uploads, message)
                self._apply(message, data, uploads, editing=True)
                event = "MESSAGE_UPDATE"
        elif kind == 8:
            interaction.choices = list(data.get("choices") or [])
        elif kind == 9:
            interaction.modal = FakeModal(
                str(data["custom_id"]), str(data["title"]), list(data["components"]), interaction
            )

        interaction.response_type = kind
        interaction.responded_at = world.clock.now()
        interaction.original = message
        if message is not None and event is not None:
            await self._announce(event, message)

        if request.query.get("with_response") not in ("1", "true", "True"):
            return no_content()
        summary: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type}
        if message is not None:
            summary["response_message_id"] = str(message.id)
            summary["response_message_loading"] = message.loading
            summary["response_message_ephemeral"] = message.ephemeral
            if kind != 6:
                resource["message"] = self._message_json(message)
        return json_response({"interaction": summary, "resource": resource})

    @staticmethod
    def _response_type(interaction: FakeInteraction) -> int:
        if interaction.type == APPLICATION_COMMAND:
            command_type = interaction.payload.get("data", {}).get("type", 1)
            return CHAT_INPUT_COMMAND if command_type == 1 else CONTEXT_MENU_COMMAND
        return REPLY

    @staticmethod
    def _source_message(interaction: FakeInteraction) -> FakeMessage:
        if interaction.message is None:
            raise ApiError(400, 50035, "Invalid Form Body", _type_error("no source message"))
        return interaction.message

    @staticmethod
    def _check_callback_type(interaction: FakeInteraction, kind: Any) -> None:
        allowed = {
            PING: {1},
            APPLICATION_COMMAND: {4, 5, 9},
            MESSAGE_COMPONENT: {4, 5, 6, 7, 9},
            AUTOCOMPLETE: {8},
            MODAL_SUBMIT: {4, 5, 6, 7} if interaction.message is not None else {4, 5},
        }[interaction.type]
        if kind not in allowed:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                _type_error(f"Interaction callback type {kind} is not valid for this interaction"),
            )

    # -- interaction webhooks -----------------------------------------------------------------

    def _webhook_interaction(self, request: web.Request) -> FakeInteraction:
        if _snowflake(request.match_info["webhook_id"]) != self.world.application_id:
            raise not_found(UNKNOWN_WEBHOOK, "Webhook")
        try:
            interaction = self.world.interaction_by_token(None, request.match_info["webhook_token"])
        except ApiError:
            raise not_found(UNKNOWN_WEBHOOK, "Webhook") from None
        request[INTERACTION] = interaction
        if self.world.clock.now() - interaction.created_at > TOKEN_LIFETIME:
            error = ApiError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
            self._reject(interaction, request, error)
            raise error
        if not interaction.answered:
            # Followups and @original need the initial response first.
            error = not_found(UNKNOWN_WEBHOOK, "Webhook")
            self._reject(interaction, request, error)
            raise error
        return interaction

    def _original(self, interaction: FakeInteraction) -> FakeMessage:
        message = interaction.original
        if message is None or message.deleted:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return message

    def _followup(self, interaction: FakeInteraction, raw_id: str) -> FakeMessage:
        message_id = _snowflake(raw_id)
        for message in [interaction.original, *interaction.followups]:
            if message is not None and message.id == message_id and not message.deleted:
                return message
        raise not_found(UNKNOWN_MESSAGE, "Message")

    async def _guarded(
        self, request: web.Request, work: Callable[[FakeInteraction], Awaitable[web.Response]]
    ) -> web.Response:
        interaction = self._webhook_interaction(request)
        try:
            return await work(interaction)
        except ApiError as error:
            self._reject(interaction, request, error)
            raise

    async def _edit(
        self, message: FakeMessage, request: web.Request, *, limit: int
    ) -> web.Response:
        body = self._body(request)
        self._check_message(body)
        self._check_files(body, self._uploads(request), message, limit=limit)
        self._may_attach(self._uploads(request), message.channel_id)
        self._require_not_empty(body, self._uploads(request), message)
        self._apply(message, body, self._uploads(request), editing=True)
        await self._announce("MESSAGE_UPDATE", message)
        return json_response(self._message_json(message))

    async def _delete(self, message: FakeMessage) -> web.Response:
        message.deleted = True
        await self._announce("MESSAGE_DELETE", message)
        return no_content()

    async def get_original(self, request: web.Request) -> web.Response:
        async def work(interaction: FakeInteraction) -> web.Response:
            return json_response(self._message_json(self._original(interaction)))

        return await self._guarded(request, work)

    async def edit_original(self, request: web.Request) -> web.Response:
        async def work(interaction: FakeInteraction) -> web.Response:
            limit = self._interaction_limit(interaction)
            return await self._edit(self._original(interaction), request, limit=limit)

        return await self._guarded(request, work)

    async def delete_original(self, request: web.Request) -> web.Response:
        async def work(interaction: FakeInteraction) -> web.Response:
            return await self._delete(self._original(interaction))

        return await self._guarded(request, work)

    async def post_followup(self, request: web.Request) -> web.Response:
        async def work(interaction: FakeInteraction) -> web.Response:
            body = self._body(request)
            self._check_message(body)
            limit = self._interaction_limit(interaction)
            self._check_files(body, self._uploads(request), None, limit=limit)
            self._may_attach(self._uploads(request), interaction.channel_id)
            channel = self.world.channel_by_id(interaction.channel_id)
            self._require_not_empty(body, self._uploads(request))
            flags = int(body.get("flags") or 0) & (SENDABLE_FLAGS | FLAG_EPHEMERAL)
            message = self._new_message(
                channel, body, self._uploads(request), flags=flags, interaction=interaction
            )
            interaction.followups.append(message)
            await self._announce("MESSAGE_CREATE", message)
            if request.query.get("wait") in ("1", "true", "True"):
                return json_response(self._message_json(message))
            return no_content()

        return await self._guarded(request, work)

    async def get_followup(self, request: web.Request) -> web.Response:
        async def work(interaction: FakeInteraction) -> web.Response:
            message = self._followup(interaction, request.match_info["message_id"])
            return json_response(self._message_json(message))

        return await self._guarded(request, work)

    async def edit_followup(self, request: web.Request) -> web.Response:
        async def work(interaction: FakeInteraction) -> web.Response:
            message = self._followup(interaction, request.match_info["message_id"])
            return await self._edit(message, request, limit=self._interaction_limit(interaction))

        return await self._guarded(request, work)

    async def delete_followup(self, request: web.Request) -> web.Response:
        async def work(interaction: FakeInteraction) -> web.Response:
            message = self._followup(interaction, request.match_info["message_id"])
            return await self._delete(message)

        return await self._guarded(request, work)

    # -- channels and messages ----------------------------------------------------------------

    def _channel(self, request: web.Request) -> FakeChannel:
        return self.world.channel_by_id(_snowflake(request.match_info["channel_id"]))

    def _channel_message(self, request: web.Request) -> FakeMessage:
        channel = self._channel(request)
        message = self.world.message_by_id(
            _snowflake(request.match_info["message_id"]), channel_id=channel.id
        )
        if message.ephemeral:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return message

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(payloads.channel(self._channel(request)))

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
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
        self._check_message(body)
        limit = self.world.attachment_size_limit
        self._check_files(body, self._uploads(request), None, limit=limit)
        self._may_attach(self._uploads(request), channel.id)
        self._require_not_empty(body, self._uploads(request))
        flags = int(body.get("flags") or 0) & SENDABLE_FLAGS
        message = self._new_message(channel, body, self._uploads(request), flags=flags)
        await self._announce("MESSAGE_CREATE", message)
        return json_response(self._message_json(message))

    async def get_message(self, request: web.Request) -> web.Response:
        return json_response(self._message_json(self._channel_message(request)))

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
        return await self._edit(message, request, limit=self.world.attachment_size_limit)

    async def delete_message(self, request: web.Request) -> web.Response:
        return await self._delete(self._channel_message(request))

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
        message = self._channel_message(request)
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
            raise ApiError(400, 50035, "Invalid Form Body", _type_error("invalid thread type"))
        thread = await self._new_thread(parent, body, kind=kind, thread_id=None)
        return json_response(payloads.channel(thread), status=201)

    async def typing(self, request: web.Request) -> web.Response:
        self._channel(request)
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
        self._check_message(body)
        message = self.world.new_message(channel, author)
        self._apply(message, body, uploads, editing=False)
        await self._announce("MESSAGE_CREATE", message)
        return message

    async def remove_message(self, message: FakeMessage) -> None:
        """Someone else deleted the message."""
        await self._delete(message)


def _dict_get(entry: Any, key: str) -> Any:
    return entry.get(key) if isinstance(entry, Mapping) else None


def _type_error(message: str) -> dict[str, Any]:
    return {
        "type": {"_errors": [{"code": "INTERACTION_CALLBACK_TYPE_INVALID", "message": message}]}
    }
