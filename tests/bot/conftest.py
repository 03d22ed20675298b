"""The project's bot against the fake Discord server: a temporary SQLite file, a fake clock
the tests move, and commands synced to the fake's guild (the bot's development server)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import MattekrigBot
from bot.config import Config
from tests.bot.clock import FakeClock
from tests.bot.e2e import no_errors_fixture, table_fixture  # noqa: F401 (fixtures)
from tests.fakediscord.harness import ClientFactory
from tests.fakediscord.server import FakeDiscord


@pytest.fixture
def bot_clock() -> FakeClock:
    """The bot's clock: tests advance it and call `bot.scheduler.run_due()` for timers."""
    return FakeClock()


@pytest.fixture
def bot_factory(
    fake_discord: FakeDiscord, tmp_database: Path, bot_clock: FakeClock
) -> ClientFactory:
    config = Config(
        token="fake-token",
        database_path=tmp_database,
        dev_guild_id=fake_discord.guild.id,
        log_level="INFO",
    )
    return lambda: MattekrigBot(config, clock=bot_clock, guild_ready_timeout=0)
