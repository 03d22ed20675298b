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


@pytest.mark.parametrize("teams", [False, True])
@pytest.mark.parametrize(("n", "how"), [(28, "results"), (27, "random"), (26, "random")])
def test_new_partners_round_after_round_meet_nobody_again(n: int, how: str, teams: bool) -> None:
    """Issue: "New partners gives everybody someone new whenever anyone new is free" (two
    pupils were paired again with 26 others waiting). A class of 26–28 takes new partners
    again and again (a round robin has a grouping in which nobody meets anybody again for
    many more rounds than these): everybody meets only new seats."""
    met: dict[str, set[str]] = {s: set() for s in seats(n)}
    rng = random.Random(n)
    rates = {s: Fraction(rng.randrange(11), 10) for s in seats(n)}
    for _ in range(4 if teams else 12):
        frozen = {s: frozenset(m) for s, m in met.items()}
        matches = pair(seats(n), how=how, teams=teams, rng=rng, rate=rates.get, met=frozen)
        placed = sorted(s for m in matches for side in m.sides for s in side)
        assert placed == sorted(seats(n))
        for match in matches:
            people = [s for side in match.sides for s in side]
            assert not any(b in met[a] for a in people for b in people if a != b), people
            for a in people:
                met[a].update(b for b in people if b != a)


def test_new_partners_meet_as_few_again_as_can_be() -> None:
    """Where nobody new is free for a seat (everyone has met everyone), the seats are still
    all placed, each exactly once."""
    everyone = seats(6)
    met = {s: frozenset(o for o in everyone if o != s) for s in everyone}
    matches = pair(everyone, how="random", teams=False, rng=random.Random(1), rate=no_rate,
                   met=met)  # fmt: skip
    assert sorted(s for m in matches for side in m.sides for s in side) == sorted(everyone)
