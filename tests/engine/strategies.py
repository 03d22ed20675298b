"""Hypothesis strategies shared by the engine's and the screens' property tests."""

from __future__ import annotations

from hypothesis import strategies as st

from engine.config import GameConfig, Mode
from engine.registry import GAMES, LEVELS, SIDES


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
