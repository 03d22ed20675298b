"""One set of statements for both databases: the storage modules write SQL that SQLite (3.35
or later) and PostgreSQL both accept, and the PostgreSQL backend only spells the parameters
as psycopg wants them (storage/postgres/dialect.py)."""

from __future__ import annotations

import sqlite3

import pytest

from storage import Storage
from storage.sql import one

pytest.importorskip("psycopg")

from storage.postgres.dialect import translate


def test_parameters_and_literal_percent_signs() -> None:
    text = translate("SELECT 1 WHERE scope LIKE 'w%' AND a = ?", named=False)
    assert text == "SELECT 1 WHERE scope LIKE 'w%%' AND a = %s"
    assert translate("SELECT 1 WHERE a = :guild", named=True) == "SELECT 1 WHERE a = %(guild)s"
    assert translate("SELECT 'w%'", named=False) == "SELECT 'w%%'"  # parameters always passed


def test_a_question_mark_or_colon_inside_a_string_is_text() -> None:
    """A ``?`` or ``:name`` in a string literal or a quoted name is not a parameter."""
    text = translate("SELECT 'why?', \"a?b\", ? WHERE x = 'it''s ? :no'", named=False)
    assert text == "SELECT 'why?', \"a?b\", %s WHERE x = 'it''s ? :no'"
    assert translate("SELECT ':k1', :k1, x::text", named=True) == "SELECT ':k1', %(k1)s, x::text"


def test_the_rest_of_a_statement_is_left_as_written() -> None:
    """No rewriting of functions or clauses: what is written is what both databases run."""
    statement = (
        "INSERT INTO t (a) VALUES (?) ON CONFLICT (k) DO UPDATE SET"
        " games = t.games + excluded.games, last_at = greatest(t.last_at, max(1, 2))"
        " RETURNING id"
    )
    assert translate(statement, named=False) == statement.replace("?", "%s")


def test_mixed_parameter_styles_are_refused() -> None:
    with pytest.raises(ValueError):
        translate("SELECT ?, :a", named=True)
    with pytest.raises(ValueError):
        translate("SELECT ?, :a", named=False)


async def test_greatest_and_least_mean_the_same_on_every_backend(store: Storage) -> None:
    """The functions that differ are PostgreSQL's, registered once for SQLite; nested, with
    NULL left out as PostgreSQL does."""

    def _tx(conn: sqlite3.Connection) -> tuple[int, int, int]:
        row = one(
            conn,
            "SELECT greatest(?, greatest(?, ?)), least(least(?, ?), ?), greatest(?, NULL)",
            (1, 7, 3, 5, 2, 9, 4),
        )
        assert row is not None
        return int(row[0]), int(row[1]), int(row[2])

    assert await store._read(_tx) == (7, 2, 4)


async def test_a_new_row_gives_its_id_back_on_every_backend(store: Storage) -> None:
    """``RETURNING id`` as written, on a table no list has to name."""

    def _tx(conn: sqlite3.Connection) -> list[int]:
        conn.execute("CREATE TEMPORARY TABLE notes (id INTEGER PRIMARY KEY, note TEXT)")
        sql = "INSERT INTO notes (id, note) VALUES (?, ?) RETURNING id"
        ids = [int(r[0]) for r in [one(conn, sql, (n, "?")) for n in (4, 9)] if r is not None]
        conn.execute("DROP TABLE notes")
        return ids

    assert await store._write(_tx) == [4, 9]
