"""DESIGN.md "The layers (data flows one way)": an AST walk over every module keeps the
architecture true without an extra dependency.

* storage and services never import discord (they are tested and reused without it);
* the engine never imports the bot or the cogs (its own purity test covers the rest);
* nothing imports a cog (cogs are loaded as extensions by name);
* i18n catalogue lookup (`classroom.i18n.messages`) stays free of discord too;
* render imports no service and no storage: it draws values (the engine's, `bot.services.figures`,
  storage's row types and the live game a service hands over), so any screen can draw any
  position without a database;
* the Discord layer (bot/ui, cogs) imports no storage and never reaches for ``.storage``: it
  calls services only;
* nothing below bot/client.py imports it, not even for a type name (the Discord layer names
  `bot.app.App`), so the client is the one place that knows every part;
* the client wires services through their constructors, never by patching them afterwards;
* no module imports itself back through others (no import cycle, type-only and function-level
  imports included), and every import runs down the layers of `LAYERS`; both checks are
  shown to catch a cycle and an upward import planted in a copy of the project.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The modules render may import from the bot: its own, the catalogues, the custom_id grammar,
# and the value modules below.
RENDER_MAY_IMPORT = ("classroom.i18n", "bot.render", "bot.custom_ids")
# Plain values shared across the layers: no I/O, no service, no discord. `bot.services.live`
# is the game a service holds (render/display_names.py reads the sides' names from it; the
# board draws a `GameScreen`) and `classroom.settings` the rules it was started with;
# `storage.records` the rows storage returns (frozen dataclasses); `bot.services.figures`
# what the record services report.
VALUE_MODULES = (
    "bot.services.figures",
    "storage.records",
    "storage.records.games",
    "storage.records.results",
    "storage.records.teaching",
    "bot.services.live",
    "classroom.settings",
)


def _modules(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _path(module: str) -> Path:
    package = ROOT / module.replace(".", "/") / "__init__.py"
    return package if package.exists() else ROOT / (module.replace(".", "/") + ".py")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports_in(source: str, *, at_run_time: bool = False) -> set[str]:
    """Every imported module name (dotted, absolute) in a source, lazy imports included;
    ``at_run_time`` leaves out the imports under ``if TYPE_CHECKING:``."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    if at_run_time:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and _is_type_checking(node.test):
                skipped.update(id(n) for child in node.body for n in ast.walk(child))
    names: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def _imported_roots(path: Path, *, at_run_time: bool = False) -> set[str]:
    return _imports_in(path.read_text(encoding="utf-8"), at_run_time=at_run_time)


