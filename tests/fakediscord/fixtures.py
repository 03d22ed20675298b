"""pytest fixtures for the fake Discord (registered from tests/conftest.py).

* ``fake_discord`` – a started :class:`FakeDiscord` with discord.py patched to use it.
* ``driver`` – a :class:`Driver` for it.
* ``make_harness`` – ``make_harness(factory) -> BotHarness``; every harness is stopped at the end.
* ``tmp_database`` – a path for a throw-away SQLite file.
* ``bot_factory`` / ``bot_harness`` – the project's bot against the fake, once ``bot_factory``
  is overridden (it skips until then).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from .driver import Driver
from .harness import BotHarness, ClientFactory
from .server import FakeDiscord

REFUSALS_MARKER = "discord_refuses"


@pytest.fixture
async def fake_discord(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    """A fake Discord on 127.0.0.1; ``Route.BASE``/``DEFAULT_GATEWAY`` restored afterwards.

    A request the fake refused for its body (400 50035/50006, 413) fails the test at teardown,
    whether or not the bot noticed: that is a request Discord would refuse. A test that sends
    such a body on purpose says so with ``@pytest.mark.discord_refuses``.
    """
    async with FakeDiscord() as fake:
        with fake.patch_discord():
            yield fake
    if request.node.get_closest_marker(REFUSALS_MARKER) is None:
        refused = fake.refusals()
        assert not refused, "Discord would refuse these requests:\n" + "\n".join(
            f"  {r.method} {r.path} -> {r.status} {r.error}" for r in refused
        )


@pytest.fixture
def driver(fake_discord: FakeDiscord) -> Driver:
    """Slash commands, clicks, selects and modal submits as users."""
    return Driver(fake_discord)


@pytest.fixture
def tmp_database(tmp_path: Path) -> Path:
    """A fresh SQLite path (the file does not exist yet) that survives a bot restart."""
    return tmp_path / "mattekrig.sqlite3"


@pytest.fixture
async def make_harness(
    fake_discord: FakeDiscord,
) -> AsyncIterator[Callable[..., BotHarness]]:
    """``make_harness(factory, **options)``; all harnesses are stopped at teardown."""
    made: list[BotHarness] = []

    def make(factory: ClientFactory, **options: Any) -> BotHarness:
        harness = BotHarness(fake_discord, factory, **options)
        made.append(harness)
        return harness

    yield make
    for harness in made:
        await harness.stop(raise_errors=False)


@pytest.fixture
def bot_factory(tmp_database: Path) -> ClientFactory:
    """Builds the project's bot on ``tmp_database``: override this fixture once bot/client.py
    exists (e.g. ``lambda: MattekrigBot(Config(database_path=tmp_database, ...))`` with
    ``guild_ready_timeout=0``)."""
    pytest.skip("bot_factory is not defined yet: override it to build the project's bot")


@pytest.fixture
async def bot_harness(
    make_harness: Callable[..., BotHarness], bot_factory: ClientFactory
) -> BotHarness:
    """The project's bot, started and ready; ``await bot_harness.restart()`` for restarts."""
    harness = make_harness(bot_factory)
    await harness.start()
    return harness
