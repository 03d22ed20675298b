"""SCENARIOS.md actions: the JSON form of every action reads back exactly, and anything
malformed is refused with `IllegalActionError` code `malformed_action` (so the replay can
name the action's index and the bot can explain it)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import Action, Flip, Timeout, TimeUp
from engine.errors import EngineError, IllegalActionError
from engine.intervallkrig import Bet, Pass
from engine.registry import action_from_json, action_to_json
from engine.regnekrig import Answer, NameTarget

sides = st.integers(-5, 10)
actions: st.SearchStrategy[Action] = st.one_of(
    st.builds(NameTarget, sides, st.integers(-100, 100)),
    st.builds(Answer, sides, st.text(max_size=30)),
    st.builds(Timeout, sides),
    st.builds(Bet, sides, st.integers(-3, 3)),
    st.builds(Pass, sides),
    st.builds(Flip, sides),
    st.just(TimeUp()),
)


@given(actions)
def test_json_round_trip(action: Action) -> None:
    """Stored actions (a saved game is config + seed + actions, RULES §1.6) read back the same,
    through JSON text too."""
    data = action_to_json(action)
    assert action_from_json(data) == action
    assert action_from_json(json.loads(json.dumps(data))) == action


@pytest.mark.parametrize(
    ("action", "data"),
    [
        (NameTarget(0, 7), {"type": "target", "side": 0, "value": 7}),
        # An answer stored without its reading was typed under the rule book's first
        # edition; a new one says which edition judges it (RULES §2.2 "replaces").
        (Answer(1, "3²-5", 1), {"type": "answer", "side": 1, "text": "3²-5"}),
        (Answer(1, "3-5", 2), {"type": "answer", "side": 1, "text": "3-5", "reading": 2}),
        (Timeout(1), {"type": "timeout", "side": 1}),
        (Bet(0, 1), {"type": "bet", "side": 0, "swap": 1}),
        (Pass(2), {"type": "pass", "side": 2}),
        (Flip(0), {"type": "flip", "side": 0}),
        (TimeUp(), {"type": "time_up"}),
    ],
)
def test_the_documented_json_form(action: Action, data: dict[str, Any]) -> None:
    """SCENARIOS.md's action table: type and fields, `time_up` without a side."""
    assert action_to_json(action) == data
    assert action_from_json(data) == action


def test_a_whole_number_answer_is_read_as_its_text() -> None:
    """A scenario may give an answer as a JSON number: it is the same as its text (typed,
    like every answer stored without a reading, under the rule book's first edition)."""
    assert action_from_json({"type": "answer", "side": 0, "text": 12}) == Answer(0, "12", 1)


MALFORMED: list[Any] = [
    None,
    [],
    "flip",
    7,
    {},
    {"side": 0},
    {"type": "jump", "side": 0},
    {"type": None, "side": 0},
    {"type": "flip"},
    {"type": "flip", "side": "0"},
    {"type": "flip", "side": 1.0},
    {"type": "flip", "side": True},
    {"type": "flip", "side": None},
    {"type": "target", "side": 0},
    {"type": "target", "side": 0, "value": "7"},
    {"type": "target", "side": 0, "value": 7.5},
    {"type": "target", "side": 0, "value": False},
    {"type": "answer", "side": 0},
    {"type": "answer", "side": 0, "text": None},
    {"type": "answer", "side": 0, "text": ["3"]},
    {"type": "answer", "side": 0, "text": 1.5},
    {"type": "answer", "side": 0, "text": True},
    {"type": "bet", "side": 0},
    {"type": "bet", "side": 0, "swap": "1"},
    {"type": "bet", "side": 0, "swap": True},
    {"type": "pass", "side": [0]},
    {"type": "timeout", "side": {"id": 0}},
    {"type": "TARGET", "side": 0, "value": 1},
]


@pytest.mark.parametrize("data", MALFORMED, ids=[json.dumps(d) for d in MALFORMED])
def test_malformed_actions_are_refused(data: Any) -> None:
    with pytest.raises(IllegalActionError) as refused:
        action_from_json(data)
    assert refused.value.code == "malformed_action"
    assert isinstance(refused.value, EngineError) and isinstance(refused.value, ValueError)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(["type", "side", "value", "text", "swap", "x"]), inner, max_size=5
            )
        ),
        max_leaves=10,
    )
)
def test_any_json_is_an_action_or_malformed(data: Any) -> None:
    """Whatever a stored file holds, reading it gives an action or `malformed_action`, never
    another exception."""
    try:
        action = action_from_json(data)
    except IllegalActionError as refused:
        assert refused.code == "malformed_action"
    else:
        assert action_from_json(action_to_json(action)) == action
