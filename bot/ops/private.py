"""Files only the bot's own user may read: the database, its -wal and -shm, the lock file,
backups, restore copies and exported pupil data are 0600, folders the bot makes 0700.

Why explicit modes instead of trusting the umask: the usual umask (022) leaves every file
readable by every account on the machine, and the database holds children's names, answers
and ratings. SQLite creates a database's -wal and -shm with the database file's own mode, so
a database file created 0600 (or made 0600 before SQLite opens it) keeps its companions
private too. The process umask is left alone: it belongs to whoever started the process.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

FILE_MODE = 0o600
FOLDER_MODE = 0o700
# What SQLite keeps beside a database in WAL mode, and the one-bot lock file.
COMPANIONS = ("-wal", "-shm", "-journal", ".lock")


def create_private(path: Path) -> bool:
    """Create ``path`` as an empty file of mode 0600 unless it exists; True if created.

    SQLite takes an empty file for a new database and keeps its mode."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def make_folder(folder: Path) -> None:
    """Create ``folder`` (and missing parents) as 0700; an existing folder is left as it is,
    since an operator may share a parent on purpose."""
    folder.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)


def is_private(path: Path) -> bool:
    """No permission bit for the group or others (a missing file counts as private)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return True
    return stat.S_IMODE(mode) & 0o077 == 0


def database_files(database: Path) -> list[Path]:
    """The database and each companion file that exists beside it now."""
    beside = [database.with_name(database.name + suffix) for suffix in COMPANIONS]
    return [path for path in (database, *beside) if path.is_file()]


def readable_by_others(database: Path) -> list[Path]:
    """The database's files that the group or other users may read or write."""
    return [path for path in database_files(database) if not is_private(path)]


def make_private(paths: list[Path]) -> list[Path]:
    """Set each regular file to 0600 (never a device or a folder); returns those whose mode
    changed."""
    changed = []
    for path in paths:
        if path.is_file() and not is_private(path):
            os.chmod(path, FILE_MODE)
            changed.append(path)
    return changed
