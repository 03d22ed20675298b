"""Shards: which guilds' games this process owns when several bot processes share a database.

Discord puts a guild on shard ``(guild_id >> 22) % shard_count`` (direct messages on shard
0) and a process connects only its own shards (``SHARD_IDS`` of ``SHARD_COUNT``), so it only
ever hears its own guilds' presses. The game service must likewise restore, time and end
only those games: `ShardGameStore` shows it the shared database through that filter, so a
timer of another process's game is neither fired nor cleared here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from storage.contract import GameStore
from storage.errors import NotFoundError
from storage.records import (
    ActionCommit,
    ClassSession,
    GameRecord,
    GameStatus,
    NewGame,
    PracticeNote,
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

    Listing reads (live games, ended games, deadlines) keep only owned games; the rest of
    `GameStore` passes through (the service only writes games it holds, which are owned, and
    the teacher's facts are the server's, on every shard). A game's guild never changes, so
    game id → guild is remembered; an id not seen yet is looked up once."""

    def __init__(self, inner: GameStore, shards: Shards) -> None:
        self._inner = inner
        self.shards = shards
        self._guild_of: dict[int, int | None] = {}

    async def _owned(self, game_ids: Iterable[int]) -> set[int]:
        """Which of these games are this process's (their guilds looked up once each)."""
        ids = set(game_ids)
        for game_id in ids - self._guild_of.keys():
            try:
                self._guild_of[game_id] = (await self._inner.load_game(game_id)).guild_id
            except NotFoundError:  # deleted meanwhile (its server forgotten): nobody's
                continue
        return {g for g in ids if g in self._guild_of and self.shards.owns(self._guild_of[g])}

    async def _owned_timers(self, timers: list[Timer]) -> list[Timer]:
        owned = await self._owned(t.game_id for t in timers)
        return [t for t in timers if t.game_id in owned]

    # -- filtered ----------

    async def load_live_games(self) -> list[StoredGame]:
        games = await self._inner.load_live_games()
        for game in games:
            self._guild_of[game.id] = game.guild_id
        return [g for g in games if self.shards.owns(g.guild_id)]

    async def ended_since(self, at: int) -> list[int]:
        """Games that ended lately, for their boards' redraw: every process redraws only its
        own shards'."""
        ended = await self._inner.ended_since(at)
        owned = await self._owned(ended)
        return [g for g in ended if g in owned]

    async def due_timers(self, now: int) -> list[Timer]:
        return await self._owned_timers(await self._inner.due_timers(now))

    async def live_timers(self) -> list[Timer]:
        return await self._owned_timers(await self._inner.live_timers())

    async def next_timer_due(self) -> int | None:
        owned = await self.live_timers()
        return min((t.due_at for t in owned), default=None)

    # -- passed through ----------

    async def start_game(self, new: NewGame, change: ActionCommit) -> GameRecord:
        record = await self._inner.start_game(new, change)
        self._guild_of[record.id] = record.guild_id
        return record

    async def commit_action(self, game_id: int, change: ActionCommit) -> None:
        await self._inner.commit_action(game_id, change)

    async def load_game(self, game_id: int) -> StoredGame:
        return await self._inner.load_game(game_id)

    async def set_board_message(
        self, game_id: int, message_id: int, at: int, *, thread_id: int | None = None
    ) -> None:
        await self._inner.set_board_message(game_id, message_id, at, thread_id=thread_id)

    async def set_status(self, game_id: int, status: GameStatus, at: int) -> None:
        await self._inner.set_status(game_id, status, at)

    async def set_shown_seqs(self, seqs: Mapping[int, int]) -> None:
        await self._inner.set_shown_seqs(seqs)

    async def set_timer(self, game_id: int, kind: str, due_at: int, payload: Any = None) -> None:
        await self._inner.set_timer(game_id, kind, due_at, payload)

    async def clear_timer(self, game_id: int, kind: str) -> bool:
        return await self._inner.clear_timer(game_id, kind)

    async def timers_for(self, game_id: int) -> list[Timer]:
        return await self._inner.timers_for(game_id)

    async def running_session(self, guild_id: int, at: int) -> ClassSession | None:
        return await self._inner.running_session(guild_id, at)

    async def accommodations(
        self, guild_id: int, user_ids: Iterable[int] | None = None
    ) -> dict[int, int]:
        return await self._inner.accommodations(guild_id, user_ids)

    async def add_practice_note(self, game_id: int, guild_id: int, user_id: int, code: str) -> None:
        await self._inner.add_practice_note(game_id, guild_id, user_id, code)

    async def practice_notes(self, guild_id: int, user_id: int | None = None) -> list[PracticeNote]:
        return await self._inner.practice_notes(guild_id, user_id)


if TYPE_CHECKING:  # mypy checks here that the filter is a whole `GameStore`
    _IMPLEMENTS: type[GameStore] = ShardGameStore

__all__ = ["ShardGameStore", "Shards", "shard_of"]
