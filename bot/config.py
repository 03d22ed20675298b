"""The only module that reads the environment, so every setting has one place to look.

Settings come from the process environment, then the working folder's `.env`, then the
config folder's `.env` (``~/.config/mattekrig/.env`` on Linux): the first that sets a name
wins, so an operator can keep one `.env` for the machine and override it per start. The
files are read, never written into ``os.environ``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.database_url import url_label, url_problem
from bot.paths import default_database
from bot.token_shape import token_problem
from storage.environment import SettingsError, secret_file
from storage.environment import environment as shared_environment

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")


class StartupError(Exception):
    """A setting, the database or the lock stops the bot; the message is one sentence
    (no traceback), printed as ``mattekrig: <sentence>`` with exit code 2."""


class ConfigError(StartupError):
    """A setting is missing or malformed; the message is one sentence for the operator."""


@dataclass(frozen=True, slots=True)
class Config:
    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: str
    log_format: str = "text"
    # True when DATABASE_PATH was not set (the platformdirs default is in use)
    database_is_default: bool = False
    # the `.env` files that were found and read, in the order they count
    env_files: tuple[Path, ...] = ()
    # DATABASE_URL=postgresql://…: PostgreSQL instead of SQLite at database_path
    database_url: str | None = None
    # SHARD_COUNT / SHARD_IDS: this process's shards of shard_count (None: not sharded)
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # Retention (PRIVACY.md): a finished game's move log, and a pupil's results, are kept
    # this many days; a server's data this many days after the bot was removed from it.
    game_log_days: int = 30
    result_days: int = 730
    left_server_days: int = 30

    @property
    def database_label(self) -> str:
        """The database for messages and logs (a URL without its password)."""
        if self.database_url is None:
            return str(self.database_path)
        return url_label(self.database_url)

    def __repr__(self) -> str:  # never leak the token into logs
        return (
            f"Config(token=<hidden>, database={self.database_label!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r}, "
            f"log_format={self.log_format!r})"
        )


def environment(cwd: Path | None = None) -> tuple[dict[str, str], tuple[Path, ...]]:
    """The process environment over the `.env` files (first wins), and the files read (the
    reading is storage's, shared with the class lesson and the school server)."""
    try:
        return shared_environment(cwd)
    except SettingsError as error:
        raise ConfigError(str(error)) from None


# Settings that may come from a file named by NAME_FILE (Docker's and compose's secrets, mounted
# at /run/secrets/…): then the secret is in neither the container's environment, which `docker
# inspect` shows, nor a shell's history.
SECRET_SETTINGS = ("DISCORD_TOKEN", "DATABASE_URL")


def with_secret_files(
    environ: Mapping[str, str], problems: list[str], *, need_token: bool = True
) -> Mapping[str, str]:
    """``environ`` with each secret setting that is not set read from its ``NAME_FILE`` (the
    token's only when it is needed: backup and restore never read it)."""
    read = dict(environ)
    for name in SECRET_SETTINGS if need_token else SECRET_SETTINGS[1:]:
        given = environ.get(f"{name}_FILE", "").strip()
        if not given or environ.get(name, "").strip():
            continue
        read[name], problem = secret_file(name, given, "the bot's user")
        if problem is not None:
            problems.append(problem)
    return read


def read_config(
    environ: Mapping[str, str],
    *,
    need_token: bool = True,
    env_files: tuple[Path, ...] = (),
    cwd: Path | None = None,
) -> tuple[Config, list[str]]:
    """Every setting and every problem found, one sentence each (`mattekrig check` shows them
    all; start-up stops at the first). A bad value falls back to its default here so the
    other checks can still run."""
    problems: list[str] = []
    environ = with_secret_files(environ, problems, need_token=need_token)
    token = environ.get("DISCORD_TOKEN", "").strip()
    if need_token:
        if not token and environ.get("DISCORD_TOKEN_FILE", "").strip():
            pass  # with_secret_files said why the file gave no token
        elif not token:
            where = (
                f"put your bot token after DISCORD_TOKEN= in {env_files[0]}"
                if env_files
                else "copy .env.example to .env and put your bot token there"
            )
            problems.append(
                f"DISCORD_TOKEN is not set: {where} (or set the DISCORD_TOKEN environment "
                "variable)."
            )
        elif (problem := token_problem(token)) is not None:
            problems.append(problem)
    raw_guild = environ.get("DEV_GUILD_ID", "").strip()
    dev_guild_id: int | None = None
    if raw_guild:
        if raw_guild.isdigit() and int(raw_guild) > 0:
            dev_guild_id = int(raw_guild)
        else:
            problems.append(f"DEV_GUILD_ID must be a server id (digits only), not {raw_guild!r}.")
    log_level = environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if log_level not in LOG_LEVELS:
        problems.append(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}.")
        log_level = "INFO"
    log_format = environ.get("LOG_FORMAT", "text").strip().lower() or "text"
    if log_format not in LOG_FORMATS:
        problems.append(f"LOG_FORMAT must be text or json, not {log_format!r}.")
        log_format = "text"
    raw_path = environ.get("DATABASE_PATH", "").strip()
    # relative to the folder the bot starts in; logged and shown by `check` as an absolute path
    path = _database_path(raw_path, cwd, problems)
    database_url = environ.get("DATABASE_URL", "").strip() or None
    if database_url is not None and (problem := url_problem(database_url)) is not None:
        problems.append(problem.removesuffix(".") + "; unset it to use SQLite.")
        database_url = None
    shard_count, shard_ids = _shards(environ, problems)
    days = {name: _days(environ, name, default, problems) for name, default in RETENTION.items()}
    config = Config(
        token=token,
        database_path=Path(os.path.abspath(path)),
        dev_guild_id=dev_guild_id,
        log_level=log_level,
        log_format=log_format,
        database_is_default=not raw_path,
        env_files=env_files,
        database_url=database_url,
        shard_count=shard_count,
        shard_ids=shard_ids,
        game_log_days=days["GAME_LOG_DAYS"],
        result_days=days["RESULT_DAYS"],
        left_server_days=days["LEFT_SERVER_DAYS"],
    )
    return config, problems


# The retention settings and their defaults (days).
RETENTION = {"GAME_LOG_DAYS": 30, "RESULT_DAYS": 730, "LEFT_SERVER_DAYS": 30}


def _days(environ: Mapping[str, str], name: str, default: int, problems: list[str]) -> int:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or not 1 <= int(raw) <= 36_500:
        problems.append(f"{name} must be a whole number of days from 1, not {raw!r}.")
        return default
    return int(raw)


def _database_path(raw: str, cwd: Path | None, problems: list[str]) -> Path:
    if not raw:
        return default_database()
    try:
        return (cwd or Path.cwd()) / Path(raw).expanduser()
    except RuntimeError:  # `~name/…` for a user this machine does not know
        problems.append(f"DATABASE_PATH {raw} starts with a home folder that does not exist.")
        return default_database()


def _shards(
    environ: Mapping[str, str], problems: list[str]
) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT (how many shards in all) and SHARD_IDS (this process's, comma-separated;
    all of them when unset). Neither set: not sharded."""
    raw_count = environ.get("SHARD_COUNT", "").strip()
    raw_ids = environ.get("SHARD_IDS", "").strip()
    if not raw_count:
        if raw_ids:
            problems.append("SHARD_IDS needs SHARD_COUNT (how many shards there are in all).")
        return None, None
    if not raw_count.isdigit() or int(raw_count) < 1:
        problems.append(f"SHARD_COUNT must be a whole number from 1, not {raw_count!r}.")
        return None, None
    count = int(raw_count)
    if not raw_ids:
        return count, tuple(range(count))
    parts = [part.strip() for part in raw_ids.split(",")]
    if not all(part.isdigit() and int(part) < count for part in parts):
        problems.append(
            f"SHARD_IDS must be shard numbers 0 to {count - 1} separated by commas, "
            f"not {raw_ids!r}."
        )
        return None, None
    return count, tuple(sorted({int(part) for part in parts}))


def load_config(
    environ: Mapping[str, str] | None = None, *, dotenv: bool = True, need_token: bool = True
) -> Config:
    """Read settings from `environ` (default: the process environment over the `.env` files);
    raises ConfigError with the first problem. `need_token` is False for the commands that
    never connect (backup, restore)."""
    env_files: tuple[Path, ...] = ()
    if environ is None:
        environ, env_files = environment() if dotenv else (dict(os.environ), ())
    config, problems = read_config(environ, need_token=need_token, env_files=env_files)
    if problems:
        raise ConfigError(problems[0])
    return config
