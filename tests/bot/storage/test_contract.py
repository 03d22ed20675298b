"""The contract suite covers the whole contract: every method of every protocol in
storage/contract.py (and its lessons' part, storage/contract_lessons.py) is exercised by a
test in this folder, and the SQLite backend is
checked to implement every protocol (mypy checks that structurally at the end of
storage/sqlite.py)."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from storage import Storage, contract, contract_lessons
from storage.contract import Store

HERE = Path(__file__).resolve().parent
BACKEND: type[Store] = Storage


def _contract_methods() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    parts = (contract.__name__, contract_lessons.__name__)
    for name, cls in inspect.getmembers(contract, inspect.isclass):
        if cls.__module__ in parts and name not in (
            "GameStore",
            "Store",
            "TeachingStore",
        ):
            found[name] = {m for m in vars(cls) if not m.startswith("_") and callable(vars(cls)[m])}
    return found


def test_every_contract_method_is_exercised_by_the_suite() -> None:
    called = {
        m
        for path in HERE.glob("*.py")
        for m in re.findall(r"\.([a-z_]+)\(", path.read_text(encoding="utf-8"))
    }
    methods = _contract_methods()
    assert set(methods) == {
        "GameEventStore",
        "TimerStore",
        "InvitationStore",
        "ResultStore",
        "SettingsStore",
        "PrivacyStore",
        "TeacherStore",  # tests/bot/storage/test_teachers.py
        "PresetStore",  # named presets: the same file
        "LessonStore",  # the class lessons: tests/bot/storage/test_lessons.py
        "ClassStore",  # a class's roster and join cards
        "PracticeNoteStore",  # Discord's practice notes: test_practice_notes.py
        "SchoolTeacherStore",  # a school server's teachers: test_school_teachers.py
        "KeyStore",  # keys every process shares: test_derived_key.py
    }
    missing = {area: sorted(ms - called) for area, ms in methods.items() if ms - called}
    assert missing == {}


def test_the_sqlite_backend_has_every_contract_method() -> None:
    for area, methods in _contract_methods().items():
        for name in methods:
            assert inspect.iscoroutinefunction(getattr(BACKEND, name)), (area, name)
