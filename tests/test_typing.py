"""`mypy --strict` over engine/, bot/, cogs/, table/, benchmarks/ and the tests themselves
(configured in pyproject.toml) is part of the test run, so type hints stay true everywhere
(DESIGN: Tooling): a test that calls the code wrongly fails here too."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_is_clean(tmp_path: Path) -> None:
    exe = shutil.which("mypy", path=str(Path(sys.executable).parent)) or shutil.which("mypy")
    if exe is None:
        pytest.fail("mypy is not installed: install the project with its [test] extra")
    result = subprocess.run(
        [exe, "--cache-dir", str(tmp_path / "mypy-cache")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
