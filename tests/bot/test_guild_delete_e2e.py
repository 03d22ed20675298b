"""PRIVACY.md, "What is stored … and for how long": when the bot is removed from a server (or
the server is deleted), everything stored for it is deleted LEFT_SERVER_DAYS (30) days later;
a server that adds the bot back within that time keeps its data. Nothing reacted to
GUILD_DELETE before: a school's pupils stayed in the database for ever."""

from __future__ import annotations

import asyncio
from pathlib import Path

from classroom.periods import DAY_MS
from tests.bot.clock import FakeClock
from tests.bot.db_scan import scan
from tests.bot.e2e import Table
from tests.fakediscord import payloads


async def _a_class(table: Table) -> int:
    """A finished game and a teacher's setting in the fake's server; its id."""
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    while not table.state(gid).is_over:
        await table.flip("alice", gid)
    await table.settle()
    await table.bot.results.record_pending()
    return table.fake.guild.id


async def _removed(table: Table, guild_id: int) -> None:
    await table.fake.gateway.dispatch("GUILD_DELETE", {"id": str(guild_id)})
    await table.fake.wait_until(
        lambda: table.bot.get_guild(guild_id) is None, what="the guild forgotten by discord.py"
    )
    await table.settle()


async def _departed(table: Table, expected: dict[int, int]) -> dict[int, int]:
    """The departed servers once they are ``expected`` (the bot's listener runs in a task of
    its own after discord.py has handled the event), or as they are after two seconds."""
    for _ in range(100):
        found = await table.bot.storage.departed_guilds()
        if found == expected:
            break
        await asyncio.sleep(0.02)
    return found


async def _days(clock: FakeClock, days: float) -> None:
    clock.advance(days * DAY_MS / 1000)


async def test_a_server_that_removes_the_bot_is_forgotten_after_30_days(
    table: Table, tmp_database: Path, bot_clock: FakeClock
) -> None:
    guild_id = await _a_class(table)
    alice = table.user("alice")
    assert scan(tmp_database, alice.id, guild_id)
    await _removed(table, guild_id)
    assert await _departed(table, {guild_id: bot_clock.now_ms()}) == {guild_id: bot_clock.now_ms()}
    await _days(bot_clock, 29)
    assert (await table.bot.privacy.purge_old())["servers"] == 0
    assert scan(tmp_database, alice.id)  # still within the grace period
    await _days(bot_clock, 2)
    assert (await table.bot.privacy.purge_old())["servers"] == 1
    assert scan(tmp_database, alice.id, guild_id) == []


async def test_a_server_that_adds_the_bot_back_keeps_its_data(
    table: Table, tmp_database: Path, bot_clock: FakeClock
) -> None:
    guild_id = await _a_class(table)
    alice = table.user("alice")
    await _removed(table, guild_id)
    assert await _departed(table, {guild_id: bot_clock.now_ms()})
    guild = table.fake.guild
    await table.fake.gateway.dispatch(
        "GUILD_CREATE", payloads.guild_create(table.fake.world, guild, all_members=False)
    )
    await table.fake.wait_until(
        lambda: table.bot.get_guild(guild_id) is not None, what="the guild back"
    )
    assert await _departed(table, {}) == {}
    await _days(bot_clock, 31)
    assert (await table.bot.privacy.purge_old())["servers"] == 0
    assert scan(tmp_database, alice.id)


async def test_a_removal_while_the_bot_was_stopped_starts_the_grace_period(
    table: Table, tmp_database: Path, bot_clock: FakeClock
) -> None:
    """No GUILD_DELETE reaches a stopped bot: at the next start, a server whose data is
    stored and that is not among the bot's servers starts its grace period then."""
    guild_id = await _a_class(table)
    await table.bot.storage.update_guild_settings(4242, bot_clock.now_ms(), board="hidden")
    await table.harness.restart()
    await table.fake.wait_until(lambda: table.bot.is_ready(), what="ready")
    assert await _departed(table, {4242: bot_clock.now_ms()}) == {4242: bot_clock.now_ms()}
    assert guild_id not in await table.bot.storage.departed_guilds()
