"""What every area of storage shares: the base its methods run on, and the small helpers
its transaction functions use (plain `sqlite3`, on the database thread)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any, TypeVar

from storage.database import Work, Workers

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")
R = TypeVar("R", bound="DataclassInstance")

Params = Sequence[Any] | Mapping[str, Any]


class Transactions:
    """The base of every area's methods (games, timers, results, …): each method is one
    transaction function, run whole as one write (group commit, answered after its COMMIT)
    or one read (one consistent snapshot). `storage.sqlite.Storage` gathers the areas on
    one database; the PostgreSQL backend overrides `_write` to take its advisory locks."""

    _db: Workers

    async def _write(self, work: Work[T]) -> T:
        return await self._db.write(work)

    async def _read(self, work: Work[T]) -> T:
        return await self._db.read(work)


def one(conn: sqlite3.Connection, sql: str, params: Params = ()) -> sqlite3.Row | None:
    row: sqlite3.Row | None = conn.execute(sql, params).fetchone()
    return row


def all_rows(conn: sqlite3.Connection, sql: str, params: Params = ()) -> list[sqlite3.Row]:
    return conn.execute(sql, params).fetchall()


def dump(value: Any) -> str:
    """Compact, key-sorted JSON, so equal values are stored as equal text."""
    return json.dumps(
        value, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False
    )


def new_id(conn: sqlite3.Connection, sql: str, params: Params = ()) -> int:
    """The id of the row an ``INSERT … RETURNING id`` made."""
    row = one(conn, sql, params)
    if row is None:
        raise ValueError(f"nothing returned by {sql!r}")
    return int(row[0])


def record_of(record: type[R], row: Any, **given: Any) -> R:
    """A record read from a row whose columns bear its fields' names; the ``given`` fields are
    not read (a column stored as JSON or 0/1, a field from another table)."""
    read = {f.name: row[f.name] for f in fields(record) if f.name not in given}
    return record(**read, **given)


def placeholders(count: int) -> str:
    return ", ".join("?" * count)
