"""Assignments (`/mattekrig admin assignment`): a goal such as "10 rounds at level 4 with at
least 70 % best moves" and a deadline. Progress is counted from the recorded results, so it
needs nothing stored per pupil: a pupil sees their own in `/mattekrig stats`, the teacher
sees who has met each goal."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from bot.services.base import StoredService
from bot.services.figures import AssignmentProgress
from classroom.errors import UserFacingError
from engine.registry import GAMES
from storage import PlayerGame
from storage.contract import Store
from storage.records import Assignment

DAY_MS = 86_400_000
ROUNDS = range(1, 501)
DAYS = range(1, 91)


class AssignmentService(StoredService[Store]):
    async def create(
        self,
        guild_id: int,
        *,
        level: int,
        rounds: int,
        best_percent: int,
        days: int,
        manager: bool,
        game: str = "regnekrig",
    ) -> Assignment:
        if not manager:
            raise UserFacingError("admin.not_allowed")
        kind = GAMES.get(game)
        if kind is None or level not in kind.levels:
            raise UserFacingError("error.bad_option", option="level")
        if rounds not in ROUNDS or not 0 <= best_percent <= 100 or days not in DAYS:
            raise UserFacingError("error.bad_option", option="rounds")
        now = self.clock.now_ms()
        return await self.storage.add_assignment(
            guild_id, game, level, rounds, best_percent, now, now + days * DAY_MS
        )

    async def mine(self, guild_id: int, user_id: int) -> list[AssignmentProgress]:
        """The pupil's progress on every assignment not yet due."""
        open_ones = await self.storage.assignments(guild_id, due_after=self.clock.now_ms())
        if not open_ones:
            return []
        games = await self.storage.player_games(guild_id, user_id)
        return [progress(a, user_id, games) for a in open_ones]

    async def overview(
        self, guild_id: int, *, manager: bool
    ) -> list[tuple[Assignment, list[AssignmentProgress]]]:
        """Every assignment with each pupil who played toward it (met or not), for the teacher."""
        if not manager:
            raise UserFacingError("admin.not_allowed")
        assignments = await self.storage.assignments(guild_id)
        if not assignments:
            return []
        by_user: defaultdict[int, list[PlayerGame]] = defaultdict(list)
        for game in await self.storage.guild_player_games(guild_id):
            if game.player.user_id is not None:
                by_user[game.player.user_id].append(game)
        out = []
        for assignment in assignments:
            lines = [progress(assignment, user_id, games) for user_id, games in by_user.items()]
            lines = [p for p in lines if p.rounds]
            lines.sort(key=lambda p: (not p.met, p.name.casefold()))
            out.append((assignment, lines))
        return out


def progress(
    assignment: Assignment, user_id: int, games: Sequence[PlayerGame]
) -> AssignmentProgress:
    """One pupil's progress (pure): their answers at the assignment's game and level in games
    started after it was set and ended by its deadline."""
    counted = [
        g
        for g in games
        if g.result.game == assignment.game
        and g.result.level == assignment.level
        and assignment.created_at <= g.result.started_at
        and g.result.ended_at <= assignment.due_at
        and g.player.user_id == user_id
    ]
    name = next((g.player.display_name for g in reversed(counted) if g.player.display_name), None)
    return AssignmentProgress(
        assignment=assignment,
        user_id=user_id,
        name=name or str(user_id),
        rounds=sum(g.player.answers for g in counted),
        best=sum(g.player.best for g in counted),
    )
