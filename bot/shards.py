"""Shards: which guilds' games this process owns when several bot processes share a database.

Discord puts a guild on shard ``(guild_id >> 22) % shard_count`` (direct messages on shard
0) and a process connects only its own shards (``SHARD_IDS`` of ``SHARD_COUNT``), so it only
ever hears its own guilds' presses. The game service must likewise restore, time and end
only those games: `ShardGameStore` shows it the shared database through that filter, so a
timer of another process's game is neither fired nor cleared here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.contract import GameStore
from bot.storage.records import (
    ActionCommit,
    Assignment,
    ClassPreset,
    ClassSession,
    GameRecord,
    GameStatus,
    NamedPreset,
    NewGame,
    Player,
    StoredGame,
    Timer,
)


@dataclass(frozen=True, slots=True)
class Shards:
    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids


def shard_of(guild_id: int | None, count: int) -> int:
    """Discord's rule (a direct message's game has no guild: shard 0's)."""
    return 0 if guild_id is None else (guild_id >> 22) % count


class ShardGameStore:
    """The game service's storage, limited to the games of this process's shards.

    Listing reads (live games, deadlines) keep only owned games; writes pass through (the
    service only writes games it holds, which are owned). A game's guild never changes, so
    game id → guild is remembered; an unknown id is looked up once in the live games."""

    def __init__(self, inner: GameStore, shards: Shards) -> None:
        self._inner = inner
        self.shards = shards
        self._guild_of: dict[int, int | None] = {}

    def _learn(self, games: Sequence[GameRecord]) -> None:
        for game in games:
            self._guild_of[game.id] = game.guild_id

    async def _owned_timers(self, timers: list[Timer]) -> list[Timer]:
        if any(t.game_id not in self._guild_of for t in timers):
            self._learn(await self._inner.live_games())
        return [
            t
            for t in timers
            if t.game_id in self._guild_of and self.shards.owns(self._guild_of[t.game_id])
        ]

    # -- filtered ----------

    async def live_games(self) -> list[GameRecord]:
        games = await self._inner.live_games()
        self._learn(games)
        return [g for g in games if self.shards.owns(g.guild_id)]

    async def load_live_games(self) -> list[StoredGame]:
        games = await self._inner.load_live_games()
        self._learn(games)
        return [g for g in games if self.shards.owns(g.guild_id)]

    async def ended_since(self, at: int) -> list[int]:
        """Games that ended lately, for their boards' redraw: every process redraws only its
        own shards' (a game this process never saw is looked up before it is kept)."""
        ended = await self._inner.ended_since(at)
        unknown = [g for g in ended if g not in self._guild_of]
        for game_id in unknown:
            self._guild_of[game_id] = (await self._inner.load_game(game_id)).guild_id
        return [g for g in ended if self.shards.owns(self._guild_of.get(g))]

    async def due_timers(self, now: int) -> list[Timer]:
        return await self._owned_timers(await self._inner.due_timers(now))

    async def live_timers(self) -> list[Timer]:
        return await self._owned_timers(await self._inner.live_timers())

    async def next_timer_due(self) -> int | None:
        owned = await self.live_timers()
        return min((t.due_at for t in owned), default=None)

    # -- passed through ----------

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        config: Any,
        seed: int,
        players: Sequence[Player],
        at: int,
        thread_id: int | None = None,
        message_id: int | None = None,
    ) -> int:
        game_id = await self._inner.create_game(
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            config=config,
            seed=seed,
            players=players,
            at=at,
            thread_id=thread_id,
            message_id=message_id,
        )
        self._guild_of[game_id] = guild_id
        return game_id

    async def start_game(self, new: NewGame, change: ActionCommit) -> GameRecord:
        record = await self._inner.start_game(new, change)
        self._guild_of[record.id] = record.guild_id
        return record

    async def commit_action(self, game_id: int, change: ActionCommit) -> None:
        await self._inner.commit_action(game_id, change)

    async def append_event(
        self,
        game_id: int,
        seq: int,
        action: Any,
        events: Sequence[Any],
        at: int,
        *,
        user_id: int | None = None,
        status: GameStatus | None = None,
    ) -> None:
        await self._inner.append_event(
            game_id, seq, action, events, at, user_id=user_id, status=status
        )

    async def load_game(self, game_id: int) -> StoredGame:
        return await self._inner.load_game(game_id)

    async def live_game_in_channel(self, channel_id: int) -> GameRecord | None:
        return await self._inner.live_game_in_channel(channel_id)

    async def set_board_message(
        self, game_id: int, message_id: int, at: int, *, thread_id: int | None = None
    ) -> None:
        await self._inner.set_board_message(game_id, message_id, at, thread_id=thread_id)

    async def set_status(self, game_id: int, status: GameStatus, at: int) -> None:
        await self._inner.set_status(game_id, status, at)

    async def set_timer(self, game_id: int, kind: str, due_at: int, payload: Any = None) -> None:
        await self._inner.set_timer(game_id, kind, due_at, payload)

    async def clear_timer(self, game_id: int, kind: str) -> bool:
        return await self._inner.clear_timer(game_id, kind)

    async def timers_for(self, game_id: int) -> list[Timer]:
        return await self._inner.timers_for(game_id)

    # -- the teacher's settings, passed through (they are the server's, on every shard) ----

    async def set_preset(self, preset: ClassPreset, at: int) -> ClassPreset:
        return await self._inner.set_preset(preset, at)

    async def clear_preset(self, guild_id: int, channel_id: int) -> bool:
        return await self._inner.clear_preset(guild_id, channel_id)

    async def preset_for(self, guild_id: int, channel_id: int) -> ClassPreset | None:
        return await self._inner.preset_for(guild_id, channel_id)

    async def presets(self, guild_id: int) -> list[ClassPreset]:
        return await self._inner.presets(guild_id)

    async def set_accommodation(
        self, guild_id: int, user_id: int, answer_percent: int | None, at: int
    ) -> None:
        await self._inner.set_accommodation(guild_id, user_id, answer_percent, at)

    async def accommodations(
        self, guild_id: int, user_ids: Iterable[int] | None = None
    ) -> dict[int, int]:
        return await self._inner.accommodations(guild_id, user_ids)

    async def start_session(
        self,
        guild_id: int,
        channel_id: int,
        lang: str,
        started_at: int,
        ends_at: int,
        preset: NamedPreset | None = None,
    ) -> ClassSession | None:
        return await self._inner.start_session(
            guild_id, channel_id, lang, started_at, ends_at, preset
        )

    async def running_session(self, guild_id: int, at: int) -> ClassSession | None:
        return await self._inner.running_session(guild_id, at)

    async def session(self, session_id: int) -> ClassSession | None:
        return await self._inner.session(session_id)

    async def last_session(self, guild_id: int) -> ClassSession | None:
        return await self._inner.last_session(guild_id)

    async def ended_sessions(self, at: int) -> list[ClassSession]:
        return await self._inner.ended_sessions(at)

    async def next_session_end(self) -> int | None:
        return await self._inner.next_session_end()

    async def mark_summarized(self, session_id: int, at: int) -> bool:
        return await self._inner.mark_summarized(session_id, at)

    async def add_assignment(
        self,
        guild_id: int,
        game: str,
        level: int,
        rounds: int,
        best_percent: int,
        created_at: int,
        due_at: int,
    ) -> Assignment:
        return await self._inner.add_assignment(
            guild_id, game, level, rounds, best_percent, created_at, due_at
        )

    async def assignments(self, guild_id: int, *, due_after: int = 0) -> list[Assignment]:
        return await self._inner.assignments(guild_id, due_after=due_after)


__all__ = ["ShardGameStore", "Shards", "shard_of"]
