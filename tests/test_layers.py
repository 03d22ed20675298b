"""DESIGN.md "The layers (data flows one way)": an AST walk over every module keeps the
architecture true without an extra dependency.

* storage and services never import discord (they are tested and reused without it);
* the engine never imports the bot or the cogs (its own purity test covers the rest);
* nothing imports a cog (cogs are loaded as extensions by name);
* i18n catalogue lookup (`bot.i18n.messages`) stays free of discord too.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _modules(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def _imported_roots(path: Path) -> set[str]:
    """Every imported module name (dotted, absolute) in a file, including lazy imports."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def _offenders(paths: list[Path], forbidden: set[str]) -> dict[str, set[str]]:
    """Files importing a module whose top-level package is in `forbidden`, with what they import."""
    found: dict[str, set[str]] = {}
    for path in paths:
        bad = {n for n in _imported_roots(path) if n.split(".")[0] in forbidden}
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    return found


def test_storage_and_services_never_import_discord() -> None:
    paths = [*_modules("bot/storage", "bot/services"), ROOT / "bot/i18n/messages.py"]
    assert len(paths) > 5
    assert _offenders(paths, {"discord"}) == {}


def test_the_engine_never_imports_the_bot() -> None:
    assert _offenders(_modules("engine"), {"bot", "cogs", "discord", "aiosqlite"}) == {}


def test_nothing_imports_a_cog() -> None:
    paths = _modules("engine", "bot", "cogs", "tests", "benchmarks")
    importers = {p for p in paths if p.parent.name != "cogs"}
    assert _offenders(sorted(importers), {"cogs"}) == {}


# Issue 9: the services see storage only through its contract (bot/storage/contract.py), so
# a second backend needs no service change. These modules are the SQLite backend itself.
_BACKEND_MODULES = {
    "aiosqlite",
    "sqlite3",
    "bot.storage.database",
    "bot.storage.migrate",
    "bot.storage.privacy_sql",
    "bot.storage.results_sql",
    "bot.storage.sql",
    "bot.storage.sqlite",
}


def _names_from_storage(path: Path) -> set[str]:
    """The names a file takes from the ``bot.storage`` package itself."""
    return {
        alias.name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "bot.storage"
        for alias in node.names
    }


def test_services_depend_on_the_storage_contract_not_a_backend() -> None:
    services = _modules("bot/services")
    assert len(services) > 5
    found = {
        str(p.relative_to(ROOT)): bad
        for p in services
        if (bad := _imported_roots(p) & _BACKEND_MODULES)
    }
    assert found == {}
    named = {str(p.relative_to(ROOT)) for p in services if "Storage" in _names_from_storage(p)}
    assert named == set()
