"""`mattekrig migrate-db`: a school's SQLite database moves to PostgreSQL whole
(every table, row counts checked), into an empty target only, and the source stays as it was."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.config import StartupError
from storage import ActionCommit, NewEvent, Storage
from tests.bot.storage.helpers import T0, new_game
from tests.bot.storage.results_helpers import duel, record
from tests.ops_support import clean_env, mattekrig
from tests.postgres import fresh_schema_url


async def _school(path: Path) -> int:
    async with await Storage.open(path) as store:
        game_id = await new_game(store)
        await store.commit_action(game_id, ActionCommit(T0, [NewEvent(0, {"p": 1}, [{"e": 1}])]))
        await store.set_timer(game_id, "answer", T0 + 5_000, {"round": 1})
        await store.create_lobby(
            guild_id=1, channel_id=9, host_id=101, options={"g": 1}, at=T0, expires_at=T0 + 1
        )
        await record(store, duel(900, 101, 102))
        await store.update_guild_settings(1, T0, board="hidden")
        return game_id


def test_every_table_arrives_and_a_second_copy_is_refused(tmp_path: Path) -> None:
    from bot.ops.migrate_db import copy
    from storage.postgres import PostgresStorage

    source = tmp_path / "school.db"
    game_id = asyncio.run(_school(source))
    before = source.read_bytes()
    target = fresh_schema_url()

    copied = copy(source, target)
    assert copied.rows["games"] == 1 and copied.rows["game_events"] == 1
    assert copied.rows["results"] == 1 and copied.rows["guild_settings"] == 1
    assert source.read_bytes() == before  # read-only: the SQLite file is the fallback

    async def _read_back() -> None:
        async with await PostgresStorage.open_url(target) as moved:
            stored = await moved.load_game(game_id)
            assert [e.action for e in stored.events] == [{"p": 1}]
            assert [t.payload for t in await moved.timers_for(game_id)] == [{"round": 1}]
            assert (await moved.load_result(900)) is not None
            assert (await moved.guild_settings(1)).board == "hidden"
            new_id = await new_game(moved, channel_id=777)  # ids continue after the copied
            assert new_id > game_id

    asyncio.run(_read_back())
    with pytest.raises(StartupError, match="already has data"):
        copy(source, target)


@pytest.mark.slow
def test_the_command_refuses_a_source_that_is_not_sqlite(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    done = mattekrig(
        "migrate-db", "--from", "mysql://x", "--to", "postgresql://h/d", cwd=tmp_path, env=env
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "mattekrig: --from must be sqlite:PATH (the SQLite file), not 'mysql://x'."
    )


@pytest.mark.parametrize(
    ("added", "says"),
    [
        ('CREATE TABLE "x"" (a) ; DROP TABLE games; --" (a)', "a table 'x\" (a) ; DROP TABLE"),
        ('ALTER TABLE games ADD COLUMN "id"" FROM games; --" TEXT', "its table games has a column"),
    ],
)
def test_names_read_from_the_file_never_become_sql(tmp_path: Path, added: str, says: str) -> None:
    """Table and column names come from the file: one the bot's schema does not have is
    refused in one sentence before any statement names it, and the target is left as it
    was (its tables all there, and empty)."""
    import sqlite3

    import psycopg

    from bot.ops.migrate_db import copy

    source = tmp_path / "school.db"
    asyncio.run(_school(source))
    with sqlite3.connect(source) as conn:
        conn.execute(added)
    target = fresh_schema_url()
    with pytest.raises(StartupError, match="is not this bot's database") as refused:
        copy(source, target)
    assert says in str(refused.value) and "nothing was copied" in str(refused.value)
    with psycopg.connect(target) as conn:
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (0,)
