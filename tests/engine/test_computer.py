"""The computer player (`engine.computer`): every strength plays only legal actions, hard plays
the solver's best and bets only when the gain is worth the cards (RULES §3.3), easy and medium
make a pupil's mistakes at their rates, and its choices come from the injected
`random.Random` alone, never the game's RNG or the global module."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, Flip, SideAction, Timeout
from engine.computer import Strength, choose
from engine.config import GameConfig, Mode
from engine.game import apply, new_game
from engine.hints import swap_chances
from engine.intervallkrig import BET, Bet, Pass
from engine.intervallkrig import BET_CARDS as BET_COST
from engine.regnekrig import ANSWER, TARGET, Answer, NameTarget, judge_answer, part_of
from engine.solver import best
from engine.state import GameState, Phase

GAMES = [("regnekrig", level) for level in range(1, 8)] + [
    ("intervallkrig", 1),
    ("satsing", 1),
]


def computer_game(
    game: str,
    level: int,
    strength: Strength,
    seed: int,
    sides: int = 2,
    best_rate: Fraction | None = None,
) -> Iterator[tuple[GameState, int, Action | None]]:
    """A regn-mode game where the computer decides for every side; yields each state with
    every side's choice (None when it has nothing to decide), then plays the choices."""
    config = GameConfig(game, level=level, mode=Mode.REGN, sides=sides, max_rounds=60)
    state, _ = new_game(config, seed)
    rnd = random.Random(seed)
    while not state.is_over:
        chosen = []
        for side in range(sides):
            action = choose(state, side, strength, rnd, best_rate)
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
    (a whole game is played with them); every answer is readable in the `number` answer form
    (RULES §2.2: "the value, alone or after the expression that gives it"), and a hard one
    always counts."""
    phases: set[str] = set()
    for state, side, action in computer_game(game, level, strength, seed=level, sides=3):
        phases.add(state.phase)
        if side not in state.pending:
            assert action is None
            continue
        assert isinstance(action, SideAction) and action.side == side
        apply(state, action)  # raises if illegal
        if state.phase is TARGET:
            assert isinstance(action, NameTarget)
        elif state.phase is ANSWER:
            assert isinstance(action, Answer | Timeout)
            if isinstance(action, Answer):
                verdict = judge_answer(state, side, action.text)  # raises if unreadable
                assert verdict.accepted or strength is not Strength.HARD
        else:
            assert state.phase is BET and isinstance(action, Bet | Pass)
    expected: set[str] = {ANSWER} | ({TARGET} if level >= 5 else set())
    if game != "regnekrig":
        expected = {Phase.FLIP} | ({BET} if game == "satsing" else set())
    assert expected <= phases


@pytest.mark.parametrize("level", range(1, 8))
def test_hard_plays_the_solvers_best(level: int) -> None:
    for state, side, action in computer_game("regnekrig", level, Strength.HARD, seed=7):
        if state.phase is ANSWER and side in state.pending:
            a, b = (c.value for c in state.up[side])
            play = best(a, b, level, part_of(state).target)
            assert action == (
                Answer(side, play.answer) if play.value is not None else Timeout(side)
            )


@settings(max_examples=20)
@given(seed=st.integers(0, 2**32), sides=st.integers(2, 4))
def test_hard_bets_only_when_gain_times_pot_is_at_least_two(seed: int, sides: int) -> None:
    """RULES §3.3 bet: two cards cost; hard bets on the better swap exactly when the gain in
    chance times the pot it would take (table + its two bet cards) is at least 2."""
    decisions = set()
    for state, side, action in computer_game("satsing", 1, Strength.HARD, seed, sides):
        if state.phase is not BET or side not in state.pending:
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


def answer_kinds(
    level: int, strength: Strength, best_rate: Fraction | None = None, seeds: int = 6
) -> Counter[str]:
    """How the computer's answers were judged over a few games: "best", a legal "weaker"
    value, "late" (a timeout), or the reason of a mistake."""
    kinds: Counter[str] = Counter()
    for seed in range(seeds):
        for state, side, action in computer_game(
            "regnekrig", level, strength, seed, best_rate=best_rate
        ):
            if state.phase is not ANSWER or action is None:
                continue
            a, b = (c.value for c in state.up[side])
            if best(a, b, level, part_of(state).target).value is None:
                continue  # no value possible: not a decision
            if isinstance(action, Timeout):
                kinds["late"] += 1
                continue
            assert isinstance(action, Answer)
            verdict = judge_answer(state, side, action.text)
            if verdict.reason is not None:
                kinds[verdict.reason] += 1
            elif verdict.value == best(a, b, level, part_of(state).target).value:
                kinds["best"] += 1
            else:
                kinds["weaker"] += 1
    return kinds


def best_share(kinds: Counter[str]) -> float:
    return kinds["best"] / sum(kinds.values())


@pytest.mark.parametrize("level", range(1, 8))
def test_easy_makes_a_pupils_mistakes_at_every_level(level: int) -> None:
    """Easy "makes human-like mistakes at every level (sign slips, the worse order,
    a late answer)" and finds the best move about half the time."""
    kinds = answer_kinds(level, Strength.EASY)
    assert 0.4 <= best_share(kinds) <= 0.6, kinds
    assert kinds["late"] > 0
    assert kinds["sign_slip"] + kinds["arithmetic_slip"] > 0
    if level >= 3:  # levels 1–2 have one legal value: no worse order exists
        assert kinds["weaker"] > 0
    # a slip one off the value may be what another operation gives (3 · 2 typed as 5); at
    # levels 5–7 a number alone that no flip explains is just a wrong value
    slips = {"sign_slip", "arithmetic_slip", "operator_not_allowed"}
    if level >= 5:
        slips = {"sign_slip", "wrong_value"}
    assert set(kinds) <= {"best", "weaker", "late"} | slips


@pytest.mark.parametrize("level", range(1, 8))
def test_medium_finds_the_best_value_about_seventy_percent_of_the_time(level: int) -> None:
    kinds = answer_kinds(level, Strength.MEDIUM)
    assert 0.6 <= best_share(kinds) <= 0.8, kinds


@pytest.mark.parametrize(
    ("rate", "low", "high"),
    [(Fraction(0), 0.0, 0.0), (Fraction(3, 10), 0.2, 0.4), (Fraction(9, 10), 0.8, 0.97)],
)
def test_adaptive_follows_the_best_move_rate_it_is_given(
    rate: Fraction, low: float, high: float
) -> None:
    """An adaptive computer finds the best move at the given rate, whatever its strength."""
    for strength in (Strength.EASY, Strength.HARD):
        assert low <= best_share(answer_kinds(5, strength, rate)) <= high


def test_adaptive_with_rate_one_is_perfect() -> None:
    assert set(answer_kinds(6, Strength.EASY, Fraction(1), seeds=2)) == {"best"}


@pytest.mark.parametrize("rate", [Fraction(-1, 10), Fraction(11, 10)])
def test_a_rate_outside_zero_to_one_is_a_programming_error(rate: Fraction) -> None:
    config = GameConfig("regnekrig", level=1, mode=Mode.REGN)
    state, _ = new_game(config, 1)
    with pytest.raises(ValueError):
        choose(state, 0, Strength.EASY, random.Random(0), rate)
