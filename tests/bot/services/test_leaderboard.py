"""`/mattekrig leaderboard` (docs/commands.md): top 10 with the caller's own rank, sorts, paging,
periods (this week, this season, all time), the teacher's visibility setting, season
rollover and departed members kept off the board. Sorting, paging, periods and
filters are checked in the teacher's full view (``manager=True``); what a member sees is the
gentle view, tested at the end."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.services.admin import AdminService
from bot.services.leaderboard import PAGE_SIZE, LeaderboardService
from bot.services.ratings import plan
from classroom.errors import UserFacingError
from classroom.periods import DAY_MS, day_key, week_key
from storage import GameResult, Storage
from tests.bot.clock import FakeClock
from tests.bot.services.results_support import GUILD, admin_fixture, boards_fixture, results_fixture  # noqa: F401
from tests.bot.storage.results_helpers import duel

A, B, C, D = 201, 202, 203, 204


class Recorder:
    def __init__(self, storage: Storage, clock: FakeClock) -> None:
        self.storage, self.clock, self.next_id = storage, clock, 1

    async def __call__(
        self,
        winner: int,
        loser: int,
        answers: dict[int, tuple[int, int]] | None = None,
        **changes: object,
    ) -> GameResult:
        at = self.clock.now_ms()
        result = duel(
            self.next_id, winner, loser, at=at, day=day_key(at), week=week_key(at), answers=answers
        )
        result = replace(result, **changes)  # type: ignore[arg-type]
        self.next_id += 1
        self.clock.advance(60)
        stored = await self.storage.record_result(result, at=at, rate=plan)
        assert stored is not None
        return stored


@pytest.fixture
def play(storage: Storage, clock: FakeClock) -> Recorder:
    return Recorder(storage, clock)


async def test_sorted_by_rating_wins_win_rate_and_accuracy(
    leaderboards: LeaderboardService, play: Recorder
) -> None:
    await play(A, B)
    await play(A, C)
    await play(C, B)
    for _ in range(3):
        await play(D, B, answers={D: (6, 6), B: (6, 3)})
    rating = await leaderboards.leaderboard(GUILD, B, sort="rating", manager=True)
    assert rating.game == "regnekrig"  # a rating board is for one game
    assert [r.user_id for r in rating.rows][:2] in ([A, D], [D, A])
    assert rating.rows[-1].user_id == B and rating.own is not None
    assert rating.own.rank == 4 and rating.own.rating is not None and rating.own.rating < 1000
    wins = await leaderboards.leaderboard(GUILD, A, sort="wins", manager=True)
    assert [(r.user_id, r.wins) for r in wins.rows] == [(D, 3), (A, 2), (C, 1), (B, 0)]
    assert [r.rank for r in wins.rows] == [1, 2, 3, 4]
    by_rate = await leaderboards.leaderboard(GUILD, A, sort="win_rate", manager=True)
    assert [r.user_id for r in by_rate.rows] == [B]  # only B has 5 rated games
    assert by_rate.own is None and by_rate.min_games == 5
    accuracy = await leaderboards.leaderboard(GUILD, D, sort="accuracy", manager=True)
    assert [(r.user_id, r.accuracy) for r in accuracy.rows] == [(D, 1.0), (B, 0.5)]


async def test_paging(leaderboards: LeaderboardService, play: Recorder, clock: FakeClock) -> None:
    for i in range(23):
        await play(1000 + i, 2000 + i)
    first = await leaderboards.leaderboard(GUILD, 2022, sort="wins", manager=True)
    assert (first.page, first.pages, first.total, len(first.rows)) == (0, 5, 46, PAGE_SIZE)
    assert first.own is not None and first.own.rank == 24
    last = await leaderboards.leaderboard(GUILD, 2022, sort="wins", page=4, manager=True)
    assert len(last.rows) == 6 and last.rows[0].rank == 24
    beyond = await leaderboards.leaderboard(GUILD, 2022, sort="wins", page=99, manager=True)
    assert beyond.page == 4 and beyond.rows == last.rows
    seen = [
        r.user_id
        for p in range(5)
        for r in (await leaderboards.leaderboard(GUILD, A, sort="wins", page=p, manager=True)).rows
    ]
    assert len(seen) == len(set(seen)) == 46


async def test_periods_week_season_all_time(
    leaderboards: LeaderboardService, admin: AdminService, play: Recorder, clock: FakeClock
) -> None:
    """Week = this ISO week (Europe/Oslo); season = since the teacher's last new season."""
    await play(A, B)
    clock.advance(7 * DAY_MS / 1000)
    await play(C, D)
    week = await leaderboards.leaderboard(GUILD, A, sort="wins", period="week", manager=True)
    assert {r.user_id for r in week.rows} == {C, D} and week.own is None
    assert week.week_start_ms is not None and week.week_start_ms <= clock.now_ms()
    rating_week = await leaderboards.leaderboard(GUILD, A, period="week", manager=True)
    assert {r.user_id for r in rating_week.rows} == {C, D}
    season = await leaderboards.leaderboard(GUILD, A, sort="wins", period="season", manager=True)
    assert {r.user_id for r in season.rows} == {A, B, C, D}

    running = await admin.current_season(GUILD)  # what the new-season question shows
    change = await admin.new_season(GUILD, manager=True)
    assert change.archived is not None and change.archived.season == 1
    assert running is not None and running.season == change.archived.season
    assert await admin.current_season(GUILD) == change.started
    assert change.started.season == 2
    fresh = await leaderboards.leaderboard(GUILD, A, sort="wins", period="season", manager=True)
    assert fresh.rows == () and fresh.season is not None and fresh.season.season == 2
    await play(B, A)
    fresh = await leaderboards.leaderboard(GUILD, A, period="season", manager=True)
    assert [(r.user_id, r.rating) for r in fresh.rows] == [(B, 1016), (A, 984)]
    archived = await leaderboards.leaderboard(GUILD, A, sort="wins", season=1, manager=True)
    assert {r.user_id for r in archived.rows} == {A, B, C, D}
    assert archived.period == "season" and archived.season is not None
    assert archived.season.ended_at is not None
    every = await leaderboards.leaderboard(GUILD, A, sort="wins", period="all", manager=True)
    assert [(r.user_id, r.games) for r in every.rows if r.user_id in (A, B)] == [(A, 2), (B, 2)]
    with pytest.raises(UserFacingError) as refused:
        await leaderboards.leaderboard(GUILD, A, season=9, manager=True)
    assert refused.value.key == "board.unknown_season"


