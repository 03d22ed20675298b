"""Shared pytest configuration: the fake Discord fixtures, and the `slow` marker.

`pytest -m "not slow"` is the fast subset for the edit–test loop (CONTRIBUTING.md); CI runs
everything. Tests are marked here by what makes them slow, not one by one, so a new test
of a slow kind is marked without anyone remembering to:

* end-to-end tests: the real discord.py client against the fake Discord (`fake_discord`);
* tests built on a played history of whole games (the privacy tests' `history` fixture);
* Hypothesis tests (hundreds of generated games or expressions each);
* the linters and the type checker (`tests/test_lint.py`, `tests/test_typing.py`);
* exhaustive checks listed in `EXHAUSTIVE` (every card pair against a brute force, every
  phase of many whole games);
* tests that start a separate Python process: they mark themselves (`pytest.mark.slow`),
  and an in-process test covers the same behaviour in the fast subset.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

pytest_plugins = ["tests.fakediscord.fixtures", "tests.ops_support"]

TESTS = Path(__file__).resolve().parent
SLOW_FIXTURES = {"fake_discord", "history"}
SLOW_FILES = {TESTS / "test_lint.py", TESTS / "test_typing.py"}
EXHAUSTIVE = {  # every card pair against a brute force, or every phase of many whole games
    ("test_solver.py", "test_levels_5_to_7_match_brute_force_for_every_pair_and_target"),
    ("test_solver.py", "test_levels_1_to_4_match_brute_force_for_every_pair"),
    ("test_computer.py", "test_only_legal_actions_in_every_phase"),
}


# Linux's shared-memory file system: files in memory, an fsync costs nothing.
RAM_DISK = Path("/dev/shm")
# A container's RAM disk can be as small as 64 MiB; the suite's files need more than that.
RAM_DISK_NEEDED = 1 << 30

# Speed is measured in the benchmarks, never in a test: Hypothesis's default 200 ms deadline per
# example is a timed assert that a busy machine fails at random, so no test has one.
settings.register_profile("mattekrig", deadline=None)
settings.load_profile("mattekrig")


def pytest_configure(config: pytest.Config) -> None:
    """The tests' temporary files, their SQLite databases above all, in memory where the
    system has a RAM disk (unless TMPDIR names a place). The bot commits with an fsync before
    it answers (synchronous=FULL); on a disk shared with other work an fsync took up to 0.9 s,
    so the end-to-end tests measured the disk against Discord's 3-second window. The same
    games on the RAM disk, side by side on a busy machine (3,092 answers each): the slowest
    answer 0.15 s instead of 0.73 s, the 99th percentile 0.05 s instead of 0.17 s. A kill -9
    loses nothing either way: what was written is in the kernel's page cache."""
    if "TMPDIR" in os.environ or not RAM_DISK.is_dir() or not os.access(RAM_DISK, os.W_OK):
        return
    if shutil.disk_usage(RAM_DISK).free >= RAM_DISK_NEEDED:
        tempfile.tempdir = str(RAM_DISK)


def is_slow(item: pytest.Item) -> bool:
    if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
        return True
    path = Path(str(item.path)).resolve()
    name = getattr(item, "originalname", item.name)
    return path in SLOW_FILES or (path.name, name) in EXHAUSTIVE


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if is_slow(item):
            item.add_marker(pytest.mark.slow)
