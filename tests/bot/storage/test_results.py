"""Results storage contract: one row per game and per player, recorded once, voided exactly,
seasons, boards ranked from running totals, settings."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from storage import (
    BoardQuery,
    GuildSettings,
    OperationTally,
    Storage,
)
from storage.boards import _gain_key

from .conftest import Backend, need_durable
from .helpers import T0
from .results_helpers import DAY, FlatRater, duel, record

A, B, C, D = 201, 202, 203, 204


async def test_a_result_round_trips_with_players_and_operations(store: Storage) -> None:
    """One row per game and one per player, with answers per operation."""
    ops = (OperationTally("add", 4, 3, 2, 4000),)
    result = duel(1, A, B, answers={A: (4, 3)})
    players = (
        replace(result.players[0], operations=ops),
        result.players[1],
    )
    result = replace(result, players=players)
    stored = await record(store, result)
    assert stored.season == 1 and stored.rated and stored.recorded_at == T0 + 1
    loaded = await store.load_result(1)
    assert loaded is not None
    assert loaded == stored
    assert loaded.players[0].operations == ops
    assert loaded.players[0].mean_answer_ms == 1000
    assert loaded.duration_ms == 60_000


async def test_recording_twice_is_a_no_op(store: Storage) -> None:
    rate = FlatRater()
    await record(store, duel(1, A, B), rate)
    assert await store.record_result(duel(1, A, B), at=T0, rate=rate) is None
    assert len(rate.seen) == 1
    [line_all, _line_season] = await store.rating_lines(1, A)
    assert (line_all.rating, line_all.games) == (1010, 1)


async def test_the_rater_sees_current_ratings_and_todays_pair_counts(store: Storage) -> None:
    """The cap counts rated games of the pair on the same day only."""
    rate = FlatRater()
    await record(store, duel(1, A, B), rate)
    await record(store, duel(2, B, A), rate)
    await record(store, duel(3, A, C), rate)
    await record(store, duel(4, A, B, day=20231115), rate)
    await record(store, duel(5, A, B), rate)
    ratings, pairs = rate.seen[-1]
    assert pairs == {frozenset((A, B)): 2}
    assert ratings[("all", A)] == 1020 and ratings[("s1", B)] == 990
    unrated = FlatRater(rated=False)
    await record(store, duel(6, A, B), unrated)
    await record(store, duel(7, A, B), rate)
    assert rate.seen[-1][1] == {frozenset((A, B)): 3}  # the unrated game does not count


async def test_void_subtracts_exactly_and_keeps_the_game_recorded(store: Storage) -> None:
    """`admin void` removes a result and its rating change, and nothing else: the
    players' rows (their practice: answers, best moves, mistakes) stay."""
    await record(store, duel(1, A, B, answers={A: (5, 5)}))
    await record(store, duel(2, A, B))
    voided = await store.void_result(1, 1, T0 + 5)
    assert voided is not None and voided.game_id == 1
    assert {line.rating for line in await store.rating_lines(1, A)} == {1010}
    page = await store.board(BoardQuery(1, "all", sort="wins"), A)
    assert page.own is not None and (page.own.games, page.own.wins, page.own.answers) == (1, 1, 0)
    again = await store.load_result(1)
    assert again is not None and again.voided_at == T0 + 5
    assert [p.user_id for p in again.players] == [A, B]
    assert await store.record_result(duel(1, A, B), at=T0, rate=FlatRater()) is None
    assert await store.void_result(1, 1, T0 + 6) is None  # already voided
    assert await store.void_result(2, 2, T0 + 6) is None  # another server's game


