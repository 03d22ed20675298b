"""RULES §3.3: "the bot shows each side the chance that its third card lands inside its
interval before and after a swap, computed from the cards it cannot see".

The chances (`engine.hints`) are checked against brute-force enumeration: every unseen card
is equally likely to come next; after a swap the replacement is any unseen card and the third
any *other* unseen card. Exact `Fraction`s, so equality is exact.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Flip
from engine.cards import Card
from engine.config import GameConfig, Mode
from engine.game import apply, new_game
from engine.hints import (
    chance_after_swap,
    chance_inside,
    inside_count,
    swap_chances,
    unseen_cards,
)
from engine.intervallkrig import BET, Bet, Pass
from engine.state import GameState
from tests.engine.support import reorder_hidden


def bet_windows(seed: int, sides: int, choices: int) -> Iterator[GameState]:
    """Every betting window (RULES §3.3) of a regn-mode satsing game with random decisions."""
    rnd = random.Random(choices)
    state, _ = new_game(GameConfig("satsing", mode=Mode.REGN, sides=sides), seed)
    while not state.is_over:
        if state.phase is BET:
            yield state
            side = state.pending[0]
            action = rnd.choice([Pass(side), Bet(side, 0), Bet(side, 1)])
        else:
            action = Flip(0)
        state, _ = apply(state, action)


def brute_unseen(state: GameState) -> list[int]:
    """The values of every dealt card that is not face up, found from scratch."""
    face_up = {card.id for cards in state.up for card in cards}
    face_up |= {card.id for card in state.part.face_up() if card is not None}
    everything: list[Card] = [*state.set_aside]
    for side in state.sides:
        everything += [*side.draw, *side.collection]
    for laid in state.pot:
        everything += laid
    return [card.value for card in everything if card.id not in face_up]


def brute_now(interval: tuple[int, int], unseen: list[int]) -> Fraction:
    low, high = min(interval), max(interval)
    if not unseen:
        return Fraction(0)
    return Fraction(sum(low <= v <= high for v in unseen), len(unseen))


def brute_swap(keep: int, unseen: list[int]) -> Fraction:
    """Enumerate (replacement, third) over distinct unseen cards, by position."""
    hits = total = 0
    for i, replacement in enumerate(unseen):
        low, high = min(keep, replacement), max(keep, replacement)
        for j, third in enumerate(unseen):
            if i != j:
                total += 1
                hits += low <= third <= high
    return Fraction(hits, total) if total else Fraction(0)


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32), sides=st.integers(2, 4), choices=st.integers(0, 2**32))
def test_chances_equal_brute_force_enumeration(seed: int, sides: int, choices: int) -> None:
    """§3.3: before and after swapping either card, in every betting window of a game."""
    windows = 0
    for state in bet_windows(seed, sides, choices):
        windows += 1
        unseen = brute_unseen(state)
        assert sorted(c.value for c in unseen_cards(state)) == sorted(unseen)
        for side in state.pending:
            first, second = (c.value for c in state.up[side])
            chances = swap_chances(state, side)
            assert chances.now == brute_now((first, second), unseen)
            assert chances.count.chance == chances.now  # the count says the same
            assert chances.swap == (brute_swap(second, unseen), brute_swap(first, unseen))
        if windows >= 6:
            break
    assert windows > 0  # a dealt satsing game opens its first window at once


@given(
    interval=st.tuples(st.integers(-13, 13), st.integers(-13, 13)),
    keep=st.integers(-13, 13),
    unseen=st.lists(st.integers(-13, 13), max_size=14),
)
def test_chance_functions_equal_brute_force(
    interval: tuple[int, int], keep: int, unseen: list[int]
) -> None:
    """Also on small and empty sets of unseen cards, with repeated values."""
    assert chance_inside(interval, unseen) == brute_now(interval, unseen)
    assert chance_after_swap(keep, unseen) == brute_swap(keep, unseen)


def test_a_worked_example() -> None:
    """§3.3 by hand: interval [1, 2], unseen 1, 3, 5. Now 1/3 (the end counts, §3.1). After a
    swap the replacement r is one unseen card and the third one of the two others."""
    unseen = [1, 3, 5]
    assert chance_inside((1, 2), unseen) == Fraction(1, 3)
    # keep 2: (r=1: 3,5 out) (r=3: 1 out, 5 out) (r=5: 1 out, 3 in) → 1/6
    assert chance_after_swap(2, unseen) == Fraction(1, 6)
    # keep 1: (r=1: 3,5 out) (r=3: 1 in, 5 out) (r=5: 1 in, 3 in) → 3/6
    assert chance_after_swap(1, unseen) == Fraction(1, 2)


def test_the_hint_counts_the_cards_inside() -> None:
    """A hint says what to count: 1 of the 3 unseen cards lies between 1
    and 2 (the interval's order does not matter, its ends count: §3.1)."""
    count = inside_count((2, 1), [1, 3, 5])
    assert (count.low, count.high, count.inside, count.unseen) == (1, 2, 1, 3)
    assert count.chance == chance_inside((1, 2), [1, 3, 5])


@pytest.mark.parametrize("seed", range(5))
def test_chances_depend_only_on_what_the_side_can_see(seed: int) -> None:
    """§3.3 "computed from the cards it cannot see": reordering hidden piles changes
    nothing."""
    rnd = random.Random(seed)
    for state in bet_windows(seed, 3, seed):
        for side in state.pending:
            assert swap_chances(reorder_hidden(state, rnd), side) == swap_chances(state, side)
