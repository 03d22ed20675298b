"""`mattekrig serve` as an operator runs it: a process of its own that says where it serves,
answers the front page, refuses a bad setting in one sentence (exit 2), and stops cleanly on
SIGTERM (systemd's and docker's stop) with no traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.table.process import free_port

pytestmark = pytest.mark.usefixtures("lesson_data")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    return env


def test_serve_starts_answers_and_stops_cleanly(lesson_data: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "school", "serve", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(),
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert f"listening on 127.0.0.1:{port}" in line, (line, process.stderr)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/?lang=nb", timeout=10) as front:
            assert front.status == 200 and "Skriv koden på tavla" in front.read().decode()
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
    assert process.returncode == 0 and "Traceback" not in err, err


def test_a_bad_setting_is_one_sentence_and_exit_2() -> None:
    env = _env() | {"MATTEKRIG_BASE_URL": "http://mattekrig.school.example"}
    done = subprocess.run(
        [sys.executable, "-m", "school", "serve", "--port", str(free_port())],
        capture_output=True, text=True, env=env, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("mattekrig serve: ") and "Traceback" not in done.stderr
    assert "MATTEKRIG_BASE_URL" in done.stderr