async def test_a_void_keeps_both_players_practice(store: Storage) -> None:
    """`admin void` takes back the result and rating only (docs/commands.md): both players'
    games are still theirs, marked voided, with their answers and operations."""
    ops = (OperationTally("subtract", 6, 4, 3, 6000, mistakes=(("sign_slip", 2),)),)
    result = duel(1, A, B, level=4, answers={A: (6, 4), B: (5, 5)})
    players = tuple(replace(p, operations=ops) if p.user_id == A else p for p in result.players)
    await record(store, replace(result, players=players))
    await store.void_result(1, 1, T0 + 5)
    (mine,) = await store.player_games(1, A)
    assert mine.result.voided_at == T0 + 5 and not mine.result.rated
    assert (mine.player.answers, mine.player.correct, mine.player.operations) == (6, 4, ops)
    (theirs,) = await store.player_games(1, B)
    assert (theirs.player.answers, theirs.player.correct) == (5, 5)
    assert {g.player.user_id for g in await store.guild_player_games(1)} == {A, B}
    assert await store.rating_lines(1, A) == [] == await store.rating_lines(1, B)


async def test_voiding_the_only_game_removes_the_rating_and_board_rows(store: Storage) -> None:
    await record(store, duel(1, A, B))
    await store.void_result(1, 1, T0)
    assert await store.rating_lines(1, A) == []
    assert (await store.board(BoardQuery(1, "all", sort="wins"))).total == 0


async def test_seasons_archive_and_restart(store: Storage) -> None:
    """A new season archives the board (still queryable) and starts a fresh one."""
    assert await store.current_season(1) is None
    await record(store, duel(1, A, B))
    first = await store.current_season(1)
    assert first is not None and first.season == 1
    archived, started = await store.new_season(1, T0 + DAY)
    assert archived is not None and archived.ended_at == T0 + DAY
    assert started.season == 2 and started.ended_at is None
    stored = await record(store, duel(2, B, A, at=T0 + 2 * DAY))
    assert stored.season == 2
    old = await store.board(BoardQuery(1, "s1", sort="wins"))
    new = await store.board(BoardQuery(1, "s2", sort="wins"))
    assert [r.user_id for r in old.rows] == [A, B]
    assert [r.user_id for r in new.rows] == [B, A]
    assert [s.season for s in await store.seasons(1)] == [1, 2]
    assert await store.current_season(2) is None  # seasons are per server


async def test_board_orders_pages_and_ranks_with_ties(store: Storage) -> None:
    """Ordering, paging, shared ranks and the caller's own rank."""
    game = 0
    wins = {A: 3, B: 1, C: 3}
    for user, n in wins.items():
        for _ in range(n):
            game += 1
            await record(store, duel(game, user, 999, day=game))  # distinct days: no cap
    await record(store, duel(99, 999, D, day=99))
    page = await store.board(BoardQuery(1, "all", sort="wins", limit=2), D)
    assert [(r.rank, r.user_id, r.wins) for r in page.rows] == [(1, A, 3), (1, C, 3)]
    assert page.total == 5  # A, B, C, D and their opponent 999
    assert page.own is not None and (page.own.rank, page.own.user_id) == (5, D)
    page2 = await store.board(BoardQuery(1, "all", sort="wins", limit=2, offset=2))
    # B and 999 have one win each; fewer games ranks first
    assert [(r.rank, r.user_id, r.games) for r in page2.rows] == [(3, B, 1), (4, 999, 8)]
    page3 = await store.board(BoardQuery(1, "all", sort="wins", limit=2, offset=4))
    assert [(r.rank, r.user_id) for r in page3.rows] == [(5, D)]


async def test_win_rate_and_accuracy_need_enough_games(store: Storage) -> None:
    for i in range(5):
        await record(store, duel(i + 1, A, B, day=i, answers={A: (1, 1), B: (1, 0)}))
    await record(store, duel(9, C, A, day=9, answers={C: (12, 12)}))
    by_rate = await store.board(BoardQuery(1, "all", sort="win_rate"), C)
    assert [(r.user_id, r.wins, r.games) for r in by_rate.rows] == [(A, 5, 6), (B, 0, 5)]
    assert by_rate.own is None  # one game: not ranked on win rate yet
    by_accuracy = await store.board(BoardQuery(1, "all", sort="accuracy"))
    assert [r.user_id for r in by_accuracy.rows] == [C]  # A and B have 5 answers
    assert by_accuracy.rows[0].accuracy == 1.0


