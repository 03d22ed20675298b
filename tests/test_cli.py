"""The `mattekrig` command line: `--help` lists the commands, `--version` works
everywhere, `check` reports without touching anything, `check --online` and `sync` talk to
(the fake) Discord once."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.config import Config
from bot.heartbeat import beat
from bot.invite import PERMISSIONS, invite_url
from bot.ops.cli import COMMANDS, arguments, main, version
from bot.ops.database import known_version
from bot.ops.lock import DatabaseLock
from bot.ops.sync import CommandsOnly, sync_commands
from tests.fakediscord.server import FakeDiscord
from tests.ops_support import ROOT, shaped_token


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    for command in COMMANDS:
        assert f"    {command} " in out, command
    assert "Without a command, `run`" in out


def test_run_is_the_default_command_and_the_old_sync_flag_still_works() -> None:
    assert arguments([]) == ["run"]
    assert arguments(["--sync"]) == ["run", "--sync"]  # `python -m bot --sync`, as before
    assert arguments(["check", "--online"]) == ["check", "--online"]
    assert arguments(["--help"]) == ["--help"]


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_version_everywhere(capsys: pytest.CaptureFixture[str], command: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([command, "--version"] if command else ["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out.strip() == version()
    assert version().startswith("mattekrig ")


def test_check_reports_without_creating_anything(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = work / "new" / "m.db"
    (work / ".env").write_text(
        f"DISCORD_TOKEN={shaped_token(42424242424242)}\nDATABASE_PATH=new/m.db\nDEV_GUILD_ID=7\n"
    )
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert f"settings  {work / '.env'}" in out
    # `check` creates nothing, and says who will
    made = f"(new, not there yet: `mattekrig run` makes it, schema version {known_version()})"
    assert f"database  {database} {made}" in out
    assert "token     shape OK (the bot's user id 42424242424242)" in out
    assert f"invite    {invite_url(42424242424242)}" in out
    assert "at start-up to server 7 (DEV_GUILD_ID)" in out
    assert shaped_token(42424242424242) not in out
    assert not (work / "new").exists()


def test_check_names_live_games_a_running_bot_and_every_problem(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = work / "m.db"
    with sqlite3.connect(database) as conn:
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, status TEXT)")
        conn.executemany("INSERT INTO games (status) VALUES (?)", [("live",), ("over",)])
        conn.execute("PRAGMA user_version = 1")
    (work / ".env").write_text(f"DATABASE_PATH={database}\nLOG_LEVEL=LOUD\n")
    with DatabaseLock(database):
        assert main(["check"]) == 2
    out = capsys.readouterr().out
    assert f"schema version 1, migrated to {known_version()} at start, 1 live game(s)" in out
    assert "running   yes, a bot runs on this database now" in out
    problems = [line for line in out.splitlines() if line.startswith("problem: ")]
    assert [p.split()[1] for p in problems] == ["DISCORD_TOKEN", "LOG_LEVEL"]


# Discord's names for the permissions, as the Developer Portal and README show them
PERMISSION_NAMES = {
    "read_messages": "View Channels",  # discord.py's name for view_channel
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}


def test_invite_permissions_are_what_the_readme_explains() -> None:
    """README "Setting up the Discord application" gives the same number and names."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"permissions={PERMISSIONS.value}" in readme
    assert {name for name, granted in PERMISSIONS if granted} == set(PERMISSION_NAMES)
    for shown in PERMISSION_NAMES.values():
        assert f"**{shown}**" in readme, shown


def _accept_shaped_token(fake: FakeDiscord) -> str:
    """Make the fake accept a token of the real shape (its own has two parts)."""
    token = shaped_token(fake.bot_user.id)
    fake.token = token
    fake.gateway._token = token
    return token


async def test_check_online_names_the_bot_and_its_servers(
    work: Path, fake_discord: FakeDiscord, capsys: pytest.CaptureFixture[str]
) -> None:
    token = _accept_shaped_token(fake_discord)
    (work / ".env").write_text(f"DISCORD_TOKEN={token}\nDATABASE_PATH=m.db\n")
    assert await asyncio.to_thread(main, ["check", "--online"]) == 0
    out = capsys.readouterr().out
    assert f"online    logged in as {fake_discord.bot_user.username}" in out
    guild = fake_discord.guild
    assert f"servers   1: {guild.name} ({guild.id})" in out
    assert f"invite    {invite_url(fake_discord.application_id)}" in out


async def test_check_online_with_a_rejected_token_is_one_problem(
    work: Path, fake_discord: FakeDiscord, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / ".env").write_text(f"DISCORD_TOKEN={shaped_token()}\nDATABASE_PATH=m.db\n")
    assert await asyncio.to_thread(main, ["check", "--online"]) == 2
    assert "problem: Discord rejected DISCORD_TOKEN" in capsys.readouterr().out


async def test_sync_registers_the_bots_commands_and_exits(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """`mattekrig sync` builds the same commands as the bot, without opening a database."""
    config = Config("unused", tmp_path / "never.db", None, "INFO")
    count = await sync_commands(CommandsOnly(config), fake_discord.token, None)
    names = [command.data["name"] for command in fake_discord.commands()]
    assert count == len(names) == 1 and names == ["mattekrig"]
    assert not (tmp_path / "never.db").exists()
    assert await sync_commands(CommandsOnly(config), fake_discord.token, fake_discord.guild.id)
    assert [c.data["name"] for c in fake_discord.commands(fake_discord.guild)] == ["mattekrig"]


def test_play_is_the_browser_tables_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """`mattekrig play` hands its options to the table's own command line, and the
    bot's help lists it."""
    with pytest.raises(SystemExit) as shown:
        main(["play", "--help"])
    assert shown.value.code == 0
    assert "--no-browser" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "play" in capsys.readouterr().out


def test_the_health_check_is_quiet_and_wants_a_running_bot(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The image's HEALTHCHECK, `mattekrig check --quiet --running`: silent and 0 while a bot
    holds the database (and is connected to Discord: tests/bot/test_health.py); one problem
    line and exit 2 when none does."""
    database = work / "m.db"
    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA user_version = 1")
    (work / ".env").write_text(f"DISCORD_TOKEN={shaped_token()}\nDATABASE_PATH={database}\n")
    with DatabaseLock(database):
        beat(database.with_name("m.db.alive"))  # the running bot's sign of life
        assert main(["check", "--quiet", "--running"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["check", "--quiet", "--running"]) == 1  # Docker: unhealthy (2 is reserved)
    assert capsys.readouterr().out == f"problem: no bot runs on the database {database} now.\n"
    assert main(["check", "--quiet"]) == 0  # without --running, a stopped bot is fine
