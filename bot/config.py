"""The only module that reads the environment, so every setting has one place to look."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import find_dotenv, load_dotenv

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one sentence for the operator."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: str

    def __repr__(self) -> str:  # never leak the token into logs
        return (
            f"Config(token=<hidden>, database_path={str(self.database_path)!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r})"
        )


def load_config(environ: dict[str, str] | None = None, *, dotenv: bool = True) -> Config:
    """Read settings from `environ` (default: the process environment, after loading `.env`)."""
    if environ is None:
        if dotenv:
            # `.env` in the folder the bot is started from (the repository, per the README):
            # python-dotenv's default looks beside the calling module, which for an installed
            # package is site-packages.
            load_dotenv(find_dotenv(usecwd=True))
        environ = dict(os.environ)
    token = environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise ConfigError(
            "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token there "
            "(or set the DISCORD_TOKEN environment variable)."
        )
    raw_guild = environ.get("DEV_GUILD_ID", "").strip()
    dev_guild_id: int | None = None
    if raw_guild:
        if not raw_guild.isdigit():
            raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), not {raw_guild!r}.")
        dev_guild_id = int(raw_guild)
    log_level = environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if log_level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}.")
    database_path = Path(environ.get("DATABASE_PATH", "").strip() or "data/mattekrig.db")
    return Config(token, database_path, dev_guild_id, log_level)
