"""`mattekrig privacy export | forget | forget-guild`: a parent's or a school's request,
answered by whoever runs the bot (PRIVACY.md, "Seeing and deleting your data").

The same service as `/mattekrig my-data` and `/mattekrig forget-me` does the work, so the
file and the deletion are exactly what the pupil would get themselves. It runs on SQLite or
PostgreSQL, also while the bot runs: a write from here waits for the bot's own in SQLite's
lock (or PostgreSQL's), and a pupil or server still in a live game is refused, as in
Discord, because the running bot would go on playing rows that are gone.

Every refusal is one sentence (`StartupError`), and nothing is created: no database where
there was none, no export file over an existing one. The export file is 0600.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from bot.config import Config, StartupError
from bot.ops.database import inspect_database
from bot.services.clock import SystemClock
from bot.services.privacy import GuildInPlay, PrivacyService, Retention
from bot.services.results import ResultsService
from classroom.errors import UserFacingError
from storage.errors import StorageError

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Exported:
    path: Path
    rows: int


def _run(config: Config, work: Callable[[PrivacyService], Awaitable[T]]) -> T:
    """Open the bot's database (never a new one), do ``work`` with its privacy service, close."""
    from storage.select import open_storage

    if (
        config.database_url is None
        and not inspect_database(config.database_path, create_folder=False).exists
    ):
        raise StartupError(f"there is no database at {config.database_path}.")

    async def _work() -> T:
        storage = await open_storage(config.database_path, config.database_url)
        try:
            clock = SystemClock()
            keep = Retention(config.game_log_days, config.result_days, config.left_server_days)
            return await work(PrivacyService(storage, clock, ResultsService(storage, clock), keep))
        finally:
            await storage.close()

    try:
        return asyncio.run(_work())
    except StorageError as error:
        raise StartupError(f"{error}.") from None


def export(config: Config, user_id: int, guild_id: int | None, output: Path | None) -> Exported:
    """Write the user's export (the my-data file) to ``output`` or, by default, to its own
    name in the working folder."""

    async def _export(privacy: PrivacyService) -> tuple[str, bytes, int]:
        name, body = await privacy.export_file(user_id, guild_id)
        tables = (await privacy.export(user_id, guild_id))["tables"]
        return name, body, sum(len(rows) for rows in tables.values())

    name, body, rows = _run(config, _export)
    path = output if output is not None else Path.cwd() / name
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise StartupError(f"{path} already exists: an export never overwrites a file.") from None
    except OSError as error:
        raise StartupError(f"cannot write {path} ({error.strerror or error}).") from None
    with os.fdopen(fd, "wb") as handle:
        handle.write(body)
    return Exported(path, rows)


def confirmed(question: str, yes: bool) -> None:
    """Go on only with ``--yes`` or a typed "yes" on a terminal."""
    if yes:
        return
    if not sys.stdin.isatty():
        raise StartupError(f"{question} Nothing was deleted: add --yes to confirm.")
    answer = input(f"{question} Type yes to delete: ").strip().lower()
    if answer != "yes":
        raise StartupError("nothing was deleted.")


def forget(config: Config, user_id: int, guild_id: int | None = None) -> dict[str, int]:
    """What forget-me does, for the user everywhere (or in one server)."""

    async def _forget(privacy: PrivacyService) -> dict[str, int]:
        try:
            return await privacy.forget(user_id, guild_id)
        except UserFacingError:  # privacy.forget.live_game, the one refusal forget has
            raise StartupError(
                f"user {user_id} is in a game that is still running: it must end (or be "
                "stopped) first; nothing was deleted."
            ) from None

    return _run(config, _forget)


def forget_guild(config: Config, guild_id: int) -> dict[str, int]:
    """Everything stored for the server."""

    async def _forget(privacy: PrivacyService) -> dict[str, int]:
        try:
            return await privacy.forget_guild(guild_id)
        except GuildInPlay as playing:
            raise StartupError(
                f"server {guild_id} has {len(playing.game_ids)} game(s) still running: end "
                "them (/mattekrig admin end), or remove the bot from the server, first; "
                "nothing was deleted."
            ) from None

    return _run(config, _forget)


def counts_text(counts: dict[str, int]) -> str:
    touched = [f"{table} {n}" for table, n in counts.items() if n]
    return ", ".join(touched) or "nothing was stored"