async def test_game_and_level_filters(leaderboards: LeaderboardService, play: Recorder) -> None:
    await play(A, B, level=3)
    await play(C, D, level=5)
    await play(D, A, game="intervallkrig")
    level3 = await leaderboards.leaderboard(
        GUILD, A, game="regnekrig", level=3, sort="wins", manager=True
    )
    assert [r.user_id for r in level3.rows] == [A, B]
    level5 = await leaderboards.leaderboard(GUILD, A, game="regnekrig", level=5, manager=True)
    assert [r.user_id for r in level5.rows] == [C, D]
    interval = await leaderboards.leaderboard(
        GUILD, A, game="intervallkrig", sort="wins", manager=True
    )
    assert [r.user_id for r in interval.rows] == [D, A]
    # Ratings only where skill decides: plain intervallkrig is luck, so it counts in results but is
    # not rated.
    assert (await leaderboards.leaderboard(GUILD, A, game="intervallkrig")).rows == ()
    with pytest.raises(UserFacingError):
        await leaderboards.leaderboard(GUILD, A, level=8, manager=True)


async def test_visibility_is_enforced_in_the_service(
    leaderboards: LeaderboardService, admin: AdminService, play: Recorder
) -> None:
    await play(A, B)
    await admin.update_settings(GUILD, manager=True, board="own_rank")
    own = await leaderboards.leaderboard(GUILD, B, sort="wins")
    assert own.own_only and own.rows == () and own.own is not None and own.own.rank == 2
    teacher = await leaderboards.leaderboard(GUILD, B, sort="wins", manager=True)
    assert len(teacher.rows) == 2
    await admin.update_settings(GUILD, manager=True, board="hidden")
    with pytest.raises(UserFacingError) as refused:
        await leaderboards.leaderboard(GUILD, B)
    assert refused.value.key == "board.hidden"
    assert (await leaderboards.leaderboard(GUILD, B, sort="wins", manager=True)).rows


