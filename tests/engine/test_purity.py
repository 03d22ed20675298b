"""DESIGN.md: `engine/` is pure — standard library only, exact arithmetic, its own RNG.

An AST walk over every module of the package (no extra dependency), so a slip is caught in
review before it changes a replay: a float that rounds, a global `random` call that makes a
game unreproducible (RULES §1.6), an `eval` on pupil input, or I/O outside the replay CLI.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
MODULES = sorted(ENGINE.rglob("*.py"))
# (module, function) where I/O is the point: the scenario command line (SCENARIOS.md).
IO_ALLOWED = {("replay.py", "main")}
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__"}
IO_CALLS = {"open", "print", "input"}


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _calls(tree: ast.AST) -> Iterator[tuple[ast.Call, str | None]]:
    """Every call to a plain name, with the top-level function it sits in (None: module)."""

    def visit(node: ast.AST, function: str | None) -> Iterator[tuple[ast.Call, str | None]]:
        for child in ast.iter_child_nodes(node):
            inner = function
            if function is None and isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = child.name
            if isinstance(child, ast.Call):
                yield child, inner
            yield from visit(child, inner)

    yield from visit(tree, None)


def _names(call: ast.Call) -> str | None:
    return call.func.id if isinstance(call.func, ast.Name) else None


def test_the_engine_has_modules() -> None:
    assert {"game.py", "rng.py", "replay.py", "solver.py"} <= {p.name for p in MODULES}


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_imports_only_the_standard_library_and_engine(path: Path) -> None:
    """DESIGN.md: engine/ is standard library only (the bot's packages never leak in)."""
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            roots = [alias.name.split(".")[0] for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots = [node.module.split(".")[0]]
        else:
            continue
        for root in roots:
            assert root == "engine" or root in sys.stdlib_module_names, (
                f"{path.name}:{node.lineno} imports {root}"
            )


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_no_floats(path: Path) -> None:
    """RULES §2.2: arithmetic is exact (fractions, never floats)."""
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Constant):
            assert not isinstance(node.value, float | complex), (
                f"{path.name}:{node.lineno} float literal {node.value!r}"
            )
    for call, _ in _calls(_tree(path)):
        assert _names(call) != "float", f"{path.name}:{call.lineno} calls float()"


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_no_global_random(path: Path) -> None:
    """RULES §1.6: all chance comes from the game's seeded RNG; only `random.Random`
    instances are made, the global module's functions are never used."""
    tree = _tree(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            names = {alias.name for alias in node.names}
            assert names <= {"Random"}, f"{path.name}:{node.lineno} imports {names} from random"
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
        ):
            assert node.attr == "Random", f"{path.name}:{node.lineno} uses random.{node.attr}"


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_no_eval_or_exec(path: Path) -> None:
    """Pupils' answers are parsed by hand (expressions.py), never evaluated as Python."""
    for call, _ in _calls(_tree(path)):
        assert _names(call) not in FORBIDDEN_CALLS, f"{path.name}:{call.lineno}"


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_no_io_outside_the_replay_command(path: Path) -> None:
    """The engine is pure and synchronous: only `engine/replay.py`'s `main` reads a file and
    prints."""
    for call, function in _calls(_tree(path)):
        if _names(call) in IO_CALLS:
            assert (path.name, function) in IO_ALLOWED, (
                f"{path.name}:{call.lineno} calls {_names(call)}() in {function}"
            )


def test_the_checks_catch_what_they_forbid() -> None:
    """The walk itself works: a module breaking every rule is caught by each check."""
    bad = ast.parse(
        "import random\nimport requests\nx = 0.5\nfloat('1')\nrandom.shuffle([])\n"
        "eval('1')\ndef f():\n    print(1)\n"
    )
    imports = [n for n in ast.walk(bad) if isinstance(n, ast.Import)]
    assert any(a.name not in sys.stdlib_module_names for n in imports for a in n.names)
    assert any(isinstance(n, ast.Constant) and isinstance(n.value, float) for n in ast.walk(bad))
    assert any(isinstance(n, ast.Attribute) and n.attr == "shuffle" for n in ast.walk(bad)), (
        "random.shuffle found"
    )
    names = {(_names(call), function) for call, function in _calls(bad)}
    assert {("float", None), ("eval", None), ("print", "f")} <= names
