"""`engine.view`: what one side may see (OpenSpiel's observation). A side never sees a
pile's order, another side's answer (RULES §2.2) or bet (§3.3) before they are revealed
together; a spectator sees only the cards that are face up."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, Flip, Timeout
from engine.cards import Card
from engine.config import GameConfig, Mode
from engine.game import apply, legal_actions, new_game
from engine.intervallkrig import BET, Bet, Pass
from engine.judge import Verdict
from engine.regnekrig import ANSWER, Answer
from engine.state import GameState, Phase
from engine.view import view as observe
from tests.engine.support import reorder_hidden


def _walk(value: Any) -> Iterator[Any]:
    """Every value inside an observation (dataclasses, tuples)."""
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _walk(getattr(value, field.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _walk(item)


def _states(game: str, level: int, seed: int, sides: int = 3) -> Iterator[GameState]:
    """Every state of a regn-mode game with random legal decisions."""
    rnd = random.Random(seed)
    config = GameConfig(game, level=level, mode=Mode.REGN, sides=sides, max_rounds=40)
    state, _ = new_game(config, seed)
    while True:
        yield state
        if state.is_over:
            return
        choices: list[Action] = [a for a in legal_actions(state) if a.kind != "time_up"]
        state, _ = apply(state, rnd.choice(choices))


CASES = [("regnekrig", level) for level in (1, 3, 5, 7)] + [
    ("intervallkrig", 1),
    ("satsing", 1),
]


@settings(max_examples=12)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32))
def test_nobody_sees_a_piles_order(case: tuple[str, int], seed: int) -> None:
    """RULES §1.3: piles are face down: reordering any pile changes no observation."""
    rnd = random.Random(seed)
    for state in _states(*case, seed=seed):
        other = reorder_hidden(state, rnd)
        for viewer in (None, *range(state.config.sides)):
            assert observe(other, viewer) == observe(state, viewer)


@settings(max_examples=12)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32))
def test_a_spectator_sees_only_face_up_cards(case: tuple[str, int], seed: int) -> None:
    """Every card in any observation is face up on the table now; a spectator has no answer
    or bet of anyone."""
    for state in _states(*case, seed=seed):
        face_up = {c.id for cards in state.up for c in cards}
        face_up |= {c.id for c in state.part.face_up() if c is not None}
        for viewer in (None, *range(state.config.sides)):
            seen = observe(state, viewer)
            cards = {v.id for v in _walk(seen) if isinstance(v, Card)}
            assert cards <= face_up
            verdicts = [v for v in _walk(seen) if isinstance(v, Verdict)]
            if viewer is None:
                assert verdicts == [] and seen.own_answer is None and seen.own_bet is None


def _answer_phase(level: int = 5) -> GameState:
    config = GameConfig("regnekrig", level=level, mode=Mode.REGN)
    state, _ = new_game(config, 0, [[5, 2, 1, 1], [3, 3, 1, 1]])
    state, _ = apply(state, Timeout(0))  # a random target
    assert state.phase is ANSWER
    return state


@pytest.mark.parametrize("answer", [Answer(0, "5*2=10"), Answer(0, "5-2=3"), Answer(0, "99")])
def test_an_answer_is_hidden_until_every_side_has_answered(answer: Answer) -> None:
    """RULES §2.2: each side submits its own answer; the others see only that it answered."""
    state = _answer_phase()
    answered, _ = apply(state, answer)
    timed_out, _ = apply(state, Timeout(0))
    for viewer in (1, None):
        assert observe(answered, viewer) == observe(timed_out, viewer)
    assert observe(answered, 1).sides[0].decided and observe(answered, 0).own_answer is not None
    assert observe(answered, 0).own_answer != observe(timed_out, 0).own_answer


def _bet_phase() -> GameState:
    config = GameConfig("satsing", mode=Mode.REGN)
    state, _ = new_game(config, 0, [[1, 2, 0, 0, 6, 4, 5], [1, 5, 0, 0, 7, 3, 3]])
    assert state.phase is BET and state.pending == (0, 1)
    return state


@pytest.mark.parametrize("decision", [Bet(0, 0), Bet(0, 1), Pass(0), Timeout(0)])
def test_a_bet_is_hidden_until_every_side_has_decided(decision: Action) -> None:
    """RULES §3.3: every side decides at once; a decision is revealed with the others'."""
    state = _bet_phase()
    decided, _ = apply(state, decision)
    reference, _ = apply(state, Pass(0))
    for viewer in (1, None):
        assert observe(decided, viewer) == observe(reference, viewer)
    assert observe(decided, 0).own_bet is not None


def test_after_the_reveal_everyone_sees_the_result() -> None:
    """Once all have answered, the values are public (the `value` events) and the next
    comparison starts with nothing hidden decided."""
    state = _answer_phase()
    state, _ = apply(state, Answer(0, "5*2=10"))
    state, events = apply(state, Answer(1, "3*3=9"))
    assert [e.type for e in events].count("value") == 2
    assert observe(state, 1).own_answer is None
    assert not any(side_view.decided for side_view in observe(state, None).sides)


def test_flip_phase_shows_no_decisions() -> None:
    state, _ = new_game(GameConfig("intervallkrig", mode=Mode.REGN), 1)
    assert state.phase is Phase.FLIP
    state, _ = apply(state, Flip(0))
    seen = observe(state, 0)
    assert seen.own_answer is None and seen.own_bet is None
    assert not any(side_view.decided for side_view in seen.sides)
