"""Who plays whom: pure functions from the waiting seats to the lesson's next games.

* at random (the lesson's own seeded RNG, so a test can replay it);
* by this lesson's results: seats ordered by their best-move rate, neighbours meet, so
  similar players play each other;
* new partners: as either, but nobody meets a seat already met in this lesson wherever a
  grouping of everybody with someone new exists (a search; else as few meetings again as
  swaps find).

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


# Groupings tried before settling for the fewest repeated meetings: a class's grouping in
# which everybody meets someone new is found in far fewer steps; where none exists, the
# search gives up quickly.
SEARCH_STEPS = 3_000


def _sizes(count: int, size: int) -> list[int]:
    """The games' sizes for `count` seats: full games, then a pair, then one against the
    computer (last, so the search has placed everybody else by then)."""
    sizes = [size] * (count // size)
    left = count % size
    if left >= 2:
        sizes.append(2)
        left -= 2
    return sizes + [1] * left


def _met(a: str, b: str, met: Mapping[str, frozenset[str]]) -> bool:
    return b in met.get(a, frozenset()) or a in met.get(b, frozenset())


def _search(
    order: list[str], met: Mapping[str, frozenset[str]], sizes: list[int]
) -> list[list[str]] | None:
    """Groups of `sizes` in which nobody has met anybody else of the group, or None when the
    search finds none within `SEARCH_STEPS`. The seat with the fewest new partners still free
    is placed first (so nobody is left with only old ones), with its nearest neighbours in
    `order` first (similar players, by results)."""
    place = {seat: i for i, seat in enumerate(order)}
    steps = 0

    def groups(left: list[str], sizes: list[int]) -> list[list[str]] | None:
        if not sizes:
            return []
        free = {s: sum(not _met(s, o, met) for o in left if o != s) for s in left}
        first = min(left, key=lambda s: (free[s], place[s]))
        return grow([first], left, sizes)

    def grow(group: list[str], left: list[str], sizes: list[int]) -> list[list[str]] | None:
        nonlocal steps
        if len(group) == sizes[0]:
            tail = groups([s for s in left if s not in group], sizes[1:])
            return None if tail is None else [group, *tail]
        candidates = sorted(
            (s for s in left if s not in group and not any(_met(s, g, met) for g in group)),
            key=lambda s: (abs(place[s] - place[group[0]]), place[s]),
        )
        for seat in candidates:
            steps += 1
            if steps > SEARCH_STEPS:
                return None
            found = grow([*group, seat], left, sizes)
            if found is not None:
                return found
        return None

    return groups(list(order), sizes)


def _clashes(group: list[str], met: Mapping[str, frozenset[str]]) -> int:
    return sum(_met(a, b, met) for i, a in enumerate(group) for b in group[i + 1 :])


def _least_met(
    order: list[str], met: Mapping[str, frozenset[str]], sizes: list[int]
) -> list[list[str]]:
    """Groups of `sizes` with few meetings again, where none without any is found: `order`
    cut into groups, then two seats of different groups swapped while that lowers the
    count (each swap lowers it, so it ends)."""
    out: list[list[str]] = []
    at = 0
    for size in sizes:
        out.append(order[at : at + size])
        at += size
    better = True
    while better:
        better = False
        couples = [(x, y) for x in range(len(out)) for y in range(x + 1, len(out))]
        for a, b in couples:
            for i, j in ((i, j) for i in range(len(out[a])) for j in range(len(out[b]))):
                before = _clashes(out[a], met) + _clashes(out[b], met)
                out[a][i], out[b][j] = out[b][j], out[a][i]
                if _clashes(out[a], met) + _clashes(out[b], met) < before:
                    better = True
                else:
                    out[a][i], out[b][j] = out[b][j], out[a][i]
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
    """The games for these waiting seats (`how`: "random" or "results"); with `met`, each
    seat meets only seats it has not met in this lesson wherever such a grouping exists."""
    order = list(seats)
    if how == "results":
        order = _by_results(order, rate)
    else:
        rng.shuffle(order)
    sizes = _sizes(len(order), 4 if teams else 2)
    if met:
        groups = _search(order, met, sizes) or _least_met(order, met, sizes)
    else:
        groups = _least_met(order, {}, sizes)
    matches: list[Match] = []
    for group in groups:
        if len(group) == 4:
            matches.append(Match(((group[0], group[1]), (group[2], group[3]))))
        elif len(group) == 2:
            matches.append(Match(((group[0],), (group[1],))))
        else:
            matches.append(Match(((group[0],), ()), computer=True))
    return matches
