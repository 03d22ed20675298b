"""`python -m engine.replay FILE.json`: play a scenario file and print one JSON object.

The format is ../shared/SCENARIOS.md. Standard library only; exit code 1 when an action is
not legal (the message names the action's index), 2 when the file cannot be read.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from engine.actions import Action, Flip, action_from_json
from engine.config import GameConfig, Mode
from engine.errors import EngineError
from engine.events import Event
from engine.game import apply, fits, new_game, waiting_for
from engine.state import GameState, Phase


def _piles(data: dict[str, Any]) -> list[list[int]] | None:
    piles = data.get("piles")
    if piles is None:
        return None
    if not isinstance(piles, list) or not all(
        isinstance(p, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in p)
        for p in piles
    ):
        raise EngineError("piles must be lists of whole card values")
    return piles


def play(
    data: dict[str, Any],
) -> tuple[GameState | None, list[Event], str | None]:
    """Run a scenario; returns the final state, every event, and an error message or None."""
    config = GameConfig.from_json(data)
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise EngineError("seed must be a whole number")
    state, events = new_game(config, seed, _piles(data))
    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list):
        raise EngineError("actions must be a list")
    index = 0
    while True:
        if state.outcome is not None:
            if index < len(raw_actions):
                return state, events, f"action {index}: not legal: the game is over"
            break
        nxt: Action | None = None
        if index < len(raw_actions):
            try:
                nxt = action_from_json(raw_actions[index])
            except EngineError as error:
                return state, events, f"action {index}: {error}"
        engine_decides = state.phase is Phase.FLIP or config.mode is Mode.AUTO
        if nxt is None or (engine_decides and not fits(state, nxt)):
            if not engine_decides:
                break  # regn mode: waiting for an action
            action: Action = Flip(0)
        else:
            action, index = nxt, index + 1
        try:
            state, new_events = apply(state, action)
        except EngineError as error:
            if action is nxt:
                return state, events, f"action {index - 1}: not legal: {error}"
            raise
        events.extend(new_events)
    return state, events, None


def report(state: GameState | None, events: list[Event], error: str | None) -> dict[str, Any]:
    """The SCENARIOS.md output object."""
    out: dict[str, Any] = {}
    if error is not None:
        out["status"] = "error"
        out["error"] = error
    elif state is not None and state.outcome is not None:
        out["status"] = "over"
    else:
        out["status"] = "waiting" if state is not None and waiting_for(state) else "running"
    out["winner"] = state.outcome.winner if state is not None and state.outcome else None
    out["counts"] = list(state.counts) if state is not None else []
    out["table"] = state.table_count if state is not None else 0
    out["rounds"] = state.round if state is not None else 0
    out["waiting_for"] = (
        [d.to_json() for d in waiting_for(state)]
        if state is not None and state.outcome is None and error is None
        else []
    )
    out["events"] = [event.to_json() for event in events]
    return out


def run(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        return report(None, [], "the scenario must be a JSON object")
    try:
        state, events, message = play(data)
    except EngineError as error:
        return report(None, [], str(error))
    return report(state, events, message)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m engine.replay FILE.json", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        print(f"cannot read {args[0]}: {error}", file=sys.stderr)
        return 2
    result = run(data)
    try:
        print(json.dumps(result, ensure_ascii=False), flush=True)
    except BrokenPipeError:  # e.g. piped into `head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1 if result["status"] == "error" else 0


if __name__ == "__main__":
    raise SystemExit(main())
