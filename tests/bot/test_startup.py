"""The start-up checks (README "Running the bot"): `mattekrig check` and `mattekrig run` run one
list of checks, so whatever `run` stops at, `check` reports in the same sentence; every path
or URL the bot cannot use is one sentence and exit 2, never a traceback; and the database's
files are private to the bot's user (PRIVACY.md)."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import stat
from pathlib import Path

import discord
import pytest

from bot.ops.cli import main
from bot.ops.private import create_private
from storage import Storage
from tests.ops_support import clean_env, mattekrig, read_only_wrapper, shaped_token


def _problems(out: str) -> list[str]:
    return [line.removeprefix("problem: ") for line in out.splitlines() if "problem: " in line]


def _one_sentence(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mattekrig: "), err
    assert "Traceback" not in err
    return lines[0].removeprefix("mattekrig: ")


@pytest.fixture
def offline_discord(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should a start get past its checks, it finds a closed port, not the internet."""
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:9/api/v10")


def _agree(capsys: pytest.CaptureFixture[str]) -> str:
    """`check` and `run` in this process: both exit 2, and `run`'s one sentence is the first
    problem `check` reports."""
    assert main(["check"]) == 2
    reported = _problems(capsys.readouterr().out)
    assert main(["run"]) == 2
    said = _one_sentence(capsys.readouterr().err)
    assert reported and reported[0] == said
    return said


LONG = "x" * 300  # longer than a file name may be


@pytest.mark.parametrize(
    ("setting", "value", "says"),
    [
        # a folder run cannot make, since a file stands where a folder must be
        ("DATABASE_PATH", "notes.txt/sub/m.db", "which is a file, not a folder"),
        ("DATABASE_PATH", f"{LONG}/m.db", "cannot be used (File name too long)"),
        ("DATABASE_PATH", "~no-such-user-here/m.db", "home folder that does not exist"),
        ("DATABASE_URL", "postgresql://bot:secret@127.0.0.1:abc/db", "the port 'abc'"),
        ("DATABASE_URL", "postgresql://bot:secret@127.0.0.1:99999/db", "the port '99999'"),
        ("DATABASE_URL", "postgresql://bot:secret@[::1/db", "cannot be read (Invalid IPv6"),
        ("GAME_LOG_DAYS", "a month", "GAME_LOG_DAYS must be a whole number of days"),
        ("RESULT_DAYS", "0", "RESULT_DAYS must be a whole number of days"),
        ("LEFT_SERVER_DAYS", "-3", "LEFT_SERVER_DAYS must be a whole number of days"),
    ],
)
def test_check_reports_what_run_stops_at(
    work: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    offline_discord: None,
    setting: str,
    value: str,
    says: str,
) -> None:
    (work / "notes.txt").write_text("mine\n")
    monkeypatch.setenv("DISCORD_TOKEN", shaped_token())
    monkeypatch.setenv(setting, value)
    said = _agree(capsys)
    assert says in said and "secret" not in said
    assert sorted(p.name for p in work.iterdir()) == ["notes.txt"]  # nothing made


