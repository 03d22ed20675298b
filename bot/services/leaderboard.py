"""`/mattekrig leaderboard [game] [level] [period]`: one call, `LeaderboardService.leaderboard`.

Periods: ``week`` (this ISO week, Monday–Sunday, Europe/Oslo), ``season`` (the server's
running season, or an archived one by number) and ``all`` (all time). Sorts: ``rating``
(Elo, for one game: Regnekrig when none is given), ``wins``, ``win_rate`` (ranked from
`BOARD_MIN_GAMES` rated games) and ``accuracy`` (ranked from `BOARD_MIN_ANSWERS` answers).
Games, wins and win rate count rated games only (the competition: nobody climbs by beating
the computer or farming a friend); accuracy counts every answer given.

The teacher's visibility setting is enforced here, not in the cog: ``hidden`` refuses the
board to members (managers still see it), ``own_rank`` shows members only their own line.

Departed members: without the privileged member intent the bot is never told who left. The
Discord layer checks the names on a page it is about to show (a member look-up by id needs
no privileged intent) and reports the unknown ones with `members_left`; they are kept off
every board from then on, until they play in the server again (`record` clears the mark).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from bot.services.clock import Clock
from bot.services.errors import UserFacingError
from bot.services.periods import SCHOOL_TZ, week_key, week_start_ms
from bot.storage import (
    ALL_GAMES,
    ALL_LEVELS,
    ALL_TIME,
    BOARD_MIN_ANSWERS,
    BOARD_MIN_GAMES,
    BOARD_SORTS,
    BoardQuery,
    BoardRow,
    BoardSort,
    BoardVisibility,
    Season,
    season_scope,
    week_scope,
)
from bot.storage.contract import Store

Period = Literal["week", "season", "all"]
PERIODS: tuple[Period, ...] = ("week", "season", "all")
PAGE_SIZE = 10
DEFAULT_RATING_GAME = "regnekrig"
GAMES = ("regnekrig", "intervallkrig", "satsing")


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """One page of a board, ready to render. ``rows`` is empty when the server shows members
    only their own rank; ``own`` is the viewer's line (None when not ranked here)."""

    guild_id: int
    game: str | None
    level: int | None
    period: Period
    sort: BoardSort
    page: int  # 0-based
    pages: int
    total: int
    rows: tuple[BoardRow, ...]
    own: BoardRow | None
    visibility: BoardVisibility
    season: Season | None  # the season shown (period "season"), or the running one
    week_start_ms: int | None  # Monday 00:00 of the week shown (period "week")
    min_games: int = BOARD_MIN_GAMES
    min_answers: int = BOARD_MIN_ANSWERS

    @property
    def own_only(self) -> bool:
        return self.visibility == "own_rank" and not self.rows


class LeaderboardService:
    def __init__(self, storage: Store, clock: Clock) -> None:
        self.storage = storage
        self.clock = clock
        self.tz = SCHOOL_TZ

    async def leaderboard(
        self,
        guild_id: int,
        viewer_id: int,
        *,
        game: str | None = None,
        level: int | None = None,
        period: Period = "season",
        sort: BoardSort = "rating",
        page: int = 0,
        season: int | None = None,
        manager: bool = False,
    ) -> Leaderboard:
        """Top `PAGE_SIZE` of the server from ``page`` on, with the viewer's own rank.

        ``season`` picks an archived season (period becomes "season"). ``manager``: the
        viewer may manage the server (sees hidden boards). Refusals: ``board.hidden``,
        ``error.bad_option``.
        """
        if sort not in BOARD_SORTS:
            raise UserFacingError("error.bad_option", option="sort")
        if period not in PERIODS:
            raise UserFacingError("error.bad_option", option="period")
        if game is not None and game not in GAMES:
            raise UserFacingError("error.bad_option", option="game")
        if level is not None and not 1 <= level <= 7:
            raise UserFacingError("error.bad_option", option="level")
        settings = await self.storage.guild_settings(guild_id)
        if settings.board == "hidden" and not manager:
            raise UserFacingError("board.hidden")
        if sort == "rating" and game is None:
            game = DEFAULT_RATING_GAME
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
        )
        result = await self.storage.board(query, viewer_id)
        pages = max(1, -(-result.total // PAGE_SIZE))
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
            rows=() if own_only else result.rows,
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

    async def members_seen(self, guild_id: int, user_ids: list[int]) -> None:
        """These members are (back) in the server: show them again."""
        await self.storage.mark_present(guild_id, user_ids)
