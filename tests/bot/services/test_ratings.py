"""Elo per server and game (docs/for-schools.md: no rating for games against the computer
or luck-only games, three rated games per pair and day): only human games that ended by the
rules, at most three per pair per day, teams as the mean of their members, free-for-all
pairwise, and a void subtracts exactly what the game moved."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.services.ratings import (
    K_FACTOR,
    PAIR_GAMES_PER_DAY,
    expected,
    plan,
    side_deltas,
    unrated_reason,
)
from storage import GameResult, Storage
from tests.bot.storage.results_helpers import duel, seat

A, B, C, D = 201, 202, 203, 204


async def _record(storage: Storage, result: GameResult) -> GameResult:
    stored = await storage.record_result(result, at=result.ended_at, rate=plan)
    assert stored is not None
    return stored


async def _rating(storage: Storage, user: int, scope: str = "all") -> int | None:
    lines = [x for x in await storage.rating_lines(1, user) if x.scope == scope]
    return lines[0].rating if lines else None


def test_expected_score_is_symmetric() -> None:
    assert expected(1000, 1000) == 0.5
    assert expected(1200, 1000) + expected(1000, 1200) == pytest.approx(1)


async def test_first_game_moves_both_players_by_half_k(storage: Storage) -> None:
    result = await _record(storage, duel(1, A, B))
    assert result.rated
    assert await _rating(storage, A) == 1000 + K_FACTOR // 2
    assert await _rating(storage, B) == 1000 - K_FACTOR // 2
    assert await _rating(storage, A, "s1") == 1016  # the season scope moves too


async def test_an_upset_moves_more_than_an_expected_win(storage: Storage) -> None:
    for day in range(3):
        await _record(storage, duel(day + 1, A, B, day=day))
    a_before, b_before = await _rating(storage, A), await _rating(storage, B)
    assert a_before is not None and b_before is not None
    await _record(storage, duel(10, B, A, day=10))  # B beats the stronger A
    gained = (await _rating(storage, B) or 0) - b_before
    assert gained > K_FACTOR // 2
    assert (await _rating(storage, A) or 0) - a_before == -gained


async def test_at_most_three_rated_games_per_pair_per_day(storage: Storage) -> None:
    for game_id in range(1, PAIR_GAMES_PER_DAY + 1):
        assert (await _record(storage, duel(game_id, A, B))).rated
    capped = await _record(storage, duel(4, A, B))
    assert not capped.rated and capped.unrated == "pair_cap"
    assert (await _record(storage, duel(5, A, C))).rated  # another pair is not capped
    assert (await _record(storage, duel(6, B, A, day=20231115))).rated  # a new day
    lines = [x for x in await storage.rating_lines(1, A) if x.scope == "all"]
    assert lines[0].games == 5  # games 1-3, 5 and 6: not the capped game 4


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"reason": "stopped"}, "ended_early"),
        ({"reason": "abandoned"}, "ended_early"),
        ({"computer": True}, "computer"),
        # Ratings only where skill decides (the registry's rated_modes).
        ({"mode": "auto"}, "luck"),
        ({"game": "intervallkrig"}, "luck"),
    ],
)
async def test_unrated_games(storage: Storage, change: dict[str, Any], reason: str) -> None:
    result = replace(duel(1, A, B), **change)
    stored = await _record(storage, result)
    assert not stored.rated and stored.unrated == reason
    assert await storage.rating_lines(1, A) == []


def test_skill_decides_in_regn_mode_regnekrig_and_satsing_only() -> None:
    """Regn-mode regnekrig and satsing are rated; auto mode and plain intervallkrig are not."""
    assert unrated_reason(duel(1, A, B)) is None
    assert unrated_reason(replace(duel(1, A, B), game="satsing")) is None
    assert unrated_reason(replace(duel(1, A, B), mode="auto")) == "luck"
    assert unrated_reason(replace(duel(1, A, B), game="intervallkrig")) == "luck"


def test_a_computer_seat_is_never_rated() -> None:
    result = duel(1, A, B)
    result = replace(result, players=(result.players[0], seat(1, 1, None, "loss", computer="hard")))
    assert unrated_reason(result) == "computer"


async def test_teams_are_rated_as_the_mean_of_their_members(storage: Storage) -> None:
    """A team of 1100 and 900 meets a team of 1000 and 1000: equal means, so ±16 each."""
    for day, (w, loser) in enumerate(((A, C), (A, C), (A, C))):
        await _record(storage, duel(day + 1, w, loser, day=day))
    # A and C are now apart; B and D are 1000. Teams: (A, C) v (B, D).
    a, c = await _rating(storage, A), await _rating(storage, C)
    assert a is not None and c is not None and a + c == 2000
    players = (
        seat(0, 0, A, "win"),
        seat(1, 1, B, "loss"),
        seat(2, 0, C, "win"),
        seat(3, 1, D, "loss"),
    )
    team_game = replace(duel(9, A, B, day=99), players=players, teams=True)
    stored = await _record(storage, team_game)
    assert stored.rated
    assert await _rating(storage, A) == a + 16 and await _rating(storage, C) == c + 16
    assert await _rating(storage, B) == 984 and await _rating(storage, D) == 984


def test_free_for_all_is_pairwise_with_k_shared() -> None:
    """Three sides: the winner beats both; the others are ranked by the cards they hold."""
    players = (
        replace(seat(0, 0, A, "win"), cards_end=30),
        replace(seat(1, 1, B, "loss"), cards_end=22),
        replace(seat(2, 2, C, "loss"), cards_end=0),
    )
    result = replace(duel(1, A, B), players=players, sides=3)
    deltas = side_deltas(result, {0: 1000, 1: 1000, 2: 1000})
    assert deltas == {0: 16, 1: 0, 2: -16}
    assert plan(result, {}, {}, scopes=("all",)).rated


def test_a_draw_between_equals_changes_nothing() -> None:
    result = replace(
        duel(1, A, B),
        winner=None,
        reason="time_up",
        players=(
            replace(seat(0, 0, A, "draw"), cards_end=26),
            replace(seat(1, 1, B, "draw"), cards_end=26),
        ),
    )
    changes = plan(result, {}, {}, scopes=("all",)).changes
    assert [c.delta for c in changes] == [0, 0]


async def test_void_subtracts_exactly_the_change_the_game_made(storage: Storage) -> None:
    await _record(storage, duel(1, A, B, day=1))  # A 1016, B 984
    await _record(storage, duel(2, B, C, day=2))  # B beats C
    b_after_two = await _rating(storage, B)
    c_after_two = await _rating(storage, C)
    voided = await storage.void_result(1, 1, 0)
    assert voided is not None
    assert await _rating(storage, A) is None  # A's only game is gone
    assert await _rating(storage, B) == (b_after_two or 0) - (-16)
    assert await _rating(storage, C) == c_after_two  # later games are left alone
