"""The PostgreSQL backend runs the storage modules' own statements: each SQLite spelling they
use has its PostgreSQL rewrite (bot/storage/postgres/dialect.py)."""

from __future__ import annotations

import pytest

pytest.importorskip("psycopg")

from bot.storage.postgres.dialect import translate


def test_parameters_and_literal_percent_signs() -> None:
    text, _ = translate("SELECT 1 WHERE scope LIKE 'w%' AND a = ?", named=False, bound=True)
    assert text == "SELECT 1 WHERE scope LIKE 'w%%' AND a = %s"
    text, _ = translate("SELECT 1 WHERE a = :guild", named=True, bound=True)
    assert text == "SELECT 1 WHERE a = %(guild)s"
    assert translate("SELECT 'w%'", named=False, bound=False)[0] == "SELECT 'w%'"


def test_insert_or_ignore_and_new_ids() -> None:
    text, returns_id = translate("INSERT OR IGNORE INTO d (a) VALUES (?)", named=False, bound=True)
    assert (text, returns_id) == ("INSERT INTO d (a) VALUES (%s) ON CONFLICT DO NOTHING", False)
    text, returns_id = translate("INSERT INTO games (a) VALUES (?)", named=False, bound=True)
    assert (text, returns_id) == ("INSERT INTO games (a) VALUES (%s) RETURNING id", True)


def test_upserts_qualify_the_old_rows_columns() -> None:
    text, _ = translate(
        "INSERT INTO t (a) VALUES (?) ON CONFLICT (k) DO UPDATE SET"
        " games = games + excluded.games, last_at = max(last_at, excluded.last_at)",
        named=False,
        bound=True,
    )
    assert text.endswith(
        "DO UPDATE SET games = t.games + excluded.games,"
        " last_at = greatest(t.last_at, excluded.last_at)"
    )


def test_real_is_double_precision() -> None:
    text, _ = translate("SELECT CAST(wins AS REAL) / games", named=False, bound=False)
    assert text == "SELECT CAST(wins AS DOUBLE PRECISION) / games"
