"""Requests Discord refuses, each sent to the fake as written, each answered as Discord
answers it: the status, the JSON error code, and for a bad body the field it names. One case
per rule: every payload of the list the fake was measured against (embeds, components,
messages, modals, callbacks, the command tree, state), and each limit of the message and modal
tables besides.

A fake that accepts any of them would let a bot pass its tests with a request Discord refuses.
The sample bot is connected only so the driver can create interactions; nothing here goes
through discord.py's client, which would check or delay some of these itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from .driver import Driver
from .helpers import button, row
from .limits import FLAG_EPHEMERAL, MODAL_SUBMIT
from .permissions import SEND_MESSAGES
from .raw import Answer, RawApi
from .sample_bot import SampleBot
from .server import FakeDiscord

pytestmark = pytest.mark.discord_refuses


@dataclass
class Context:
    fake: FakeDiscord
    driver: Driver
    api: RawApi

    @property
    def messages(self) -> str:
        return f"/channels/{self.fake.channel.id}/messages"

    @property
    def commands(self) -> str:
        app, guild = self.fake.application_id, self.fake.guild.id
        return f"/applications/{app}/guilds/{guild}/commands"

    async def send(self, body: dict[str, Any], files: dict[str, bytes] | None = None) -> Answer:
        return await self.api.call("POST", self.messages, body, files=files)

    async def slash(self) -> tuple[int, str]:
        """A fresh slash-command interaction nobody answers yet: (id, token)."""
        interaction = await self.driver.slash("alice", "mattekrig run", wait=False)
        return interaction.id, interaction.token

    async def answer(
        self, body: dict[str, Any], interaction: tuple[int, str] | None = None
    ) -> Answer:
        """POST ``body`` as the callback of ``interaction`` (a new slash command's if None)."""
        interaction_id, token = interaction or await self.slash()
        path = f"/interactions/{interaction_id}/{token}/callback"
        return await self.api.call("POST", path, body, bot_token=False)

    async def sync(self, commands: list[dict[str, Any]]) -> Answer:
        return await self.api.call("PUT", self.commands, commands)

    def webhook(self, token: str) -> str:
        return f"/webhooks/{self.fake.application_id}/{token}"


Send = Callable[[Context], Awaitable[Answer]]


@dataclass(frozen=True)
class Refusal:
    name: str
    status: int
    code: int
    path: str | None  # where the errors tree names the broken field (None: no tree)
    send: Send


def message(body: dict[str, Any], files: dict[str, bytes] | None = None) -> Send:
    async def send(ctx: Context) -> Answer:
        return await ctx.send(body, files)

    return send


def modal(data: dict[str, Any]) -> Send:
    async def send(ctx: Context) -> Answer:
        return await ctx.answer({"type": 9, "data": data})

    return send


def commands(body: list[dict[str, Any]]) -> Send:
    async def send(ctx: Context) -> Answer:
        return await ctx.sync(body)

    return send


def embed(**fields: Any) -> dict[str, Any]:
    return {"embeds": [{"title": "Brett", **fields}]}


def text_input(label: str = "Svar", custom_id: str = "svar") -> dict[str, Any]:
    return {
        "type": 18,
        "label": label,
        "component": {"type": 4, "custom_id": custom_id, "style": 1},
    }


def select(options: int) -> dict[str, Any]:
    choices = [{"label": f"Nivå {n}", "value": str(n)} for n in range(options)]
    return {"type": 3, "custom_id": "nivå", "options": choices}


def command(**fields: Any) -> dict[str, Any]:
    return {"name": "mattekrig", "description": "Spill", "type": 1, **fields}


def string_option(name: str, *, required: bool, **fields: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": "d", "required": required, **fields}


async def update_a_slash_command(ctx: Context) -> Answer:
    return await ctx.answer({"type": 7, "data": {"content": "ny"}})


async def modal_for_a_modal(ctx: Context) -> Answer:
    submitted = await ctx.driver.hostile(
        "alice", MODAL_SUBMIT, {"custom_id": "svar", "components": []}, wait=False
    )
    body = {"type": 9, "data": {"custom_id": "m", "title": "Igjen", "components": [text_input()]}}
    return await ctx.answer(body, (submitted.id, submitted.token))


async def callback_without_type(ctx: Context) -> Answer:
    return await ctx.answer({"data": {"content": "hei"}})


async def followup_before_the_answer(ctx: Context) -> Answer:
    _, token = await ctx.slash()
    return await ctx.api.call("POST", ctx.webhook(token), {"content": "først"}, bot_token=False)


async def followup_after_fifteen_minutes(ctx: Context) -> Answer:
    interaction = await ctx.slash()
    deferred = await ctx.answer({"type": 5}, interaction)
    assert deferred.status == 204
    ctx.fake.clock.advance(15 * 60 + 1)
    path = ctx.webhook(interaction[1])
    return await ctx.api.call("POST", path, {"content": "sent"}, bot_token=False)


async def ephemeral_edited_through_the_channel(ctx: Context) -> Answer:
    interaction = await ctx.slash()
    body = {"type": 4, "data": {"content": "bare til deg", "flags": FLAG_EPHEMERAL}}
    answered = await ctx.answer(body, interaction)
    assert answered.status == 204
    (stored,) = [m for m in ctx.fake.messages if m.interaction_id == interaction[0]]
    path = f"{ctx.messages}/{stored.id}"
    return await ctx.api.call("PATCH", path, {"content": "endret"})


async def post_to_an_unknown_channel(ctx: Context) -> Answer:
    return await ctx.api.call("POST", "/channels/1234/messages", {"content": "hei"})


async def post_without_send_messages(ctx: Context) -> Answer:
    await ctx.fake.set_permissions(ctx.fake.channel, deny=SEND_MESSAGES)
    return await ctx.send({"content": "hei"})


async def sixth_message_in_five_seconds(ctx: Context) -> Answer:
    ctx.fake.clock.freeze()
    ctx.fake.rate_limits.enable()
    for n in range(5):
        sent = await ctx.send({"content": f"melding {n}"})
        assert sent.status == 200
    return await ctx.send({"content": "én for mye"})


BIG = b"\0" * (10 * 1024 * 1024 + 1)

REFUSALS: list[Refusal] = [
    # -- messages: content and embeds ---------------------------------------------------------
    Refusal("content over 2000", 400, 50035, "content", message({"content": "x" * 2001})),
    Refusal("11 embeds", 400, 50035, "embeds", message({"embeds": [{"title": "t"}] * 11})),
    Refusal(
        "embeds over 6000 characters together",
        400,
        50035,
        "embeds",
        message({"embeds": [{"description": "x" * 4096}, {"description": "y" * 1905}]}),
    ),
    Refusal(
        "embed footer over 2048",
        400,
        50035,
        "embeds.0.footer.text",
        message(embed(footer={"text": "x" * 2049})),
    ),
    Refusal(
        "embed author name over 256",
        400,
        50035,
        "embeds.0.author.name",
        message(embed(author={"name": "x" * 257})),
    ),
    Refusal(
        "blank embed field name",
        400,
        50035,
        "embeds.0.fields.0.name",
        message(embed(fields=[{"name": " ", "value": "7"}])),
    ),
    Refusal(
        "blank embed field value",
        400,
        50035,
        "embeds.0.fields.0.value",
        message(embed(fields=[{"name": "Poeng", "value": ""}])),
    ),
    Refusal(
        "attachment:// naming no uploaded file",
        400,
        50035,
        "embeds.0.image.url",
        message(embed(image={"url": "attachment://bord.png"}), {"kort.png": b"png"}),
    ),
    # -- messages: components -----------------------------------------------------------------
    Refusal(
        "6 action rows",
        400,
        50035,
        "components",
        message({"components": [row(button(f"b{n}")) for n in range(6)]}),
    ),
    Refusal(
        "6 buttons in a row",
        400,
        50035,
        "components.0.components",
        message({"components": [row(*(button(f"b{n}") for n in range(6)))]}),
    ),
    Refusal(
        "duplicate custom_ids",
        400,
        50035,
        "components.0.components.1.custom_id",
        message({"components": [row(button("mk:join"), button("mk:join"))]}),
    ),
    Refusal(
        "a button without a custom_id",
        400,
        50035,
        "components.0.components.0.custom_id",
        message({"components": [row({"type": 2, "style": 1, "label": "Bli med"})]}),
    ),
    Refusal(
        "a button label over 80",
        400,
        50035,
        "components.0.components.0.label",
        message({"components": [row(button("b", label="x" * 81))]}),
    ),
    Refusal(
        "a custom_id over 100",
        400,
        50035,
        "components.0.components.0.custom_id",
        message({"components": [row(button("x" * 101))]}),
    ),
    Refusal(
        "a select with 0 options",
        400,
        50035,
        "components.0.components.0.options",
        message({"components": [row(select(0))]}),
    ),
    Refusal(
        "a select sharing its row",
        400,
        50035,
        "components.0.components",
        message({"components": [row(select(2), button("b"))]}),
    ),
    Refusal(
        "a select option label over 100",
        400,
        50035,
        "components.0.components.0.options.0.label",
        message(
            {"components": [row({**select(1), "options": [{"label": "x" * 101, "value": "1"}]})]}
        ),
    ),
    Refusal(
        "a top-level component that is not an action row",
        400,
        50035,
        "components.0",
        message({"components": [button("b")]}),
    ),
    # -- messages: the rest -------------------------------------------------------------------
    Refusal("an empty message", 400, 50006, None, message({"content": ""})),
    Refusal(
        "a flag the endpoint does not allow (ephemeral in a channel)",
        400,
        50035,
        "flags",
        message({"content": "hei", "flags": FLAG_EPHEMERAL}),
    ),
    Refusal(
        "allowed_mentions.parse users beside explicit user ids",
        400,
        50035,
        "allowed_mentions.users",
        message({"content": "hei", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}),
    ),
    Refusal(
        "an attachment id that is no file of the request",
        400,
        50035,
        "attachments.0.id",
        message({"content": "hei", "attachments": [{"id": 3}]}, {"kort.png": b"png"}),
    ),
    Refusal(
        "11 files",
        400,
        50035,
        "attachments",
        message({"content": "hei"}, {f"kort{n}.png": b"png" for n in range(11)}),
    ),
    Refusal("a file over 10 MiB", 413, 40005, None, message({"content": "hei"}, {"a.png": BIG})),
    # -- modals -------------------------------------------------------------------------------
    Refusal(
        "a modal with 0 components",
        400,
        50035,
        "data.components",
        modal({"custom_id": "m", "title": "Svar", "components": []}),
    ),
    Refusal(
        "a modal with 6 components",
        400,
        50035,
        "data.components",
        modal(
            {
                "custom_id": "m",
                "title": "Svar",
                "components": [text_input(custom_id=f"f{n}") for n in range(6)],
            }
        ),
    ),
    Refusal(
        "a modal custom_id over 100",
        400,
        50035,
        "data.custom_id",
        modal({"custom_id": "m" * 101, "title": "Svar", "components": [text_input()]}),
    ),
    Refusal(
        "a modal title over 45",
        400,
        50035,
        "data.title",
        modal({"custom_id": "m", "title": "x" * 46, "components": [text_input()]}),
    ),
    Refusal(
        "a text-input label over 45",
        400,
        50035,
        "data.components.0.label",
        modal({"custom_id": "m", "title": "Svar", "components": [text_input("x" * 46)]}),
    ),
    # -- interaction callbacks ----------------------------------------------------------------
    Refusal("an update (7) answering a slash command", 400, 50035, "type", update_a_slash_command),
    Refusal("a modal answering a modal", 400, 50035, "type", modal_for_a_modal),
    Refusal("a callback without a type", 400, 50035, "type", callback_without_type),
    # -- the command tree ---------------------------------------------------------------------
    Refusal(
        "an upper-case command name",
        400,
        50035,
        "0.name",
        commands([command(name="Mattekrig")]),
    ),
    Refusal(
        "an empty description",
        400,
        50035,
        "0.description",
        commands([command(description="")]),
    ),
    Refusal(
        "the locale key nb",
        400,
        50035,
        "0.name_localizations.nb",
        commands([command(name_localizations={"nb": "mattekrig"})]),
    ),
    Refusal(
        "a required option after an optional one",
        400,
        50035,
        "0.options.1.required",
        commands(
            [
                command(
                    options=[
                        string_option("modus", required=False),
                        string_option("nivå", required=True),
                    ]
                )
            ]
        ),
    ),
    Refusal(
        "26 choices",
        400,
        50035,
        "0.options.0.choices",
        commands(
            [
                command(
                    options=[
                        string_option(
                            "nivå",
                            required=True,
                            choices=[{"name": str(n), "value": str(n)} for n in range(26)],
                        )
                    ]
                )
            ]
        ),
    ),
    # -- state --------------------------------------------------------------------------------
    Refusal("a followup before the first answer", 404, 10015, None, followup_before_the_answer),
    Refusal("a followup after 15 minutes", 401, 50027, None, followup_after_fifteen_minutes),
    Refusal(
        "an ephemeral message edited through /channels",
        404,
        10008,
        None,
        ephemeral_edited_through_the_channel,
    ),
    Refusal("a post to an unknown channel", 404, 10003, None, post_to_an_unknown_channel),
    Refusal("a post without Send Messages", 403, 50013, None, post_without_send_messages),
    Refusal("a sixth message in five seconds", 429, 0, None, sixth_message_in_five_seconds),
]


def test_each_rule_has_one_case() -> None:
    names = [refusal.name for refusal in REFUSALS]
    assert len(names) == len(set(names)) == 43


@pytest.mark.parametrize("refusal", REFUSALS, ids=[r.name for r in REFUSALS])
async def test_discord_refuses(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot, refusal: Refusal
) -> None:
    before = len(fake_discord.messages_in())
    async with RawApi(fake_discord) as api:
        answer = await refusal.send(Context(fake_discord, driver, api))

    assert (answer.status, answer.code) == (refusal.status, refusal.code), answer.body
    if refusal.path is not None:
        assert answer.error_at(refusal.path), answer.body
    if refusal.status == 429:
        assert answer.body["retry_after"] > 0 and answer.headers["Via"]
    if refusal.status in (400, 413):
        assert len(fake_discord.messages_in()) == before  # nothing was posted
