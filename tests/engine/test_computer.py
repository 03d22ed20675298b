"""The computer player (`engine.computer`): every strength plays only legal actions, hard plays
the solver's best and bets only when the gain is worth the cards (RULES §3.3), and its choices
come from the injected `random.Random` alone, never the game's RNG or the global module."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, Answer, Bet, Flip, NameTarget, Pass, Timeout
from engine.computer import BET_COST, Strength, choose
from engine.config import GameConfig, Mode
from engine.game import apply, judge_answer, new_game
from engine.hints import swap_chances
from engine.solver import best
from engine.state import GameState, Phase

GAMES = [("regnekrig", level) for level in range(1, 8)] + [
    ("intervallkrig", 1),
    ("satsing", 1),
]


def computer_game(
    game: str, level: int, strength: Strength, seed: int, sides: int = 2
) -> Iterator[tuple[GameState, int, Action | None]]:
    """A regn-mode game where the computer decides for every side; yields each state with
    every side's choice (None when it has nothing to decide), then plays the choices."""
    config = GameConfig(game, level=level, mode=Mode.REGN, sides=sides, max_rounds=60)
    state, _ = new_game(config, seed)
    rnd = random.Random(seed)
    while not state.is_over:
        chosen = []
        for side in range(sides):
            action = choose(state, side, strength, rnd)
            yield state, side, action
            if action is not None:
                chosen.append(action)
        if not chosen:
            state, _ = apply(state, Flip(0))
        for action in chosen:
            state, _ = apply(state, action)


@pytest.mark.parametrize("strength", list(Strength))
@pytest.mark.parametrize(("game", "level"), GAMES)
def test_only_legal_actions_in_every_phase(game: str, level: int, strength: Strength) -> None:
    """Each strength answers exactly the pending decisions, with actions `apply` accepts
    (a whole game is played with them), and answers that count (RULES §2.2)."""
    phases = set()
    for state, side, action in computer_game(game, level, strength, seed=level, sides=3):
        phases.add(state.phase)
        if side not in state.pending:
            assert action is None
            continue
        assert action is not None and action.side == side
        apply(state, action)  # raises if illegal
        if state.phase is Phase.TARGET:
            assert isinstance(action, NameTarget)
        elif state.phase is Phase.ANSWER:
            assert isinstance(action, Answer | Timeout)
            if isinstance(action, Answer):
                assert judge_answer(state, side, action.text).accepted
        else:
            assert state.phase is Phase.BET and isinstance(action, Bet | Pass)
    expected = {Phase.ANSWER} | ({Phase.TARGET} if level >= 5 else set())
    if game != "regnekrig":
        expected = {Phase.FLIP} | ({Phase.BET} if game == "satsing" else set())
    assert expected <= phases


@pytest.mark.parametrize("level", range(1, 8))
def test_hard_plays_the_solvers_best(level: int) -> None:
    for state, side, action in computer_game("regnekrig", level, Strength.HARD, seed=7):
        if state.phase is Phase.ANSWER and side in state.pending:
            a, b = (c.value for c in state.up[side])
            play = best(a, b, level, state.target)
            assert action == (Answer(side, play.text) if play.value is not None else Timeout(side))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), sides=st.integers(2, 4))
def test_hard_bets_only_when_gain_times_pot_is_at_least_two(seed: int, sides: int) -> None:
    """RULES §3.3 bet: two cards cost; hard bets on the better swap exactly when the gain in
    chance times the pot it would take (table + its two bet cards) is at least 2."""
    decisions = set()
    for state, side, action in computer_game("satsing", 1, Strength.HARD, seed, sides):
        if state.phase is not Phase.BET or side not in state.pending:
            continue
        chances = swap_chances(state, side)
        gain = max(chances.swap) - chances.now
        worth = gain * (state.table_count + BET_COST) >= BET_COST
        if worth:
            better = 0 if chances.swap[0] >= chances.swap[1] else 1
            assert action == Bet(side, better)
        else:
            assert action == Pass(side)
        decisions.add(worth)
    assert decisions  # the game had betting windows


@pytest.mark.parametrize("strength", list(Strength))
@pytest.mark.parametrize(("game", "level"), [("regnekrig", 7), ("satsing", 1)])
def test_an_injected_rng_makes_it_reproducible(game: str, level: int, strength: Strength) -> None:
    first = [a for _, _, a in computer_game(game, level, strength, seed=11)]
    second = [a for _, _, a in computer_game(game, level, strength, seed=11)]
    assert first == second and any(a is not None for a in first)


@pytest.mark.parametrize("strength", list(Strength))
@pytest.mark.parametrize(("game", "level"), [("regnekrig", 6), ("satsing", 1)])
def test_the_games_rng_and_the_global_module_are_untouched(
    game: str, level: int, strength: Strength, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The computer's choices never draw from the game's RNG (which decides the cards, RULES
    §1.6) nor from the global `random` module (made to fail here)."""

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the global random module was used")

    for name in ("random", "randint", "randrange", "choice", "choices", "shuffle", "sample"):
        monkeypatch.setattr(random, name, forbidden)
    for state, side, _ in computer_game(game, level, strength, seed=3):
        before = state.rng
        choose(state, side, strength, random.Random(side))
        assert state.rng == before and state.rng.draws == before.draws
