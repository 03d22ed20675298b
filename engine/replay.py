"""`python -m engine.replay FILE.json` (or `-` for standard input): play a scenario and print
one JSON object.

The format is docs/replay.md. Standard library only, and the only engine module with I/O
(in `main`). Exit codes: 0 the replay ran (over, waiting or running); 1 an action is not
legal (the message names the action's index); 2 the input cannot be read or is not shaped
like a scenario (not a JSON object, a bad configuration, seed, piles or action list): then
nothing was replayed and standard output stays empty.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from importlib import metadata
from typing import Any

from engine.actions import Action, Flip
from engine.config import GameConfig, Mode
from engine.errors import EngineError
from engine.events import Event
from engine.game import apply, fits, new_game, waiting_for
from engine.registry import action_from_json
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


class ShapeError(ValueError):
    """The input is not a scenario (docs/replay.md): exit code 2, nothing was replayed."""


def prepare(data: Any) -> tuple[GameConfig, int, list[list[int]] | None, list[Any]]:
    """The configuration, seed, piles and raw actions of a scenario, or ShapeError."""
    if not isinstance(data, dict):
        raise ShapeError("the scenario must be a JSON object")
    try:
        config = GameConfig.from_json(data)
        seed = data.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise EngineError("seed must be a whole number")
        piles = _piles(data)
    except EngineError as error:
        raise ShapeError(str(error)) from error
    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list):
        raise ShapeError("actions must be a list")
    return config, seed, piles, raw_actions


def play(data: Any) -> tuple[GameState | None, list[Event], str | None]:
    """Run a scenario; returns the final state, every event, and an error message or None.
    Raises ShapeError when `data` is not shaped like a scenario."""
    config, seed, piles, raw_actions = prepare(data)
    try:
        state, events = new_game(config, seed, piles)
    except EngineError as error:  # piles that do not fit the configuration
        raise ShapeError(str(error)) from error
    index = 0
    while True:
        if state.outcome is not None:
            if index < len(raw_actions):
                return state, events, f"action {index}: not legal (game_over): the game is over"
            break
        nxt: Action | None = None
        if index < len(raw_actions):
            try:
                nxt = action_from_json(raw_actions[index])
            except EngineError as error:
                return state, events, _refused(index, error)
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
                return state, events, _refused(index - 1, error)
            raise
        events.extend(new_events)
    return state, events, None


def _refused(index: int, error: EngineError) -> str:
    """The `error` of a refused action: its index, the refusal's code (`not_your_turn`,
    `result_missing`, `not_exact`, `root_of_negative`, …; docs/replay.md) and why."""
    return f"action {index}: not legal ({error.code}): {error}"


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
    """The output object of a scenario; a wrongly shaped one is reported as an error too."""
    try:
        state, events, message = play(data)
    except (ShapeError, EngineError) as error:
        return report(None, [], str(error))
    return report(state, events, message)


def _version() -> str:
    try:
        return f"mattekrig {metadata.version('mattekrig')}"
    except metadata.PackageNotFoundError:
        return "mattekrig (not installed)"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine.replay",
        description="Replay a Mattekrig scenario (docs/replay.md) and print the result as "
        "one JSON object.",
        epilog="Exit codes: 0 replayed; 1 an action is not legal (the error names its "
        "index); 2 the input cannot be read or is not shaped like a scenario.",
    )
    parser.add_argument("file", help="the scenario file (JSON), or - for standard input")
    parser.add_argument("--pretty", action="store_true", help="indent the output")
    parser.add_argument("--version", action="version", version=_version())
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    name = "standard input" if args.file == "-" else args.file
    try:
        if args.file == "-":
            data = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        else:
            with open(args.file, encoding="utf-8") as handle:
                data = json.load(handle)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        print(f"cannot read {name}: {error}", file=sys.stderr)
        return 2
    try:
        state, events, message = play(data)
    except ShapeError as error:
        print(f"{name} is not a scenario: {error}", file=sys.stderr)
        return 2
    except EngineError as error:  # the engine refused a move it chose itself
        state, events, message = None, [], str(error)
    result = report(state, events, message)
    try:
        print(json.dumps(result, ensure_ascii=False, indent=2 if args.pretty else None), flush=True)
    except BrokenPipeError:  # e.g. piped into `head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1 if result["status"] == "error" else 0


if __name__ == "__main__":
    raise SystemExit(main())
