"""Who plays whom: pure functions from the waiting seats to the lesson's next games.

* at random (the lesson's own seeded RNG, so a test can replay it);
* by this lesson's results: seats ordered by their best-move rate, neighbours meet, so
  similar players play each other;
* new partners: as either, but a seat that has already met another in this lesson meets
  someone new when anyone new is waiting.

Two against two puts four seats in a game (RULES §1.2: a team is one side with one pile).
Whoever is left over plays the computer (adaptive strength); three left over in teams play
one against one and one against the computer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Match:
    """One game to start: the seats of each side; `computer` when side 1 is the computer's."""

    sides: tuple[tuple[str, ...], ...]
    computer: bool = False


def _by_results(seats: Sequence[str], rate: Callable[[str], Fraction | None]) -> list[str]:
    """Seats ordered by their best-move rate (no answers yet: in the middle), so neighbours
    are similar players."""
    middle = Fraction(1, 2)

    def key(seat: str) -> tuple[Fraction, int]:
        value = rate(seat)
        return (middle if value is None else value, seats.index(seat))

    return sorted(seats, key=key)


def _fresh(order: list[str], met: Mapping[str, frozenset[str]], size: int) -> list[str]:
    """`order` regrouped so that each group of `size` avoids seats that have met, where a
    seat that has not met them is still waiting further on (first fit, order kept)."""
    left = list(order)
    out: list[str] = []
    while left:
        group = [left.pop(0)]
        while len(group) < size and left:
            new = next(
                (s for s in left if not any(s in met.get(g, frozenset()) for g in group)),
                left[0],
            )
            left.remove(new)
            group.append(new)
        out.extend(group)
    return out


def pair(
    seats: Sequence[str],
    *,
    how: str,
    teams: bool,
    rng: random.Random,
    rate: Callable[[str], Fraction | None],
    met: Mapping[str, frozenset[str]] | None = None,
) -> list[Match]:
    """The games for these waiting seats (`how`: "random" or "results")."""
    order = list(seats)
    if how == "results":
        order = _by_results(order, rate)
    else:
        rng.shuffle(order)
    size = 4 if teams else 2
    if met:
        order = _fresh(order, met, 2 if not teams else 4)
    matches: list[Match] = []
    while len(order) >= size:
        group, order = order[:size], order[size:]
        if teams:
            matches.append(Match(((group[0], group[1]), (group[2], group[3]))))
        else:
            matches.append(Match(((group[0],), (group[1],))))
    if len(order) >= 2:
        matches.append(Match(((order[0],), (order[1],))))
        order = order[2:]
    if order:
        matches.append(Match(((order[0],), ()), computer=True))
    return matches
