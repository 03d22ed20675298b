"""A pupil's end-of-game summary, from the game's own result.

Pure: `summarise(result, user_id)` reads the `GameResult` that `compute_result` makes from the
stored game (so the summary and the records count the same things). The suggestion is
honest about one game only (`classroom.advice.next_step`, the lesson's summary gives the same);
`/mattekrig stats` reads the whole record.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.services.figures import BestMove, PupilSummary
from bot.services.results import (
    Mistakes,
    NotFinishedError,
    best_moves_missed,
    compute_result_with_mistakes,
)
from bot.services.stats import operations_with_misses
from classroom.advice import next_step
from classroom.errors import UserFacingError
from engine.registry import descriptor
from engine.regnekrig import TARGET_LEVELS
from storage import GameResult, PlayerGame, StoredGame
from storage.contract import GameEventStore

TOP_MISTAKES = 3
MISSED_BEST_SHOWN = 3  # the last rounds' best moves missed, kept short for a phone


def summarise(result: GameResult, user_id: int, mistakes: Mistakes = ()) -> PupilSummary | None:
    """The summary for the player ``user_id`` (None when they did not play in it), with the
    pupil's mistake kinds (`compute_result_with_mistakes`)."""
    player = next((p for p in result.players if p.user_id == user_id), None)
    if player is None:
        return None
    asked = player.answers + player.missed
    level = result.level
    step = next_step(
        level,
        player.answers,
        player.best,
        player.missed,
        operations_with_misses(PlayerGame(result, player)),
        descriptor(result.game).typed_answers,
    )
    return PupilSummary(
        game_id=result.game_id,
        game=result.game,
        level=level,
        asked=asked,
        best=player.best,
        exact_hits=player.exact_hits if result.level in TARGET_LEVELS else 0,
        missed=player.missed,
        mistakes=mistakes[:TOP_MISTAKES],
        direction=step.direction,
        suggested_level=step.level,
        practise=step.practise,
        practice=step.practice,
    )


class SummaryService:
    """The "📋 My summary" button's service: the presser's own summary of a finished game."""

    def __init__(self, storage: GameEventStore) -> None:
        self.storage = storage

    async def summary(self, game_id: int, user_id: int) -> PupilSummary:
        """Refused with ``summary.not_over`` while the game is live (or for a game outside a
        server, which keeps no result), ``summary.not_player`` for someone who did not play."""
        stored = await self.storage.load_game(game_id)
        if stored.status == "live" or stored.guild_id is None:
            raise UserFacingError("summary.not_over")
        if all(p.user_id != user_id for p in stored.players):
            raise UserFacingError("summary.not_player")
        try:
            # a replay: CPU work, off the event loop
            result, mistakes, missed = await asyncio.to_thread(_read, stored)
        except NotFinishedError:
            raise UserFacingError("summary.not_over") from None
        summary = summarise(result, user_id, mistakes.get(user_id, ()))
        if summary is None:  # pragma: no cover - the player check above already refused
            raise UserFacingError("summary.not_player")
        return replace(summary, missed_best=missed.get(user_id, ())[-MISSED_BEST_SHOWN:])


def _read(
    stored: StoredGame,
) -> tuple[GameResult, dict[int, Mistakes], dict[int, tuple[BestMove, ...]]]:
    result, mistakes = compute_result_with_mistakes(stored)
    return result, mistakes, best_moves_missed(stored)
