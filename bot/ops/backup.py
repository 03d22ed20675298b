"""`mattekrig backup PATH` and `mattekrig restore PATH`.

Why SQLite's online backup API and not `cp`: the database runs in WAL mode, so recent
commits may live only in ``mattekrig.db-wal``; copying the main file alone (or the two at
different moments while the bot writes) can give a copy that lacks games or is corrupt. The
backup API copies a consistent snapshot from inside SQLite, in one step, while the bot
keeps writing (a WAL reader never blocks the writer). The copy is a single self-contained
file (journal mode DELETE), checked with ``PRAGMA integrity_check`` before it is given its
name, so a half-written backup never looks like a good one.

A backup into a folder is a dated file (``mattekrig-YYYYMMDD-HHMMSS.db``); a path ending in
``/`` names a folder even before it exists, so a nightly job's first run makes it instead of a
file named like the folder (which made every later night fail with "already exists").
``keep`` prunes that folder's dated backups to the newest N after a good copy: backups hold
pupils' data, so they must not pile up for ever (PRIVACY.md says how long they live). Every
file made here is 0600 (`bot.ops.private`).

Restore replaces the database's content the same way, only while no bot holds its lock, and
first keeps the database it replaces beside it (``<name>.before-restore-<time>.db``). Then it
applies again every forget-me and forgotten server that the replaced database recorded and
the backup had not: an old backup must never bring a forgotten pupil back (the forgets are
kept as fingerprints, `storage.privacy`). It also carries over the servers the replaced
database knew the bot had left, with the day each left: else the bot, finding them gone at its
next start, would mark them as leaving that day and their 30 days would start over.

The lessons' database (``lessons.db``, `mattekrig backup --lessons`) is backed up and
restored the same way, as ``lessons-<time>.db``: it has the same schema, and it records every
class deleted, pupil of a class forgotten and lesson deleted as the bot records its forgets,
so a restore deletes them again. Its lock is the one every running lesson holds shared
(`table.in_use`): no restore under a lesson.

A ``before-restore`` copy holds pupils' data as any backup does, so it lives no longer than the
recommended nightly backups (``RESTORE_COPY_DAYS``): every backup and every restore deletes the
older ones beside the database.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from bot.config import StartupError
from bot.ops.database import check_folder, known_version, read_only_uri
from bot.ops.lock import DatabaseLock, DatabaseLocked
from bot.ops.private import create_private, database_files, make_folder, make_private
from storage.errors import StorageError

# A dated backup's name (the bot's database; the lessons' are ``lessons-…``): only files
# named like this are ever pruned.
DATED = re.compile(r"mattekrig-(\d{8}-\d{6})\.db")
BOT, LESSONS = "mattekrig", "lessons"
# How long a copy kept by `restore` lives: as long as the nightly backups (`--keep 14`).
RESTORE_COPY_DAYS = 14


@dataclass(frozen=True, slots=True)
class Copied:
    path: Path
    version: int
    size: int
    kept: Path | None = None  # restore: where the replaced database was kept
    # backup --keep: older dated backups deleted; both: before-restore copies past their days
    pruned: tuple[Path, ...] = ()
    # restore: pupils and servers forgotten again (forgets made after the backup was taken)
    forgotten_again: tuple[int, int] = (0, 0)
    # ... and the lessons' classes, pupils of a class and lessons deleted again
    deleted_again: tuple[int, int, int] = (0, 0, 0)


def _stamp(now: dt.datetime | None) -> str:
    return (now or dt.datetime.now(dt.UTC)).strftime("%Y%m%d-%H%M%S")


def _check(conn: sqlite3.Connection, path: Path) -> int:
    """The schema version of a copy, after SQLite's own integrity check."""
    result = conn.execute("PRAGMA integrity_check").fetchone()[0]
    if result != "ok":
        raise StartupError(f"{path} failed SQLite's integrity check ({result}).")
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _copy(source: Path, target: Path) -> int:
    """Snapshot ``source`` into the new file ``target``; returns the copy's schema version."""
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    create_private(partial)  # 0600 before the first byte of pupils' data is in it
    src = sqlite3.connect(read_only_uri(source), uri=True)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # all pages in one step: one consistent snapshot
            dst.execute("PRAGMA journal_mode = DELETE")  # one file, nothing beside it
            version = _check(dst, partial)
        finally:
            dst.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        src.close()
    os.replace(partial, target)
    return version


def _is_folder(target: str | Path) -> bool:
    """A folder for a dated backup: an existing folder, or a path written with a trailing
    slash (made if missing)."""
    return Path(target).is_dir() or str(target).endswith(("/", os.sep))


