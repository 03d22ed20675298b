"""`mattekrig backup` and `mattekrig restore` (docs/operations.md, "Backups"): a backup taken
while the bot is busy restores to a database whose every game replays; restore never runs
under a bot and keeps what it replaces."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest

from bot.config import StartupError
from bot.ops.backup import RESTORE_COPY_DAYS, backup, restore
from bot.ops.cli import main
from bot.ops.database import known_version
from bot.ops.lock import DatabaseLock, is_running, lock_path
from classroom.settings import GameSettings
from engine.events import chance_outcomes
from engine.game import apply, new_game
from engine.registry import action_from_json
from storage import Player, Storage
from tests.bot.db_scan import scan
from tests.bot.e2e import Table, assert_all_answered
from tests.bot.storage.helpers import T0
from tests.bot.storage.helpers import new_game as stored_game
from tests.bot.storage.results_helpers import duel, record
from tests.fakediscord.state import FakeInteraction

NOON = dt.datetime(2026, 12, 1, 12, 0, 0, tzinfo=dt.UTC)


async def _database(path: Path) -> Path:
    async with await Storage.open(path):
        pass
    return path


def _version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


async def test_a_backup_is_one_checked_file_and_never_overwrites(tmp_path: Path) -> None:
    database = await _database(tmp_path / "m.db")
    copied = backup(database, tmp_path / "copy.db")
    assert copied.version == known_version() == _version(copied.path)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("copy")) == ["copy.db"]
    with pytest.raises(StartupError, match="never overwrites"):
        backup(database, tmp_path / "copy.db")
    folder = tmp_path / "backups"
    folder.mkdir()
    dated = backup(database, folder, now=NOON)
    assert dated.path == folder / "mattekrig-20261201-120000.db"
    with pytest.raises(StartupError, match="no database at"):
        backup(tmp_path / "missing.db", tmp_path / "x.db")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


async def test_a_path_ending_in_a_slash_is_a_folder_made_for_dated_backups(
    tmp_path: Path,
) -> None:
    """docs/operations.md, "Backups": `mattekrig backup /srv/backups/` every night. A path
    ending in `/` is a folder, made on the first night, never a *file* named `backups` that
    every later night would refuse to overwrite."""
    database = await _database(tmp_path / "m.db")
    nights = [NOON + dt.timedelta(days=n) for n in range(3)]
    made = [backup(database, f"{tmp_path}/nightly/backups/", now=night).path for night in nights]
    folder = tmp_path / "nightly" / "backups"
    assert folder.is_dir() and _mode(folder) == 0o700
    assert made == [folder / f"mattekrig-{night:%Y%m%d-%H%M%S}.db" for night in nights]
    assert all(_version(path) == known_version() for path in made)


async def test_keep_prunes_only_older_dated_backups(tmp_path: Path) -> None:
    """`--keep N` leaves the newest N dated backups (the new one among them) and never
    touches a file that is not a dated backup."""
    database = await _database(tmp_path / "m.db")
    folder = tmp_path / "backups"
    folder.mkdir()
    others = [folder / "notes.txt", folder / "mattekrig-before-upgrade.db"]
    for other in others:
        other.write_text("mine")
    days = [NOON - dt.timedelta(days=n) for n in (5, 4, 3, 2)]
    for day in days:
        backup(database, folder, now=day)
    done = backup(database, folder, keep=3, now=NOON)
    assert [p.name for p in done.pruned] == [f"mattekrig-{d:%Y%m%d-%H%M%S}.db" for d in days[:2]]
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [f"mattekrig-{d:%Y%m%d-%H%M%S}.db" for d in (*days[2:], NOON)] + [o.name for o in others]
    )
    with pytest.raises(StartupError, match="give a folder ending in /"):
        backup(database, tmp_path / "one.db", keep=3)
    with pytest.raises(StartupError, match="--keep must be 1 or more"):
        backup(database, folder, keep=0)
    assert not (tmp_path / "one.db").exists()


async def test_the_nightly_cron_line_keeps_two_weeks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line of the cron line in docs/operations.md: a folder made on the first
    night, then one dated backup a night, and never more than --keep of them."""
    database = await _database(tmp_path / "m.db")
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.chdir(tmp_path)
    target = f"{tmp_path}/srv/backups/"
    for night in range(3):
        when = NOON + dt.timedelta(days=night)
        monkeypatch.setattr("bot.ops.backup._stamp", lambda now, when=when: f"{when:%Y%m%d}-030000")
        assert main(["backup", target, "--keep", "2"]) == 0
    out = capsys.readouterr().out
    assert "deleted 1 older backup(s)" in out
    kept = sorted(p.name for p in (tmp_path / "srv" / "backups").iterdir())
    assert kept == ["mattekrig-20261202-030000.db", "mattekrig-20261203-030000.db"]


