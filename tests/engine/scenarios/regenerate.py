"""Rewrite the expected output of golden scenarios, deliberately, after a checked rule change.

    python -m tests.engine.scenarios.regenerate            # every scenario in this folder
    python -m tests.engine.scenarios.regenerate NAME ...   # only these (NAME without .json)

Never run by the tests: a golden file is frozen only after its output was checked by hand
against RULES.md (see README.md in this folder), so regenerating must be a conscious step,
followed by reading the diff (`git diff tests/engine/scenarios`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engine.replay import run

FOLDER = Path(__file__).resolve().parent
EXPECTED_SUFFIX = ".expected.json"


def scenario_files() -> list[Path]:
    """Every scenario input in this folder (not the expected outputs), sorted by name."""
    return sorted(p for p in FOLDER.glob("*.json") if not p.name.endswith(EXPECTED_SUFFIX))


def expected_path(scenario: Path) -> Path:
    return scenario.with_name(scenario.stem + EXPECTED_SUFFIX)


def render(output: dict[str, Any]) -> str:
    """The stored form of a replay output: stable, readable diffs (one key per line)."""
    return json.dumps(output, ensure_ascii=False, indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    names = sys.argv[1:] if argv is None else argv
    files = scenario_files()
    if names:
        files = [p for p in files if p.stem in names]
        missing = set(names) - {p.stem for p in files}
        if missing:
            print(f"no such scenario: {', '.join(sorted(missing))}", file=sys.stderr)
            return 2
    for path in files:
        output = run(json.loads(path.read_text(encoding="utf-8")))
        expected_path(path).write_text(render(output), encoding="utf-8")
        print(f"{path.name}: {output['status']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
