"""The harness and fixtures: start, stop and restart a client on the same database."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

import discord
import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .driver import Driver
from .harness import BotHarness, run_client
from .sample_bot import CounterButton, SampleBot
from .server import FakeDiscord


def presses_in(database: Path) -> list[int]:
    with contextlib.closing(sqlite3.connect(database)) as db:
        return [n for (n,) in db.execute("SELECT n FROM presses ORDER BY rowid")]


async def test_dynamic_button_works_after_a_restart(
    fake_discord: FakeDiscord,
    driver: Driver,
    make_harness: Callable[..., BotHarness],
    tmp_database: Path,
) -> None:
    harness = make_harness(lambda: SampleBot(fake_discord.guild.id, database=tmp_database))
    first = await harness.start()
    assert isinstance(first, SampleBot)

    async def post_board(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(1))
        await interaction.response.send_message("count 1", view=view)

    first.action = post_board
    start = await driver.slash("alice", "mattekrig run")
    board = start.original
    assert board is not None
    await driver.click("alice", board, "counter:1")
    assert board.content == "count 2"

    await harness.stop()
    await fake_discord.wait_until(lambda: not fake_discord.gateway.sessions)
    with pytest.raises(RuntimeError, match="no bot is connected"):
        await driver.click("bob", board, "counter:2")

    second = await harness.start()
    assert isinstance(second, SampleBot) and second is not first
    press = await driver.click("bob", board, "counter:2")

    assert press.answered and board.content == "count 3"
    assert first.presses == [1] and second.presses == [2]
    assert presses_in(tmp_database) == [1, 2]
    assert fake_discord.gateway.identify_count == 2
    assert harness.clients == [first, second]


async def test_restart_helper_and_run_client(
    fake_discord: FakeDiscord, make_harness: Callable[..., BotHarness]
) -> None:
    harness = make_harness(lambda: SampleBot(fake_discord.guild.id))
    first = await harness.start()
    second = await harness.restart()

    assert first.is_closed() and second.is_ready() and harness.running

    await harness.stop()
    assert not harness.running
    with pytest.raises(RuntimeError):
        _ = harness.client

    async with run_client(fake_discord, lambda: SampleBot(fake_discord.guild.id)) as client:
        assert client.is_ready()
    assert client.is_closed()


async def test_a_client_that_cannot_start_fails_fast(fake_discord: FakeDiscord) -> None:
    harness = BotHarness(fake_discord, lambda: SampleBot(fake_discord.guild.id), ready_timeout=5)
    fake_discord.faults.missing_permissions("GET /users/@me")

    with pytest.raises(RuntimeError, match="stopped before it was ready") as failed:
        await harness.start()

    assert isinstance(failed.value.__cause__, discord.Forbidden)
    assert not harness.running


def test_tmp_database_is_a_fresh_path(tmp_database: Path) -> None:
    assert tmp_database.suffix == ".sqlite3"
    assert not tmp_database.exists() and tmp_database.parent.is_dir()


async def test_patch_is_restored_even_on_error() -> None:
    base, gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    async with FakeDiscord() as fake:
        with pytest.raises(KeyError), fake.patch_discord():
            assert fake.api_base == Route.BASE
            assert fake.api_base.startswith("http://127.0.0.1:")
            raise KeyError("boom")

    assert base == Route.BASE and gateway == DiscordWebSocket.DEFAULT_GATEWAY
    assert base.startswith("https://discord.com/")
