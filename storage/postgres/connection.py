"""A psycopg connection that the storage modules' transaction functions can take as theirs.

Those functions are written against `sqlite3.Connection` (``execute``, ``executemany``,
``fetchone``, ``rowcount``, rows by name and by position) in SQL both databases accept; this
adapter gives them exactly that over PostgreSQL, with each statement's parameters spelled as
psycopg wants them (`dialect.translate`). Why not a second copy of every query: one set of
statements cannot drift between backends.
Errors keep their meaning: a broken constraint is `sqlite3.IntegrityError`, as the
functions expect.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from typing import Any

import psycopg

from storage.postgres.dialect import translate

Params = Sequence[Any] | Mapping[str, Any]


class Row(tuple[Any, ...]):
    """A result row by position, slice or column name (as `sqlite3.Row`)."""

    _names: dict[str, int]

    def __new__(cls, values: Iterable[Any], names: dict[str, int]) -> Row:
        row = super().__new__(cls, tuple(_plain(v) for v in values))
        row._names = names
        return row

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self._names[key])
        return tuple.__getitem__(self, key)

    def keys(self) -> list[str]:
        return list(self._names)


def _plain(value: Any) -> Any:
    """PostgreSQL's sum() of integers is numeric; SQLite's is an integer."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _param(value: Any) -> Any:
    """Flags are stored as 0/1 integers, as in SQLite (PostgreSQL will not compare a
    boolean with an integer column)."""
    return int(value) if isinstance(value, bool) else value


def _params(params: Params) -> Params:
    if isinstance(params, Mapping):
        return {k: _param(v) for k, v in params.items()}
    return [_param(v) for v in params]


class Cursor:
    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self._cursor = cursor
        self.rowcount = cursor.rowcount

    def _row(self, values: Sequence[Any]) -> Row:
        description = self._cursor.description or []
        return Row(values, {column.name: i for i, column in enumerate(description)})

    def fetchone(self) -> Row | None:
        if self._cursor.description is None:
            return None
        values = self._cursor.fetchone()
        return None if values is None else self._row(values)

    def fetchall(self) -> list[Row]:
        if self._cursor.description is None:
            return []
        return [self._row(values) for values in self._cursor.fetchall()]

    def __iter__(self) -> Iterator[Row]:
        return iter(self.fetchall())


class Connection:
    """What a transaction function sees (the transaction itself belongs to the worker)."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.raw = conn

    def execute(self, sql: str, params: Params = ()) -> Cursor:
        # Parameters are always passed (empty or not), so psycopg always reads the doubled %.
        text = translate(sql, named=isinstance(params, Mapping))
        cursor = self.raw.cursor()
        try:
            cursor.execute(text, _params(params))
        except psycopg.IntegrityError as exc:
            raise sqlite3.IntegrityError(str(exc)) from exc
        return Cursor(cursor)

    def executemany(self, sql: str, seq: Iterable[Params]) -> Cursor:
        batch = list(seq)
        cursor = self.raw.cursor()
        if not batch:
            return Cursor(cursor)
        text = translate(sql, named=isinstance(batch[0], Mapping))
        try:
            cursor.executemany(text, [_params(p) for p in batch])
        except psycopg.IntegrityError as exc:
            raise sqlite3.IntegrityError(str(exc)) from exc
        return Cursor(cursor)


__all__ = ["Connection", "Cursor", "Row"]
