"""The invite link and the permissions it asks for, in one place (README explains each).

The bot sends and edits its own messages (boards, challenges, lobbies), with embeds, in the
channels it is used in, and can start a public thread per game; that is all it needs:
View Channels, Send Messages, Embed Links, Read Message History (editing an old board after
a restart fetches it), Create Public Threads and Send Messages in Threads. Answers to slash
commands and buttons go through the interaction itself and need no permission. No
administrator, no moderation, no message content.
"""

from __future__ import annotations

import discord

PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    create_public_threads=True,
    send_messages_in_threads=True,
)
SCOPES = ("bot", "applications.commands")


def invite_url(application_id: int) -> str:
    return discord.utils.oauth_url(application_id, permissions=PERMISSIONS, scopes=SCOPES)


def ready_line(client: discord.Client) -> str:
    """What the log says once the bot is connected: who it is, where, and how to add it."""
    user = client.user
    name = f"{user} (id {user.id})" if user is not None else "an unknown user"
    servers = len(client.guilds)
    invite = invite_url(client.application_id) if client.application_id else "unknown"
    return f"ready as {name} in {servers} server(s); invite link: {invite}"
