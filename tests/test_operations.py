"""What the operator's documents tell them to type does what they promise: the `.env` they
make holds the token and is readable by its owner only (PRIVACY.md: secrets only from the
environment or a private `.env`)."""

from __future__ import annotations

import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from tests.ops_support import ROOT

DOCUMENTS = [ROOT / "README.md", ROOT / "docker-compose.yml", *sorted((ROOT / "docs").glob("*.md"))]


def env_recipes() -> list[tuple[str, str]]:
    """Every command line in the documents that writes a `.env` file."""
    found = []
    for path in DOCUMENTS:
        for line in path.read_text(encoding="utf-8").splitlines():
            spans = re.findall(r"`([^`]+)`", line) or [line.strip().lstrip("#").strip()]
            found += [
                (path.name, span) for span in spans if re.search(r"(>|install .*) ?\.env\)?$", span)
            ]
    return found


def test_the_documents_make_env_files() -> None:
    assert {name for name, _ in env_recipes()} >= {"README.md", "docker-compose.yml"}


@pytest.mark.parametrize(("document", "command"), env_recipes())
def test_every_env_recipe_makes_a_private_file(tmp_path: Path, document: str, command: str) -> None:
    if "openssl" in command and shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    shutil.copy(ROOT / ".env.example", tmp_path / ".env.example")
    subprocess.run(["sh", "-c", f"umask 022; {command}"], cwd=tmp_path, check=True, timeout=30)
    env = tmp_path / ".env"
    assert stat.S_IMODE(env.stat().st_mode) == 0o600, (document, command)
    assert "DISCORD_TOKEN=" in env.read_text()
