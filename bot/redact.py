"""Nothing secret in any log line, at any level: no bot token, no interaction token, no pupil's
name and nothing a pupil typed (PRIVACY.md, "Logs").

Why a filter and not care at each call: at DEBUG, discord.py logs every gateway event and
every HTTP request and answer whole (``WebSocket Event: {...}``, ``POST …/interactions/<id>/
<token>/callback with {...}``), and those hold the interaction's token, the pupil's user and
member objects (names), what they typed into a modal, and the board's text with everyone's
names and answers. So every record is rewritten before any handler formats it:

* a mapping or list among a record's arguments (or a JSON text that parses to one) keeps
  only what identifies without telling: ids (``id``, ``…_id``), numbers, booleans, the
  event's name, our own ``custom_id`` and the locale; every other text becomes ``<hidden>``.
  The operator still finds a press by its ids; what a pupil wrote or is called is gone;
* a token in a URL (``/interactions/<id>/<token>``, ``/webhooks/<id>/<token>``), anything
  shaped like a bot token, the configured token itself, and the interaction token and names
  of the press being handled are replaced wherever they appear, tracebacks included.

The ids of the press being handled (interaction, server, game) stay: `bot.logs` adds
them to every line for the operator.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

HIDDEN = "<hidden>"
# Texts that never hold a secret: the gateway's event name, our custom ids (verb, game id,
# window, choice), a locale such as "nb".
# window, choice), a locale such as "nb", and Discord's own error message in an HTTP answer
# (a request's "message" is an object, never text).
_KEPT_TEXT = frozenset({"t", "custom_id", "locale", "guild_locale", "message"})
# A URL part that is a token: /interactions/<id>/<token>/..., /webhooks/<app id>/<token>/...
_URL_TOKEN = re.compile(r"(/(?:interactions|webhooks)/\d+/)([^/?#\s'\"]+)")
# A Discord bot token: base64 user id, timestamp, signature (bot.token_shape).
_BOT_TOKEN = re.compile(r"[A-Za-z0-9_-]{18,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{20,}")
# Names shorter than this are not hunted in free text: two letters would eat ordinary words.
MIN_NAME = 3


def _kept_key(key: object) -> bool:
    return isinstance(key, str) and (key == "id" or key.endswith("_id") or key in _KEPT_TEXT)


def scrub_value(value: Any, key: object = None) -> Any:
    """A payload with only ids, numbers and our own texts left (see the module docstring)."""
    if isinstance(value, Mapping):
        return {k: scrub_value(v, k) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [scrub_value(v, key) for v in value]
    if isinstance(value, str):
        return value if _kept_key(key) else HIDDEN
    if value is None or isinstance(value, bool | int | float):
        return value
    return HIDDEN


def _scrub_argument(value: Any) -> Any:
    if isinstance(value, Mapping | list | tuple):
        return scrub_value(value)
    if isinstance(value, bytes | bytearray):
        return f"<{len(value)} bytes>"
    if isinstance(value, str) and value[:1] in ("{", "["):
        try:
            parsed = json.loads(value)
        except ValueError:
            return value
        return json.dumps(scrub_value(parsed), ensure_ascii=False)
    return value


class Secrets:
    """The exact texts to cut out of every line: the bot's token, set once at start-up, and
    whatever the current press adds (its token and its user's names, `bot.logs`)."""

    def __init__(self) -> None:
        self.fixed: tuple[str, ...] = ()
        self.current: Callable[[], Iterable[str]] = tuple

    def scrub(self, text: str) -> str:
        text = _URL_TOKEN.sub(rf"\1{HIDDEN}", text)
        text = _BOT_TOKEN.sub(HIDDEN, text)
        for secret in (*self.fixed, *self.current()):
            if len(secret) < MIN_NAME or secret not in text:
                continue
            if secret.isalnum():  # a name: whole words only ("Ada" leaves "Adam" alone)
                text = re.sub(rf"(?<!\w){re.escape(secret)}(?!\w)", HIDDEN, text)
            else:
                text = text.replace(secret, HIDDEN)
        return text


SECRETS = Secrets()


class RedactFilter(logging.Filter):
    """Rewrites a record in place, once, before its handler formats it: the message with
    its arguments merged and scrubbed, and the traceback's text scrubbed."""

    def __init__(self, secrets: Secrets = SECRETS) -> None:
        super().__init__()
        self.secrets = secrets

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "redacted", False):
            return True
        args = record.args
        if isinstance(args, Mapping):
            args = scrub_value(args)
        elif args:
            args = tuple(_scrub_argument(arg) for arg in args)
        try:
            message = str(record.msg) % args if args else str(record.msg)
        except (TypeError, ValueError):  # a malformed call: keep its parts, scrubbed
            message = f"{record.msg} {args}"
        record.msg = self.secrets.scrub(message)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.secrets.scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = self.secrets.scrub(record.stack_info)
        record.redacted = True
        return True


def install(handlers: Iterable[logging.Handler]) -> None:
    """Put the filter on each handler that lacks it."""
    for handler in handlers:
        if not any(isinstance(f, RedactFilter) for f in handler.filters):
            handler.addFilter(RedactFilter())
