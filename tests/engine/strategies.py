"""Hypothesis strategies shared by the engine's and the screens' property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.config import GameConfig, Mode
from engine.options import LEVELS, SIDES
from engine.registry import GAMES


def game_configs(max_rounds: int) -> st.SearchStrategy[GameConfig]:
    """Every game, at every level, with every number of sides, in both modes."""
    return st.builds(
        lambda game, level, sides, mode: GameConfig(
            game, level=level, sides=sides, mode=mode, max_rounds=max_rounds
        ),
        st.sampled_from(list(GAMES)),
        st.sampled_from(list(LEVELS)),
        st.sampled_from(list(SIDES)),
        st.sampled_from(list(Mode)),
    )


seeds = st.integers(0, 2**31 - 1)


ANSWER_ALPHABET = "0123456789.,+-*/:^()[]xX \u2212\u2013\u00d7\u00b7\u22c5\u00f7\u00b2\u00b3\u221a"
answer_chars = st.sampled_from([*ANSWER_ALPHABET, "sqrt", "rot", "**", "SQRT"])
answer_like = st.lists(answer_chars, max_size=40).map("".join)
"""Text made of what pupils type in answers: most of it unreadable, some of it an answer."""
