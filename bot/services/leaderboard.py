"""`/mattekrig leaderboard [game] [level] [period]`: one call, `LeaderboardService.leaderboard`.

Periods: ``week`` (this ISO week, Monday–Sunday, Europe/Oslo), ``season`` (the server's
running season, or an archived one by number) and ``all`` (all time). Sorts: ``rating``
(Elo, for one game: Regnekrig when none is given), ``wins``, ``win_rate`` (ranked from
`BOARD_MIN_GAMES` rated games) and ``accuracy`` (ranked from `BOARD_MIN_ANSWERS` answers).
Games, wins and win rate count rated games only (the competition: nobody climbs by beating
the computer or farming a friend); accuracy counts every answer given.

The teacher's visibility setting is enforced here, not in the cog: ``hidden`` refuses the
leaderboard to members (managers still see it), ``own_rank`` shows members only their own line.

Departed members: without the privileged member intent the bot is never told who left. The
Discord layer checks the names on a page it is about to show (a member look-up by id needs
no privileged intent) and reports the unknown ones with `members_left`; they are kept off
every leaderboard from then on, until they play in the server again (`record` clears the mark).
"""

from __future__ import annotations

from bot.services.base import StoredService
from bot.services.figures import GAMES, PERIODS, Leaderboard, Period
from classroom.errors import UserFacingError
from classroom.periods import SCHOOL_TZ, week_key, week_start_ms
from storage import (
    ALL_GAMES,
    ALL_LEVELS,
    ALL_TIME,
    BOARD_SORTS,
    BoardQuery,
    BoardSort,
    Season,
    season_scope,
    week_scope,
)
from storage.contract import Store

PAGE_SIZE = 10
WEEK_MS = 7 * 86_400_000
DEFAULT_RATING_GAME = "regnekrig"


class LeaderboardService(StoredService[Store]):
    tz = SCHOOL_TZ  # the school's weeks and days

    async def leaderboard(
        self,
        guild_id: int,
        viewer_id: int,
        *,
        game: str | None = None,
        level: int | None = None,
        period: Period = "season",
        sort: BoardSort | None = None,
        page: int = 0,
        season: int | None = None,
        manager: bool = False,
        shared: bool = False,
    ) -> Leaderboard:
        """Top `PAGE_SIZE` of the server from ``page`` on, with the viewer's own rank.

        ``season`` picks an archived season (period becomes "season"). ``manager``: the
        viewer may manage the server (sees hidden leaderboards). Refusals: ``board.hidden``,
        ``error.bad_option``, ``leaderboard.not_public``.

        Gentle by default: ``sort`` None is the leaderboard the teacher made public; a member
        (not a manager) sees one page, the top `PAGE_SIZE` but never the bottom half of the
        ranked players by name (their own place is always shown to them), and may share only
        the public leaderboard.
        """
        settings = await self.storage.guild_settings(guild_id)
        if sort is None:
            sort = settings.public_board
        if sort not in BOARD_SORTS:
            raise UserFacingError("error.bad_option", option="sort")
        if period not in PERIODS:
            raise UserFacingError("error.bad_option", option="period")
        if game is not None and game not in GAMES:
            raise UserFacingError("error.bad_option", option="game")
        if level is not None and not 1 <= level <= 7:
            raise UserFacingError("error.bad_option", option="level")
        if settings.board == "hidden" and not manager:
            raise UserFacingError("board.hidden")
        if shared and not manager and settings.board == "visible" and sort != settings.public_board:
            raise UserFacingError("leaderboard.not_public")
        if not manager:
            page = 0
        if sort == "rating" and game is None:
            game = DEFAULT_RATING_GAME
        if sort == "improved" and period == "all":
            period = "week"  # "improved" compares a period with the one before it
        now = self.clock.now_ms()
        shown = await self._season(guild_id, season)
        if season is not None:
            period = "season"
        season_key = season_scope(shown.season if shown else 1)
        scope = {
            "week": week_scope(week_key(now, self.tz)),
            "season": season_key,
            "all": ALL_TIME,
        }[period]
        query = BoardQuery(
            guild_id=guild_id,
            scope=scope,
            game=game or ALL_GAMES,
            level=level or ALL_LEVELS,
            sort=sort,
            rating_scope=ALL_TIME if period == "all" else season_key,
            active_only=sort == "rating" and (period == "week" or level is not None),
            limit=PAGE_SIZE,
            offset=max(0, page) * PAGE_SIZE,
            previous_scope=(
                week_scope(week_key(now - WEEK_MS, self.tz))
                if period == "week"
                else _season_before(shown)
            )
            if sort == "improved"
            else None,
        )
        result = await self.storage.board(query, viewer_id)
        rows = result.rows
        pages = max(1, -(-result.total // PAGE_SIZE))
        if not manager:
            rows = tuple(r for r in rows if r.rank <= gentle_limit(result.total))
            pages = 1
        if page >= pages and result.total:
            return await self.leaderboard(
                guild_id,
                viewer_id,
                game=game,
                level=level,
                period=period,
                sort=sort,
                page=pages - 1,
                season=season,
                manager=manager,
                shared=shared,
            )
        own_only = settings.board == "own_rank" and not manager
        return Leaderboard(
            guild_id=guild_id,
            game=game,
            level=level,
            period=period,
            sort=sort,
            page=max(0, page),
            pages=pages,
            total=result.total,
            rows=() if own_only else rows,
            own=result.own,
            visibility=settings.board,
            season=shown,
            week_start_ms=week_start_ms(now, self.tz) if period == "week" else None,
        )

    async def _season(self, guild_id: int, number: int | None) -> Season | None:
        if number is None:
            return await self.storage.current_season(guild_id)
        for season in await self.storage.seasons(guild_id):
            if season.season == number:
                return season
        raise UserFacingError("board.unknown_season", season=number)

    async def members_left(self, guild_id: int, user_ids: list[int]) -> None:
        """The Discord layer found these members gone: keep them off this server's boards."""
        await self.storage.mark_departed(guild_id, user_ids, self.clock.now_ms())


def gentle_limit(total: int) -> int:
    """The last rank a member may see by name among ``total`` ranked players: the top half
    (rounded up, so one player sees themself), at most `PAGE_SIZE`."""
    return min(PAGE_SIZE, (total + 1) // 2)


def _season_before(season: Season | None) -> str:
    """The scope of the season before ``season`` ("": none, so nobody has improved yet)."""
    number = season.season if season is not None else 1
    return season_scope(number - 1) if number > 1 else ""
