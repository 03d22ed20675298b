"""Where Mattekrig keeps its data and reads its settings, whatever folder it is started in.

The default database is one fixed place per user (``platformdirs``: on Linux
``~/.local/share/mattekrig/mattekrig.db``, honouring ``XDG_DATA_HOME``); Docker sets
``DATABASE_PATH=/data/mattekrig.db`` on its volume. Why not a path relative to the working
folder (``data/mattekrig.db``, early versions' default, still looked for by
`old_default_database`): started from another folder, the bot would silently make a new,
empty database and a class would see its leaderboard "reset".
"""

from __future__ import annotations

from pathlib import Path

# The folders are the storage layer's, shared with the class lesson (which never imports bot).
from storage.environment import dotenv_files
from storage.paths import APP, DATABASE_NAME, config_dir, data_dir, default_database

# The default before platformdirs, relative to the folder the bot was started in.
OLD_DEFAULT = Path("data") / DATABASE_NAME


def old_default_database(cwd: Path) -> Path | None:
    """A database left at the old default in ``cwd``, if there is one and nothing at the new
    default yet: starting a fresh database beside it would look like lost games."""
    old = cwd / OLD_DEFAULT
    if old.is_file() and not default_database().exists():
        return old
    return None


__all__ = [
    "APP",
    "DATABASE_NAME",
    "OLD_DEFAULT",
    "config_dir",
    "data_dir",
    "default_database",
    "dotenv_files",
    "old_default_database",
]
