"""`python -m bot` / `mattekrig`: every start-up problem an operator can fix ends before login
in one sentence on standard error and exit code 2, never a traceback, and creates nothing
where it should not."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import discord
import pytest

from bot.ops.cli import main
from bot.ops.database import known_version
from bot.ops.lock import DatabaseLock
from tests.ops_support import clean_env, mattekrig, read_only_wrapper, shaped_token


def one_sentence(result_stderr: str) -> str:
    """The whole of standard error: one line starting `mattekrig:`, no traceback."""
    lines = result_stderr.strip().splitlines()
    assert len(lines) == 1, result_stderr
    assert lines[0].startswith("mattekrig: ") and "Traceback" not in result_stderr
    return lines[0]


def refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, **settings: str
) -> str:
    """Start the bot in-process: it must stop with exit 2 and one sentence, before login."""
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    assert main([]) == 2
    return one_sentence(capsys.readouterr().err)


def start(tmp_path: Path, *args: str, wrap: list[str] | None = None, **settings: str) -> str:
    """Start the bot as its own process in a fresh working folder: exit 2, one sentence."""
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    result = mattekrig(*args, cwd=work, env=clean_env(tmp_path / "home", **settings), wrap=wrap)
    assert result.returncode == 2, (result.returncode, result.stderr)
    return one_sentence(result.stderr)


@pytest.mark.slow  # its own process
def test_missing_token_is_one_sentence(tmp_path: Path) -> None:
    line = start(tmp_path)
    assert line.startswith("mattekrig: DISCORD_TOKEN is not set: copy .env.example to .env")
    assert not (tmp_path / "home" / "data").exists()  # nothing created before the checks pass


def test_missing_token_names_the_env_file_once_it_exists(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hint "copy .env.example" is not repeated once there is a `.env`."""
    (work / ".env").write_text("DISCORD_TOKEN=\n")
    line = refused(capsys, monkeypatch)
    assert "after DISCORD_TOKEN= in" in line and ".env.example" not in line


@pytest.mark.parametrize(
    ("token", "says"),
    [
        (f"Bot {shaped_token()}", "starts with 'Bot '"),
        (f"{shaped_token()[:10]} {shaped_token()[10:]}", "contains a space"),
        ("a" * 32, "three parts joined by dots but has 1"),
        ("abc.def.ghi.jkl", "has 4"),
        (f'"{shaped_token()}"', "wrapped in quotes"),
        ("abc.d$f.ghi", "characters a bot token never has"),
        ("bm90LWFuLWlk.AbCdEf.xxxxxxxxxxxxxxxxxxxxxxxxxxx", "does not start with a bot's user id"),
    ],
)
def test_a_malformed_token_is_named_before_connecting(
    work: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    token: str,
    says: str,
) -> None:
    line = refused(capsys, monkeypatch, DISCORD_TOKEN=token)
    assert says in line
    assert shaped_token() not in line  # the token is never echoed


@pytest.mark.parametrize(
    ("name", "value"), [("DEV_GUILD_ID", "my-server"), ("LOG_LEVEL", "LOUD"), ("LOG_FORMAT", "xml")]
)
def test_bad_settings_are_one_sentence(
    work: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    value: str,
) -> None:
    settings = {"DISCORD_TOKEN": shaped_token(), name: value}
    assert refused(capsys, monkeypatch, **settings).startswith(f"mattekrig: {name} ")


def test_a_folder_as_database_is_one_sentence(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = work / "db"
    folder.mkdir()
    line = refused(capsys, monkeypatch, DISCORD_TOKEN=shaped_token(), DATABASE_PATH=str(folder))
    assert f"DATABASE_PATH {folder} is a folder" in line
    assert list(folder.iterdir()) == []


def test_a_text_file_as_database_is_one_sentence(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = work / "notes.txt"
    text.write_text("not a database\n")
    line = refused(capsys, monkeypatch, DISCORD_TOKEN=shaped_token(), DATABASE_PATH=str(text))
    assert f"{text} is not a SQLite database" in line
    assert text.read_text() == "not a database\n"
    assert [p.name for p in work.iterdir()] == ["notes.txt"]


def test_a_newer_schema_is_refused_with_one_sentence(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/operations.md, "Upgrading": a database from a newer bot is never opened by an
    older one."""
    newer = work / "newer.db"
    with sqlite3.connect(newer) as conn:
        conn.execute(f"PRAGMA user_version = {known_version() + 1}")
    line = refused(capsys, monkeypatch, DISCORD_TOKEN=shaped_token(), DATABASE_PATH=str(newer))
    assert f"schema version {known_version() + 1}" in line
    assert f"knows only up to {known_version()}" in line
    with sqlite3.connect(newer) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == known_version() + 1


def _read_only(folder: Path) -> list[str] | None:
    """A way to make `folder` read-only for the bot's process (None: chmod is enough)."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return None
    wrap = read_only_wrapper(folder)
    if wrap is None:
        pytest.skip("running as root without unshare: cannot make a read-only folder")
    return wrap


@pytest.mark.slow  # its own process
def test_a_new_database_in_a_read_only_folder_is_one_sentence(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    wrap = _read_only(folder)
    line = start(
        tmp_path, wrap=wrap, DISCORD_TOKEN=shaped_token(), DATABASE_PATH=str(folder / "m.db")
    )
    assert f"its folder {folder} is read-only" in line
    assert "reach Discord" not in line
    folder.chmod(0o755)
    assert list(folder.iterdir()) == []


@pytest.mark.slow  # its own process
def test_an_existing_database_on_a_read_only_mount_is_one_sentence(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    database = folder / "m.db"
    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA user_version = 1")
    wrap = _read_only(folder)
    line = start(tmp_path, wrap=wrap, DISCORD_TOKEN=shaped_token(), DATABASE_PATH=str(database))
    assert f"the database {database} cannot be written" in line
    folder.chmod(0o755)
    assert [p.name for p in folder.iterdir()] == ["m.db"]


def test_an_old_default_database_is_not_silently_replaced(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The default moved from `data/mattekrig.db` in the working folder to the user's data
    folder: a database left at the old place is named, not shadowed by a new empty one."""
    (work / "data").mkdir()
    (work / "data" / "mattekrig.db").write_bytes(b"")
    line = refused(capsys, monkeypatch, DISCORD_TOKEN=shaped_token())
    assert "an older Mattekrig's database is at" in line and "DATABASE_PATH=" in line
    assert not (tmp_path / "home" / "data").exists()


@pytest.mark.slow  # its own process
def test_a_second_bot_on_the_same_database_stops_naming_it(tmp_path: Path) -> None:
    """A real second process: the lock is the kernel's, between processes."""
    database = tmp_path / "m.db"
    with DatabaseLock(database):  # this test process plays the running bot
        line = start(tmp_path, DISCORD_TOKEN=shaped_token(), DATABASE_PATH=str(database))
    assert f"already running on the database {database}" in line
    assert f"(process {os.getpid()})" in line


def test_unreachable_discord_is_one_sentence_after_the_database_line(
    work: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Discord unreachable (here: a closed port on 127.0.0.1): one sentence, exit 1. The first
    log line names the database in use and its schema version; a missing folder is made."""
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:9/api/v10")
    database = tmp_path / "new" / "folder" / "db.sqlite3"
    monkeypatch.setenv("DISCORD_TOKEN", shaped_token())
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.chdir(tmp_path)
    assert main([]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert f"database {database} (new: created with schema version {known_version()})" in err[0]
    assert err[-1].startswith("mattekrig: cannot reach Discord")
    assert database.parent.is_dir()
    assert not any("davey" in line or "PyNaCl" in line for line in err)
