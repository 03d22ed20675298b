"""What only the PostgreSQL backend has to prove (the rest is the contract suite, run on it
through conftest's BACKENDS): its migrations are SQLite's in step, a bad URL or a server that
is down is one sentence, and several processes on one database still take each game's next
seq once and end a game once (the advisory locks of storage/postgres/storage.py)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from storage import EventConflictError, GameClosedError, StorageError
from storage.migrate import load_migrations
from tests.ops_support import clean_env, mattekrig, shaped_token
from tests.postgres import server_url

from .conftest import BACKENDS
from .helpers import T0, append, new_game


def _pg_migrations() -> list[tuple[int, str]]:
    from storage.postgres.migrate import load_pg_migrations

    return [(m.version, m.name) for m in load_pg_migrations()]


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_postgres_migrations_are_sqlites_in_step() -> None:
    """Schema version N is the same tables on both backends (migrate-db copies by it)."""
    pytest.importorskip("psycopg")
    assert _pg_migrations() == [(m.version, m.name) for m in load_migrations()]


async def test_a_url_that_is_not_postgresql_is_refused() -> None:
    pytest.importorskip("psycopg")
    from storage.postgres import PostgresStorage

    with pytest.raises(StorageError, match="not a PostgreSQL URL"):
        await PostgresStorage.open_url("mysql://somewhere/db")


async def test_a_server_that_is_down_is_one_sentence_without_the_password() -> None:
    pytest.importorskip("psycopg")
    from storage.postgres import PostgresStorage

    url = f"postgresql://bot:secret@127.0.0.1:{_closed_port()}/mattekrig?connect_timeout=5"
    with pytest.raises(StorageError) as refused:
        await PostgresStorage.open_url(url)
    message = str(refused.value)
    assert message.startswith("cannot connect to postgresql://127.0.0.1:"), message
    assert "secret" not in message
    assert "\n" not in message


@pytest.mark.slow
def test_run_with_an_unreachable_server_exits_2_in_one_sentence(tmp_path: Path) -> None:
    url = f"postgresql://bot:secret@127.0.0.1:{_closed_port()}/mattekrig?connect_timeout=5"
    env = clean_env(tmp_path, DISCORD_TOKEN=shaped_token(), DATABASE_URL=url)
    done = mattekrig("run", cwd=tmp_path, env=env)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mattekrig: "), done.stderr
    assert "Traceback" not in done.stderr and "secret" not in done.stderr


async def test_two_processes_clicking_one_game_take_each_seq_once(tmp_path: Path) -> None:
    """Two bot processes that (misconfigured) both drive one game: every seq is stored once,
    the losers hear EventConflictError, nothing is applied twice."""
    backend = BACKENDS["postgres"](tmp_path)
    async with await backend.open() as first, await backend.open() as second:
        game_id = await new_game(first)
        stored: list[int] = []

        async def clicker(who: int) -> None:
            store = first if who % 2 else second
            for _ in range(6):
                seq = len((await store.load_game(game_id)).events)
                try:
                    await append(store, game_id, seq, {"who": who}, [], T0)
                except EventConflictError:
                    continue
                stored.append(seq)

        await asyncio.gather(*(clicker(who) for who in range(6)))
        events = (await second.load_game(game_id)).events
        assert [e.seq for e in events] == list(range(len(events)))
        assert sorted(stored) == list(range(len(events)))


async def test_two_processes_ending_one_game_end_it_once(tmp_path: Path) -> None:
    backend = BACKENDS["postgres"](tmp_path)
    async with await backend.open() as first, await backend.open() as second:
        game_id = await new_game(first)
        results = await asyncio.gather(
            first.set_status(game_id, "over", T0),
            second.set_status(game_id, "stopped", T0),
            return_exceptions=True,
        )
        assert sum(r is None for r in results) == 1, results
        assert sum(isinstance(r, GameClosedError) for r in results) == 1, results


async def test_a_dropped_connection_fails_one_batch_and_the_next_write_reconnects(
    tmp_path: Path,
) -> None:
    """A server restart or fail-over drops the bot's connection: the write in flight fails
    whole (its caller hears StorageError, nothing half-done is kept); the next reconnects."""
    import psycopg

    from storage.postgres.database import PgDatabase

    backend = BACKENDS["postgres"](tmp_path)
    async with await backend.open() as store:
        game_id = await new_game(store)
        db = store._db
        assert isinstance(db, PgDatabase)
        pid = db.writer_pid()
        with psycopg.connect(server_url(), autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(StorageError):
            await append(store, game_id, 0, {"p": 1}, [], T0)
        await append(store, game_id, 0, {"p": 1}, [], T0)
        assert len((await store.load_game(game_id)).events) == 1
        assert db.writer_pid() != pid