async def test_rating_board_with_activity_filter(store: Storage) -> None:
    await record(store, duel(1, A, B, week=202346))
    await record(store, duel(2, C, D, week=202347, day=2))
    query = BoardQuery(1, "w202347", game="regnekrig", sort="rating", rating_scope="s1")
    page = await store.board(query)
    assert [r.user_id for r in page.rows] == [A, C, B, D]
    active = await store.board(
        BoardQuery(
            1, "w202347", game="regnekrig", sort="rating", rating_scope="s1", active_only=True
        )
    )
    assert [(r.rank, r.user_id, r.rating) for r in active.rows] == [(1, C, 1010), (2, D, 990)]
    with pytest.raises(ValueError):
        await store.board(BoardQuery(1, "all", sort="rating"))


async def test_game_and_level_filters(store: Storage) -> None:
    await record(store, duel(1, A, B, level=3))
    await record(store, duel(2, B, A, level=5, day=2))
    await record(store, duel(3, C, D, game="intervallkrig", day=3))
    level3 = await store.board(BoardQuery(1, "all", game="regnekrig", level=3, sort="wins"))
    assert [(r.user_id, r.wins) for r in level3.rows] == [(A, 1), (B, 0)]
    every = await store.board(BoardQuery(1, "all", sort="wins"))
    assert {r.user_id for r in every.rows} == {A, B, C, D}
    interval = await store.board(BoardQuery(1, "all", game="intervallkrig", sort="wins"))
    assert [r.user_id for r in interval.rows] == [C, D]


async def test_departed_members_leave_the_board_until_they_play_again(store: Storage) -> None:
    await record(store, duel(1, A, B))
    await store.mark_departed(1, [A], T0)
    page = await store.board(BoardQuery(1, "all", sort="wins"), A)
    assert [r.user_id for r in page.rows] == [B] and page.rows[0].rank == 1
    assert page.own is None and page.total == 1
    assert await store.departed(1) == {A}
    await record(store, duel(2, A, C, day=2))
    assert await store.departed(1) == set()
    await store.mark_departed(1, [B], T0)
    await store.mark_present(1, [B])
    assert await store.departed(1) == set()


async def test_display_names_are_refreshed_by_newer_games(store: Storage) -> None:
    """Names are stored at game time and refreshed when the user plays again."""
    first = duel(1, A, B)
    await record(store, first)
    renamed = duel(2, A, B, at=T0 + DAY, day=2)
    players = (
        replace(renamed.players[0], display_name="Ny"),
        renamed.players[1],
    )
    await record(store, replace(renamed, players=players))
    assert await store.player_names(1, [A, B]) == {A: "Ny", B: f"user{B}"}
    kept = await store.load_result(1)
    assert kept is not None and kept.players[0].display_name == f"user{A}"
    page = await store.board(BoardQuery(1, "all", sort="wins"))
    assert page.rows[0].display_name == "Ny"


async def test_player_games_in_order(store: Storage) -> None:
    await record(store, duel(2, A, B, at=T0 + 10))
    await record(store, duel(1, B, A, at=T0, day=2))
    await record(store, duel(3, A, B, at=T0 + 20, guild_id=2))
    games = await store.player_games(1, A)
    assert [(g.result.game_id, g.player.outcome) for g in games] == [(1, "loss"), (2, "win")]
    assert all(g.result.players == (g.player,) for g in games)
    assert len(await store.guild_player_games(1)) == 4


async def test_unrecorded_games_lists_finished_server_games(store: Storage) -> None:
    from .helpers import new_game

    """RULES §1.5: only a game ended by the rules has a result; a stopped (cancelled or ended
    by a manager) or abandoned game counts for nobody, so it is never waiting for one."""
    live = await new_game(store)
    done = await new_game(store, channel_id=501)
    stopped = await new_game(store, channel_id=502)
    abandoned = await new_game(store, channel_id=503)
    await store.set_status(done, "over", T0)
    await store.set_status(stopped, "stopped", T0)
    await store.set_status(abandoned, "abandoned", T0)
    assert await store.unrecorded_games() == [done]
    assert live not in await store.unrecorded_games()


