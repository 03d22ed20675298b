"""Nothing is lost across shards: two bot processes (shards 0 and 1 of 2) on one PostgreSQL against
one fake Discord. Games are played in a server of each shard; shard 1's process is killed with
SIGKILL and restarted. Nothing answered is lost, nothing is stored twice, shard 0 plays on
meanwhile, and no game moved shards: each server's games are driven only by its own shard's process
(Discord: shard = (guild_id >> 22) % shard_count)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import pytest

from tests.fakediscord.driver import Driver
from tests.fakediscord.gateway import IDENTIFY
from tests.fakediscord.process import ENV_GUILD, BotProcess, start_against_computer
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeMessage, FakeUser
from tests.postgres import fresh_schema_url

UPDATE_MESSAGE = 7
GAMES_PER_SHARD = 3

pytestmark = pytest.mark.slow


def _shard(guild_id: int) -> int:
    return (guild_id >> 22) % 2


def _flip_of(board: FakeMessage) -> str:
    return next(c for c in board.custom_ids() if c.startswith("mk:flip:"))


def _seats(fake: FakeDiscord) -> dict[int, list[tuple[FakeUser, FakeChannel]]]:
    """GAMES_PER_SHARD pupils with a channel each, in one server on each shard."""
    guilds = {_shard(fake.guild.id): fake.guild}
    while len(guilds) < 2:
        fake.clock.advance(0.001)  # the next snowflake's millisecond: the other shard's
        guild = fake.world.add_guild(f"Skole {len(fake.world.guilds)}")
        guilds.setdefault(_shard(guild.id), guild)
    return {
        shard: [
            (
                fake.world.add_user(f"pupil{shard}-{i}", locale="no", guild=guild),
                fake.world.add_channel(f"bord-{shard}-{i}", guild=guild),
            )
            for i in range(GAMES_PER_SHARD)
        ]
        for shard, guild in guilds.items()
    }


def _rows(url: str, sql: str) -> list[tuple[Any, ...]]:
    import psycopg

    with psycopg.connect(url) as conn:
        return list(conn.execute(sql.encode()).fetchall())


async def test_two_shard_processes_share_one_postgresql_and_survive_sigkill(
    fake_discord: FakeDiscord, driver: Driver, tmp_path: Path
) -> None:
    fake = fake_discord
    url = fresh_schema_url()
    seats = _seats(fake)
    guild_of = {shard: seats[shard][0][1].guild_id for shard in seats}

    def process(shard: int) -> BotProcess:
        env = {
            "DATABASE_URL": url,
            "SHARD_COUNT": "2",
            "SHARD_IDS": str(shard),
            ENV_GUILD: str(guild_of[shard]),  # its slash commands are synced to its server
        }
        return BotProcess(fake, "real", tmp_path / f"unused-{shard}.db", env=env)

    bots = {0: process(0), 1: process(1)}
    boards: dict[int, list[tuple[FakeUser, FakeMessage]]] = {0: [], 1: []}
    try:
        for bot in bots.values():
            await bot.start()
        shards = sorted(p["d"].get("shard") or [] for p in fake.gateway.ops(IDENTIFY))
        assert shards == [[0, 2], [1, 2]]  # each process on its own shard only
        for shard in (0, 1):
            for user, channel in seats[shard]:
                start = await start_against_computer(driver, user, channel)
                assert start.answered and start.original is not None, bots[shard].output
                boards[shard].append((user, start.original))
        await asyncio.sleep(0.3)  # the boards' ids are stored just after the answers
        for shard in (0, 1):
            for user, board in boards[shard]:
                press = await driver.click(user, fake.message(board.id), _flip_of(board))
                assert press.answered and press.response_type == UPDATE_MESSAGE
        await bots[1].kill()
        # Shard 0 plays on while shard 1 is down.
        user, board = boards[0][0]
        current = fake.message(board.id)
        again = await driver.click(user, current, _flip_of(current))
        assert again.answered and again.response_type == UPDATE_MESSAGE
        bots[1] = process(1)
        await bots[1].start()  # restores shard 1's games from the shared database
        assert fake.gateway.ops(IDENTIFY)[-1]["d"]["shard"] == [1, 2]
        user, board = boards[1][0]
        current = fake.message(board.id)
        restored = await driver.click(user, current, _flip_of(current))
        assert restored.answered and restored.response_type == UPDATE_MESSAGE
    finally:
        for bot in bots.values():
            with contextlib.suppress(Exception):
                await bot.stop()

    games = _rows(url, "SELECT id, guild_id, status FROM games ORDER BY id")
    assert len(games) == 2 * GAMES_PER_SHARD
    assert {g[1] for g in games} == set(guild_of.values())
    presses = _rows(
        url,
        "SELECT g.guild_id, e.user_id, count(*) FROM game_events e JOIN games g ON g.id = e.game_id"
        " WHERE e.user_id IS NOT NULL GROUP BY g.guild_id, e.user_id",
    )
    by_user = {user_id: (guild_id, count) for guild_id, user_id, count in presses}
    for shard in (0, 1):
        for i, (user, _) in enumerate(seats[shard]):
            # one press each, two for the first pupil of each shard (after the kill)
            assert by_user[user.id] == (guild_of[shard], 2 if i == 0 else 1), user.username
