"""The board offers exactly what the engine allows: its buttons and selects are built from the
view's choices, every one of them is a legal action for a human side when pressed in its
window, and every legal choice of a human side has its control (DESIGN: screens only show the
engine's view and offer its legal actions)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.custom_ids import parse
from bot.render.board import render_board
from bot.render.buttons import choice_of
from bot.render.screen import GameScreen
from engine.actions import Action, ChoiceKind, choice_action
from engine.config import GameConfig
from engine.game import apply, new_game
from engine.intervallkrig import BET_CHOICE
from engine.regnekrig import ANSWER_CHOICE, Answer
from engine.state import GameState
from engine.view import view
from tests.engine.strategies import game_configs, seeds

T0 = 1_700_000_000_000


def _controls(state: GameState, humans: frozenset[int]) -> list[tuple[ChoiceKind, list[int]]]:
    """Each engine choice the rendered board offers, with the values a select lists."""
    screen = GameScreen(
        game_id=7,
        view=view(state, None),
        names={s: f"P{s}" for s in range(state.config.sides)},
        humans=humans,
    )
    panel = render_board(screen, "en", T0)
    out: list[tuple[ChoiceKind, list[int]]] = []
    for row in panel.view.to_components():
        for component in row["components"]:
            cid = parse(component["custom_id"])
            assert cid is not None and cid.game_id == 7
            kind = choice_of(state.config.game, cid.verb, cid.arg)
            if kind is None:
                continue  # autoplay, hint, rematch: the bot's own, not engine choices
            assert cid.window == state.window  # a stale press is recognised by its window
            values = [int(o["value"]) for o in component.get("options", [])]
            if kind is BET_CHOICE:
                values = [cid.int_arg() or 0]
            out.append((kind, values))
    return out


def _actions(kind: ChoiceKind, values: list[int], side: int, text: str) -> list[Action]:
    if values:
        return [choice_action(kind, side, v) for v in values]
    return [choice_action(kind, side, None, text)]


def _check(state: GameState, humans: frozenset[int]) -> None:
    table = view(state, None)
    controls = _controls(state, humans)
    offered: dict[int, set[Action]] = {}
    for side in humans:
        own = view(state, side).choices
        text = next((c.action.text for c in own if isinstance(c.action, Answer)), "0")
        offered[side] = {a for kind, values in controls for a in _actions(kind, values, side, text)}
        legal = {c.action for c in own}
        assert legal <= offered[side], "a legal choice has no control"
        for action in offered[side] & legal:
            apply(state, action)  # pressing it as this side is accepted (raises if refused)
    for kind, values in controls:
        # No dead control: some human side may press it now.
        assert any(
            set(_actions(kind, values, s, "0")) & {c.action for c in view(state, s).choices}
            or (kind is ANSWER_CHOICE and any(c.kind is kind for c in view(state, s).choices))
            for s in humans
        ), kind
    if not any(c.side in humans for c in table.choices):
        assert not controls  # only the computer decides: the board shows nothing to press


@settings(max_examples=30)
@given(config=game_configs(max_rounds=25), computer=st.booleans(), seed=seeds)
def test_the_boards_controls_are_exactly_the_legal_choices(
    config: GameConfig, computer: bool, seed: int
) -> None:
    sides = config.sides
    humans = frozenset(range(sides - 1 if computer else sides))
    rnd = random.Random(seed)
    state, _ = new_game(config, seed)
    for _ in range(50):
        _check(state, humans)
        choices = view(state, None).choices
        if state.is_over or not choices:
            break
        state, _ = apply(state, rnd.choice(choices).action)
