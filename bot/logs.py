"""Log lines for a terminal, a file or a log collector, and the ids of the press behind each.

* Colour only when the stream is a terminal (and ``NO_COLOR`` is unset): discord.py's own
  set-up also colours inside Docker, which leaves escape codes in container logs and files.
* ``LOG_FORMAT=json``: one JSON object per line (``time``, ``level``, ``logger``,
  ``message``, ``exception``), for a collector to filter on. Discord ids are strings there,
  because a snowflake does not fit a JSON reader's 53-bit float (jq, JavaScript).
* Nothing secret reaches a line (`bot.redact`): the redaction filter sits on the handler
  installed here and on every other handler of the root and discord.py loggers, and the
  press's own token and its user's names are cut out wherever they appear.
* Every line logged while a press (slash command, button, select, modal) is handled carries
  its ``interaction_id``, ``guild_id`` and, when the press names one, ``game_id``. They come
  from a context variable set while discord.py parses INTERACTION_CREATE: every task it
  starts for that press (command, item callback, modal, listeners) copies the context at
  creation, so the ids follow the press into the services without being passed around.
"""

from __future__ import annotations

import contextvars
import datetime as dt
import json
import logging
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

import discord

from bot.custom_ids import parse
from bot.redact import SECRETS, RedactFilter, install

PRESS_FIELDS = ("interaction_id", "guild_id", "game_id")


@dataclass(frozen=True, slots=True)
class Press:
    interaction_id: int
    guild_id: int | None
    game_id: int | None
    # never logged: cut out of every line logged for this press (bot.redact)
    secrets: tuple[str, ...] = field(default=(), repr=False, compare=False)


press: contextvars.ContextVar[Press | None] = contextvars.ContextVar("press", default=None)


def _snowflake(value: Any) -> int | None:
    return int(value) if isinstance(value, str | int) and str(value).isdigit() else None


def press_of(payload: Mapping[str, Any]) -> Press | None:
    """The ids of an INTERACTION_CREATE payload (the game from a button's or modal's id)."""
    interaction_id = _snowflake(payload.get("id"))
    if interaction_id is None:
        return None
    data = payload.get("data")
    custom_id = data.get("custom_id") if isinstance(data, Mapping) else None
    cid = parse(custom_id) if isinstance(custom_id, str) else None
    game_id = cid.game_id if cid is not None else None
    return Press(interaction_id, _snowflake(payload.get("guild_id")), game_id, _secrets(payload))


def _secrets(payload: Mapping[str, Any]) -> tuple[str, ...]:
    """The press's interaction token and its user's names (username, global and server
    name): texts no log line may show."""
    found = [payload.get("token")]
    member = payload.get("member")
    people = [payload.get("user")]
    if isinstance(member, Mapping):
        people.append(member.get("user"))
        found.append(member.get("nick"))
    for person in people:
        if isinstance(person, Mapping):
            found += [person.get("username"), person.get("global_name")]
    return tuple(text for text in found if isinstance(text, str) and text)


def _press_secrets() -> tuple[str, ...]:
    current = press.get()
    return current.secrets if current is not None else ()


SECRETS.current = _press_secrets


def watch_presses(client: discord.Client) -> None:
    """Set `press` while discord.py parses each interaction, so that everything it starts
    for the press logs its ids. Wraps discord.py's parser table (a dict it looks up per
    event): the one place every kind of interaction passes through synchronously."""
    parsers: dict[str, Callable[[Any], None]] = client._connection.parsers
    original = parsers["INTERACTION_CREATE"]
    if getattr(original, "watched", False):
        return

    def parse_interaction(data: Any) -> None:
        token = press.set(press_of(data) if isinstance(data, Mapping) else None)
        try:
            original(data)
        finally:
            press.reset(token)

    parse_interaction.watched = True  # type: ignore[attr-defined]
    parsers["INTERACTION_CREATE"] = parse_interaction


class PressFilter(logging.Filter):
    """Attach the current press's ids to a record (None outside a press)."""

    def filter(self, record: logging.LogRecord) -> bool:
        current = press.get()
        for name in PRESS_FIELDS:
            setattr(record, name, getattr(current, name) if current is not None else None)
        return True


def _press_text(record: logging.LogRecord) -> str:
    pairs = [
        f"{name.removesuffix('_id')}={value}"
        for name in PRESS_FIELDS
        if (value := getattr(record, name, None)) is not None
    ]
    return f" [{' '.join(pairs)}]" if pairs else ""


_COLOURS = {
    logging.DEBUG: "\x1b[40;1m",
    logging.INFO: "\x1b[34;1m",
    logging.WARNING: "\x1b[33;1m",
    logging.ERROR: "\x1b[31m",
    logging.CRITICAL: "\x1b[41m",
}
_RESET = "\x1b[0m"


class TextFormatter(logging.Formatter):
    """``2026-12-01 11:00:00 INFO     bot.client message [interaction=… guild=… game=…]``."""

    def __init__(self, *, colour: bool) -> None:
        super().__init__("%(asctime)s %(levelname)-8s %(name)s %(message)s", "%Y-%m-%d %H:%M:%S")
        self.colour = colour

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record) + _press_text(record)
        if not self.colour:
            return line
        colour = _COLOURS.get(record.levelno, "")
        return line.replace(record.levelname, f"{colour}{record.levelname}{_RESET}", 1)


class JsonFormatter(logging.Formatter):
    """One JSON object per line; multi-line tracebacks stay inside their line."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in PRESS_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                out[name] = str(value)
        if record.exc_text:  # already scrubbed by the redaction filter
            out["exception"] = record.exc_text
        elif record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def wants_colour(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and "NO_COLOR" not in os.environ


_installed: list[logging.Handler] = []


def setup_logging(
    level: str,
    fmt: str = "text",
    stream: TextIO | None = None,
    *,
    secrets: tuple[str, ...] = (),
) -> logging.Handler:
    """One handler on the root logger (replacing the one installed before, so a second call
    does not double every line), with the redaction filter on it and on every other handler
    there and on discord.py's logger; ``secrets`` (the bot's token) are cut out of every
    line. discord.py's voice warnings are switched off: the bot never joins a voice channel,
    so PyNaCl and davey are not installed."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    SECRETS.fixed = tuple(secret for secret in secrets if secret)
    target = stream if stream is not None else sys.stderr
    handler = logging.StreamHandler(target)
    handler.setFormatter(
        JsonFormatter() if fmt == "json" else TextFormatter(colour=wants_colour(target))
    )
    handler.addFilter(RedactFilter())
    handler.addFilter(PressFilter())
    root = logging.getLogger()
    for old in _installed:
        root.removeHandler(old)
    _installed[:] = [handler]
    root.addHandler(handler)
    install([*root.handlers, *logging.getLogger("discord").handlers])
    root.setLevel(getattr(logging, level))
    return handler