def _under(name: str, prefixes: Iterable[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _offenders(paths: list[Path], forbidden: set[str]) -> dict[str, set[str]]:
    """Files importing a module whose top-level package is in `forbidden`, with what they import."""
    found: dict[str, set[str]] = {}
    for path in paths:
        bad = {n for n in _imported_roots(path) if n.split(".")[0] in forbidden}
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    return found


def _bot_imports_outside(
    paths: list[Path], allowed: Iterable[str], *, at_run_time: bool = False
) -> dict[str, set[str]]:
    """Files importing a `bot`, `cogs` or `storage` module outside ``allowed``, with what they
    import."""
    allowed = tuple(allowed)
    found: dict[str, set[str]] = {}
    for path in paths:
        bad = {
            n
            for n in _imported_roots(path, at_run_time=at_run_time)
            if n.split(".")[0] in ("bot", "cogs", "storage") and not _under(n, allowed)
        }
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    return found


def test_storage_and_services_never_import_discord() -> None:
    paths = [*_modules("storage", "bot/services"), ROOT / "classroom/i18n/messages.py"]
    assert len(paths) > 5
    assert _offenders(paths, {"discord"}) == {}


def test_the_engine_never_imports_the_bot() -> None:
    assert _offenders(_modules("engine"), {"bot", "cogs", "discord", "aiosqlite"}) == {}


def test_the_shared_layer_stands_on_the_engine_alone() -> None:
    """`classroom` serves both screens: it imports the engine and itself, no screen (discord,
    aiohttp, the bot, the browser) and no storage."""
    paths = _modules("classroom")
    assert len(paths) > 8
    forbidden = {"bot", "cogs", "table", "storage", "discord", "aiohttp", "aiosqlite", "sqlite3"}
    assert _offenders(paths, forbidden) == {}


def test_the_browser_imports_no_bot() -> None:
    """`table` imports the engine, `classroom` and storage, never `bot` (nor discord): the
    lesson is its own product, and loading it loads none of the Discord bot."""
    assert _offenders(_modules("table"), {"bot", "cogs", "discord"}) == {}
    code = (
        "import sys, table.app; print(sorted(m for m in sys.modules if m.split('.')[0] == 'bot'))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert loaded.stdout.strip() == "[]"


def test_the_school_server_imports_no_bot() -> None:
    """`school` (the lesson server of a school) stands on the browser's layer, never on the
    bot: a school runs it without Discord."""
    assert _offenders(_modules("school"), {"bot", "cogs", "discord"}) == {}
    code = (
        "import sys, school.front, school.hosts, school.settings; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'bot'))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert loaded.stdout.strip() == "[]"


def test_nothing_imports_a_cog() -> None:
    paths = _modules(*PACKAGES)
    importers = {p for p in paths if p.parent.name != "cogs"}
    assert _offenders(sorted(importers), {"cogs"}) == {}


def test_the_project_imports_absolutely() -> None:
    """These checks read absolute module names; a relative import would slip past them."""
    relative = [
        f"{p.relative_to(ROOT)}:{node.lineno}"
        for p in _modules(*PACKAGES[:-2])
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.level > 0
    ]
    assert relative == []


def test_the_checks_see_type_checking_imports_apart() -> None:
    """The helper itself: a guarded import is a type name only, anything else counts."""
    source = (
        "from typing import TYPE_CHECKING\nimport typing\nimport storage\n"
        "if TYPE_CHECKING:\n    from bot.client import MattekrigBot\n"
        "if typing.TYPE_CHECKING:\n    import bot.services\n"
        "def later():\n    from bot.ui import items\n"
    )
    everything = {"typing", "storage", "bot.client", "bot.services", "bot.ui"}
    assert _imports_in(source) == everything
    assert _imports_in(source, at_run_time=True) == everything - {"bot.client", "bot.services"}


def test_render_imports_no_service_and_no_storage() -> None:
    """Render draws values only (DESIGN: render "never awaits")."""
    paths = _modules("bot/render")
    assert len(paths) > 8
    assert _bot_imports_outside(paths, (*RENDER_MAY_IMPORT, *VALUE_MODULES)) == {}
    assert _offenders(paths, {"aiosqlite"}) == {}


def test_render_never_awaits() -> None:
    """DESIGN: render "never awaits": it builds values (a `Panel` is the fields of a message);
    sending, editing and answering with them is the Discord layer's (`bot.replies`)."""
    awaiting = sorted(
        f"{p.relative_to(ROOT)}:{node.lineno}"
        for p in _modules("bot/render")
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(node, ast.AsyncFunctionDef | ast.Await | ast.AsyncWith | ast.AsyncFor)
    )
    assert awaiting == []


def test_the_value_modules_are_plain_values() -> None:
    """What render may import from services and storage really is neutral: each value module
    imports nothing of the bot but other value modules, and no discord or database."""
    paths = [_path(m) for m in VALUE_MODULES]
    assert all(p.exists() for p in paths)
    assert _bot_imports_outside(paths, VALUE_MODULES) == {}
    assert _offenders(paths, {"discord", "aiosqlite", "sqlite3"}) == {}


def test_the_discord_layer_calls_services_never_storage() -> None:
    """bot/ui and cogs import no storage module (the types they name come from the service
    that returns them) and read no ``.storage`` attribute."""
    paths = _modules("bot/ui", "cogs")
    assert len(paths) > 8
    importers = {
        str(p.relative_to(ROOT)): bad
        for p in paths
        if (bad := {n for n in _imported_roots(p) if _under(n, ("storage",))})
    }
    assert importers == {}
    readers = sorted(
        f"{p.relative_to(ROOT)}:{node.lineno}"
        for p in paths
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr == "storage"
    )
    assert readers == []


def test_nothing_below_the_client_imports_it() -> None:
    """bot/client.py assembles every part; a part importing it back would be a cycle, type
    names included: the Discord layer types ``discord.Interaction[App]`` with `bot.app.App`,
    what it may use of the bot. The command line that starts the bot (or syncs its
    commands) stands above it."""
    top = {
        ROOT / p for p in ("bot/client.py", "bot/__main__.py", "bot/ops/cli.py", "bot/ops/sync.py")
    }
    paths = [p for p in _modules("bot", "cogs") if p not in top]
    typed = [p for p in paths if "bot.app" in _imported_roots(p)]
    assert len(typed) > 5  # the Discord layer names the bot by what it uses
    importers = {str(p.relative_to(ROOT)) for p in paths if "bot.client" in _imported_roots(p)}
    assert importers == set()


def test_the_client_wires_services_through_their_constructors() -> None:
    """No ``self.<service>.<attribute> = …`` and no ``self.<service>.<list>.append(…)`` in
    the client: every collaborator is a constructor argument."""
    tree = ast.parse((ROOT / "bot/client.py").read_text(encoding="utf-8"))

    def on_a_part_of_self(node: ast.expr) -> bool:
        return (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute)
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id == "self"
        )

    patched: list[int] = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("append", "extend", "insert")
        ):
            targets = [node.func.value]
        patched.extend(t.lineno for t in targets if on_a_part_of_self(t))
    assert patched == []


# The services see storage only through its contract (storage/contract.py), so
# a second backend needs no service change. These modules are the SQLite backend itself.
_BACKEND_MODULES = {
    "aiosqlite",
    "sqlite3",
    "storage.database",
    "storage.migrate",
    "storage.boards",
    "storage.games",
    "storage.invitations",
    "storage.privacy",
    "storage.result_rows",
    "storage.results",
    "storage.school_teachers",
    "storage.seasons",
    "storage.settings",
    "storage.sql",
    "storage.sqlite",
    "storage.teachers",
    "storage.timers",
}


def _names_from_storage(path: Path) -> set[str]:
    """The names a file takes from the ``storage`` package itself."""
    return {
        alias.name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "storage"
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


# -- no cycles, one way down ------------------------------------------------------------------

PACKAGES = (
    "engine", "classroom", "storage", "table", "school", "bot", "cogs", "benchmarks", "tests"
)  # fmt: skip
# The layers from the bottom up: a module may import its own layer's modules and any layer's
# below it, never one above (the longest prefix names a module's layer).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("engine",),  # the pure rules
    # what both screens share: the words, the board's and the round's text, the settings
    ("classroom",),
    ("storage",),  # the database, the bot's games and the lessons alike
    # the browser: it stands on the engine, the shared layer and storage, never on the bot
    ("table",),
    # the school server: many lessons, its teachers signed in, on the browser's pages
    ("school",),
    # what the bot reads everywhere: the settings, the data folders, the custom ids, the
    # slash commands' translator
    ("bot", "bot.config", "bot.paths", "bot.token_shape", "bot.custom_ids", "bot.translator"),
    # the log lines (secrets redacted), the invite link, the database faults said once and the
    # health check's sign of life: the client and the command line both use them
    ("bot.logs", "bot.redact", "bot.invite", "bot.heartbeat"),
    ("bot.services", "bot.shards"),
    ("bot.render", "bot.drawing"),  # pure screens, and the pictures' worker
    # Discord's side of the services: answers, what the Discord layer may use of the bot, what
    # is kept of each board; then a board's picture, its turn pings, what it shows noted for
    # storage; then the boards kept true
    ("bot.replies", "bot.app", "bot.board_state"),
    ("bot.board_pictures", "bot.pings", "bot.shown_seqs"),
    ("bot.boards",),
    ("bot.ui",),
    ("cogs",),
    ("bot.client",),  # builds every part
    ("bot.ops", "bot.__main__"),  # the operator's command line: starts the bot or a lesson
    # what the tests and the benchmarks run against
    ("tests.fakediscord", "tests.postgres", "tests.nginx_run"),
    ("benchmarks",),
    ("tests",),
)


def _module_names(root: Path, packages: Sequence[str]) -> dict[str, Path]:
    """Every module under ``root``'s packages by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_graph(root: Path, packages: Sequence[str] = PACKAGES) -> dict[str, set[str]]:
    """Which of the project's modules each module imports: at the top, under ``if
    TYPE_CHECKING:`` and inside functions alike (a type-only import ties two modules as much
    as any). ``from a import b`` names the module ``a.b`` when there is one, else ``a``."""
    modules = _module_names(root, packages)

    def module_of(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        imported: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(module_of(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.update(module_of(f"{node.module}.{a.name}") for a in node.names)
        graph[name] = {m for m in imported if m is not None and m != name}
    return graph


def import_cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, round and round (Tarjan's strongly
    connected components, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        cycles.append(sorted(group))
    return sorted(cycles)


def layer_of(module: str, layers: Sequence[Sequence[str]] = LAYERS) -> int | None:
    """The index of the layer a module is in (the longest prefix that names it)."""
    best: tuple[int, int] | None = None
    for number, prefixes in enumerate(layers):
        for prefix in prefixes:
            if _under(module, (prefix,)) and (best is None or len(prefix) > best[1]):
                best = (number, len(prefix))
    return None if best is None else best[0]


def upward_imports(
    graph: Mapping[str, set[str]], layers: Sequence[Sequence[str]] = LAYERS
) -> list[str]:
    """Every import from a module to one in a higher layer, as ``importer -> imported``."""
    return sorted(
        f"{importer} -> {imported}"
        for importer, targets in graph.items()
        for imported in targets
        if (layer_of(importer, layers) or 0) < (layer_of(imported, layers) or 0)
    )


@functools.cache
def _project_graph() -> dict[str, set[str]]:
    return import_graph(ROOT)


def test_no_import_cycles() -> None:
    graph = _project_graph()
    assert len(graph) > 300  # the whole project, tests included
    assert import_cycles(graph) == []


def test_every_import_runs_down_the_layers() -> None:
    graph = _project_graph()
    assert [m for m in graph if layer_of(m) is None] == []  # a new package takes its place
    assert upward_imports(graph) == []


# What the planted faults need: the product's packages (the tests' and benchmarks' modules only
# add imports from above).
PRODUCT = ("engine", "classroom", "storage", "table", "school", "bot", "cogs")


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the product's packages, for the checks to be shown a planted fault."""
    root = tmp_path_factory.mktemp("project")
    skip = shutil.ignore_patterns("__pycache__", "*.json", "*.png", "*.css", "*.js")
    for package in PRODUCT:
        shutil.copytree(ROOT / package, root / package, ignore=skip)
    return root


@contextlib.contextmanager
def _planted(root: Path, module: str, line: str) -> Iterator[None]:
    """``line`` added at the end of ``module`` in the copy (a new module when there is none),
    and taken out again after."""
    path = root / (module.replace(".", "/") + ".py")
    before = path.read_text(encoding="utf-8") if path.exists() else None
    path.write_text((before or "") + "\n" + line + "\n", encoding="utf-8")
    try:
        yield
    finally:
        if before is None:
            path.unlink()
        else:
            path.write_text(before, encoding="utf-8")


@pytest.mark.parametrize(
    "planted",
    [
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.app import App",
        "def later() -> None:\n    from bot.app import App",
    ],
    ids=["type-only", "in-a-function"],
)
def test_the_cycle_check_finds_a_planted_cycle(project_copy: Path, planted: str) -> None:
    """bot/app.py imports the game service; a service that names the app back, even only for
    a type or only inside a function, closes a circle."""
    assert import_cycles(import_graph(project_copy, PRODUCT)) == []
    with _planted(project_copy, "bot.services.games", planted):
        cycles = import_cycles(import_graph(project_copy, PRODUCT))
    assert len(cycles) == 1 and {"bot.app", "bot.services.games"} <= set(cycles[0])


def test_the_layer_check_finds_a_planted_upward_import(project_copy: Path) -> None:
    """A new renderer that reaches for a button of bot/ui is no cycle (nothing imports it
    yet), but it runs up the layers."""
    planted = "def later() -> None:\n    from bot.ui.items import FlipItem"
    with _planted(project_copy, "bot.render.planted", planted):
        graph = import_graph(project_copy, PRODUCT)
    assert import_cycles(graph) == []
    assert upward_imports(graph) == ["bot.render.planted -> bot.ui.items"]


def test_the_command_line_starts_without_posix_locks() -> None:
    """Windows has no `fcntl`: `mattekrig class` (README's first screen has the Windows
    commands) and the school server's commands must import without it; only the flock of a
    bot's or a server's own database asks for it, when it is taken."""
    code = (
        "import sys; sys.modules['fcntl'] = None\n"
        "import bot.ops.cli, table.cli, school.cli, storage.leases, bot.ops.lock\n"
        "print('ok')"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert loaded.stdout.strip() == "ok", loaded.stderr