async def test_guild_settings_defaults_and_updates(store: Storage) -> None:
    """Board visibility, allowed channels, language, threads."""
    assert await store.guild_settings(1) == GuildSettings(1)
    changed = await store.update_guild_settings(1, T0, board="own_rank", channels=[5, 6, 5])
    assert (changed.board, changed.channels, changed.language, changed.threads) == (
        "own_rank",
        (5, 6),
        None,
        True,
    )
    changed = await store.update_guild_settings(1, T0 + 1, language="sv", threads=False)
    assert (changed.board, changed.channels, changed.language, changed.threads) == (
        "own_rank",
        (5, 6),
        "sv",
        False,
    )
    assert await store.guild_settings(1) == changed
    assert (await store.update_guild_settings(1, T0 + 2, language=None)).language is None
    # Turn pings are on until the teacher turns them off, and stay off.
    assert changed.pings
    quiet = await store.update_guild_settings(1, T0 + 3, pings=False)
    assert not quiet.pings and (await store.guild_settings(1)).pings is False
    assert not (await store.update_guild_settings(1, T0 + 4, threads=True)).pings
    with pytest.raises(ValueError):
        await store.update_guild_settings(1, T0, board="secret")


async def test_results_survive_a_restart(backend: Backend) -> None:
    need_durable(backend)
    async with await backend.open() as store:
        await record(store, duel(1, A, B))
    async with await backend.open() as store:
        assert (await store.load_result(1)) is not None
        assert (await store.board(BoardQuery(1, "all", sort="wins"))).total == 2


async def test_mistake_kinds_and_answer_times_round_trip(store: Storage) -> None:
    """Per pupil, game and operation the mistake kinds (the engine's reason
    codes) and every answer's time are kept, so the median time and the commonest mistakes
    can be reported; tallies add up across games."""
    ops = (
        OperationTally(
            "divide",
            5,
            3,
            2,
            21_000,
            mistakes=(("sign_slip", 2), ("arithmetic_slip", 1)),
            times=(3000, 4000, 5000, 4000, 5000),
        ),
    )
    result = duel(1, A, B, answers={A: (5, 3)})
    players = tuple(replace(p, operations=ops) if p.user_id == A else p for p in result.players)
    result = replace(result, players=players)
    await record(store, result)
    loaded = await store.load_result(1)
    assert loaded is not None
    tally = next(p for p in loaded.players if p.user_id == A).operations[0]
    assert tally.mistakes == (("sign_slip", 2), ("arithmetic_slip", 1))
    assert tally.median_ms == 4000
    both = tally + OperationTally(
        "divide", 1, 0, 0, 9000, mistakes=(("arithmetic_slip", 2),), times=(9000,)
    )
    assert both.mistakes == (("arithmetic_slip", 3), ("sign_slip", 2)) and both.median_ms == 4500


async def answered_in_two_weeks(
    store: Storage,
    *weeks: tuple[int, dict[int, tuple[int, int]]],
    first_game: int,
) -> None:
    """One duel per pupil and week, recording (answers, right) for that pupil (the most-improved
    board's input)."""
    game = first_game
    for week, answers in weeks:
        for user, (n, right) in answers.items():
            game += 1
            await record(
                store, duel(game, user, 999, day=game, week=week, answers={user: (n, right)})
            )


async def test_the_most_improved_board_ranks_ties_pages_and_the_viewer_in_one_pass(
    store: Storage,
) -> None:
    """The "improved" board ranks this week's accuracy minus last week's (both with
    enough answers), read in one pass (`_board_from_keys`) with the same competition ranks as
    every board: A +0.5 first; D, B and C all gain 0.25, D with 32 answers before B and C with
    16 each (more answers break the tie): D 2nd, B and C share the 3rd place (listed by id);
    E loses 0.125 (5th); a pupil new this week has nothing to compare with and is not ranked.
    (Shares in sixteenths and 32nds: exact in binary, so the ties are true ties.)"""
    E = 206
    last, this = 202345, 202346
    before = {A: (16, 4), B: (16, 8), C: (16, 4), D: (32, 16), E: (16, 12)}
    after = {A: (16, 12), B: (16, 12), C: (16, 8), D: (32, 24), E: (16, 10), 205: (16, 16)}
    await answered_in_two_weeks(store, (last, before), (this, after), first_game=0)
    query = BoardQuery(1, f"w{this}", sort="improved", previous_scope=f"w{last}", limit=2)
    first = await store.board(query, E)
    assert [(r.rank, r.user_id) for r in first.rows] == [(1, A), (2, D)]
    assert first.total == 5  # 999 answered nothing; 205 has no week before
    assert first.own is not None and (first.own.rank, first.own.user_id) == (5, E)
    assert first.own.improvement == -0.125
    second = await store.board(replace(query, offset=2), C)
    assert [(r.rank, r.user_id) for r in second.rows] == [(3, B), (3, C)]
    assert second.own is not None and second.own.rank == 3
    assert second.rows[0].improvement == 0.25
    assert (await store.board(replace(query, offset=4), 205)).own is None


