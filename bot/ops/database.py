"""The database check that runs before login, with plain `sqlite3` (no migration, no write).

Why before login: opened in `setup_hook`, after a successful login, a bad path would show
up only once the token worked, and then as a 40-line traceback ("unable to open database
file", "file is not a database") or, for a new database in a read-only folder, as "cannot
reach Discord". Each problem here is one sentence.

The schema version this code knows is the highest numbered file in
``storage/migrations/`` (``NNNN_name.sql``); the database's own is ``PRAGMA
user_version``. Storage itself migrates at start; this module only reads.
"""

from __future__ import annotations

import re
import sqlite3
import tempfile
import urllib.parse
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from bot.config import StartupError
from bot.ops.private import make_folder

SQLITE_HEADER = b"SQLite format 3\x00"
_MIGRATION = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")


class DatabaseProblem(StartupError):
    """The database cannot be used as it is; one sentence saying what to do."""


@dataclass(frozen=True, slots=True)
class DatabaseReport:
    path: Path
    exists: bool  # the file was there before this start
    version: int  # PRAGMA user_version (0 for a new database)
    known: int  # the newest schema version this code can migrate to
    live_games: int | None  # None when the schema has no games table yet
    size: int  # bytes of the main file (the -wal file comes on top)

    def summary(self, *, checking: bool = False) -> str:
        """How the first log line and `mattekrig check` name the database. ``checking``:
        for `check`, which creates nothing, so a new database is one `run` will create."""
        if not self.exists and checking:
            made = "empty" if self.path.exists() else "not there yet"
            return (
                f"{self.path} (new, {made}: `mattekrig run` makes it, schema version {self.known})"
            )
        if not self.exists:
            return f"{self.path} (new: created with schema version {self.known})"
        migrate = f", migrated to {self.known} at start" if self.version < self.known else ""
        games = "" if self.live_games is None else f", {self.live_games} live game(s)"
        return f"{self.path} (schema version {self.version}{migrate}{games})"


def known_version() -> int:
    """The highest migration number shipped with this code."""
    folder = resources.files("storage.migrations")
    numbers = [
        int(match[1]) for entry in folder.iterdir() if (match := _MIGRATION.fullmatch(entry.name))
    ]
    return max(numbers, default=0)


def read_only_uri(path: Path) -> str:
    return f"file:{urllib.parse.quote(str(path))}?mode=ro"


def schema_version(path: Path) -> int:
    """``PRAGMA user_version`` of an existing SQLite file, opened read-only."""
    conn = sqlite3.connect(read_only_uri(path), uri=True)
    try:
        row = conn.execute("PRAGMA user_version").fetchone()
        return int(row[0])
    finally:
        conn.close()


def _live_games(path: Path) -> int | None:
    conn = sqlite3.connect(read_only_uri(path), uri=True)
    try:
        row = conn.execute("SELECT count(*) FROM games WHERE status = 'live'").fetchone()
        return int(row[0])
    except sqlite3.Error:  # an older or newer schema: nothing to count
        return None
    finally:
        conn.close()


def _writable_folder(folder: Path) -> str | None:
    """Why SQLite could not write in ``folder`` (None if it can): it needs the database's
    folder, not only the file, for the ``-wal`` and ``-shm`` files of WAL mode."""
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".mattekrig-check-"):
            return None
    except OSError as error:
        return error.strerror or str(error)


def _cannot_create(folder: Path, reason: str) -> DatabaseProblem:
    return DatabaseProblem(
        f"cannot create the folder {folder} for the database ({reason}): "
        "create it yourself or set DATABASE_PATH to a folder the bot may write."
    )


def _nearest_existing(folder: Path) -> Path:
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder


def check_folder(path: Path, create: bool) -> None:
    """The database's folder can hold it: it exists and is writable, or it can be made.

    Without ``create`` nothing is made, but a folder that `run` could not make is the same
    problem, in the same sentence: the nearest folder that exists must be a writable
    folder (`check` and `run` agree on every path)."""
    folder = path.parent
    if not folder.exists():
        above = _nearest_existing(folder)
        if not above.is_dir():
            raise DatabaseProblem(
                f"DATABASE_PATH {path} is inside {above}, which is a file, not a folder."
            )
        reason = _writable_folder(above)
        if reason is not None:
            raise _cannot_create(folder, reason)
        if not create:
            return
        try:
            make_folder(folder)
        except OSError as error:
            raise _cannot_create(folder, error.strerror or str(error)) from None
    elif not folder.is_dir():
        raise DatabaseProblem(
            f"DATABASE_PATH {path} is inside {folder}, which is a file, not a folder."
        )
    reason = _writable_folder(folder)
    if reason is not None:
        raise DatabaseProblem(
            f"the database {path} cannot be written: its folder {folder} is read-only "
            f"({reason}); the bot needs to write the file and its -wal and -shm files there."
        )


def _existing(path: Path) -> int:
    """The schema version of an existing file, after checking it is a writable database."""
    try:
        with path.open("r+b") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as error:
        raise DatabaseProblem(
            f"the database {path} cannot be opened for writing ({error.strerror}): give the "
            "bot's user write permission, or set DATABASE_PATH to a writable copy."
        ) from None
    if header and header != SQLITE_HEADER:
        raise DatabaseProblem(
            f"{path} is not a SQLite database: check that DATABASE_PATH names the bot's "
            "database file."
        )
    try:
        return schema_version(path)
    except sqlite3.DatabaseError as error:
        raise DatabaseProblem(f"{path} is not a usable SQLite database ({error}).") from None


def inspect_database(path: Path, *, create_folder: bool = True) -> DatabaseReport:
    """Check the database at ``path`` can be opened, written and migrated by this code.

    ``create_folder``: make a missing folder (start-up does; `mattekrig check` does not, but
    reports the same problem when it could not be made). A missing file is fine: Storage
    creates it. Raises DatabaseProblem with one sentence otherwise, also for a path the
    system refuses to look at (too long, a loop of links)."""
    try:
        return _inspect(path, create_folder)
    except OSError as error:
        raise DatabaseProblem(
            f"DATABASE_PATH {path} cannot be used ({error.strerror or error}): give the path "
            "of a file in a folder the bot may write."
        ) from None


def _inspect(path: Path, create_folder: bool) -> DatabaseReport:
    if path.is_dir():
        raise DatabaseProblem(
            f"DATABASE_PATH {path} is a folder: give the path of a file, e.g. "
            f"{path / 'mattekrig.db'}."
        )
    if path.exists() and not path.is_file():  # a device, a pipe, a socket
        raise DatabaseProblem(
            f"DATABASE_PATH {path} is not a regular file: give the path of the database file."
        )
    check_folder(path, create_folder)
    known = known_version()
    if not path.exists():
        return DatabaseReport(path, False, 0, known, None, 0)
    version = _existing(path)
    if path.stat().st_size == 0:  # made private by a start that went no further: still new
        return DatabaseReport(path, False, 0, known, None, 0)
    if version > known:
        raise DatabaseProblem(
            f"the database {path} has schema version {version}, but this version of "
            f"Mattekrig knows only up to {known}: install the newer Mattekrig again, or "
            "restore a backup made with this one."
        )
    return DatabaseReport(path, True, version, known, _live_games(path), path.stat().st_size)
