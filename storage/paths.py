"""Where Mattekrig keeps its data on this computer, for every screen: the bot's database and
the class lesson's, in one fixed place per user (``platformdirs``: on Linux
``~/.local/share/mattekrig/``, honouring ``XDG_DATA_HOME``), whatever folder it is started
in, and private to that user.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "mattekrig"
DATABASE_NAME = "mattekrig.db"
# The class lessons' own file: a lesson runs without the bot, and a bot's backup or restore
# never touches a lesson in progress.
LESSONS_NAME = "lessons.db"


def data_dir() -> Path:
    return platformdirs.user_data_path(APP, appauthor=False)


def config_dir() -> Path:
    return platformdirs.user_config_path(APP, appauthor=False)


def default_database() -> Path:
    return data_dir() / DATABASE_NAME


def lessons_database() -> Path:
    return data_dir() / LESSONS_NAME


def private_file(path: Path) -> Path:
    """Make ``path`` a file only its owner may read or write (0600), in a folder only its
    owner may enter when it is new (0700): pupils' nicknames and answers are in it. SQLite
    gives its journal files the database file's own mode."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.close(fd)
    os.chmod(path, 0o600)
    return path


__all__ = [
    "APP",
    "DATABASE_NAME",
    "LESSONS_NAME",
    "config_dir",
    "data_dir",
    "default_database",
    "lessons_database",
    "private_file",
]
