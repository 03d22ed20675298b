"""The start-up checks: one list that `mattekrig check` reports and `mattekrig run` stops at.

Why one list: two lists drift apart (a database folder that could not be created would be
"fine" for `check` while `run` stopped on it). `inspect` runs every check without changing
anything, `check` prints what it found,
and `run` (through `prepare`) stops at the first problem of that same list, and only then
makes the database's folder and makes its files private (0600).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bot.config import Config, StartupError, environment, read_config
from bot.invite import invite_url
from bot.ops.database import DatabaseProblem, DatabaseReport, inspect_database
from bot.ops.lock import holder, is_running
from bot.ops.private import (
    create_private,
    database_files,
    is_private,
    make_private,
    readable_by_others,
)
from bot.paths import old_default_database
from bot.token_shape import bot_id


@dataclass
class Findings:
    lines: list[tuple[str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # whether a bot holds the SQLite database's lock (None: PostgreSQL, or no database)
    running: bool | None = None
    # False: the settings are a school server's alone (no Discord token), no bot is checked
    bot: bool = True

    def add(self, topic: str, text: str) -> None:
        """A line under ``topic``; a second one for the same topic replaces the first."""
        for index, (known, _) in enumerate(self.lines):
            if known == topic:
                self.lines[index] = (topic, text)
                return
        self.lines.append((topic, text))

    def text(self) -> str:
        width = max((len(topic) for topic, _ in self.lines), default=0)
        shown = [f"{topic.ljust(width)}  {text}" for topic, text in self.lines]
        return "\n".join([*shown, self.problem_text()]).strip("\n")

    def problem_text(self) -> str:
        return "\n".join(f"problem: {problem}" for problem in self.problems)


def _postgres(config: Config, found: Findings) -> None:
    """DATABASE_URL: reach and migrate the server once, as `run` would before Discord."""
    import asyncio

    from storage import StorageError
    from storage.select import open_storage

    async def _version() -> int:
        storage = await open_storage(config.database_path, config.database_url)
        try:
            return storage.schema_version
        finally:
            await storage.close()

    try:
        version = asyncio.run(_version())
    except StorageError as error:
        found.add("database", f"PostgreSQL {config.database_label}")
        found.problems.append(f"{error}.")
        return
    found.add("database", f"PostgreSQL {config.database_label}, schema version {version}")
    found.add("running", "bots on PostgreSQL share the database (no lock; see SHARD_IDS)")


def _database(config: Config, cwd: Path, found: Findings) -> None:
    if config.database_url is not None:
        _postgres(config, found)
        return
    path = config.database_path
    old = old_default_database(cwd) if config.database_is_default else None
    if old is not None:
        found.problems.append(old_database_sentence(old, path))
    try:
        report = inspect_database(path, create_folder=False)
    except DatabaseProblem as problem:
        found.add("database", str(path))
        found.problems.append(str(problem))
        return
    found.add("database", report.summary(checking=True))
    others = readable_by_others(path)
    if others:
        names = ", ".join(other.name for other in others)
        found.add("files", f"{names} readable by other users: `mattekrig run` makes them 0600")
    elif report.exists:
        found.add("files", "private to the bot's user (0600)")
    found.running = is_running(path)
    if found.running:
        pid = holder(path)
        found.add("running", f"yes, a bot runs on this database now (process {pid})")
    else:
        found.add("running", "no bot runs on this database now")


def exposed_secrets(env_files: tuple[Path, ...]) -> str | None:
    """A `.env` holds the token (and maybe the database's password): other users of the
    machine must not read it. Said, not a stop: the file is the operator's, not the bot's."""
    exposed = [path for path in env_files if not is_private(path)]
    if not exposed:
        return None
    names = " ".join(map(str, exposed))
    return f"{names} can be read by other users of this machine: chmod 600 {names}"


def old_database_sentence(old: Path, new: Path) -> str:
    return (
        f"DATABASE_PATH is not set and an older Mattekrig's database is at {old}: set "
        f"DATABASE_PATH={old} in .env to keep using it, or move it to {new}."
    )


def inspect(
    cwd: Path | None = None, *, settings_first: bool = False, need_token: bool = True
) -> tuple[Config, Findings]:
    """Every start-up check, without a network call (PostgreSQL aside) and without changing
    anything: settings, the database and its files, the lock, the token's shape.

    ``settings_first``: a settings problem ends the checks before the database is looked at
    (`run` stops at it; a PostgreSQL database is then not even reached). ``need_token``:
    False for `check` on a school server's settings alone (no Discord bot to check)."""
    here = cwd or Path.cwd()
    environ, env_files = environment(here)
    config, problems = read_config(environ, need_token=need_token, env_files=env_files, cwd=here)
    found = Findings(bot=need_token)
    found.add("settings", ", ".join(map(str, env_files)) or "no .env file (environment only)")
    if (exposed := exposed_secrets(env_files)) is not None:
        found.add("secrets", exposed)
    found.problems.extend(problems)
    if settings_first and problems:
        return config, found
    if not need_token:  # a school server alone: its PostgreSQL if any, none of the bot's lines
        if config.database_url is not None:
            _postgres(config, found)
        return config, found
    _database(config, here, found)
    token_ok = bool(config.token) and not any(p.startswith("DISCORD_TOKEN") for p in problems)
    if token_ok:
        user_id = bot_id(config.token)
        found.add("token", f"shape OK (the bot's user id {user_id})")
        if user_id is not None:
            found.add("invite", invite_url(user_id))
    where = (
        f"at start-up to server {config.dev_guild_id} (DEV_GUILD_ID)"
        if config.dev_guild_id is not None
        else "to no server at start-up (DEV_GUILD_ID is not set)"
    )
    found.add("commands", f"synced {where}; everywhere with `mattekrig sync`")
    found.add("logs", f"{config.log_level}, {config.log_format}")
    found.add(
        "keeping",
        f"move logs {config.game_log_days} days, results {config.result_days} days, a "
        f"server's data {config.left_server_days} days after the bot leaves it",
    )
    if config.shard_count is not None:
        ids = ", ".join(map(str, config.shard_ids or ()))
        found.add("shards", f"{ids} of {config.shard_count} (SHARD_IDS of SHARD_COUNT)")
    return config, found


@dataclass(frozen=True, slots=True)
class Ready:
    """What `run` starts from once every check has passed."""

    config: Config
    report: DatabaseReport | None  # None on PostgreSQL
    made_private: list[Path]  # the database's files whose mode was tightened to 0600
    exposed: str | None  # a `.env` other users can read: what to do about it


def prepare(cwd: Path | None = None) -> Ready:
    """`run`'s side of the checks: stop at the first problem `check` would report, then make
    the database's folder (0700) and its files private (0600). A new database file is
    created empty and 0600 here, so SQLite gives its -wal and -shm the same mode."""
    config, found = inspect(cwd, settings_first=True)
    if found.problems:
        raise StartupError(found.problems[0])
    exposed = exposed_secrets(config.env_files)
    if config.database_url is not None:
        return Ready(config, None, [], exposed)
    path = config.database_path
    report = inspect_database(path, create_folder=True)
    try:
        create_private(path)
        made = make_private(database_files(path))
    except OSError as error:
        raise StartupError(
            f"cannot make the database {path} private to the bot's user ({error.strerror})."
        ) from None
    return Ready(config, report, made, exposed)