def backup(
    database: Path,
    target: str | Path,
    *,
    keep: int | None = None,
    now: dt.datetime | None = None,
    name: str = BOT,
) -> Copied:
    """Copy the running (or stopped) database to ``target``: a new file, or a folder (an
    existing one, or any path ending in ``/``) to put ``<name>-<time>.db`` in. Never
    overwrites a file. ``keep``: then delete all but the newest ``keep`` dated backups of
    that ``name`` in that folder (the bot's and the lessons' share a folder apart)."""
    if not database.is_file():
        raise StartupError(f"there is no database at {database} to back up.")
    if keep is not None and keep < 1:
        raise StartupError(f"--keep must be 1 or more (the backups to keep), not {keep}.")
    path = Path(target)
    folder = _is_folder(target)
    if folder:
        _make_backup_folder(path)
        path = path / f"{name}-{_stamp(now)}.db"
    elif keep is not None:
        raise StartupError(
            f"--keep prunes the dated backups in a folder: give a folder ending in / "
            f"instead of the file {path}."
        )
    if path.exists():
        raise StartupError(f"{path} already exists: a backup never overwrites a file.")
    if not path.parent.is_dir():
        raise StartupError(
            f"the folder {path.parent} for the backup does not exist (end the path with / "
            "to back up into a folder that is made if missing)."
        )
    try:
        version = _copy(database, path)
    except sqlite3.Error as error:
        raise StartupError(f"the backup of {database} failed ({error}).") from None
    except OSError as error:
        raise StartupError(f"cannot write the backup {path} ({error.strerror}).") from None
    pruned = _prune(path.parent, keep, name) if folder and keep is not None else ()
    pruned += prune_restore_copies(database, now)
    return Copied(path, version, path.stat().st_size, pruned=pruned)


