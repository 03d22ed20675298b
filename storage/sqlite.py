"""`Storage`: every area of the bot's state on one SQLite database.

The areas are modules of their own, each a class of methods over the same database:
games and their events (`games`), deadlines (`timers`), challenges and lobbies
(`invitations`), results and ratings (`results`), seasons (`seasons`), boards, names and
departed members (`boards`), the teacher's settings (`settings`), presets, sessions and
assignments (`teachers`), Discord's practice notes (`notes`), export, forget-me and
retention (`privacy`), and the browser's class lessons (`lessons`) and the classes that
remember (`classes`), and a school server's teachers and their sign-ins
(`school_teachers`). Every method is one transaction, run whole on the database thread
(storage/database.py).

``synchronous=FULL`` (not WAL's usual NORMAL) because a class's game should survive a power
cut too; group commit pays that fsync once per batch, not once per action.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

from storage.boards import BoardStorage
from storage.classes import ClassStorage
from storage.contract import Store
from storage.database import MEMORY, Database
from storage.games import GameStorage
from storage.invitations import InvitationStorage
from storage.lessons import LessonStorage
from storage.migrate import Migration, load_migrations, migrate
from storage.notes import NoteStorage
from storage.privacy import PrivacyStorage
from storage.records import GuildSettings
from storage.results import ResultStorage
from storage.school_teachers import SchoolTeacherStorage
from storage.seasons import SeasonStorage
from storage.sql import one
from storage.teachers import TeacherStorage
from storage.timers import TimerStorage


class Storage(
    GameStorage,
    TimerStorage,
    InvitationStorage,
    ResultStorage,
    SeasonStorage,
    BoardStorage,
    PrivacyStorage,
    TeacherStorage,
    LessonStorage,
    ClassStorage,
    NoteStorage,
    SchoolTeacherStorage,
):
    """The bot's repository. Create with ``await Storage.open(path)``; close when done."""

    def __init__(self, db: Database, path: str, schema_version: int) -> None:
        self._db = db
        self.path = path
        self.schema_version = schema_version
        self._settings_cache: dict[int, GuildSettings] = {}
        self._settings_generation = 0

    # ----------------------------------------------------------------- lifecycle

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str], *, migrations: list[Migration] | None = None
    ) -> Storage:
        """Open (creating folder and file if needed) and migrate the database at ``path``.

        ``":memory:"`` gives a private in-memory database (no WAL) for tests and quick
        experiments. Raises SchemaTooNewError when the file was written by a newer bot.
        """
        name = os.fspath(path)
        if name != MEMORY:
            Path(name).parent.mkdir(parents=True, exist_ok=True)
        found = load_migrations() if migrations is None else migrations
        db = Database.open(name)
        try:
            version = await db.raw(lambda conn: migrate(conn, found))
            db.open_reader()
        except BaseException:
            await db.close()
            raise
        return cls(db, name, version)

    async def close(self) -> None:
        """Finish the queued writes and close; safe to call twice."""
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def write_batches(self) -> int:
        """Write transactions committed since opening (group commit: usually < writes)."""
        return self._db.batches

    async def pragma(self, name: str) -> Any:
        """The value of a read-only PRAGMA (for diagnostics and tests)."""
        if not name.replace("_", "").isalpha():
            raise ValueError(f"not a pragma name: {name!r}")

        def _tx(conn: sqlite3.Connection) -> Any:
            row = one(conn, f"PRAGMA {name}", ())
            return None if row is None else row[0]

        return await self._db.raw(_tx)


if TYPE_CHECKING:  # mypy checks here that the backend implements the whole contract
    _IMPLEMENTS: type[Store] = Storage

__all__ = ["Storage"]
