"""`python -m bot` ends with one clear sentence, never a traceback, when it cannot start."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def run_bot(env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,  # no .env here
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_missing_token_is_one_sentence(tmp_path: Path) -> None:
    result = run_bot({}, tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().startswith("mattekrig: DISCORD_TOKEN is not set")
    assert "Traceback" not in result.stderr


def test_unreachable_discord_is_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Discord unreachable (here: a closed port on 127.0.0.1): one sentence, exit 1."""
    monkeypatch.setattr(discord.http.Route, "BASE", "http://127.0.0.1:9/api/v10")
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "db.sqlite3"))
    monkeypatch.chdir(tmp_path)
    assert main([]) == 1
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("mattekrig: cannot reach Discord")
