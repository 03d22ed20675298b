"""What the fake Discord knows: guilds, channels, users, messages, interactions and commands.

Plain dataclasses that tests read directly (``message.content``, ``interaction.answered``); the
REST handlers and the driver change them, and :mod:`.payloads` turns them into Discord JSON.
The world outlives any one client, which is what makes restart tests possible.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any

import orjson

from .clock import FakeClock
from .component_checks import walk_components
from .errors import UNKNOWN_CHANNEL, UNKNOWN_INTERACTION, UNKNOWN_MESSAGE, not_found
from .limits import APPLICATION_COMMAND as APPLICATION_COMMAND  # interaction types, re-exported
from .limits import ATTACHMENT_SIZE_LIMIT, FLAG_EPHEMERAL, FLAG_LOADING
from .limits import AUTOCOMPLETE as AUTOCOMPLETE
from .limits import MESSAGE_COMPONENT as MESSAGE_COMPONENT
from .limits import MODAL_SUBMIT as MODAL_SUBMIT
from .limits import PING as PING
from .permissions import (  # the bits, re-exported for tests that change a world's rights
    ADMINISTRATOR as ADMINISTRATOR,
)
from .permissions import ATTACH_FILES as ATTACH_FILES
from .permissions import (
    BOT_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    Overwrite,
    channel_permissions,
    guild_permissions,
)
from .permissions import CREATE_PUBLIC_THREADS as CREATE_PUBLIC_THREADS
from .permissions import EMBED_LINKS as EMBED_LINKS
from .permissions import SEND_MESSAGES as SEND_MESSAGES
from .snowflake import SnowflakeFactory

TEXT_CHANNEL = 0
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12


@dataclass
class FakeUser:
    """A Discord user; ``locale`` is what their client sends as ``interaction.locale``."""

    id: int
    username: str
    global_name: str | None = None
    locale: str = "en-US"
    bot: bool = False
    role_ids: list[int] = field(default_factory=list)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class FakeRole:
    """A guild role; the ``@everyone`` role has the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0


@dataclass
class FakeChannel:
    """A text channel or thread (``type`` 11/12, ``parent_id`` set)."""

    id: int
    guild_id: int
    name: str
    type: int = TEXT_CHANNEL
    parent_id: int | None = None
    position: int = 0
    owner_id: int | None = None
    auto_archive_duration: int = 1440
    # Permission overwrites by role or member id (a thread uses its parent's).
    overwrites: dict[int, Overwrite] = field(default_factory=dict)

    @property
    def is_thread(self) -> bool:
        return self.type in (10, PUBLIC_THREAD, PRIVATE_THREAD)


@dataclass
class FakeGuild:
    """A server with its roles, channels and members (by id)."""

    id: int
    name: str
    owner_id: int
    preferred_locale: str = "no"
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    member_ids: list[int] = field(default_factory=list)


@dataclass
class FakeAttachment:
    """A file uploaded with a message (``files[n]`` in a multipart body)."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class FakeMessage:
    """A message as it looks now; ``history`` keeps each earlier version (a snapshot dict)."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    created_at: float
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    edited_at: float | None = None
    deleted: bool = False
    interaction_id: int | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    thread_id: int | None = None
    reference_id: int | None = None
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        """Only the invoking user sees it (flag 64)."""
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still showing "Bot is thinking…" (flag 128)."""
        return bool(self.flags & FLAG_LOADING)

    def all_components(self) -> list[dict[str, Any]]:
        """Every component in the message, rows and their children flattened."""
        return [dict(c) for c in walk_components(self.components)]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        """The component with this ``custom_id``, if the message has one."""
        for component in self.all_components():
            if component.get("custom_id") == custom_id:
                return component
        return None

    def custom_ids(self) -> list[str]:
        """Custom ids of every interactive component, in display order."""
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

    def buttons(self) -> list[dict[str, Any]]:
        """The message's buttons, in display order."""
        return [c for c in self.all_components() if c.get("type") == 2]

    def snapshot(self) -> dict[str, Any]:
        """The visible parts of this version, kept in ``history`` before an edit."""
        return {
            "content": self.content,
            "embeds": json_copy(self.embeds),
            "components": json_copy(self.components),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
            "edited_at": self.edited_at,
        }