@pytest.mark.slow  # its own processes, under a read-only mount
def test_check_and_run_agree_on_a_folder_that_cannot_be_made(tmp_path: Path) -> None:
    """`check` and `run` give one verdict on a database in a folder that does not exist yet
    and cannot be made (the folder above it is read-only): both name the problem."""
    folder = tmp_path / "ro"
    folder.mkdir()
    wrap = read_only_wrapper(folder) if os.geteuid() == 0 else None
    if os.geteuid() == 0 and wrap is None:
        pytest.skip("running as root without unshare: cannot make a read-only folder")
    if wrap is None:
        folder.chmod(0o555)
    env = clean_env(tmp_path / "home", DISCORD_TOKEN=shaped_token())
    env["DATABASE_PATH"] = str(folder / "school" / "m.db")
    work = tmp_path / "work"
    work.mkdir()
    checked = mattekrig("check", cwd=work, env=env, wrap=wrap)
    started = mattekrig("run", cwd=work, env=env, wrap=wrap)
    folder.chmod(0o755)
    assert checked.returncode == started.returncode == 2, (checked.stdout, started.stderr)
    said = _one_sentence(started.stderr)
    assert _problems(checked.stdout)[0] == said
    assert said.startswith(f"cannot create the folder {folder / 'school'} for the database")
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--from", "sqlite:notes.txt", "--to", "postgresql://h/d"], "is not a SQLite database"),
        (["--from", "sqlite:.", "--to", "postgresql://h/d"], "no SQLite database at"),
        (["--from", "sqlite:x.db", "--to", "postgresql://u:secret@h:abc/d"], "the port 'abc'"),
        (["--from", "sqlite:x.db", "--to", "postgresql://u:secret@[::1/d"], "Invalid IPv6"),
        (["--from", "sqlite:x.db"], "give the PostgreSQL database to move into"),
    ],
)
def test_migrate_db_refuses_what_it_cannot_read_in_one_sentence(
    work: Path, capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    (work / "notes.txt").write_text("not a database\n")
    with sqlite3.connect(work / "x.db") as conn:
        conn.execute("PRAGMA user_version = 1")
    assert main(["migrate-db", *args]) == 2
    said = _one_sentence(capsys.readouterr().err)
    assert says in said and "secret" not in said


def test_migrate_db_fills_the_database_its_secret_file_names(
    work: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In compose the URL is a secret file (DATABASE_URL_FILE), never in the environment: the
    recipe `docker compose run --rm shard-0 mattekrig migrate-db --from sqlite:…` gives no
    `--to`, so the default reads the file as every other command does."""
    (tmp_path / "database_url").write_text("postgresql://u:secret@h:abc/d\n", encoding="utf-8")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("DATABASE_URL_FILE", str(tmp_path / "database_url"))
    with sqlite3.connect(work / "x.db") as conn:
        conn.execute("PRAGMA user_version = 1")
    assert main(["migrate-db", "--from", "sqlite:x.db"]) == 2
    said = _one_sentence(capsys.readouterr().err)  # the file's URL was read, and checked
    assert "DATABASE_URL has the port 'abc'" in said and "secret" not in said
    monkeypatch.setenv("DATABASE_URL_FILE", str(tmp_path / "absent"))
    assert main(["migrate-db", "--from", "sqlite:x.db"]) == 2
    assert "DATABASE_URL_FILE names" in _one_sentence(capsys.readouterr().err)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_run_makes_the_database_private_before_anything_is_in_it(
    work: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    offline_discord: None,
) -> None:
    """A new database is created 0600 (its folder 0700) by `run`'s checks, whatever the
    umask; Discord is unreachable here, so that is all the start does."""
    database = tmp_path / "data" / "m.db"
    monkeypatch.setenv("DISCORD_TOKEN", shaped_token())
    monkeypatch.setenv("DATABASE_PATH", str(database))
    previous = os.umask(0o022)
    try:
        assert main([]) == 1
    finally:
        os.umask(previous)
    capsys.readouterr()
    assert _mode(database) == 0o600 and _mode(database.parent) == 0o700
    assert main(["check"]) == 0  # an empty database file is still a new database
    out = capsys.readouterr().out
    assert f"database  {database} (new, empty: `mattekrig run` makes it, schema version" in out


async def test_sqlite_gives_wal_and_shm_the_databases_mode(tmp_path: Path) -> None:
    """Why creating the file 0600 is enough: SQLite creates -wal and -shm with the mode of
    the database file, here while the storage writes a game."""
    database = tmp_path / "m.db"
    previous = os.umask(0o022)
    try:
        create_private(database)
        async with await Storage.open(database) as storage:
            await storage.update_guild_settings(1, 0, board="hidden")
            companions = [database.with_name(database.name + s) for s in ("-wal", "-shm")]
            assert all(path.exists() for path in companions)
            assert [_mode(path) for path in (database, *companions)] == [0o600] * 3
    finally:
        os.umask(previous)


def test_run_makes_an_older_databases_files_private_and_says_so(
    work: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    offline_discord: None,
) -> None:
    """A database an older version left readable by everyone (0644) is made 0600, with its
    -wal and lock file; `check` names the files first and changes nothing."""
    database = tmp_path / "m.db"
    asyncio.run(_stored(database))
    wal = database.with_name("m.db-wal")
    wal.write_bytes(b"")
    for path in (database, wal):
        path.chmod(0o644)
    monkeypatch.setenv("DISCORD_TOKEN", shaped_token())
    monkeypatch.setenv("DATABASE_PATH", str(database))
    assert main(["check"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("files"))
    assert line.startswith("files     m.db, m.db-wal") and "readable by other users" in line
    assert _mode(database) == 0o644
    logging.getLogger().handlers.clear()
    assert main([]) == 1
    err = capsys.readouterr().err
    assert "m.db, m.db-wal" in err and "could be read by other users: made private (0600)" in err
    assert _mode(database) == _mode(wal) == _mode(database.with_name("m.db.lock")) == 0o600


async def _stored(database: Path) -> None:
    async with await Storage.open(database) as storage:
        await storage.update_guild_settings(1, 0, board="hidden")


def test_a_env_file_others_can_read_is_named_by_check_and_run(
    work: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    offline_discord: None,
) -> None:
    """The `.env` holds the token: `check` and `run` say when other users may read it."""
    env = work / ".env"
    env.write_text(f"DISCORD_TOKEN={shaped_token()}\nDATABASE_PATH=m.db\n")
    env.chmod(0o644)
    expected = f"{env} can be read by other users of this machine: chmod 600 {env}"
    assert main(["check"]) == 0
    assert f"secrets   {expected}" in capsys.readouterr().out
    logging.getLogger().handlers.clear()
    assert main([]) == 1
    assert expected in capsys.readouterr().err
    env.chmod(0o600)
    assert main(["check"]) == 0
    assert "secrets" not in capsys.readouterr().out


def test_an_unclosed_quote_in_env_is_one_sentence_naming_its_line(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `.env` line the settings reader cannot parse is named, line number and all, in one
    sentence: not "DISCORD_TOKEN is not set" beside the library's own raw warning."""
    (work / ".env").write_text(f'LOG_LEVEL=INFO\nDISCORD_TOKEN="{shaped_token()}\n')
    for command in (["check"], ["run"]):
        assert main(command) == 2
        said = capsys.readouterr()
        lines = said.err.strip().splitlines()
        assert lines == [
            f"mattekrig: {work / '.env'} line 2 cannot be read: a quote after DISCORD_TOKEN= "
            "is never closed; close it, or leave the quotes out."
        ], said.err
        assert said.out == ""


def test_check_online_and_run_agree_that_an_unreachable_discord_is_exit_1(
    work: Path, capsys: pytest.CaptureFixture[str], offline_discord: None
) -> None:
    """Exit 1 is "Discord could not be reached, try again later"; 2 is for a setting to fix.
    `check --online` and `run` say the same for the same closed port."""
    (work / ".env").write_text(f"DISCORD_TOKEN={shaped_token()}\nDATABASE_PATH=m.db\n")
    assert main(["check", "--online"]) == 1
    assert "problem: cannot reach Discord" in capsys.readouterr().out
    assert main(["run"]) == 1
    assert "cannot reach Discord" in capsys.readouterr().err


def test_the_lock_tells_a_killed_bots_lost_wal_from_a_clean_stop(tmp_path: Path) -> None:
    """A clean stop empties the lock file; a kill leaves its pid, and SQLite's -wal file with
    it. A -wal deleted since means the database lost what only it held (bot.ops.lock)."""
    from bot.ops.lock import DatabaseLock, lock_path

    database = tmp_path / "m.db"
    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA user_version = 1")
    with DatabaseLock(database) as first:
        assert not first.unclean_stop and not first.wal_lost
    with DatabaseLock(database) as clean:
        assert not clean.unclean_stop
    lock_path(database).write_text("4242\n")  # what a killed holder leaves
    wal = database.with_name("m.db-wal")
    wal.write_bytes(b"")
    with DatabaseLock(database) as killed:
        assert killed.unclean_stop and not killed.wal_lost
    lock_path(database).write_text("4242\n")
    wal.unlink()
    with DatabaseLock(database) as lost:
        assert lost.unclean_stop and lost.wal_lost


def test_checking_whether_a_bot_runs_leaves_a_killed_bots_mark(tmp_path: Path) -> None:
    """`mattekrig check` (and the health check) after a kill must not erase what the next
    start reads from the lock file."""
    from bot.ops.lock import DatabaseLock, is_running, lock_path

    database = tmp_path / "m.db"
    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA user_version = 1")
    lock_path(database).write_text("4242\n")
    assert not is_running(database)
    assert lock_path(database).read_text() == "4242\n"
    with DatabaseLock(database) as started:
        assert is_running(database) and started.unclean_stop