async def test_backups_restore_copies_and_the_lock_are_private(tmp_path: Path) -> None:
    """PRIVACY.md: the data files are readable by the bot's own user only (0600), whatever
    the umask of the shell that ran the command."""
    previous = os.umask(0o022)
    try:
        database = await _database(tmp_path / "m.db")
        copy = backup(database, tmp_path / "copy.db").path
        dated = backup(database, f"{tmp_path}/dated/").path
        database.chmod(0o644)  # as an older version left it
        done = restore(copy, database, now=NOON)
        fresh = restore(copy, tmp_path / "new" / "fresh.db")
    finally:
        os.umask(previous)
    assert done.kept is not None
    for path in (copy, dated, done.kept, database, fresh.path, lock_path(database)):
        assert _mode(path) == 0o600, path
    assert _mode(tmp_path / "new") == 0o700


async def test_restore_refuses_while_a_bot_runs_on_the_database(tmp_path: Path) -> None:
    database = await _database(tmp_path / "m.db")
    copy = backup(database, tmp_path / "copy.db").path
    with DatabaseLock(database), pytest.raises(StartupError, match="stop it, then restore"):
        restore(copy, database)


async def test_restore_keeps_the_database_it_replaces(tmp_path: Path) -> None:
    database = await _database(tmp_path / "m.db")
    copy = backup(database, tmp_path / "copy.db").path
    with sqlite3.connect(database) as conn:
        conn.execute("CREATE TABLE after_the_backup (x)")
    done = restore(copy, database, now=NOON)
    assert done.kept == tmp_path / "m.before-restore-20261201-120000.db"
    with sqlite3.connect(done.kept) as conn:
        assert conn.execute("SELECT count(*) FROM after_the_backup").fetchone() == (0,)
    with sqlite3.connect(database) as conn, pytest.raises(sqlite3.OperationalError):
        conn.execute("SELECT * FROM after_the_backup")