@dataclass
class FakeModal:
    """A modal the bot opened (callback type 9), ready for ``driver.submit_modal``."""

    custom_id: str
    title: str
    components: list[dict[str, Any]]
    interaction: FakeInteraction

    def inputs(self) -> list[dict[str, Any]]:
        """The modal's inputs (text inputs, selects, …) with their custom ids."""
        return [
            dict(c)
            for c in walk_components(self.components)
            if "custom_id" in c and c.get("type") not in (1, 18)
        ]


@dataclass
class RejectedCall:
    """A REST call the fake refused, with Discord's status and JSON error code."""

    method: str
    route: str
    status: int
    code: int


@dataclass
class FakeInteraction:
    """One interaction the driver sent, and how (and how fast) the bot answered it."""

    id: int
    token: str = field(repr=False)  # kept out of failure output, like any token
    type: int
    user: FakeUser
    guild_id: int | None
    channel_id: int
    created_at: float
    payload: dict[str, Any] = field(repr=False)
    message: FakeMessage | None = None
    # the test's CPU waits when it was created: its 3-second window counts without them
    created_waits: dict[str, float] = field(default_factory=dict, repr=False)
    response_type: int | None = None
    responded_at: float | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    modal: FakeModal | None = None
    choices: list[dict[str, Any]] | None = None
    rejected: list[RejectedCall] = field(default_factory=list)

    @property
    def answered(self) -> bool:
        """Whether the initial callback was accepted."""
        return self.response_type is not None

    @property
    def answer_latency(self) -> float | None:
        """Seconds (fake clock) between creation and the accepted callback — data, not a test."""
        if self.responded_at is None:
            return None
        return self.responded_at - self.created_at

    @property
    def custom_id(self) -> str | None:
        """The pressed component's or submitted modal's custom_id."""
        value = self.payload.get("data", {}).get("custom_id")
        return None if value is None else str(value)

    @property
    def deferred(self) -> bool:
        return self.response_type in (5, 6)


@dataclass
class FakeCommand:
    """A registered application command as Discord stores it (the body the bot sent, plus ids)."""

    data: dict[str, Any]

    @property
    def id(self) -> int:
        return int(self.data["id"])

    @property
    def name(self) -> str:
        return str(self.data["name"])

    @property
    def type(self) -> int:
        return int(self.data.get("type", 1))

    @property
    def guild_id(self) -> int | None:
        value = self.data.get("guild_id")
        return None if value is None else int(value)


