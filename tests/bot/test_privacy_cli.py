"""`mattekrig privacy` (PRIVACY.md, "Seeing and deleting your data": whoever runs the bot can do
for a parent what my-data and forget-me do): the export is the my-data file, forget leaves the
pupil nowhere, forget-guild leaves the server nowhere; on SQLite and on PostgreSQL; every
refusal one sentence with nothing changed."""

from __future__ import annotations

import asyncio
import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.ops.cli import main
from bot.services.games import GameService
from bot.services.invitations import InvitationService
from bot.services.leaderboard import LeaderboardService
from bot.services.privacy import PrivacyService
from bot.services.results import ResultsService
from storage import Player, Storage
from storage.select import open_storage
from tests.bot.clock import FakeClock
from tests.bot.db_scan import scan, scan_postgres
from tests.bot.e2e import Table
from tests.bot.services.conftest import ALICE, BOB
from tests.bot.services.privacy_support import NAME, ZELDA, a_full_history
from tests.bot.services.results_support import GUILD, start
from tests.postgres import fresh_schema_url


@dataclass
class School:
    """A database with Zelda's history, and how the command line is pointed at it."""

    settings: dict[str, str]
    path: Path | None
    url: str | None
    history: dict[str, int]

    async def open(self) -> Storage:
        return await open_storage(self.path or "", self.url)

    def scan(self, *needles: object) -> list[tuple[str, str, Any]]:
        if self.url is not None:
            return scan_postgres(self.url, *needles)
        assert self.path is not None
        return scan(self.path, *needles)

    async def export(self, user_id: int, guild_id: int | None = None) -> dict[str, Any]:
        storage = await self.open()
        try:
            clock = FakeClock()
            privacy = PrivacyService(storage, clock, ResultsService(storage, clock))
            _, body = await privacy.export_file(user_id, guild_id)
            loaded: dict[str, Any] = json.loads(body)
            return loaded
        finally:
            await storage.close()


async def _fill(storage: Storage) -> dict[str, int]:
    clock = FakeClock()
    games = GameService(storage, clock)
    invitations = InvitationService(storage, clock, games)
    results = ResultsService(storage, clock)
    boards = LeaderboardService(storage, clock)
    return await a_full_history(games, invitations, results, boards, clock)


