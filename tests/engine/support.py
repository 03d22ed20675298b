"""Small helpers so rule tests read like the rule book: play a scenario, look at its events."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from engine.replay import run
from engine.state import GameState, SideState


def scenario(game: str = "regnekrig", **keys: Any) -> dict[str, Any]:
    """Play a SCENARIOS.md scenario (auto mode unless told) and return the replay output."""
    return run({"game": game, **keys})


def events(out: dict[str, Any], kind: str, **match: Any) -> list[dict[str, Any]]:
    """The output's events of one type, optionally only those whose fields match."""
    return [
        e
        for e in out["events"]
        if e["type"] == kind and all(e.get(k) == v for k, v in match.items())
    ]


def kinds(out: dict[str, Any]) -> list[str]:
    return [e["type"] for e in out["events"]]


def reorder_hidden(state: GameState, rnd: random.Random) -> GameState:
    """The same game with every pile in another order: what no side can see."""
    sides = []
    for side in state.sides:
        draw, collection = list(side.draw), list(side.collection)
        rnd.shuffle(draw)
        rnd.shuffle(collection)
        sides.append(SideState(tuple(draw), tuple(collection), side.out))
    return dataclasses.replace(state, sides=tuple(sides))
