"""Small helpers for the fake's tests: raw Discord calls through discord.py's own HTTP client."""

from __future__ import annotations

from typing import Any

import discord
from discord.http import Route

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"


async def raw_callback(interaction: discord.Interaction, body: dict[str, Any]) -> Any:
    """POST an interaction callback body exactly as given, bypassing discord.py's own checks
    (so the fake's validation is what answers) but still through its HTTP client."""
    route = Route("POST", CALLBACK, webhook_id=interaction.id, webhook_token=interaction.token)
    return await interaction.client.http.request(route, json=body, params={"with_response": "1"})


async def raw_send(client: discord.Client, channel_id: int, body: dict[str, Any]) -> Any:
    """POST a message body exactly as given to a channel through discord.py's HTTP client."""
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    return await client.http.request(route, json=body)


def button(custom_id: str, label: str = "Trykk") -> dict[str, Any]:
    """A primary button component."""
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    """An action row."""
    return {"type": 1, "components": list(components)}
