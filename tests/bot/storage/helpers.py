"""Small builders shared by the storage contract tests."""

from __future__ import annotations

from typing import Any

from bot.storage import Player
from bot.storage.contract import GameEventStore

T0 = 1_700_000_000_000  # a fixed "now" in epoch milliseconds

ADA = Player(seat=0, side=0, display_name="Ada", user_id=101)
BO = Player(seat=1, side=1, display_name="Bo", user_id=102)
CPU = Player(seat=1, side=1, display_name="Datamaskin", computer="medium")


async def new_game(
    store: GameEventStore,
    *,
    channel_id: int = 500,
    thread_id: int | None = None,
    players: tuple[Player, ...] = (ADA, BO),
    config: Any = None,
    at: int = T0,
) -> int:
    return await store.create_game(
        guild_id=1,
        channel_id=channel_id,
        thread_id=thread_id,
        game="regnekrig",
        config={"level": 5, "mode": "regn", "deck": "heltall"} if config is None else config,
        seed=123456789,
        players=players,
        at=at,
    )
