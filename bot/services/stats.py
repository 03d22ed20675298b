"""`/mattekrig stats [user]`: one call, `StatsService.stats`; and the level suggestion the
teacher's report shares.

Accuracy is correct answers ÷ answers given (timeouts are counted apart as misses), per
operation and per level, over every game in the server (practice against the computer
included). The suggested next level, for Regnekrig:

* the *current* level is the level of the pupil's last Regnekrig game with answers;
* a level is *mastered* at ≥ 80 % accuracy over at least 10 answers;
* current level and the one below it both mastered (level 1: itself) → the next level;
* otherwise, repeated misses — in each of the last two games at the current level, misses
  (wrong answers and timeouts) outnumbered correct answers → the previous level;
* otherwise stay. A pupil with no answers yet starts at level 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.reports import LevelSuggestion, PlayerStats
from bot.services.clock import Clock
from bot.services.errors import UserFacingError
from bot.services.results import OPERATIONS
from bot.storage import ALL_TIME, OperationTally, PlayerGame, RatingLine, season_scope
from bot.storage.contract import Store

MASTERY = 0.8
MASTERY_ANSWERS = 10
MISS_GAMES = 2
MAX_LEVEL = 7
TREND = 10


class StatsService:
    def __init__(self, storage: Store, clock: Clock) -> None:
        self.storage = storage
        self.clock = clock

    async def stats(
        self,
        guild_id: int,
        viewer_id: int,
        user_id: int | None = None,
        *,
        game: str | None = None,
        manager: bool = False,
    ) -> PlayerStats:
        """The viewer's own stats, or ``user_id``'s. Another member's stats are refused
        (``stats.private``) when the teacher has hidden the leaderboard, unless the viewer manages
        the server."""
        user_id = viewer_id if user_id is None else user_id
        if user_id != viewer_id and not manager:
            settings = await self.storage.guild_settings(guild_id)
            if settings.board != "visible":
                raise UserFacingError("stats.private")
        games = await self.storage.player_games(guild_id, user_id)
        if game is not None:
            games = [g for g in games if g.result.game == game]
        season = await self.storage.current_season(guild_id)
        scopes = {ALL_TIME, season_scope(season.season)} if season else {ALL_TIME}
        ratings = tuple(
            line
            for line in await self.storage.rating_lines(guild_id, user_id, trend=TREND)
            if line.scope in scopes and (game is None or line.game == game)
        )
        names = await self.storage.player_names(guild_id, [user_id])
        return summarize(guild_id, user_id, names.get(user_id), games, ratings)


def summarize(
    guild_id: int,
    user_id: int,
    name: str | None,
    games: Sequence[PlayerGame],
    ratings: tuple[RatingLine, ...] = (),
) -> PlayerStats:
    """A player's stats from their games (pure; shared with the teacher's report)."""
    finished = [g for g in games if g.result.finished]
    outcomes = [g.player.outcome for g in finished]
    total = OperationTally("all")
    operations: dict[str, OperationTally] = {}
    levels: dict[int, OperationTally] = {}
    for g in games:
        p = g.player
        total += OperationTally("all", p.answers, p.correct, p.best, p.answer_ms)
        for tally in p.operations:
            operations[tally.op] = operations.get(tally.op, OperationTally(tally.op)) + tally
        if g.result.game == "regnekrig" and p.answers:
            level = levels.get(g.result.level, OperationTally(f"level{g.result.level}"))
            levels[g.result.level] = level + OperationTally(
                level.op, p.answers, p.correct, p.best, p.answer_ms
            )
    best = run = 0
    for outcome in outcomes:
        run = run + 1 if outcome == "win" else 0
        best = max(best, run)
    return PlayerStats(
        guild_id=guild_id,
        user_id=user_id,
        display_name=name or (games[-1].player.display_name if games else None),
        games=len(games),
        finished=len(finished),
        wins=outcomes.count("win"),
        draws=outcomes.count("draw"),
        losses=outcomes.count("loss"),
        rated_games=sum(1 for g in games if g.result.rated),
        answers=total,
        missed=sum(g.player.missed for g in games),
        exact_hits=sum(g.player.exact_hits for g in games),
        rounds_won=sum(g.player.rounds_won for g in games),
        wars_won=sum(g.player.wars_won for g in games),
        operations={op: operations[op] for op in OPERATIONS if op in operations},
        levels=dict(sorted(levels.items())),
        ratings=ratings,
        best_streak=best,
        current_streak=run,
        suggestion=suggest_level(games),
    )


def suggest_level(games: Sequence[PlayerGame]) -> LevelSuggestion:
    """The Regnekrig level to play next (rule in the module docstring)."""
    played = [
        g for g in games if g.result.game == "regnekrig" and g.player.answers + g.player.missed
    ]
    if not played:
        return LevelSuggestion(1, None, "start")
    current = played[-1].result.level
    answers: dict[int, int] = {}
    correct: dict[int, int] = {}
    for g in played:
        answers[g.result.level] = answers.get(g.result.level, 0) + g.player.answers
        correct[g.result.level] = correct.get(g.result.level, 0) + g.player.correct

    def mastered(level: int) -> bool:
        given = answers.get(level, 0)
        return given >= MASTERY_ANSWERS and correct.get(level, 0) / given >= MASTERY

    if mastered(current) and (current == 1 or mastered(current - 1)):
        if current < MAX_LEVEL:
            return LevelSuggestion(current + 1, current, "next")
        return LevelSuggestion(current, current, "stay")
    recent = [g for g in played if g.result.level == current][-MISS_GAMES:]
    missing = len(recent) == MISS_GAMES and all(
        (g.player.answers - g.player.correct) + g.player.missed > g.player.correct for g in recent
    )
    if missing and current > 1:
        return LevelSuggestion(current - 1, current, "previous")
    return LevelSuggestion(current, current, "stay")
