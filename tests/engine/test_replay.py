"""docs/replay.md: the golden scenario files and the `python -m engine.replay` command line.

Every `tests/engine/scenarios/NAME.json` is replayed and compared with the hand-checked
`NAME.expected.json` next to it (README.md there says which rule each proves). To change an
expected output deliberately: `python -m tests.engine.scenarios.regenerate NAME`.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.replay import main, run
from tests.engine.scenarios.regenerate import FOLDER, expected_path, scenario_files

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = scenario_files()
# The input format is only docs/replay.md's keys: no comments or extra keys in golden files.
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
    assert set(data) <= INPUT_KEYS, f"{path.name} has keys outside docs/replay.md"
    expected = json.loads(expected_path(path).read_text(encoding="utf-8"))
    assert json.loads(json.dumps(run(data), ensure_ascii=False)) == expected


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


def _process(*args: str, stdin: str | None = None) -> Ran:
    """`python -m engine.replay ARGS` as its own process, as a user runs it."""
    result = subprocess.run(
        [sys.executable, "-m", "engine.replay", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    return Ran(result.returncode, result.stdout, result.stderr)


@pytest.fixture
def replay_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., Ran]:
    """The same command line in this process (fast): `main(ARGS)` with its output captured."""

    def run_main(*args: str, stdin: str | None = None) -> Ran:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
        try:
            code = main(list(args))
        except SystemExit as stopped:  # argparse: --help, --version, usage errors
            code = int(stopped.code or 0)
        out = capsys.readouterr()
        return Ran(code, out.out, out.err)

    return run_main


@pytest.mark.slow  # its own process; the same paths run in-process below
def test_cli_prints_one_json_object_and_exits_0() -> None:
    """docs/replay.md: `python -m engine.replay FILE.json` prints one JSON object."""
    path = FOLDER / "scenarios_md_example.json"
    result = _process(str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n") == 1  # one object on one line
    printed = json.loads(result.stdout)
    assert printed == json.loads(expected_path(path).read_text(encoding="utf-8"))


@pytest.mark.slow  # its own process, reading a real pipe
def test_cli_reads_standard_input_as_its_own_process() -> None:
    path = FOLDER / "scenarios_md_example.json"
    result = _process("-", stdin=path.read_text(encoding="utf-8"))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(expected_path(path).read_text("utf-8"))


def test_cli_one_object_in_process(replay_cli: Callable[..., Ran]) -> None:
    path = FOLDER / "scenarios_md_example.json"
    result = replay_cli(str(path))
    assert result.returncode == 0 and result.stdout.count("\n") == 1
    assert json.loads(result.stdout) == json.loads(expected_path(path).read_text("utf-8"))


def test_cli_waiting_is_not_an_error(replay_cli: Callable[..., Ran]) -> None:
    result = replay_cli(str(FOLDER / "regnekrig_regn_waiting.json"))
    assert result.returncode == 0 and json.loads(result.stdout)["status"] == "waiting"


def test_cli_exits_1_on_an_illegal_action_naming_its_index(
    replay_cli: Callable[..., Ran],
) -> None:
    """docs/replay.md: an illegal action stops the replay: status error, exit code 1, the
    message names the action's index."""
    result = replay_cli(str(FOLDER / "satsing_illegal_bet_too_few_cards.json"))
    assert result.returncode == 1
    printed = json.loads(result.stdout)
    assert printed["status"] == "error" and "action 1" in printed["error"]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("satsing_illegal_bet_too_few_cards", "cannot_bet"),
        ("regnekrig_level3_division_alone_is_no_answer", "result_missing"),
        ("regnekrig_level3_rounded_decimal_not_exact", "not_exact"),
        ("regnekrig_level7_illegal_before_missing", "root_of_negative"),
    ],
)
def test_the_error_names_the_refusal_code(name: str, code: str) -> None:
    """docs/replay.md: `error` names the action's index and the refusal's code."""
    data = json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8"))
    assert f"not legal ({code}):" in run(data)["error"]


@pytest.mark.parametrize(
    "content", ["{not json", "", "\xff\xfe garbage"], ids=["broken", "empty", "bytes"]
)
def test_cli_exits_2_on_an_unreadable_file(
    replay_cli: Callable[..., Ran], tmp_path: Path, content: str
) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content, encoding="latin-1")
    result = replay_cli(str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert "cannot read" in result.stderr


def test_cli_exits_2_on_a_missing_file_or_bad_usage(
    replay_cli: Callable[..., Ran], tmp_path: Path
) -> None:
    assert replay_cli(str(tmp_path / "missing.json")).returncode == 2
    assert replay_cli().returncode == 2
    assert replay_cli("a.json", "b.json").returncode == 2


@pytest.mark.parametrize(
    "scenario",
    [
        {"game": "regnekrig", "level": 9},
        {"game": "chess"},
        [1, 2, 3],
        {"game": "regnekrig", "seed": "seven"},
        {"game": "regnekrig", "actions": {"side": 0}},
        {"game": "regnekrig", "piles": [[1, "two"], [3, 4]]},
        {"game": "regnekrig", "sides": 2, "piles": [[1, 2], [3, 4], [5, 6]]},
    ],
    ids=["level", "game", "list", "seed", "actions", "pile-values", "pile-count"],
)
def test_cli_exits_2_on_a_wrongly_shaped_scenario(
    replay_cli: Callable[..., Ran], tmp_path: Path, scenario: object
) -> None:
    """docs/replay.md: exit 2 means nothing was replayed (1 is kept for an illegal action)."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    result = replay_cli(str(path))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"{path} is not a scenario: ")
    assert run(scenario)["status"] == "error"  # the library call reports it instead


def test_cli_reads_standard_input_and_pretty_prints(replay_cli: Callable[..., Ran]) -> None:
    path = FOLDER / "scenarios_md_example.json"
    result = replay_cli("-", "--pretty", stdin=path.read_text(encoding="utf-8"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith('{\n  "status": "over",')
    assert json.loads(result.stdout) == json.loads(expected_path(path).read_text("utf-8"))


def test_cli_help_and_version_name_the_exit_codes(replay_cli: Callable[..., Ran]) -> None:
    shown = replay_cli("--help")
    assert shown.returncode == 0
    assert "- for standard input" in shown.stdout and "--pretty" in shown.stdout
    assert "1 an action is not legal" in " ".join(shown.stdout.split())
    version = replay_cli("--version")
    assert version.returncode == 0 and version.stdout.startswith("mattekrig ")
