"""One bot process per database: an exclusive `flock` on a lock file beside the database.

Why: two bots on one database would both run the timers of every live game and answer the
same buttons twice; SQLite's own locking keeps the file intact but not the games' flow. The
lock is also what `mattekrig restore` asks before it replaces the database under a bot.

`fcntl.flock` because the kernel drops it when the process dies, however it dies (a stale
lock file cannot keep the bot from starting again), and because a lock file of our own
leaves SQLite's locks alone. The file is ``<database>.lock`` and holds the pid of the
holder, for the operator's eyes only.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import TracebackType

from bot.config import StartupError
from bot.ops.private import FILE_MODE

# What `restore` leaves in the lock file (a holder leaves its pid, a clean stop nothing).
RESTORED = b"restored"


class DatabaseLocked(StartupError):
    """Another process holds the database's lock."""

    def __init__(self, database: Path, holder: int | None) -> None:
        pid = f" (process {holder})" if holder is not None else ""
        super().__init__(
            f"another Mattekrig bot{pid} is already running on the database {database}: "
            "stop it first, or give this bot its own DATABASE_PATH."
        )
        self.database = database
        self.holder = holder


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


def holder(database: Path) -> int | None:
    """The pid written by the lock's holder, if the lock file says one."""
    try:
        text = lock_path(database).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


class DatabaseLock:
    """``with DatabaseLock(path):`` holds the lock or raises DatabaseLocked at once."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.path = lock_path(database)
        self._fd: int | None = None
        # the last bot on this database died without closing it (its pid was left here)
        self.unclean_stop = False
        # ... and the database's -wal file is gone since: what was only in it is lost
        self.wal_lost = False
        # `mattekrig restore` replaced the database since the last bot on it
        self.restored = False

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, FILE_MODE)
        os.fchmod(fd, FILE_MODE)  # a lock file left by an older version was 0644
        try:
            import fcntl  # POSIX only: Windows has no flock, and imports this module too

            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise DatabaseLocked(self.database, holder(self.database)) from None
        # A clean stop empties the file (`release`); a kill leaves its holder's pid. SQLite
        # removes the -wal file only when its last connection closes: after a kill it is
        # still there, unless someone deleted it (then the commits only it held are gone,
        # and Discord's boards may show moves the database no longer has).
        left = os.pread(fd, 32, 0).strip()
        self.restored = left == RESTORED
        self.unclean_stop = bool(left) and not self.restored
        wal = self.database.with_name(self.database.name + "-wal")
        self.wal_lost = self.unclean_stop and self.database.is_file() and not wal.exists()
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self._fd = fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.ftruncate(fd, 0)
            os.close(fd)  # closing drops the flock

    @property
    def boards_may_be_ahead(self) -> bool:
        """Discord's boards may show moves this database does not have."""
        return self.wal_lost or self.restored

    def mark_restored(self) -> None:
        """Release, leaving the mark `restore` leaves for the next bot on the database."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.ftruncate(fd, 0)
            os.pwrite(fd, RESTORED + b"\n", 0)
            os.close(fd)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def __enter__(self) -> DatabaseLock:
        self.acquire()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.release()


def is_running(database: Path) -> bool:
    """Whether a bot holds the database's lock now (tries and releases it at once, leaving
    the file as it was: the pid a killed bot left there tells the next start so)."""
    path = lock_path(database)
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return False
    try:
        import fcntl  # POSIX only: Windows has no flock, and imports this module too

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # closing drops a flock taken here
    return False