async def test_departed_members_are_kept_off_until_they_play_again(
    leaderboards: LeaderboardService, play: Recorder
) -> None:
    await play(A, B)
    await leaderboards.members_left(GUILD, [A])
    board = await leaderboards.leaderboard(GUILD, B, sort="wins")
    assert [(r.rank, r.user_id) for r in board.rows] == [(1, B)]
    await play(A, C)
    board = await leaderboards.leaderboard(GUILD, B, sort="wins")
    assert A in {r.user_id for r in board.rows}


async def test_computer_and_capped_games_do_not_count_as_board_games(
    leaderboards: LeaderboardService, play: Recorder
) -> None:
    """Farming: the fourth game of a pair in a day, and games against the computer, add no
    wins (their answers still count for accuracy)."""
    for _ in range(5):
        await play(A, B, answers={A: (3, 3)})
    await play(A, C, computer=True)
    board = await leaderboards.leaderboard(GUILD, A, sort="wins")
    own = board.own
    assert own is not None and (own.games, own.wins, own.answers) == (3, 3, 15)


# -- gentle leaderboards: nobody is shamed --------------------------------------------------------


async def test_a_member_never_sees_the_bottom_half_by_name(
    leaderboards: LeaderboardService, play: Recorder
) -> None:
    """The default view shows the top (at most 10) and the viewer's own
    place, never the bottom half of the class by name."""
    await play(A, B)
    await play(A, C)
    await play(D, B)
    full = await leaderboards.leaderboard(GUILD, B, sort="wins", manager=True)
    assert [r.user_id for r in full.rows][-1] in (B, C)  # the teacher sees everyone
    gentle = await leaderboards.leaderboard(GUILD, B, sort="wins")
    assert len(gentle.rows) == 2 and {r.user_id for r in gentle.rows} == {A, D}  # 4 ranked
    assert gentle.own is not None and gentle.own.user_id == B and gentle.own.rank == 4
    assert gentle.pages == 1


async def test_effort_ranks_answers_given_and_the_teacher_picks_the_public_board(
    leaderboards: LeaderboardService, admin: AdminService, play: Recorder
) -> None:
    """The "effort" board counts answers given, right or wrong; members see the
    public board by default and may share only it."""
    await play(A, B, answers={A: (2, 2), B: (9, 1)})
    await play(C, D, answers={C: (4, 4), D: (1, 1)})
    effort = await leaderboards.leaderboard(GUILD, A, sort="effort", manager=True)
    assert [(r.user_id, r.answers) for r in effort.rows] == [(B, 9), (C, 4), (A, 2), (D, 1)]
    assert (await leaderboards.leaderboard(GUILD, A)).sort == "rating"
    await admin.update_settings(GUILD, manager=True, public_board="effort")
    public = await leaderboards.leaderboard(GUILD, A, shared=True)
    assert public.sort == "effort" and [r.user_id for r in public.rows] == [B, C]
    with pytest.raises(UserFacingError) as refused:
        await leaderboards.leaderboard(GUILD, A, sort="wins", shared=True)
    assert refused.value.key == "leaderboard.not_public"
    assert (await leaderboards.leaderboard(GUILD, A, sort="wins", shared=True, manager=True)).rows


async def test_most_improved_compares_this_week_with_last(
    leaderboards: LeaderboardService, play: Recorder, clock: FakeClock
) -> None:
    """The "most improved" board ranks the gain in correct answers against the week
    before; only pupils with enough answers in both weeks are on it."""
    await play(A, B, answers={A: (10, 5), B: (10, 8)})
    clock.advance(7 * DAY_MS // 1000)
    await play(A, B, answers={A: (10, 9), B: (10, 8)})
    await play(C, D, answers={C: (10, 10), D: (10, 1)})  # new this week: not compared
    board = await leaderboards.leaderboard(GUILD, C, sort="improved", period="week", manager=True)
    assert [(r.user_id, round((r.improvement or 0) * 100)) for r in board.rows] == [(A, 40), (B, 0)]
    assert board.own is None  # C has nothing to compare with
    whole = await leaderboards.leaderboard(GUILD, A, sort="improved", period="all", manager=True)
    assert whole.period == "week" and whole.rows == board.rows
