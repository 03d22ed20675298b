"""`mattekrig migrate-db --from sqlite:PATH --to postgresql://…`: move a school's SQLite
database to PostgreSQL when one process is no longer enough.

Every table of the SQLite file is copied (so a table a later migration adds comes along
without this module knowing it), parents before children, in one PostgreSQL transaction:
either everything arrives or nothing does. Row counts are compared table by table before the
COMMIT. A target that already holds any row is refused (this is a move, never a merge), and
the source is opened read-only: it stays as it was, a backup to fall back on.

Table and column names come from the file, so they are never trusted: each must be one the
migrated PostgreSQL database has (its own catalogue is the known schema), and each is quoted
as an identifier (psycopg's `sql.Identifier`; doubled quotes for SQLite) before it is part of
a statement. A file with a table or column the bot does not know is refused in one sentence.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.config import StartupError
from bot.ops.database import read_only_uri, schema_version
from storage.errors import StorageError
from storage.migrate import latest_version, load_migrations

SQLITE_PREFIX = "sqlite:"
# Tables of SQLite's own, never the bot's data.
_INTERNAL = ("sqlite_",)
# Identity columns whose sequence must continue after the copied ids.
IDENTITY = (("games", "id"), ("invitations", "id"), ("forgotten", "id"))
# Tables a migration fills itself (the fingerprints' key): replaced by the SQLite file's rows,
# so the key travels with the fingerprints it made.
SEEDED = ("privacy_key",)


@dataclass(frozen=True, slots=True)
class Copied:
    rows: dict[str, int]

    def text(self, source: Path, target: str) -> str:
        total = sum(self.rows.values())
        return (
            f"copied {total} rows in {len(self.rows)} tables from {source} to {target}; "
            "every table's row count matches"
        )


def source_path(given: str) -> Path:
    if not given.startswith(SQLITE_PREFIX):
        raise StartupError(f"--from must be sqlite:PATH (the SQLite file), not {given!r}.")
    try:
        path = Path(given[len(SQLITE_PREFIX) :]).expanduser()
    except RuntimeError:  # `~name/…` for a user this machine does not know
        raise StartupError(f"--from names a home folder that does not exist ({given}).") from None
    if not path.is_file():
        raise StartupError(f"there is no SQLite database at {path}.")
    try:
        schema_version(path)
    except sqlite3.DatabaseError as error:
        raise StartupError(f"{path} is not a SQLite database ({error}).") from None
    except OSError as error:
        raise StartupError(f"{path} cannot be read ({error.strerror or error}).") from None
    return path


def quoted(name: str) -> str:
    """``name`` as one SQLite identifier, whatever it holds."""
    return '"' + name.replace('"', '""') + '"'


def _tables(conn: sqlite3.Connection) -> list[str]:
    """The bot's tables, each after every table it references (foreign keys)."""
    names = [
        str(r[0])
        for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        if not str(r[0]).startswith(_INTERNAL)
    ]
    parents = {
        name: {
            str(r[2])
            for r in conn.execute("SELECT * FROM pragma_foreign_key_list(?)", (name,))
            if str(r[2]) != name
        }
        for name in names
    }
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and parents[n] <= set(ordered)]
        if not ready:  # a cycle: cannot happen with this schema; copy the rest as they come
            ready = [n for n in names if n not in ordered]
        ordered.extend(ready)
    return ordered


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    """Stored columns only: generated ones (hidden 2 and 3) are computed again on arrival."""
    rows = conn.execute("SELECT * FROM pragma_table_xinfo(?)", (table,))
    return [str(r[1]) for r in rows if r[6] == 0]


def _known_schema(dst: Any) -> dict[str, set[str]]:
    """The migrated target's tables and their columns: the names this bot knows."""
    known: dict[str, set[str]] = {}
    for table, column in dst.execute(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema()"
    ):
        known.setdefault(str(table), set()).add(str(column))
    return known


def _unknown(src: sqlite3.Connection, tables: list[str], known: dict[str, set[str]]) -> str | None:
    """Why the file's tables are not the bot's (None when every name is known)."""
    for table in tables:
        if table not in known:
            return f"it has a table {table!r} this bot does not know"
        strange = [c for c in _columns(src, table) if c not in known[table]]
        if strange:
            return f"its table {table} has a column {strange[0]!r} this bot does not know"
    return None


def copy(source: Path, target: str) -> Copied:
    """Copy ``source`` into the (migrated, empty) PostgreSQL database at ``target``."""
    try:
        import psycopg
        from psycopg import sql

        from storage.postgres import PostgresStorage
    except ImportError:
        raise StartupError(
            "migrate-db needs the PostgreSQL driver: pip install 'mattekrig[postgres]'."
        ) from None

    src = sqlite3.connect(read_only_uri(source), uri=True)
    try:
        version = int(src.execute("PRAGMA user_version").fetchone()[0])
        latest = latest_version(load_migrations())
        if version != latest:
            raise StartupError(
                f"{source} is at schema version {version}, this bot's is {latest}: start this "
                "version of the bot on it once (or restore a matching backup), then migrate."
            )

        async def _migrate_target() -> None:
            await (await PostgresStorage.open_url(target)).close()

        try:
            asyncio.run(_migrate_target())
        except StorageError as error:
            raise StartupError(f"{error}.") from None
        tables = _tables(src)
        with psycopg.connect(target) as dst, dst.transaction():
            if (why := _unknown(src, tables, _known_schema(dst))) is not None:
                raise StartupError(
                    f"{source} is not this bot's database ({why}); nothing was copied."
                )
            for table in tables:
                if table in SEEDED:
                    dst.execute(sql.SQL("DELETE FROM {}").format(sql.Identifier(table)))
                    continue
                row = dst.execute(
                    sql.SQL("SELECT EXISTS (SELECT 1 FROM {})").format(sql.Identifier(table))
                ).fetchone()
                if row is not None and row[0]:
                    raise StartupError(
                        f"the PostgreSQL database already has data (table {table}): "
                        "migrate-db only moves into an empty database."
                    )
            counts = {table: _copy_table(src, dst, table) for table in tables}
            for table, column in IDENTITY:
                dst.execute(
                    sql.SQL(
                        "SELECT setval(pg_get_serial_sequence(%s, %s),"
                        " coalesce((SELECT max({}) FROM {}), 0) + 1, false)"
                    ).format(sql.Identifier(column), sql.Identifier(table)),
                    (table, column),
                )
        return Copied(counts)
    except psycopg.Error as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise StartupError(f"the copy failed and nothing was kept ({first}).") from None
    except sqlite3.Error as error:  # a file that opened but cannot be read as the bot's
        raise StartupError(f"{source} cannot be copied ({error}); nothing was kept.") from None
    finally:
        src.close()


def _copy_table(src: sqlite3.Connection, dst: Any, table: str) -> int:
    from psycopg import sql

    columns = _columns(src, table)
    into = sql.SQL("COPY {} ({}) FROM STDIN").format(
        sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, columns))
    )
    names = ", ".join(map(quoted, columns))
    sent = 0
    with dst.cursor().copy(into) as pipe:
        for row in src.execute(f"SELECT {names} FROM {quoted(table)}"):
            pipe.write_row(row)
            sent += 1
    (arrived,) = dst.execute(
        sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(table))
    ).fetchone()
    (counted,) = src.execute(f"SELECT count(*) FROM {quoted(table)}").fetchone()
    if not sent == int(arrived) == int(counted):
        raise StartupError(
            f"table {table}: {counted} rows in SQLite but {arrived} arrived; nothing was kept."
        )
    return sent


__all__ = ["Copied", "copy", "source_path"]
