"""Discord's permission bits and how a channel's overwrites change a member's permissions.

The order is Discord's (topics/permissions#permission-overwrites in its documentation): the
guild's ``@everyone`` and role permissions, administrator meaning all; then the channel's
``@everyone`` overwrite, the member's roles' overwrites together, the member's own overwrite.
A thread takes its parent's overwrites. Without View Channel nothing else counts, and without
Send Messages a member cannot attach files, embed links or mention everyone either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

ADMINISTRATOR = 1 << 3
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1

EVERYONE_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS

# What a member loses with Send Messages (Discord: "implicit permissions").
_NEEDS_SEND = MENTION_EVERYONE | SEND_TTS_MESSAGES | ATTACH_FILES | EMBED_LINKS

ROLE_OVERWRITE = 0
MEMBER_OVERWRITE = 1


@dataclass
class Overwrite:
    """One channel overwrite: ``kind`` 0 for a role (the guild's id: ``@everyone``), 1 for a
    member; bits in ``allow`` are granted, bits in ``deny`` taken away."""

    kind: int
    allow: int = 0
    deny: int = 0


def guild_permissions(everyone: int, roles: Iterable[int]) -> int:
    """A member's guild-wide permissions: ``@everyone``'s and every role's, administrator all."""
    value = everyone
    for permissions in roles:
        value |= permissions
    return ALL_PERMISSIONS if value & ADMINISTRATOR else value


def channel_permissions(
    base: int,
    overwrites: Mapping[int, Overwrite],
    *,
    guild_id: int,
    role_ids: Iterable[int],
    member_id: int,
    thread: bool,
) -> int:
    """``base`` (guild permissions) after the channel's overwrites, in Discord's order."""
    if base & ADMINISTRATOR or base == ALL_PERMISSIONS:
        return ALL_PERMISSIONS
    value = base
    everyone = overwrites.get(guild_id)
    if everyone is not None:
        value = (value & ~everyone.deny) | everyone.allow
    allow = deny = 0
    for role_id in role_ids:
        overwrite = overwrites.get(role_id)
        if overwrite is not None and overwrite.kind == ROLE_OVERWRITE:
            allow |= overwrite.allow
            deny |= overwrite.deny
    value = (value & ~deny) | allow
    member = overwrites.get(member_id)
    if member is not None and member.kind == MEMBER_OVERWRITE:
        value = (value & ~member.deny) | member.allow
    if not value & VIEW_CHANNEL:
        return 0
    sends = SEND_MESSAGES_IN_THREADS if thread else SEND_MESSAGES
    if not value & sends:
        value &= ~_NEEDS_SEND
    return value