async def test_equal_gains_on_the_most_improved_board_are_equal_however_the_shares_fall(
    store: Storage,
) -> None:
    """The board's tie rule: equal gain, more answers first; equal gain and answers share a
    rank. A goes from 10/24 to 20/30 and B from 10/20 to 15/20: both gain exactly 1/4, though
    as floats 2/3 − 5/12 is 0.24999999999999994 and 3/4 − 1/2 is 0.25. A answered more this
    week (30 to 20), so A is before B; D (3/12 to 15/30, 1/4 as 0.25 in floats) has A's gain
    and A's 30 answers, so A and D share the 1st place; B and C (5/20 to 10/20, also 1/4 with
    20 answers) share the 3rd."""
    last, this = 202347, 202348
    before = {A: (24, 10), B: (20, 10), C: (20, 5), D: (12, 3)}
    after = {A: (30, 20), B: (20, 15), C: (20, 10), D: (30, 15)}
    await answered_in_two_weeks(store, (last, before), (this, after), first_game=100)
    query = BoardQuery(1, f"w{this}", sort="improved", previous_scope=f"w{last}", limit=5)
    board = await store.board(query, A)
    assert [(r.rank, r.user_id) for r in board.rows] == [(1, A), (1, D), (3, B), (3, C)]
    assert [r.improvement for r in board.rows] == [0.25, 0.25, 0.25, 0.25]
    assert board.own is not None and board.own.rank == 1
    page = await store.board(replace(query, limit=2, offset=2), B)
    assert [(r.rank, r.user_id) for r in page.rows] == [(3, B), (3, C)] and page.total == 4
    assert page.own is not None and page.own.rank == 3


_SHARE = st.integers(1, 2**30 - 1).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n)))


@given(st.tuples(_SHARE, _SHARE), st.tuples(_SHARE, _SHARE))
def test_the_most_improved_boards_key_orders_and_ties_gains_exactly(
    first: tuple[tuple[int, int], tuple[int, int]], second: tuple[tuple[int, int], tuple[int, int]]
) -> None:
    """The board ranks by the exact gain (this period's share of right answers minus the one
    before): its integer key compares two pupils as their fractions do, ties included, for
    any counts up to a billion answers."""

    def gain(now: tuple[int, int], then: tuple[int, int]) -> Fraction:
        return Fraction(*now) - Fraction(*then)

    def key(now: tuple[int, int], then: tuple[int, int]) -> int:
        numerator = now[0] * then[1] - then[0] * now[1]
        return _gain_key(numerator, now[1] * then[1])

    a, b = gain(*first), gain(*second)
    ka, kb = key(*first), key(*second)
    assert (ka < kb, ka == kb) == (a < b, a == b)


def test_the_most_improved_boards_key_tells_apart_the_closest_gains() -> None:
    """Two gains as close as counts below a billion allow (1/n² and 1/(n² − 1), about
    2**-120 apart) keep their order, and one gain written two ways is one key."""
    n = 2**30 - 1
    assert _gain_key(1, n * n) < _gain_key(1, n * n - 1)
    assert _gain_key(1, 4) == _gain_key(20 * 24 - 10 * 30, 30 * 24)  # 20/30 − 10/24 = 1/4