def test_restore_refuses_what_is_not_a_usable_backup(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    with pytest.raises(StartupError, match="not a usable SQLite database"):
        restore(text, tmp_path / "m.db")
    newer = tmp_path / "newer.db"
    with sqlite3.connect(newer) as conn:
        conn.execute(f"PRAGMA user_version = {known_version() + 1}")
    with pytest.raises(StartupError, match="restore it with the newer Mattekrig"):
        restore(newer, tmp_path / "m.db")
    with pytest.raises(StartupError, match="no backup file"):
        restore(tmp_path / "missing.db", tmp_path / "m.db")
    assert not (tmp_path / "m.db").exists()


async def test_backup_and_restore_commands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """They need no token; a refusal is one sentence and exit 2."""
    database = await _database(tmp_path / "m.db")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.chdir(tmp_path)
    assert main(["backup", str(tmp_path / "b.db")]) == 0
    assert capsys.readouterr().out.startswith(f"backed up {database} to {tmp_path / 'b.db'}")
    with DatabaseLock(database):
        assert main(["restore", str(tmp_path / "b.db")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("mattekrig: a Mattekrig bot") and "\n" not in err
    assert main(["restore", str(tmp_path / "b.db")]) == 0
    assert "the database it replaced is kept as" in capsys.readouterr().out


@pytest.mark.parametrize("verb", ["backup", "restore"])
async def test_backup_and_restore_refuse_a_postgresql_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], verb: str
) -> None:
    """With DATABASE_URL set they copied the SQLite file at DATABASE_PATH instead and said
    "backed up": the PostgreSQL database the bot (or the school server) uses went unsaved."""
    database = await _database(tmp_path / "m.db")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.setenv("DATABASE_URL", "postgresql://mk:secret@db.school.example:5432/mattekrig")
    monkeypatch.chdir(tmp_path)
    assert main([verb, str(tmp_path / "b.db")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("mattekrig: the database is PostgreSQL (postgresql://db.school.example")
    assert "pg_dump" in err and "secret" not in err and "\n" not in err
    assert not (tmp_path / "b.db").exists()


def replays(stored: Any) -> bool:
    """The stored game's actions, replayed from its configuration and seed with the recorded
    chance outcomes (RULES §1.6), give exactly the stored events."""
    settings = GameSettings.from_json(stored.config)
    recorded = [event for step in stored.events for event in step.events]
    state, events = new_game(settings.engine, stored.seed, None, chance_outcomes(recorded))
    produced = [event.to_json() for event in events]
    for step in stored.events[1:]:
        state, events = apply(state, action_from_json(step.action))
        produced += [event.to_json() for event in events]
    return produced == recorded


async def test_a_backup_during_50_presses_restores_to_games_that_all_replay(
    table: Table, tmp_database: Path, tmp_path: Path
) -> None:
    """Ten games against the computer, five waves of ten presses at once (one per game); the
    backup runs in a thread half-way, beside the bot's writes. Its copy holds every game, and
    every stored game replays to exactly its stored events."""
    fake = table.fake
    players = ["alice", "bob", "carol", "teacher"]
    players += [fake.world.add_user(f"pupil{n}", guild=fake.guild).username for n in range(6)]
    games = []
    for who in players:
        gid, _ = await table.start_computer(who, game="intervallkrig", thread=True)
        games.append(gid)
    presses: list[FakeInteraction] = []
    copy = tmp_path / "during.db"

    async def press_away() -> None:
        copying = None
        for _ in range(20):  # waves of one press per game still on, at the same moment
            if len(presses) >= 50:
                break
            if copying is None and len(presses) >= 20:  # half-way: beside the bot's writes
                copying = asyncio.ensure_future(asyncio.to_thread(backup, tmp_database, copy))
            await table.settle()  # every board shows its new buttons
            wave = [
                await table.flip(who, gid, wait=False)
                for who, gid in zip(players, games, strict=True)
                if not table.game(gid).is_finished
            ]
            presses.extend(wave)
            await asyncio.gather(*(table.driver.answered(p) for p in wave))
        assert copying is not None
        await copying

    await press_away()
    await table.settle()
    assert len(presses) >= 50
    assert all(p.response_type == 7 for p in presses)  # every press was a move (board edit)
    assert_all_answered(table.fake)
    restored = tmp_path / "restored" / "m.db"
    restore(copy, restored)
    async with await Storage.open(restored) as storage:
        with sqlite3.connect(restored) as conn:
            ids = [row[0] for row in conn.execute("SELECT id FROM games ORDER BY id")]
        assert ids == sorted(games)
        for gid in ids:
            stored = await storage.load_game(gid)
            assert len(stored.events) > 1, "the backup was taken after presses were stored"
            assert replays(stored), gid


async def test_a_restored_backup_forgets_again_who_was_forgotten_after_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """PRIVACY.md, "Backups": restoring an old backup never brings a forgotten pupil back.
    Every forget recorded after the backup was taken is applied again (a pupil, a whole
    server); one recorded before it is not, so a pupil who came back and played since keeps
    what they played."""
    database = tmp_path / "m.db"
    async with await Storage.open(database) as storage:
        for n, (a, b) in enumerate(((101, 102), (103, 102), (102, 104))):
            game = await stored_game(storage, players=(seat(0, a), seat(1, b)), channel_id=n)
            await storage.set_status(game, "over", T0)
            await record(storage, duel(game, a, b))
        await storage.forget_user(103, T0 + 1)  # before the backup ...
        again = await stored_game(storage, players=(seat(0, 103), seat(1, 102)), channel_id=9)
        await storage.set_status(again, "over", T0 + 2)
        await record(storage, duel(again, 103, 102))  # ... and back since
        await storage.update_guild_settings(7, T0, board="hidden")
    copy = backup(database, tmp_path / "copy.db").path
    async with await Storage.open(database) as storage:
        await storage.forget_user(101, T0 + 3)  # after the backup
        await storage.forget_guild(7, T0 + 4)
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.chdir(tmp_path)
    assert await asyncio.to_thread(main, ["restore", str(copy)]) == 0
    assert "forgot again 1 pupil(s) and 1 server(s)" in capsys.readouterr().out
    assert scan(database, 101) == []
    async with await Storage.open(database) as storage:
        assert 7 not in await storage.known_guilds()
        assert (await storage.export_user(103))["result_players"]  # played after its forget
        assert (await storage.export_user(102))["result_players"]


def seat(n: int, user_id: int) -> Player:
    return Player(seat=n, side=n, display_name=f"P{user_id}", user_id=user_id)


async def test_a_restore_keeps_the_day_a_server_was_left_after_the_backup(
    tmp_path: Path,
) -> None:
    """PRIVACY.md: a server's data is deleted LEFT_SERVER_DAYS after the bot was removed.
    A server left after the backup was taken keeps the day it left through a restore, so
    its days do not start over when the bot next finds it gone; a server the backup knew
    left keeps its first day."""
    database = tmp_path / "m.db"
    async with await Storage.open(database) as storage:
        for guild in (7, 8):
            game = await stored_game(storage, guild_id=guild, channel_id=guild)
            await storage.set_status(game, "over", T0)
        await storage.guild_left(8, T0 + 1)
    copy = backup(database, tmp_path / "copy.db").path
    async with await Storage.open(database) as storage:
        await storage.guild_left(7, T0 + 5)  # after the backup
    await asyncio.to_thread(restore, copy, database, now=NOON)
    async with await Storage.open(database) as storage:
        assert await storage.departed_guilds() == {7: T0 + 5, 8: T0 + 1}


async def test_copies_kept_by_restore_live_as_long_as_the_nightly_backups(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `before-restore` copy holds pupils' data as a backup does: every restore and every
    backup deletes those older than RESTORE_COPY_DAYS (14, the nightly `--keep 14`), and
    nothing else."""
    database = await _database(tmp_path / "m.db")
    copy = backup(database, tmp_path / "copy.db").path
    first = (await asyncio.to_thread(restore, copy, database, now=NOON)).kept
    at_14_days = NOON + dt.timedelta(days=RESTORE_COPY_DAYS)
    second = (await asyncio.to_thread(restore, copy, database, now=at_14_days)).kept
    assert first is not None and second is not None and first.exists() and second.exists()
    later = at_14_days + dt.timedelta(seconds=1)
    third = await asyncio.to_thread(restore, copy, database, now=later)
    assert third.pruned == (first,) and not first.exists()
    assert second.exists() and third.kept is not None and third.kept.exists()
    other = tmp_path / "m.before-restore-notes.txt"
    other.write_text("the operator's own")
    made = backup(database, tmp_path / "b/", now=later + dt.timedelta(days=RESTORE_COPY_DAYS))
    assert made.pruned == (second,) and other.exists() and copy.exists()
    old = tmp_path / "m.before-restore-20200101-000000.db"
    old.write_bytes(copy.read_bytes())
    monkeypatch.setenv("DATABASE_PATH", str(database))
    monkeypatch.chdir(tmp_path)
    assert await asyncio.to_thread(main, ["restore", str(copy)]) == 0
    assert f"1 copy(ies) kept by a restore over 14 days ago: {old}" in capsys.readouterr().out
    assert not old.exists()


async def test_the_start_after_a_restore_redraws_every_board_first(tmp_path: Path) -> None:
    """A restored backup is behind what Discord's boards show: `restore` leaves its mark in
    the lock file, and the next start draws every board again before the first press (as
    after a lost -wal: tests/bot/test_kill.py); the start after that does not."""
    database = await _database(tmp_path / "m.db")
    copy = backup(database, tmp_path / "copy.db").path
    await asyncio.to_thread(restore, copy, database, now=NOON)
    assert not is_running(database)  # a check in between leaves the mark
    with DatabaseLock(database) as first:
        assert first.restored and first.boards_may_be_ahead and not first.unclean_stop
    with DatabaseLock(database) as second:
        assert not second.boards_may_be_ahead
