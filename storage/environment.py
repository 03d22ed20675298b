"""The settings' sources, shared by every command (the bot, the class lesson, the school
server): the process environment, then the working folder's `.env`, then the config folder's
`.env` (``~/.config/mattekrig/.env`` on Linux); the first that sets a name wins. The files are
read, never written into ``os.environ``.

A secret may instead come from a file named by ``NAME_FILE`` (Docker's and compose's secrets,
mounted at /run/secrets/…, or systemd's credentials): then it is in neither the process's
environment, which ``docker inspect`` and ``/proc`` show, nor a shell's history.
"""

from __future__ import annotations

import os
from pathlib import Path

from dotenv import dotenv_values
from dotenv.parser import parse_stream

from storage.paths import config_dir


class SettingsError(Exception):
    """A `.env` file cannot be read; the message is one sentence for the operator."""


def dotenv_files(cwd: Path) -> tuple[Path, ...]:
    """The `.env` files read, first wins: the working folder's, then the config folder's."""
    return (cwd / ".env", config_dir() / ".env")


def environment(cwd: Path | None = None) -> tuple[dict[str, str], tuple[Path, ...]]:
    """The process environment over the `.env` files (first wins), and the files read."""
    merged: dict[str, str] = {}
    read: list[Path] = []
    for path in dotenv_files(cwd or Path.cwd()):
        if not path.is_file():
            continue
        read.append(path)
        readable_dotenv(path)
        for name, value in dotenv_values(path).items():
            if value is not None:
                merged.setdefault(name, value)
    merged.update(os.environ)
    return merged, tuple(read)


def readable_dotenv(path: Path) -> None:
    """Stop at the first line of a `.env` that python-dotenv cannot read, naming it.

    Why: the library skips such a line with a warning of its own, so an unclosed quote after
    DISCORD_TOKEN= came out as "DISCORD_TOKEN is not set" beside the library's raw message."""
    try:
        with path.open(encoding="utf-8") as stream:
            bad = next((b for b in parse_stream(stream) if b.error), None)
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise SettingsError(f"cannot read {path} ({reason}).") from None
    if bad is None:
        return
    text = bad.original.string.strip()
    name = text.split("=", 1)[0].strip() if "=" in text else ""
    if text.count('"') % 2 or text.count("'") % 2:
        value = f"{name}=" if name else "the value"
        fix = f"a quote after {value} is never closed; close it, or leave the quotes out"
    else:
        fix = "it is not NAME=value"
    raise SettingsError(f"{path} line {bad.original.line} cannot be read: {fix}.")


def secret_file(name: str, given: str, reader: str) -> tuple[str, str | None]:
    """The secret ``name`` read from the file ``given`` (its ``NAME_FILE``), and the problem
    (one sentence) when it cannot be read or is empty; ``reader`` is whose user must read it
    ("the bot's user")."""
    try:
        value = Path(given).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        return "", (
            f"{name}_FILE names {given}, which cannot be read ({reason}): the file must "
            f"exist and be readable by {reader}."
        )
    if not value:
        return "", f"{name}_FILE names {given}, which is empty: put the {name} in it."
    return value, None


__all__ = ["SettingsError", "dotenv_files", "environment", "readable_dotenv", "secret_file"]
