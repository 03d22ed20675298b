"""`/mattekrig stats [user]`: one call, `StatsService.stats`; and the level suggestion the
teacher's report shares.

The figures are honest: the *best-move rate* is best moves ÷ rounds asked (answers given
plus misses, so a round left to time out counts against it), per operation and per level
(levels 5–7 each on their own), over every game in the server (practice against the computer
included); "legal" answers are counted but decide nothing (a legal answer can be a poor
move). The suggested next level, for Regnekrig, reads each level's own record over its last
`WINDOW` rounds asked:

* a mistake that keeps coming back over the pupil's last `WINDOW` rounds asked, at any level,
  decides first: the advice names its operation and kind, and the level and deck that train
  it (`classroom.advice`: subtraction sign slips → level 1 with the `fortegn` deck);
* the *current* level is the one with the most of those rounds (a tie: the one played
  last), not merely the last game's;
* at least `UP_ROUNDS` rounds there, a best-move rate of at least `UP_RATE` and at most
  `MISSED_UP` of them missed → the next level (the top level stays);
* at least `DOWN_ROUNDS` rounds there and a best-move rate under `DOWN_RATE`, or more than
  `MISSED_DOWN` of them missed → the level below, whatever level the pupil started at (no
  level below is required to be "mastered" first, so nobody is trapped);
* otherwise stay. A pupil with no rounds yet starts at level 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from bot.services.base import StoredService
from bot.services.figures import LevelSuggestion, PlayerStats
from classroom.advice import find_practice
from classroom.errors import UserFacingError
from classroom.operations import OPERATIONS, main_operation
from classroom.tally import ranked
from engine.registry import descriptor
from storage import ALL_TIME, OperationTally, PlayerGame, RatingLine, season_scope
from storage.contract import Store

WINDOW = 20
UP_ROUNDS = 10
UP_RATE = 0.8
MISSED_UP = 0.2
DOWN_ROUNDS = 6
DOWN_RATE = 0.5
MISSED_DOWN = 0.5
MAX_LEVEL = 7
TREND = 10


class StatsService(StoredService[Store]):
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
        found = summarize(guild_id, user_id, names.get(user_id), games, ratings)
        counted = {g.result.game_id for g in games}  # a forgotten or purged game's: none
        notes: Counter[str] = Counter()
        for note in await self.storage.practice_notes(guild_id, user_id):
            if note.game_id in counted:
                notes[note.code] += note.n
        return replace(found, notes=ranked(notes))


def summarize(
    guild_id: int,
    user_id: int,
    name: str | None,
    games: Sequence[PlayerGame],
    ratings: tuple[RatingLine, ...] = (),
) -> PlayerStats:
    """A player's stats from their games (pure; shared with the teacher's report)."""
    # A voided game's result is taken back (no win, loss or rating); its answers stay practice.
    finished = [g for g in games if g.result.finished and g.result.voided_at is None]
    outcomes = [g.player.outcome for g in finished]
    total = OperationTally("all")
    operations: dict[str, OperationTally] = {}
    levels: dict[int, OperationTally] = {}
    for g in games:
        p = g.player
        total += replace(_level_tally(g), op="all")
        for tally in operations_with_misses(g):
            operations[tally.op] = operations.get(tally.op, OperationTally(tally.op)) + tally
        if descriptor(g.result.game).typed_answers and p.answers + p.missed:
            levels[g.result.level] = levels.get(
                g.result.level, OperationTally(f"level{g.result.level}")
            ) + _level_tally(g)
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


def operations_with_misses(g: PlayerGame) -> list[OperationTally]:
    """The game's operation tallies, its misses counted under the level's main operation."""
    tallies = list(g.player.operations)
    if not descriptor(g.result.game).typed_answers or not g.player.missed:
        return tallies
    main = main_operation(g.result.level)
    missed = OperationTally(main, missed=g.player.missed)
    for i, tally in enumerate(tallies):
        if tally.op == main:
            tallies[i] = tally + missed
            return tallies
    return [*tallies, missed]


def _level_tally(g: PlayerGame) -> OperationTally:
    """The game's record at its level: the player's counts, with the mistake kinds and answer
    times of its main operation (square and root answers are target answers too)."""
    p = g.player
    main = [o for o in p.operations if o.op == main_operation(g.result.level)]
    kinds = main[0].mistakes if main else ()
    times = main[0].times if main else ()
    return OperationTally(
        f"level{g.result.level}",
        p.answers,
        p.correct,
        p.best,
        p.answer_ms,
        p.missed,
        mistakes=kinds,
        times=times,
    )


def _recent(played: Sequence[PlayerGame], level: int) -> OperationTally:
    """The level's own record over (about) its last `WINDOW` rounds asked: whole games, newest
    first, until the window is full."""
    record = OperationTally(f"level{level}")
    for g in reversed(played):
        if g.result.level != level:
            continue
        record += _level_tally(g)
        if record.asked >= WINDOW:
            break
    return record


def _window(played: Sequence[PlayerGame]) -> list[PlayerGame]:
    """The pupil's last (about) `WINDOW` rounds asked, at any level: whole games, newest
    first, until the window is full."""
    window: list[PlayerGame] = []
    asked = 0
    for g in reversed(played):
        window.append(g)
        asked += g.player.answers + g.player.missed
        if asked >= WINDOW:
            break
    return window


def _current(window: Sequence[PlayerGame]) -> int:
    """The level the pupil plays now: the one with the most of the window's rounds (a tie goes
    to the level played last), not merely the last game's."""
    rounds: dict[int, int] = {}
    for g in window:
        rounds[g.result.level] = rounds.get(g.result.level, 0) + g.player.answers + g.player.missed
    latest = {g.result.level: -i for i, g in enumerate(window)}
    return max(rounds, key=lambda level: (rounds[level], latest[level]))


def suggest_level(games: Sequence[PlayerGame]) -> LevelSuggestion:
    """The Regnekrig level to play next (rule in the module docstring)."""
    played = [
        g
        for g in games
        if descriptor(g.result.game).typed_answers and g.player.answers + g.player.missed
    ]
    if not played:
        return LevelSuggestion(1, None, "start")
    window = _window(played)
    current = _current(window)
    by_op: dict[str, OperationTally] = {}
    for g in window:
        for tally in operations_with_misses(g):
            by_op[tally.op] = by_op.get(tally.op, OperationTally(tally.op)) + tally
    practice = find_practice(by_op.values(), current)
    if practice is not None:
        return LevelSuggestion(practice.level, current, "practise", practice)
    record = _recent(played, current)
    rate = record.best_rate or 0.0
    missed = record.missed / record.asked if record.asked else 0.0
    if record.asked >= UP_ROUNDS and rate >= UP_RATE and missed <= MISSED_UP:
        if current < MAX_LEVEL:
            return LevelSuggestion(current + 1, current, "next")
        return LevelSuggestion(current, current, "stay")
    struggling = rate < DOWN_RATE or missed > MISSED_DOWN
    if record.asked >= DOWN_ROUNDS and struggling and current > 1:
        return LevelSuggestion(current - 1, current, "previous")
    return LevelSuggestion(current, current, "stay")
