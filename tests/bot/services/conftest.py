"""A real SQLite file and a fake clock: services are tested with the real engine and storage."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services.deadlines import GameDeadlines
from bot.services.games import GameService
from bot.services.invitations import InvitationService
from storage import Player, Storage
from tests.bot.clock import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "mattekrig.db")
    yield store
    await store.close()


@pytest.fixture
def games(storage: Storage, clock: FakeClock) -> GameService:
    return GameService(storage, clock)


@pytest.fixture
def deadlines(storage: Storage, clock: FakeClock, games: GameService) -> GameDeadlines:
    return GameDeadlines(games, storage, clock)


@pytest.fixture
def invitations(storage: Storage, clock: FakeClock, games: GameService) -> InvitationService:
    return InvitationService(storage, clock, games)


ALICE, BOB, CARL, DINA, EVE = 101, 102, 103, 104, 105


def two_players() -> list[Player]:
    return [
        Player(seat=0, side=0, display_name="Alice", user_id=ALICE),
        Player(seat=1, side=1, display_name="Bob", user_id=BOB),
    ]
