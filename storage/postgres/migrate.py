"""PostgreSQL's numbered migrations (storage/migrations_pg), tracked in ``schema_version``.

Numbered as SQLite's (storage/migrations) and in step with them: version N means the
same tables on both backends, which `mattekrig migrate-db` relies on. Each migration runs in
one transaction with the version bump, under an advisory lock, so two bot processes starting
at once apply it once: the second waits, re-reads the version and finds it applied.
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg

from storage.errors import MigrationError
from storage.migrate import Migration, load_migrations, missing

log = logging.getLogger(__name__)

PACKAGE = "storage.migrations_pg"
# pg_advisory_xact_lock's key for "migrating" (the write locks' keys are 64-bit hashes of names).
MIGRATION_LOCK = -1


def load_pg_migrations() -> list[Migration]:
    return load_migrations(PACKAGE)


def _version(conn: psycopg.Connection[Any]) -> int:
    row = conn.execute(
        b"SELECT coalesce(max(version), 0) FROM schema_version" if _has_table(conn) else b"SELECT 0"
    ).fetchone()
    return int(row[0]) if row is not None else 0


def _has_table(conn: psycopg.Connection[Any]) -> bool:
    row = conn.execute(b"SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    return bool(row and row[0])


def migrate(conn: psycopg.Connection[Any], migrations: list[Migration]) -> int:
    """Apply what the database lacks; returns its schema version (``conn`` in autocommit)."""
    current = _version(conn)
    for migration in missing(migrations, current):
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
                conn.execute(
                    b"CREATE TABLE IF NOT EXISTS schema_version"
                    b" (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
                )
                current = _version(conn)  # another process may have migrated meanwhile
                if migration.version <= current:
                    continue
                conn.execute(migration.sql.encode())
                conn.execute(
                    "INSERT INTO schema_version (version) VALUES (%s)", (migration.version,)
                )
        except psycopg.Error as exc:
            raise MigrationError(
                f"migration {migration.version:04d}_{migration.name} failed: {exc}"
            ) from exc
        current = migration.version
        log.info("applied PostgreSQL migration %04d_%s", migration.version, migration.name)
    return current


__all__ = ["PACKAGE", "load_pg_migrations", "migrate"]
