"""The toy game (`tests.games.toy`) on Discord, through the real discord.py client against
the fake Discord: `/mattekrig start` offers it (its name from its catalogue), the board draws
its decision's buttons from its choice kinds, and its presses play it to the end. Nothing of
the bot knows the toy; it is registered (with its words) before the bot starts, as a product
game is listed in `engine.registry`.

The bot runs without pictures: the picture worker is a process of its own, which knows the
games the product lists, not one a test registers in this process.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.custom_ids import Verb, build, parse
from engine.state import Phase
from tests.bot.e2e import (  # noqa: F401 (fixtures)
    Table,
    assert_all_answered,
    bot_clock_fixture,
    bot_factory_fixture,
    no_errors_fixture,
    table_fixture,
)
from tests.games.support import every_game
from tests.games.toy import KEEP, TOY


@pytest.fixture(autouse=True)
def toy_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Registered before the bot is built, so its commands offer the toy."""
    with every_game(monkeypatch):
        yield


@pytest.fixture
def bot_pictures() -> bool:
    return False  # the picture process knows only the games the product lists


async def test_the_toy_is_played_to_its_end_with_its_own_buttons(
    table: Table, no_errors: Any
) -> None:
    gid, _ = await table.start_computer("alice", game=TOY.key, computer="medium")
    assert table.game(gid).record.game == TOY.key
    rng = random.Random(4)
    keeps = 0
    for _ in range(2000):
        state = table.state(gid)
        if state.is_over:
            break
        if state.phase is Phase.FLIP:
            press = await table.flip("alice", gid)
        else:
            assert state.phase is KEEP and state.pending == (0,)
            window = state.window
            ids = table.board(gid).custom_ids()
            keep = [build(Verb.CHOOSE, gid, window, f"keep.{i}") for i in (0, 1)]
            assert [i for i in ids if (ref := parse(i)) and ref.verb is Verb.CHOOSE] == keep
            press = await table.driver.click("alice", table.board(gid), rng.choice(keep))
            keeps += 1
        assert press.answered and not press.rejected, press
    assert table.state(gid).is_over and keeps > 0
    stored = [action for _, action, _ in await table.events(gid)]
    assert {"type": "keep", "side": 0, "index": 0} in stored  # the toy's own action, stored
    assert_all_answered(table.fake)
