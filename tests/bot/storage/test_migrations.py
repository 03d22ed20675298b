"""Opening a database: folder created, WAL and foreign keys on, migrations applied once."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage import MigrationError, SchemaTooNewError, Storage
from storage.migrate import Migration, check_numbers, latest_version, load_migrations

from .conftest import Backend, need_durable, need_file
from .helpers import new_game


def test_migration_files_are_numbered_without_gaps() -> None:
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "games"
    for migration in migrations:
        assert migration.statements(), migration.name


def test_statements_split_on_semicolons_outside_comments_and_strings() -> None:
    sql = (
        "-- a comment; not a split\n"
        "CREATE TABLE a (x TEXT DEFAULT ';');\n\n"
        "CREATE TABLE b (y);\n"
        "-- end\n"
    )
    statements = Migration(1, "x", sql).statements()
    assert len(statements) == 2
    assert statements[1] == "CREATE TABLE b (y);"
    with pytest.raises(MigrationError):
        Migration(1, "x", "CREATE TABLE a (x);\nCREATE TABLE b (y)").statements()


async def test_open_creates_the_folder_and_turns_on_wal(backend: Backend) -> None:
    need_file(
        backend
    )  # WAL and PRAGMAs are SQLite's (PostgreSQL's: tests/bot/storage/test_postgres.py)
    if backend.path is not None:
        assert not backend.path.parent.exists()
    async with await backend.open() as store:
        assert await store.pragma("journal_mode") == "wal"
        assert await store.pragma("foreign_keys") == 1
        assert await store.pragma("busy_timeout") > 0
        assert store.schema_version == latest_version(load_migrations())
    if backend.path is not None:
        assert backend.path.exists()


async def test_migrations_are_idempotent(backend: Backend) -> None:
    need_durable(backend)
    async with await backend.open() as store:
        game_id = await new_game(store)
        first = store.schema_version
    for _ in range(2):
        async with await backend.open() as store:
            assert store.schema_version == first
            assert (await store.load_game(game_id)).id == game_id


async def test_an_old_database_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    migrations = load_migrations()
    async with await Storage.open(path, migrations=migrations[:1]) as store:
        assert store.schema_version == 1
        game_id = await new_game(store)
    async with await Storage.open(path) as store:
        assert store.schema_version == latest_version(migrations)
        await store.set_timer(game_id, "answer", 5)  # a table from a later migration
        assert (await store.load_game(game_id)).id == game_id


async def test_a_newer_database_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    async with await Storage.open(path):
        pass
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA user_version = 99")
    with pytest.raises(SchemaTooNewError, match="newer bot"):
        await Storage.open(path)


async def test_a_failing_migration_leaves_nothing_behind(tmp_path: Path) -> None:
    path = tmp_path / "bad.db"
    good = Migration(1, "good", "CREATE TABLE a (x INTEGER);\n")
    bad = Migration(2, "bad", "CREATE TABLE b (y INTEGER);\nCREATE TABLE a (x INTEGER);\n")
    with pytest.raises(MigrationError, match="0002_bad"):
        await Storage.open(path, migrations=[good, bad])
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == 1
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"a"}


def test_misnumbered_migrations_are_refused(tmp_path: Path) -> None:
    """A number used twice, or a gap (a database migrated past it would never get it)."""
    with pytest.raises(MigrationError):
        load_migrations("tests.bot.storage.bad_migrations")
    gap = [Migration(1, "a", "SELECT 1;\n"), Migration(3, "c", "SELECT 1;\n")]
    with pytest.raises(MigrationError):
        check_numbers(gap)
