"""A lesson process's hold on the lessons' SQLite file, so that `mattekrig restore --lessons`
never replaces the file under a lesson that is running: a shared `flock` on the lock file
beside it (``lessons.db.lock``, named as the bot's lock is). Any number of lesson processes
hold it at once; the restore's exclusive lock is then refused, and it says so.

The kernel drops the lock when the process ends, however it ends, so a lesson that crashed
never keeps a restore out. On Windows (no ``flock``) nothing is held: there the teacher
stops the lesson before a restore, as the for-schools pack says.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path


def lock_file(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


@contextlib.contextmanager
def held(database: Path) -> Iterator[None]:
    """Hold the lessons' file in use while the block runs (waits for a restore under way)."""
    if sys.platform == "win32":  # pragma: no cover - no flock on Windows
        yield
        return
    import fcntl

    fd = os.open(lock_file(database), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # closing drops the flock


__all__ = ["held", "lock_file"]
