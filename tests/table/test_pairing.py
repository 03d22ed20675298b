"""Who plays whom (table/pairing.py): every waiting seat gets exactly one game; two against
two (RULES §1.2: a team is one side); an odd seat plays the computer; by results, similar
players meet; new partners avoid those already met when someone new is waiting."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from table.pairing import pair


def seats(n: int) -> list[str]:
    return [f"s{i}" for i in range(n)]


def no_rate(seat: str) -> Fraction | None:
    return None


@pytest.mark.parametrize("teams", [False, True])
@pytest.mark.parametrize("n", range(1, 12))
def test_every_waiting_seat_gets_exactly_one_game(n: int, teams: bool) -> None:
    matches = pair(seats(n), how="random", teams=teams, rng=random.Random(n), rate=no_rate)
    placed = [s for m in matches for side in m.sides for s in side]
    assert sorted(placed) == sorted(seats(n))
    for match in matches:
        sizes = [len(side) for side in match.sides]
        if match.computer:
            assert sizes == [1, 0]  # one pupil against the computer
        else:
            assert sizes in ([1, 1], [2, 2])
    assert sum(m.computer for m in matches) == n % 2


def test_by_results_similar_players_meet() -> None:
    rates = {"a": Fraction(9, 10), "b": Fraction(1, 10), "c": Fraction(8, 10), "d": Fraction(2, 10)}
    matches = pair(list(rates), how="results", teams=False, rng=random.Random(1),
                   rate=rates.get)  # fmt: skip
    assert {frozenset(s for side in m.sides for s in side) for m in matches} == {
        frozenset({"b", "d"}),
        frozenset({"c", "a"}),
    }


def test_new_partners_meet_someone_new() -> None:
    met = {"a": frozenset({"b"}), "b": frozenset({"a"}), "c": frozenset({"d"}),
           "d": frozenset({"c"})}  # fmt: skip
    for seed in range(20):
        matches = pair(["a", "b", "c", "d"], how="random", teams=False, rng=random.Random(seed),
                       rate=no_rate, met=met)  # fmt: skip
        for match in matches:
            x, y = (side[0] for side in match.sides)
            assert y not in met[x]
