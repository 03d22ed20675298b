"""A class's results recorded straight into the bot's storage: the screens that list many
pupils (leaderboards, the teacher's report) get their finished games without each being
played through Discord."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.client import MattekrigBot
from bot.services.ratings import plan
from classroom.periods import day_key, week_key
from storage import GameResult, OperationTally
from tests.bot.clock import FakeClock
from tests.bot.storage.results_helpers import duel


async def record_duels(
    bot: MattekrigBot,
    clock: FakeClock,
    pairs: Sequence[tuple[int, int]],
    *,
    name: str = "P",
    first_game: int = 900_000,
    answers: tuple[tuple[int, int], tuple[int, int]] = ((10, 9), (10, 5)),
    operations: tuple[OperationTally, ...] | None = None,
) -> list[GameResult]:
    """One level-1 duel per (winner, loser) pair of user ids in the bot's server, a minute
    apart, rated as the bot rates them: the winner gave ``answers[0]`` (answers, correct), the
    loser ``answers[1]``; each player is named ``name`` + their id, and gets ``operations``
    when given."""
    stored = []
    for n, (winner, loser) in enumerate(pairs):
        at = clock.now_ms()
        result = duel(
            first_game + n,
            winner,
            loser,
            at=at,
            guild_id=bot.config.dev_guild_id or 0,
            day=day_key(at),
            week=week_key(at),
            answers={winner: answers[0], loser: answers[1]},
        )
        players = tuple(
            replace(p, display_name=f"{name}{p.user_id}", operations=operations or p.operations)
            for p in result.players
        )
        clock.advance(60)
        recorded = await bot.storage.record_result(
            replace(result, players=players), at=at, rate=plan
        )
        assert recorded is not None
        stored.append(recorded)
    return stored
