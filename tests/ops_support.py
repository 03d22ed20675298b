"""Helpers for the operator tests: a token of the right shape, a working folder of the test's
own, and running `mattekrig` as a separate process the way an operator does. Registered as a
pytest plugin in tests/conftest.py for its fixtures."""

from __future__ import annotations

import base64
import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.redact import SECRETS
from school.settings import ALL_NAMES as SCHOOL_SETTINGS

ROOT = Path(__file__).resolve().parents[1]


def shaped_token(user_id: int = 123456789012345678) -> str:
    """A made-up token with a real token's shape (never accepted by Discord)."""
    first = base64.urlsafe_b64encode(str(user_id).encode()).decode().rstrip("=")
    return f"{first}.AbCdEf.{'x' * 27}"


SETTINGS = (
    *SCHOOL_SETTINGS,
    "DISCORD_TOKEN",
    "DISCORD_TOKEN_FILE",
    "DATABASE_PATH",
    "DATABASE_URL",
    "DATABASE_URL_FILE",
    "SHARD_COUNT",
    "SHARD_IDS",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "LOG_FORMAT",
)


@pytest.fixture
def root_logger_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands install their own log handler on the root logger, and the redaction
    filter on every handler there: put pytest's handlers back as they were."""
    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", list(root.handlers))
    monkeypatch.setattr(root, "level", root.level)
    for handler in root.handlers:
        monkeypatch.setattr(handler, "filters", list(handler.filters))
    monkeypatch.setattr(SECRETS, "fixed", SECRETS.fixed)


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, root_logger_kept: None) -> Path:
    """A fresh working folder to start `mattekrig` in, with data and config folders of the
    test's own and none of the developer's settings in the environment."""
    folder = tmp_path / "work"
    folder.mkdir()
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home" / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / "config"))
    monkeypatch.chdir(folder)
    return folder


def clean_env(home: Path, **settings: str) -> dict[str, str]:
    """An environment with nothing of the developer's: data and config folders under `home`."""
    return {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
        **settings,
    }


def mattekrig(
    *args: str, cwd: Path, env: dict[str, str], wrap: list[str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m bot ARGS` in `cwd`; `wrap` runs it under another command (e.g. unshare)."""
    return subprocess.run(
        [*(wrap or []), sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def read_only_wrapper(folder: Path) -> list[str] | None:
    """A command prefix under which `folder` is a read-only mount (a private mount namespace,
    so nothing leaks out), or None when this machine cannot make one. Root ignores file
    modes, so chmod alone would not make a folder read-only for the tests."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    script = (
        f'mount --bind "{folder}" "{folder}" && mount -o remount,ro,bind "{folder}" '
        '&& exec "$0" "$@"'
    )
    probe = subprocess.run(
        [unshare, "-rm", "sh", "-c", script, "true"], capture_output=True, timeout=30
    )
    return [unshare, "-rm", "sh", "-c", script] if probe.returncode == 0 else None
