"""The health check (`mattekrig check --quiet --running`, the image's HEALTHCHECK) says a bot is
healthy only while it runs and is connected to Discord: on SQLite and on PostgreSQL alike, and
not for a bot that has been reconnecting for a while (bot.heartbeat)."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import discord
import pytest

from bot.config import Config
from bot.heartbeat import STALE_S, beat, connected, heartbeat_path
from bot.ops.cli import main
from bot.ops.lock import DatabaseLock
from tests.bot.e2e import Table
from tests.ops_support import shaped_token
from tests.postgres import fresh_schema_url

LONG_AGO = STALE_S + 4 * 60  # seconds: a bot reconnecting since then


def _health(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["check", "--quiet", "--running"])
    return code, capsys.readouterr().out


def _config(database: Path, **settings: object) -> Config:
    return Config(shaped_token(), database, None, "INFO", **settings)  # type: ignore[arg-type]


def test_on_postgresql_the_health_check_wants_a_connected_bot(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """There is no lock on PostgreSQL: the check passed for a bot that was not even there."""
    database = work / "data" / "m.db"  # DATABASE_PATH: where the sign of life is kept
    (work / ".env").write_text(
        f"DISCORD_TOKEN={shaped_token()}\nDATABASE_URL={fresh_schema_url()}\n"
        f"DATABASE_PATH={database}\n"
    )
    alive = heartbeat_path(_config(database))
    code, out = _health(capsys)
    assert code == 1  # Docker: unhealthy (2 is reserved)
    assert out == f"problem: no bot has been connected to Discord here ({alive} is missing).\n"
    beat(alive)
    assert _health(capsys) == (0, "")
    beat(alive, at=time.time() - LONG_AGO)
    code, out = _health(capsys)
    assert code == 1 and "has not been connected to Discord for 7 minute(s)" in out


def test_a_bot_that_holds_its_database_but_is_not_connected_is_unhealthy(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SQLite: the lock says a bot runs; the sign of life says it is connected."""
    database = work / "m.db"
    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA user_version = 1")
    (work / ".env").write_text(f"DISCORD_TOKEN={shaped_token()}\nDATABASE_PATH={database}\n")
    alive = heartbeat_path(_config(database))
    with DatabaseLock(database):
        beat(alive, at=time.time() - LONG_AGO)
        code, out = _health(capsys)
        assert code == 1 and out.startswith("problem: the bot has not been connected to Discord")
        beat(alive)
        assert _health(capsys) == (0, "")
        assert main(["check"]) == 0
        assert "discord   the bot is connected" in capsys.readouterr().out


def test_each_shard_process_has_its_own_sign_of_life(tmp_path: Path) -> None:
    """The compose file's two shards share /data."""
    database = tmp_path / "m.db"
    one = heartbeat_path(_config(database, shard_count=2, shard_ids=(0,)))
    two = heartbeat_path(_config(database, shard_count=2, shard_ids=(1,)))
    assert one != two and one.parent == two.parent == tmp_path
    assert heartbeat_path(_config(database)) == tmp_path / "m.db.alive"


def test_a_client_that_never_connected_is_not_connected() -> None:
    assert not connected(discord.Client(intents=discord.Intents.none()))


async def test_the_connected_bot_beats_and_its_stop_ends_the_beats(table: Table) -> None:
    alive = heartbeat_path(table.bot.config)
    assert connected(table.bot)
    assert alive.exists()  # the first beat is at READY
    alive.unlink()
    await table.bot.heartbeat()  # one beat, as its loop does every BEAT_S
    assert alive.exists() and time.time() - alive.stat().st_mtime < STALE_S
    assert alive.stat().st_mode & 0o777 == 0o600
    await table.bot.close()
    assert not alive.exists()
