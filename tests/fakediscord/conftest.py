"""Fixtures for the fake's own tests: the sample bot, started against the fake."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .harness import BotHarness
from .sample_bot import SampleBot
from .server import FakeDiscord


@pytest.fixture
async def harness(fake_discord: FakeDiscord, make_harness: Callable[..., BotHarness]) -> BotHarness:
    """A started harness running :class:`SampleBot` (restartable)."""
    started = make_harness(lambda: SampleBot(fake_discord.guild.id))
    await started.start()
    return started


@pytest.fixture
def bot(harness: BotHarness) -> SampleBot:
    """The running sample bot."""
    client = harness.client
    assert isinstance(client, SampleBot)
    return client