@pytest.fixture(params=["sqlite", "postgres"])
def school(
    request: pytest.FixtureRequest, work: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[School]:
    if request.param == "sqlite":
        path, url = work / "school.db", None
        settings = {"DATABASE_PATH": str(path)}
    else:
        path, url = None, fresh_schema_url()
        settings = {"DATABASE_URL": url}
    for name, value in settings.items():
        monkeypatch.setenv(name, value)

    async def _made() -> dict[str, int]:
        storage = await open_storage(path or "", url)
        try:
            return await _fill(storage)
        finally:
            await storage.close()

    yield School(settings, path, url, asyncio.run(_made()))


def _without_time(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key != "exported_at"}


def test_export_writes_the_my_data_file(
    school: School, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["privacy", "export", str(ZELDA)]) == 0
    path = work / f"mattekrig-data-{ZELDA}.json"
    said = capsys.readouterr().out
    assert said.startswith("wrote ") and said.endswith(f" about user {ZELDA} to {path}\n")
    written = json.loads(path.read_text(encoding="utf-8"))
    assert _without_time(written) == _without_time(asyncio.run(school.export(ZELDA)))
    assert NAME in path.read_text(encoding="utf-8")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert main(["privacy", "export", str(ZELDA)]) == 2  # never over an existing file
    assert "already exists" in capsys.readouterr().err


def test_export_of_one_server_keeps_only_its_rows(
    school: School, work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = work / "one.json"
    assert main(["privacy", "export", str(ZELDA), "--guild", str(GUILD), "--output", str(out)]) == 0
    tables = json.loads(out.read_text(encoding="utf-8"))["tables"]
    assert tables["games"] and {row["guild_id"] for row in tables["games"]} == {GUILD}
    assert tables["game_events"] and tables["result_players"]
    other = work / "other.json"
    assert main(["privacy", "export", str(ZELDA), "--guild", "5", "--output", str(other)]) == 0
    assert not any(json.loads(other.read_text(encoding="utf-8"))["tables"].values())


def test_forget_asks_then_leaves_the_pupil_nowhere(
    school: School, capsys: pytest.CaptureFixture[str]
) -> None:
    assert school.scan(ZELDA, NAME)
    assert main(["privacy", "forget", str(ZELDA)]) == 2  # not a terminal, no --yes
    assert "add --yes to confirm" in capsys.readouterr().err
    assert school.scan(ZELDA, NAME)  # nothing deleted
    assert main(["privacy", "forget", str(ZELDA), "--yes"]) == 0
    assert capsys.readouterr().out.startswith(f"forgot user {ZELDA}: ")
    assert school.scan(ZELDA, NAME) == []
    assert school.scan(ALICE)  # the others' results stay


def test_forget_in_one_server_leaves_the_pupil_in_the_others(
    school: School, capsys: pytest.CaptureFixture[str]
) -> None:
    """`privacy forget USER_ID --guild ID` deletes what forget-me deletes in that server only
    (README, "Running the bot"): Zelda's history, all in GUILD, stays when another server is
    named, and is gone from GUILD when it is."""
    assert main(["privacy", "forget", str(ZELDA), "--guild", "5", "--yes"]) == 0
    assert capsys.readouterr().out.startswith(f"forgot user {ZELDA} in server 5: ")
    assert school.scan(ZELDA, NAME)  # nothing of hers was in server 5
    assert main(["privacy", "forget", str(ZELDA), "--guild", str(GUILD), "--yes"]) == 0
    assert school.scan(ZELDA, NAME) == []


def test_forget_guild_leaves_the_server_nowhere(
    school: School, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["privacy", "forget-guild", str(GUILD), "--yes"]) == 0
    assert capsys.readouterr().out.startswith(f"forgot server {GUILD}: ")
    assert school.scan(ZELDA, NAME, ALICE, BOB) == []


def test_a_pupil_or_server_in_a_live_game_is_refused(
    school: School, capsys: pytest.CaptureFixture[str]
) -> None:
    async def _live() -> None:
        storage = await school.open()
        try:
            games = GameService(storage, FakeClock())
            players = [
                Player(seat=0, side=0, display_name=NAME, user_id=ZELDA),
                Player(seat=1, side=1, display_name="A", user_id=ALICE),
            ]
            await start(games, players, mode="regn", channel_id=99)
        finally:
            await storage.close()

    asyncio.run(_live())
    before = school.scan(ZELDA)
    for args, says in (
        (["forget", str(ZELDA), "--yes"], "is in a game that is still running"),
        (["forget-guild", str(GUILD), "--yes"], "game(s) still running"),
    ):
        assert main(["privacy", *args]) == 2
        err = capsys.readouterr().err.strip()
        assert says in err and "nothing was deleted" in err and "\n" not in err
    assert school.scan(ZELDA) == before


def test_no_database_no_file(
    work: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command never makes a database to export from: one sentence instead."""
    monkeypatch.setenv("DATABASE_PATH", str(work / "none.db"))
    assert main(["privacy", "export", str(ZELDA)]) == 2
    assert capsys.readouterr().err.strip() == f"mattekrig: there is no database at {work}/none.db."
    assert os.listdir(work) == []


@pytest.mark.parametrize("given", ["alice", "12a", "0", str(2**64)])
def test_an_id_that_is_not_one_is_refused(
    work: Path, given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["privacy", "export", given])
    assert stopped.value.code == 2
    assert f"{given!r} is not a Discord id" in capsys.readouterr().err


async def test_while_the_bot_runs_export_is_my_data_and_forget_deletes(
    table: Table, tmp_database: Path, work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot is running on the SQLite file (its lock is not asked for): the operator's
    export is byte for byte the file alice gets from /mattekrig my-data (but for the time it
    was made), and forgetting her from the command line leaves her nowhere while the bot
    goes on playing."""
    monkeypatch.setenv("DATABASE_PATH", str(tmp_database))
    gid = await table.challenge_game("alice", ["bob"], game="intervallkrig")
    while not table.state(gid).is_over:
        await table.flip("alice", gid)
    await table.settle()
    alice = table.user("alice")
    asked = await table.driver.slash("alice", "mattekrig my-data")
    await table.fake.wait_until(
        lambda: asked.original is not None and not asked.original.loading, what="my-data"
    )
    assert asked.original is not None
    mine = json.loads(asked.original.attachments[0].data)
    assert mine["tables"]["game_events"]

    out = work / "alice.json"
    code = await asyncio.to_thread(main, ["privacy", "export", str(alice.id), "-o", str(out)])
    assert code == 0
    assert _without_time(json.loads(out.read_text(encoding="utf-8"))) == _without_time(mine)

    code = await asyncio.to_thread(main, ["privacy", "forget", str(alice.id), "--yes"])
    assert code == 0
    assert scan(tmp_database, alice.id, alice.username, alice.global_name) == []
    after, _ = await table.start_computer("bob", game="intervallkrig")  # the bot goes on
    assert (await table.flip("bob", after)).answered
