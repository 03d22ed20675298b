"""What every message route of the fake shares: reading a body, Discord's checks on it, and
writing the message it makes or changes (state, attachments, gateway events).

:class:`MessageStore` is the base of the REST handlers (:mod:`.interaction_routes`,
:mod:`.rest`); refusals are :class:`~.errors.ApiError` with Discord's status and code.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from aiohttp import web

from . import payloads
from .bodies import BODY, UPLOADS, Upload
from .errors import (
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    ApiError,
    too_large,
)
from .gateway import Gateway
from .limits import (
    ATTACHMENT_SCHEME,
    EMBED_URL_FIELDS,
    FLAG_COMPONENTS_V2,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    FLAG_VOICE_MESSAGE,
    REQUEST_SIZE_MAX,
    FlagRule,
)
from .message_checks import check_attachments, check_message, require_not_empty
from .permissions import (
    ATTACH_FILES,
    VIEW_CHANNEL,
)
from .problems import Problems
from .state import (
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMessage,
    World,
)

# The flags a message keeps from a body (the endpoint's rule has refused any other).
SENDABLE_FLAGS = (
    FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_VOICE_MESSAGE | FLAG_COMPONENTS_V2
)

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


def snowflake_param(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ApiError(
            400,
            50035,
            "Invalid Form Body",
            {"id": {"_errors": [{"code": "NUMBER_TYPE_COERCE", "message": "Not a snowflake."}]}},
        ) from None


class MessageStore:
    """The world, the gateway, and the helpers the message routes share."""

    def __init__(self, world: World, gateway: Gateway, gateway_url: Callable[[], str]) -> None:
        self.world = world
        self.gateway = gateway
        self._gateway_url = gateway_url

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
        """Discord's file rules: each file at most `limit` bytes and all of them 25 MiB (413
        40005); at most 10 on the message, every ``attachments[].id`` an upload or a file of
        the message, and every ``attachment://NAME`` in an embed a file of the result (50035)."""
        sizes = [len(upload.data) for upload in uploads]
        if any(size > limit for size in sizes) or sum(sizes) > REQUEST_SIZE_MAX:
            raise too_large()
        kept = {a.id: a.filename for a in (message.attachments if message is not None else [])}
        problems = Problems()
        uploaded = {u.index: u.filename for u in uploads}
        check_attachments(body, uploaded, kept, problems, prefix)
        problems.raise_if_any()

    def _may_attach(self, uploads: list[Upload], channel_id: int | None) -> None:
        """A file needs the bot's Attach Files permission where it is posted (403 50013)."""
        if uploads and channel_id is not None:
            self._require(self.world.channel_by_id(channel_id), ATTACH_FILES)

    def _require(self, channel: FakeChannel, needed: int) -> None:
        """The bot's permissions in ``channel`` (its overwrites counted): 403 50001 when it
        cannot see the channel, 403 50013 when it lacks any other of ``needed``."""
        have = self.world.channel_permissions(self.world.bot_user, channel)
        if not have & VIEW_CHANNEL:
            raise ApiError(403, MISSING_ACCESS, "Missing Access")
        if have & needed != needed:
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
    def _check_message(
        body: Mapping[str, Any],
        flags: FlagRule,
        prefix: tuple[str, ...] = (),
        *,
        message: FakeMessage | None = None,
    ) -> None:
        problems = Problems()
        current = message.flags if message is not None else 0
        check_message(body, problems, prefix, flags=flags, current_flags=current)
        problems.raise_if_any()

    @staticmethod
    def _require_not_empty(
        body: Mapping[str, Any], uploads: list[Upload], message: FakeMessage | None = None
    ) -> None:
        """Refuse (50006) a body that would leave the message with nothing to show."""
        if message is None:
            require_not_empty(body, uploads=bool(uploads))
        else:
            require_not_empty(
                body,
                uploads=bool(uploads),
                content=message.content,
                embeds=message.embeds,
                components=message.components,
                attachments=message.attachments,
            )

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

    async def _edit(
        self, message: FakeMessage, request: web.Request, *, limit: int, flags: FlagRule
    ) -> web.Response:
        body = self._body(request)
        self._check_message(body, flags, message=message)
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


def _dict_get(entry: Any, key: str) -> Any:
    return entry.get(key) if isinstance(entry, Mapping) else None


def type_error(message: str) -> dict[str, Any]:
    return {
        "type": {"_errors": [{"code": "INTERACTION_CALLBACK_TYPE_INVALID", "message": message}]}
    }
