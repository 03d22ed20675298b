"""A local fake Discord (REST + gateway on 127.0.0.1) for testing the real discord.py client.

Start with the fixtures in :mod:`.fixtures` (``fake_discord``, ``driver``, ``make_harness``,
``tmp_database``); see the README-style docstrings of :class:`FakeDiscord`, :class:`Driver` and
:class:`BotHarness`.
"""

from .clock import FakeClock
from .driver import Driver
from .errors import ApiError
from .harness import BotHarness, ClientFactory, run_client
from .server import FakeDiscord, RecordedRequest
from .state import (
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMessage,
    FakeModal,
    FakeRole,
    FakeUser,
    World,
)

__all__ = [
    "ApiError",
    "BotHarness",
    "ClientFactory",
    "Driver",
    "FakeAttachment",
    "FakeChannel",
    "FakeClock",
    "FakeCommand",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMessage",
    "FakeModal",
    "FakeRole",
    "FakeUser",
    "RecordedRequest",
    "World",
    "run_client",
]