class World:
    """All of the fake's state, with small operations shared by REST handlers and the driver."""

    def __init__(self, clock: FakeClock, ids: SnowflakeFactory) -> None:
        self.clock = clock
        self.ids = ids
        self.application_id = ids.next()
        self.bot_user = FakeUser(self.application_id, "Mattekrig", bot=True)
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, FakeInteraction] = {}
        # Every callback and webhook request names its interaction by token: found by index,
        # not by a scan that grows with every press of a long benchmark.
        self._by_token: dict[str, FakeInteraction] = {}
        self.global_commands: list[FakeCommand] = []
        self.guild_commands: dict[int, list[FakeCommand]] = {}
        self.attachment_base_url = "http://127.0.0.1"
        # Bytes per file: the channel routes' limit, and what new interactions carry as their
        # `attachment_size_limit` (a test lowers it to try the limit with small files).
        self.attachment_size_limit = ATTACHMENT_SIZE_LIMIT

    # -- building ---------------------------------------------------------------------------

    @classmethod
    def default(cls, clock: FakeClock, ids: SnowflakeFactory) -> World:
        """A school server: channel ``klasserom``, pupils alice/bob/carol and a teacher."""
        world = cls(clock, ids)
        guild = world.add_guild("Testskolen", locale="no")
        world.add_channel("klasserom", guild=guild)
        teacher_role = world.add_role("Lærer", ADMINISTRATOR, guild=guild)
        world.add_user("alice", locale="no", guild=guild)
        world.add_user("bob", locale="sv-SE", guild=guild)
        world.add_user("carol", locale="en-US", guild=guild)
        teacher = world.add_user("teacher", locale="no", guild=guild, roles=[teacher_role])
        guild.owner_id = teacher.id
        return world

    def add_guild(self, name: str, *, locale: str = "no") -> FakeGuild:
        """A guild with an ``@everyone`` role and the bot as a member (with its own role)."""
        guild_id = self.ids.next()
        guild = FakeGuild(guild_id, name, owner_id=self.bot_user.id, preferred_locale=locale)
        guild.roles[guild_id] = FakeRole(guild_id, "@everyone", EVERYONE_PERMISSIONS)
        self.guilds[guild_id] = guild
        bot_role = self.add_role(self.bot_user.username, BOT_PERMISSIONS, guild=guild)
        self.bot_user.role_ids.append(bot_role.id)
        guild.member_ids.append(self.bot_user.id)
        return guild

    def add_role(self, name: str, permissions: int, *, guild: FakeGuild | None = None) -> FakeRole:
        guild = guild or self.guild
        role = FakeRole(self.ids.next(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        return role

    def add_user(
        self,
        username: str,
        *,
        locale: str = "en-US",
        guild: FakeGuild | None = None,
        roles: list[FakeRole] | None = None,
    ) -> FakeUser:
        """A human member of ``guild`` (the default guild unless given)."""
        guild = guild or self.guild
        user = FakeUser(self.ids.next(), username, global_name=username.title(), locale=locale)
        user.role_ids = [r.id for r in roles or []]
        self.users[user.id] = user
        guild.member_ids.append(user.id)
        return user

    def add_channel(
        self,
        name: str,
        *,
        guild: FakeGuild | None = None,
        type: int = TEXT_CHANNEL,
        parent_id: int | None = None,
        owner_id: int | None = None,
    ) -> FakeChannel:
        guild = guild or self.guild
        channel = FakeChannel(
            self.ids.next(),
            guild.id,
            name,
            type=type,
            parent_id=parent_id,
            position=len(guild.channel_ids),
            owner_id=owner_id,
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    # -- lookups ------------------------------------------------------------------------------

    @property
    def guild(self) -> FakeGuild:
        """The first (default) guild."""
        return next(iter(self.guilds.values()))

    @property
    def channel(self) -> FakeChannel:
        """The default guild's first channel."""
        return self.channels[self.guild.channel_ids[0]]

    def user(self, name: str) -> FakeUser:
        """A user by username."""
        for user in self.users.values():
            if user.username == name:
                return user
        raise KeyError(name)

    def channel_by_id(self, channel_id: int) -> FakeChannel:
        try:
            return self.channels[channel_id]
        except KeyError:
            raise not_found(UNKNOWN_CHANNEL, "Channel") from None

    def message_by_id(self, message_id: int, *, channel_id: int | None = None) -> FakeMessage:
        """A live message (404 10008 if deleted, unknown or in another channel)."""
        message = self.messages.get(message_id)
        if message is None or message.deleted:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        if channel_id is not None and message.channel_id != channel_id:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return message

    def channel_messages(self, channel: FakeChannel | int) -> list[FakeMessage]:
        """Live, non-ephemeral messages of a channel, oldest first."""
        channel_id = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and not m.deleted and not m.ephemeral
        ]

    def add_interaction(self, interaction: FakeInteraction) -> None:
        self.interactions[interaction.id] = interaction
        self._by_token[interaction.token] = interaction

    def older_than(self, interaction: FakeInteraction, seconds: float) -> bool:
        """Whether the bot has had more than ``seconds`` to answer ``interaction`` (its
        3-second window), on the clock's count: the test's waits for a CPU are not the bot's
        (clock.py). Those are only read once the clock alone says so: this is asked often."""
        if self.clock.now() - interaction.created_at <= seconds:
            return False
        return self.clock.elapsed((interaction.created_at, interaction.created_waits)) > seconds

    def find_interaction(self, token: str) -> FakeInteraction | None:
        return self._by_token.get(token)

    def interaction_by_token(self, interaction_id: int | None, token: str) -> FakeInteraction:
        """The interaction for a callback/webhook token (404 10062 when unknown)."""
        interaction = self.find_interaction(token)
        if interaction is None or interaction_id not in (None, interaction.id):
            raise not_found(UNKNOWN_INTERACTION, "interaction")
        return interaction

    def permissions(self, user: FakeUser, guild: FakeGuild) -> int:
        """A member's guild permissions (administrator means all)."""
        roles = [guild.roles[r].permissions for r in user.role_ids if r in guild.roles]
        return guild_permissions(guild.roles[guild.id].permissions, roles)

    def channel_permissions(self, user: FakeUser, channel: FakeChannel) -> int:
        """A member's permissions in one channel: the guild's, then the channel's overwrites
        (a thread's parent's), as Discord computes them."""
        guild = self.guilds[channel.guild_id]
        parent = self.channels.get(channel.parent_id) if channel.parent_id is not None else None
        source = parent if channel.is_thread and parent is not None else channel
        return channel_permissions(
            self.permissions(user, guild),
            source.overwrites,
            guild_id=guild.id,
            role_ids=user.role_ids,
            member_id=user.id,
            thread=channel.is_thread,
        )

    def set_overwrite(
        self,
        channel: FakeChannel,
        target: FakeUser | FakeRole,
        *,
        allow: int = 0,
        deny: int = 0,
    ) -> None:
        """Set (replace) the channel's overwrite for a member or a role."""
        kind = 1 if isinstance(target, FakeUser) else 0
        channel.overwrites[target.id] = Overwrite(kind, allow, deny)

    def commands_for(self, guild_id: int | None) -> list[FakeCommand]:
        """Guild commands first, then global ones: what a user in that guild can invoke."""
        local = self.guild_commands.get(guild_id, []) if guild_id is not None else []
        return [*local, *self.global_commands]

    # -- changing -----------------------------------------------------------------------------

    def new_message(
        self, channel: FakeChannel, author: FakeUser, *, flags: int = 0, type: int = 0
    ) -> FakeMessage:
        """An empty message in ``channel``; the caller fills it from a request body."""
        message = FakeMessage(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            created_at=self.clock.now(),
            flags=flags,
            type=type,
        )
        self.messages[message.id] = message
        return message

    def new_attachment(
        self,
        filename: str,
        data: bytes,
        *,
        channel_id: int,
        content_type: str | None = None,
        description: str | None = None,
        ephemeral: bool = False,
    ) -> FakeAttachment:
        attachment_id = self.ids.next()
        url = f"{self.attachment_base_url}/attachments/{channel_id}/{attachment_id}/{filename}"
        return FakeAttachment(
            attachment_id,
            filename,
            data,
            content_type=content_type,
            description=description,
            url=url,
            ephemeral=ephemeral,
        )

    def new_interaction_token(self, interaction_id: int) -> str:
        """An unguessable token, as Discord's are (never logged by the fake)."""
        return f"fake-{interaction_id}-{secrets.token_urlsafe(24)}"


def json_copy(value: Any) -> Any:
    """A deep copy of JSON data (what a body parsed from a request holds), through orjson:
    several times faster than `copy.deepcopy`, and the fake keeps a copy of every version of
    every message it edits. What orjson refuses (an integer past 64 bits, as the
    hostile-input tests send) is copied by the standard library."""
    try:
        return orjson.loads(orjson.dumps(value))
    except TypeError:
        return json.loads(json.dumps(value))