def _make_backup_folder(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise StartupError(f"{folder} is a file, not a folder for backups.")
    try:
        make_folder(folder)
    except OSError as error:
        raise StartupError(
            f"cannot create the backup folder {folder} ({error.strerror})."
        ) from None


def dated_backups(folder: Path, name: str = BOT) -> list[Path]:
    """The folder's dated backups of ``name``, oldest first (their names sort by time)."""
    dated = DATED if name == BOT else re.compile(re.escape(name) + r"-(\d{8}-\d{6})\.db")
    return sorted(
        (p for p in folder.iterdir() if dated.fullmatch(p.name) and p.is_file()),
        key=lambda p: p.name,
    )


def _prune(folder: Path, keep: int, name: str) -> tuple[Path, ...]:
    """Delete all but the newest ``keep`` dated backups; any other file is left alone."""
    old = dated_backups(folder, name)[:-keep]
    for path in old:
        try:
            path.unlink()
        except OSError as error:
            raise StartupError(
                f"the backup was made, but the old backup {path} could not be deleted "
                f"({error.strerror})."
            ) from None
    return tuple(old)


def _readable_backup(source: Path) -> int:
    if not source.is_file():
        raise StartupError(f"there is no backup file at {source}.")
    try:
        conn = sqlite3.connect(read_only_uri(source), uri=True)
        try:
            version = _check(conn, source)
        finally:
            conn.close()
    except sqlite3.DatabaseError as error:
        raise StartupError(f"{source} is not a usable SQLite database ({error}).") from None
    if version > known_version():
        raise StartupError(
            f"the backup {source} has schema version {version}, but this version of Mattekrig "
            f"knows only up to {known_version()}: restore it with the newer Mattekrig."
        )
    return version


def _restore_copy(database: Path, stamp: str) -> Path:
    return database.with_name(f"{database.stem}.before-restore-{stamp}{database.suffix}")


def prune_restore_copies(database: Path, now: dt.datetime | None = None) -> tuple[Path, ...]:
    """Delete the ``before-restore`` copies beside ``database`` older than RESTORE_COPY_DAYS
    (their names carry their time; any other file is left alone)."""
    named = re.compile(
        re.escape(f"{database.stem}.before-restore-")
        + r"(\d{8}-\d{6})"
        + re.escape(database.suffix)
    )
    oldest = _stamp((now or dt.datetime.now(dt.UTC)) - dt.timedelta(days=RESTORE_COPY_DAYS))
    old = sorted(
        path
        for path in (database.parent.iterdir() if database.parent.is_dir() else ())
        if (match := named.fullmatch(path.name)) and match[1] < oldest and path.is_file()
    )
    for path in old:
        try:
            path.unlink()
        except OSError as error:
            raise StartupError(
                f"the old copy {path} kept by a restore could not be deleted ({error.strerror})."
            ) from None
    return tuple(old)


Forgets = tuple[bytes, list[tuple[str, str, int]]]


def _forgets(path: Path) -> Forgets | None:
    """The fingerprints' key and the recorded forgets of a database file (None: it has no
    such tables yet, or cannot be read)."""
    if not path.is_file():
        return None
    try:
        conn = sqlite3.connect(read_only_uri(path), uri=True)
        try:
            key = conn.execute("SELECT key FROM privacy_key WHERE id = 1").fetchone()
            rows = conn.execute("SELECT kind, fingerprint, at FROM forgotten ORDER BY id")
            entries = [(str(r[0]), str(r[1]), int(r[2])) for r in rows]
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    return (bytes(key[0]), entries) if key is not None else None


def _departed(path: Path) -> dict[int, int]:
    """The servers a database file knows the bot has left, with when (none if it cannot
    say: an older schema, or no file)."""
    if not path.is_file():
        return {}
    try:
        conn = sqlite3.connect(read_only_uri(path), uri=True)
        try:
            rows = conn.execute("SELECT guild_id, left_at FROM departed_guilds").fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return {}
    return {int(guild): int(at) for guild, at in rows}


def _forget_again(
    database: Path, replaced: Forgets | None, backup: Forgets | None, departed: dict[int, int]
) -> dict[str, int]:
    """Apply to the restored ``database`` the forgets the replaced one recorded after the
    backup was taken (those the backup does not hold), then mark again the servers it knew
    the bot had left, from the day each left. Returns how many pupils and servers were
    forgotten again (``users``, ``guilds``), and classes, pupils of a class and lessons
    deleted again (``classes``, ``pupils``, ``lessons``)."""
    key, entries = replaced if replaced is not None else (b"", [])
    known = set(backup[1]) if backup is not None else set()
    new = [entry for entry in entries if entry not in known]
    if not new and not departed:
        return {}
    from storage import Storage

    async def _apply() -> dict[str, int]:
        async with await Storage.open(database) as storage:
            at = int(dt.datetime.now(dt.UTC).timestamp() * 1000)
            counts = await storage.reapply_forgotten(key, new, at) if new else {}
            for guild_id, left_at in sorted(departed.items()):
                # the first departure counts: a mark the backup holds already stays
                await storage.guild_left(guild_id, left_at)
            return counts

    return asyncio.run(_apply())


def restore(
    source: Path, database: Path, *, now: dt.datetime | None = None, user: str = "Mattekrig bot"
) -> Copied:
    """Make ``database`` a copy of the backup ``source`` while no bot runs on it (``user``:
    what runs on it, for the refusal), then apply again the forgets recorded since the
    backup was taken (which migrates an older backup at once; otherwise the bot does at its
    next start)."""
    version = _readable_backup(source)
    if database.is_dir():
        raise StartupError(f"DATABASE_PATH {database} is a folder, not a database file.")
    check_folder(database, True)
    again: dict[str, int] = {}
    try:
        with DatabaseLock(database) as lock:
            replaced, departed = _forgets(database), _departed(database)
            kept = None
            if database.exists():
                kept = _restore_copy(database, _stamp(now))
                try:
                    _copy(database, kept)
                except sqlite3.DatabaseError as error:
                    raise StartupError(
                        f"{database} is not a SQLite database ({error}): it is left as it is."
                    ) from None
            create_private(database)
            make_private(database_files(database))
            src = sqlite3.connect(read_only_uri(source), uri=True)
            dst = sqlite3.connect(database)
            try:
                src.backup(dst)
                _check(dst, database)
            finally:
                dst.close()
                src.close()
            again = _forget_again(database, replaced, _forgets(source), departed)
            pruned = prune_restore_copies(database, now)
            # the boards in Discord may show moves the backup does not have: the next
            # start draws every board again before the first press
            lock.mark_restored()
    except DatabaseLocked as locked:
        pid = f" (process {locked.holder})" if locked.holder is not None else ""
        raise StartupError(
            f"a {user}{pid} is running on the database {database}: stop it, then restore."
        ) from None
    except sqlite3.Error as error:
        raise StartupError(f"restoring {source} into {database} failed ({error}).") from None
    except OSError as error:
        raise StartupError(
            f"restoring {source} into {database} failed ({error.strerror or error})."
        ) from None
    except StorageError as error:
        raise StartupError(f"{error}.") from None
    size = database.stat().st_size
    forgotten = (again.get("users", 0), again.get("guilds", 0))
    deleted = (again.get("classes", 0), again.get("pupils", 0), again.get("lessons", 0))
    return Copied(
        database, version, size, kept, pruned, forgotten_again=forgotten, deleted_again=deleted
    )
