"""Numbered schema migrations, tracked with ``PRAGMA user_version``.

Files are ``migrations/NNNN_name.sql``, numbered from 0001 without gaps; version N means
"migrations 1..N are applied". A gap is refused, not skipped: a database migrated past it
would never get the missing migration later.

Each migration runs in its own ``BEGIN IMMEDIATE`` transaction together with the
``user_version`` bump, so a failed migration leaves nothing behind, and a second process
opening the same file at the same moment re-reads the version under the write lock instead
of applying the migration twice.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

from storage.errors import MigrationError, SchemaTooNewError

log = logging.getLogger(__name__)

_FILE_NAME = re.compile(r"(?P<version>[0-9]{4})_(?P<name>[a-z0-9_]+)\.sql")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str

    def statements(self) -> list[str]:
        """The file split into single statements (sqlite3 executes one at a time)."""
        statements: list[str] = []
        buffer = ""
        for line in self.sql.splitlines(keepends=True):
            buffer += line
            if sqlite3.complete_statement(buffer):
                statements.append(buffer.strip())
                buffer = ""
        leftover = [
            line
            for line in buffer.splitlines()
            if line.strip() and not line.strip().startswith("--")
        ]
        if leftover:
            raise MigrationError(f"migration {self.version:04d}_{self.name} ends mid-statement")
        return statements


def load_migrations(package: str = "storage.migrations") -> list[Migration]:
    """Every migration in ``package``, in order; raises MigrationError on a gap, a number
    used twice or a bad name."""
    migrations: list[Migration] = []
    for entry in resources.files(package).iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _FILE_NAME.fullmatch(entry.name)
        if match is None:
            raise MigrationError(f"migration file {entry.name!r} is not named NNNN_name.sql")
        migrations.append(
            Migration(int(match["version"]), match["name"], entry.read_text(encoding="utf-8"))
        )
    migrations.sort(key=lambda m: m.version)
    check_numbers(migrations)
    return migrations


def check_numbers(migrations: list[Migration]) -> None:
    """1..N in order: a gap is refused, not skipped (a database migrated past it would
    never get the missing migration), and so is a number used twice."""
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(migrations) + 1)):
        raise MigrationError(f"migrations must be numbered 1..N without gaps, found {versions}")


def latest_version(migrations: list[Migration]) -> int:
    """The schema version a database has once ``migrations`` are applied."""
    return migrations[-1].version if migrations else 0


def missing(migrations: list[Migration], current: int) -> list[Migration]:
    """The migrations a database at schema version ``current`` lacks, in order. A database
    written by a newer bot is refused, never opened: this one would not know its tables."""
    latest = latest_version(migrations)
    if current > latest:
        raise SchemaTooNewError(
            f"the database is at schema version {current} but this version of the bot only "
            f"knows up to {latest}: run a newer bot, or restore a backup made for this one"
        )
    return [m for m in migrations if m.version > current]


def user_version(conn: sqlite3.Connection) -> int:
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row is not None else 0


def migrate(conn: sqlite3.Connection, migrations: list[Migration]) -> int:
    """Apply the migrations ``conn`` lacks; returns the schema version afterwards.

    ``conn`` must be in autocommit mode (``isolation_level=None``) so the transactions here
    are the only ones.
    """
    current = user_version(conn)
    for migration in missing(migrations, current):
        # A migration may rebuild a table (SQLite's twelve-step ALTER): with foreign keys on,
        # dropping the old table would delete the rows that reference it. They are off while
        # it runs (the pragma is ignored inside a transaction) and checked before the commit.
        conn.execute("PRAGMA foreign_keys = OFF")
        try:
            current = _apply(conn, migration, current)
        finally:
            conn.execute("PRAGMA foreign_keys = ON")
    return current


def _apply(conn: sqlite3.Connection, migration: Migration, current: int) -> int:
    """Apply one migration in its own transaction; returns the schema version afterwards."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = user_version(conn)  # another process may have migrated meanwhile
        if migration.version <= current:
            conn.execute("ROLLBACK")
            return current
        for statement in migration.statements():
            conn.execute(statement)
        dangling = conn.execute("PRAGMA foreign_key_check").fetchone()
        if dangling is not None:
            raise sqlite3.IntegrityError(f"a row of {dangling[0]} references nothing")
        # PRAGMA takes no parameters; the version is an int from our own file name.
        conn.execute(f"PRAGMA user_version = {migration.version:d}")
        conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise MigrationError(
                f"migration {migration.version:04d}_{migration.name} failed: {exc}"
            ) from exc
        raise
    log.info("applied migration %04d_%s", migration.version, migration.name)
    return migration.version
