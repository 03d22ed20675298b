"""The shape of a Discord bot token, checked before connecting.

A bot token is three base64url parts joined by dots: the bot's user id, a timestamp and a
signature (``MTIz….GhIjKl.AbC…``). The usual copy mistakes (a ``Bot `` prefix from an HTTP
example, quotes, a space or line break, the client secret or public key instead of the token)
would surface only as Discord's "improper token" after the network round trip; here each is
one sentence that says what to fix. The token itself never appears in a message.
"""

from __future__ import annotations

import base64
import binascii
import re

_PART = re.compile(r"[A-Za-z0-9_-]+")
_RESET = "copy it again from the Developer Portal (Bot → Reset Token)"


def token_problem(token: str) -> str | None:
    """One sentence saying what is wrong with the token's shape, or None when it looks right."""
    if len(token) >= 2 and token[0] == token[-1] and token[0] in "'\"":
        return "DISCORD_TOKEN is wrapped in quotes: remove them and keep only the token."
    if token[:4].lower() == "bot ":
        return "DISCORD_TOKEN starts with 'Bot ': remove that prefix and keep only the token."
    if any(char.isspace() for char in token):
        return f"DISCORD_TOKEN contains a space or a line break: {_RESET}, in one piece."
    parts = token.split(".")
    if len(parts) != 3:
        return (
            f"DISCORD_TOKEN should be three parts joined by dots but has {len(parts)}: it may "
            f"be the client secret or the public key instead of the bot token; {_RESET}."
        )
    if not all(_PART.fullmatch(part) for part in parts):
        return f"DISCORD_TOKEN contains characters a bot token never has: {_RESET}."
    if bot_id(token) is None:
        return f"DISCORD_TOKEN does not start with a bot's user id: {_RESET}."
    return None


def bot_id(token: str) -> int | None:
    """The bot's user id, which the token's first part encodes (None if it does not)."""
    first = token.split(".", 1)[0]
    try:
        text = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(text) if text.isdigit() and 0 < len(text) <= 20 else None
