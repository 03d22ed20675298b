"""SCENARIOS.md: the golden scenario files and the `python -m engine.replay` command line.

Every `tests/engine/scenarios/NAME.json` is replayed and compared with the hand-checked
`NAME.expected.json` next to it (README.md there says which rule each proves). To change an
expected output deliberately: `python -m tests.engine.scenarios.regenerate NAME`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.replay import run
from tests.engine.scenarios.regenerate import FOLDER, expected_path, scenario_files

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = scenario_files()
# The input format is only SCENARIOS.md's keys: no comments or extra keys in golden files.
INPUT_KEYS = {
    "game",
    "level",
    "deck",
    "mode",
    "sides",
    "war_size",
    "war_rule",
    "seed",
    "piles",
    "actions",
    "max_rounds",
    "answer_form",
}


def test_there_are_golden_scenarios() -> None:
    assert len(SCENARIOS) >= 20
    readme = (FOLDER / "README.md").read_text(encoding="utf-8")
    for path in SCENARIOS:
        assert f"`{path.stem}`" in readme, f"{path.name} is not explained in README.md"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_golden_scenario(path: Path) -> None:
    """The replay output equals the hand-checked expected output, exactly."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert set(data) <= INPUT_KEYS, f"{path.name} has keys outside SCENARIOS.md"
    expected = json.loads(expected_path(path).read_text(encoding="utf-8"))
    assert json.loads(json.dumps(run(data), ensure_ascii=False)) == expected


def _replay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.replay", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


def test_cli_prints_one_json_object_and_exits_0() -> None:
    """SCENARIOS.md: `python -m engine.replay FILE.json` prints one JSON object."""
    path = FOLDER / "scenarios_md_example.json"
    result = _replay(str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n") == 1  # one object on one line
    printed = json.loads(result.stdout)
    assert printed == json.loads(expected_path(path).read_text(encoding="utf-8"))


def test_cli_waiting_is_not_an_error() -> None:
    result = _replay(str(FOLDER / "regnekrig_regn_waiting.json"))
    assert result.returncode == 0 and json.loads(result.stdout)["status"] == "waiting"


def test_cli_exits_1_on_an_illegal_action_naming_its_index() -> None:
    """SCENARIOS.md: an illegal action stops the replay: status error, exit code 1, the
    message names the action's index."""
    result = _replay(str(FOLDER / "satsing_illegal_bet_too_few_cards.json"))
    assert result.returncode == 1
    printed = json.loads(result.stdout)
    assert printed["status"] == "error" and "action 1" in printed["error"]


@pytest.mark.parametrize(
    "content", ["{not json", "", "\xff\xfe garbage"], ids=["broken", "empty", "bytes"]
)
def test_cli_exits_2_on_an_unreadable_file(tmp_path: Path, content: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content, encoding="latin-1")
    result = _replay(str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert "cannot read" in result.stderr


def test_cli_exits_2_on_a_missing_file_or_bad_usage(tmp_path: Path) -> None:
    assert _replay(str(tmp_path / "missing.json")).returncode == 2
    assert _replay().returncode == 2
    assert _replay("a.json", "b.json").returncode == 2


def test_cli_a_bad_configuration_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": "regnekrig", "level": 9}), encoding="utf-8")
    result = _replay(str(path))
    assert result.returncode == 1 and json.loads(result.stdout)["status"] == "error"
