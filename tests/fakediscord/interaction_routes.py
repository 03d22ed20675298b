"""The interaction routes: the first answer (callback) within 3 s, then the interaction's
webhook (the original response and followups) for 15 minutes, as Discord rules them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from .bodies import INTERACTION, ROUTE
from .command_checks import check_autocomplete
from .component_checks import check_modal
from .errors import (
    ALREADY_ACKNOWLEDGED,
    INVALID_WEBHOOK_TOKEN,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    ApiError,
    not_found,
)
from .limits import (
    ANSWER_WINDOW,
    CALLBACK_TYPES,
    CALLBACK_TYPES_MODAL_WITHOUT_MESSAGE,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAGS_DEFERRED,
    FLAGS_FOLLOWUP,
    FLAGS_RESPONSE,
    FLAGS_WEBHOOK_EDIT,
    TOKEN_LIFETIME,
)
from .message_checks import check_message
from .messaging import (
    CHAT_INPUT_COMMAND,
    CONTEXT_MENU_COMMAND,
    REPLY,
    SENDABLE_FLAGS,
    MessageStore,
    json_response,
    no_content,
    snowflake_param,
    type_error,
)
from .problems import Problems
from .state import (
    APPLICATION_COMMAND,
    MODAL_SUBMIT,
    FakeInteraction,
    FakeMessage,
    FakeModal,
    RejectedCall,
)


class InteractionRoutes(MessageStore):
    """Callback and webhook handlers (the routes are listed by :class:`~.rest.RestApi`)."""

    # -- interaction callback -----------------------------------------------------------------

    def _reject(self, interaction: FakeInteraction, request: web.Request, error: ApiError) -> None:
        route = request.get(ROUTE, request.path)
        interaction.rejected.append(RejectedCall(request.method, route, error.status, error.code))

    async def callback(self, request: web.Request) -> web.Response:
        interaction = self.world.interaction_by_token(
            snowflake_param(request.match_info["webhook_id"]), request.match_info["webhook_token"]
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
        if world.older_than(interaction, ANSWER_WINDOW):
            raise not_found(UNKNOWN_INTERACTION, "interaction")
        body = self._body(request)
        kind = body.get("type")
        data = body.get("data") or {}
        self._check_callback_type(interaction, kind)
        problems = Problems()
        if kind == 4:
            check_message(data, problems, ("data",), flags=FLAGS_RESPONSE)
        elif kind == 5:
            check_message(data, problems, ("data",), flags=FLAGS_DEFERRED)
        elif kind == 7:
            flags = self._source_message(interaction).flags
            check_message(data, problems, ("data",), flags=FLAGS_WEBHOOK_EDIT, current_flags=flags)
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
            raise ApiError(400, 50035, "Invalid Form Body", type_error("no source message"))
        return interaction.message

    @staticmethod
    def _check_callback_type(interaction: FakeInteraction, kind: Any) -> None:
        allowed = CALLBACK_TYPES[interaction.type]
        if interaction.type == MODAL_SUBMIT and interaction.message is None:
            allowed = CALLBACK_TYPES_MODAL_WITHOUT_MESSAGE
        if kind not in allowed:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                type_error(f"Interaction callback type {kind} is not valid for this interaction"),
            )

    # -- interaction webhooks -----------------------------------------------------------------

    def _webhook_interaction(self, request: web.Request) -> FakeInteraction:
        if snowflake_param(request.match_info["webhook_id"]) != self.world.application_id:
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
        message_id = snowflake_param(raw_id)
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

    async def get_original(self, request: web.Request) -> web.Response:
        async def work(interaction: FakeInteraction) -> web.Response:
            return json_response(self._message_json(self._original(interaction)))

        return await self._guarded(request, work)

    async def edit_original(self, request: web.Request) -> web.Response:
        async def work(interaction: FakeInteraction) -> web.Response:
            limit = self._interaction_limit(interaction)
            return await self._edit(
                self._original(interaction), request, limit=limit, flags=FLAGS_WEBHOOK_EDIT
            )

        return await self._guarded(request, work)

    async def delete_original(self, request: web.Request) -> web.Response:
        async def work(interaction: FakeInteraction) -> web.Response:
            return await self._delete(self._original(interaction))

        return await self._guarded(request, work)

    async def post_followup(self, request: web.Request) -> web.Response:
        async def work(interaction: FakeInteraction) -> web.Response:
            body = self._body(request)
            self._check_message(body, FLAGS_FOLLOWUP)
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
            limit = self._interaction_limit(interaction)
            return await self._edit(message, request, limit=limit, flags=FLAGS_WEBHOOK_EDIT)

        return await self._guarded(request, work)

    async def delete_followup(self, request: web.Request) -> web.Response:
        async def work(interaction: FakeInteraction) -> web.Response:
            message = self._followup(interaction, request.match_info["message_id"])
            return await self._delete(message)

        return await self._guarded(request, work)
