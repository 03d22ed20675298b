"""Discord JSON for the fake's state objects, shaped as discord.py 2.7 parses them."""

from __future__ import annotations

import datetime
from typing import Any

from .state import (
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeRole,
    FakeUser,
    World,
)


def iso(unix_seconds: float) -> str:
    """An ISO 8601 timestamp as Discord writes them."""
    return datetime.datetime.fromtimestamp(unix_seconds, datetime.UTC).isoformat()


def user(u: FakeUser) -> dict[str, Any]:
    return {
        "id": str(u.id),
        "username": u.username,
        "global_name": u.global_name,
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "public_flags": 0,
    }


def member(
    world: World, u: FakeUser, guild: FakeGuild, *, with_user: bool = True
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "roles": [str(r) for r in u.role_ids if r in guild.roles],
        "joined_at": iso(world.clock.now()),
        "nick": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
    }
    if with_user:
        data["user"] = user(u)
    return data


def role(r: FakeRole) -> dict[str, Any]:
    return {
        "id": str(r.id),
        "name": r.name,
        "permissions": str(r.permissions),
        "position": r.position,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def channel(c: FakeChannel) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(c.id),
        "type": c.type,
        "guild_id": str(c.guild_id),
        "name": c.name,
        "position": c.position,
        "permission_overwrites": [
            {"id": str(target), "type": o.kind, "allow": str(o.allow), "deny": str(o.deny)}
            for target, o in c.overwrites.items()
        ],
        "nsfw": False,
        "parent_id": None if c.parent_id is None else str(c.parent_id),
        "rate_limit_per_user": 0,
        "topic": None,
        "last_message_id": None,
        "flags": 0,
    }
    if c.is_thread:
        data["owner_id"] = None if c.owner_id is None else str(c.owner_id)
        data["thread_metadata"] = {
            "archived": False,
            "auto_archive_duration": c.auto_archive_duration,
            "archive_timestamp": iso(0),
            "locked": False,
        }
        data["message_count"] = 0
        data["member_count"] = 1
    return data


def guild_create(world: World, g: FakeGuild, *, all_members: bool) -> dict[str, Any]:
    """The GUILD_CREATE body: channels (threads apart), roles and members — every member only
    with the GUILD_MEMBERS intent, otherwise just the bot itself, as Discord does."""
    channels = [world.channels[c] for c in g.channel_ids]
    member_ids = g.member_ids if all_members else [world.bot_user.id]
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "owner_id": str(g.owner_id),
        "preferred_locale": g.preferred_locale,
        "features": [],
        "roles": [role(r) for r in g.roles.values()],
        "emojis": [],
        "stickers": [],
        "channels": [channel(c) for c in channels if not c.is_thread],
        "threads": [channel(c) for c in channels if c.is_thread],
        "members": [member(world, world.users[u], g) for u in member_ids],
        "member_count": len(g.member_ids),
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "large": False,
        "unavailable": False,
        "joined_at": iso(world.clock.now()),
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "system_channel_flags": 0,
        "afk_timeout": 300,
    }


def attachment(a: FakeAttachment) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(a.id),
        "filename": a.filename,
        "size": a.size,
        "url": a.url,
        "proxy_url": a.url,
        "ephemeral": a.ephemeral,
    }
    if a.content_type is not None:
        data["content_type"] = a.content_type
    if a.description is not None:
        data["description"] = a.description
    return data


def message(world: World, m: FakeMessage) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(m.id),
        "channel_id": str(m.channel_id),
        "author": user(m.author),
        "content": m.content,
        "timestamp": iso(m.created_at),
        "edited_timestamp": None if m.edited_at is None else iso(m.edited_at),
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [attachment(a) for a in m.attachments],
        "embeds": m.embeds,
        "components": m.components,
        "pinned": False,
        "type": m.type,
        "flags": m.flags,
    }
    if m.guild_id is not None:
        data["guild_id"] = str(m.guild_id)
    if m.webhook_id is not None:
        data["webhook_id"] = str(m.webhook_id)
    if m.application_id is not None:
        data["application_id"] = str(m.application_id)
    if m.reference_id is not None:
        data["message_reference"] = {
            "type": 0,
            "message_id": str(m.reference_id),
            "channel_id": str(m.channel_id),
        }
    if m.thread_id is not None and m.thread_id in world.channels:
        data["thread"] = channel(world.channels[m.thread_id])
    if m.interaction_id is not None and m.interaction_id in world.interactions:
        interaction = world.interactions[m.interaction_id]
        data["interaction_metadata"] = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": user(interaction.user),
            "authorizing_integration_owners": {},
        }
    return data
