"""Small builders shared by the storage contract tests: games made, pressed and listed through
the paths the game service takes (`start_game`, `commit_action`, `load_live_games`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from storage import ActionCommit, GameRecord, GameStatus, NewEvent, NewGame, Player
from storage.contract import GameEventStore

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
    guild_id: int | None = 1,
) -> int:
    """A live game with no actions yet; its id."""
    config = {"level": 5, "mode": "regn", "deck": "heltall"} if config is None else config
    new = NewGame(guild_id, channel_id, "regnekrig", config, 123456789, players, thread_id)
    return (await store.start_game(new, ActionCommit(at))).id


async def append(
    store: GameEventStore,
    game_id: int,
    seq: int,
    action: Any,
    events: Sequence[Any],
    at: int,
    *,
    user_id: int | None = None,
    status: GameStatus | None = None,
) -> None:
    """Accepted action number ``seq`` and its events (``status``: the game ends with it)."""
    change = ActionCommit(at, [NewEvent(seq, action, list(events), user_id)], status=status)
    await store.commit_action(game_id, change)


def record_of(game: GameRecord) -> GameRecord:
    """A stored game's record without its events."""
    return GameRecord(**{f.name: getattr(game, f.name) for f in fields(GameRecord)})


async def live_games(store: GameEventStore) -> list[GameRecord]:
    """Every live game, oldest first."""
    return [record_of(game) for game in await store.load_live_games()]


async def live_in(store: GameEventStore, channel_id: int) -> GameRecord | None:
    """The live game played in this channel or thread, if any."""
    return next((g for g in await live_games(store) if g.home_channel_id == channel_id), None)
