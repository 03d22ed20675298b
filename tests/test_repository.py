"""The repository stands alone and its documents stay true: no tracked file points
outside it, every relative link resolves, and the docs name every command, option, scenario
key, action, event and rule section the code has."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot.config import Config
from bot.ops.sync import CommandsOnly
from bot.render.texts import RULE_BOOK, rules_text
from classroom.i18n import LANGS, catalogue, t
from engine import events
from engine.state import Termination

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
# Built from pieces, so this file does not match itself.
OUTSIDE = re.compile("|".join([r"\.\./" + "shared", "/work/" + "(?:shared|main|wt)\\b"]))
LINK = re.compile(r"\]\(([^)\s]+)\)")
TEXT_SUFFIXES = {".md", ".py", ".toml", ".json", ".sql", ".txt", ".cfg", ".ini", ".sh", ""}


def tracked_files() -> list[Path]:
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no list of tracked files")
    listed = subprocess.run(
        [git, "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
    ).stdout.decode()
    return [ROOT / name for name in listed.split("\0") if name]


def text_files() -> Iterator[tuple[Path, str]]:
    for path in tracked_files():
        if path.suffix in TEXT_SUFFIXES and path.is_file():
            try:
                yield path, path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue


def test_no_tracked_file_points_outside_the_repository() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}: {match[0]}"
        for path, text in text_files()
        for match in OUTSIDE.finditer(text)
    ]
    assert offenders == []


def test_the_scan_finds_what_it_forbids() -> None:
    assert OUTSIDE.search("see ../" + "shared/RULES.md") is not None
    assert OUTSIDE.search("/work/" + "shared/DESIGN.md") is not None
    assert OUTSIDE.search("docs/rules.md") is None


def test_every_relative_link_in_the_markdown_resolves_inside_the_repository() -> None:
    broken = []
    for path, text in text_files():
        if path.suffix != ".md":
            continue
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            resolved = (path.parent / target.split("#", 1)[0]).resolve()
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert broken == []


def test_readme_gives_exactly_the_test_command_ci_runs() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = next(line for line in ci.splitlines() if line.startswith("python3 -m venv"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_screen = readme.split("\n## ", 1)[0]
    assert command in first_screen
    assert ".venv/bin/mattekrig" in first_screen


def test_the_licence_is_the_one_pyproject_names() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == {"text": "MIT"}
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_contributing_documents_the_fast_subset() -> None:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert 'pytest -m "not slow"' in text and "python -m benchmarks.engine" in text
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "pytest"
    ]["ini_options"]["markers"]
    assert any(marker.startswith("slow:") for marker in markers)


# -- the rule book ------------------------------------------------------------------------------

RULE_SECTIONS = [f"1.{n}" for n in range(1, 7)] + [f"2.{n}" for n in range(1, 6)]
RULE_SECTIONS += [f"3.{n}" for n in range(1, 6)]


def test_the_rule_book_has_every_section_the_code_quotes() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    headings = re.findall(r"^### (\d\.\d) ", text, flags=re.MULTILINE)
    assert headings == RULE_SECTIONS
    assert re.search(r"^## 4\. ", text, flags=re.MULTILINE)
    for words in (
        "Forfeit [decision]",
        "Abandoned [decision]",
        "The pupil computes",
        "answer form",
    ):
        assert words in text, words
    assert text.count("[decision]") >= 15


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", [None, "regnekrig", "intervallkrig", "satsing"])
def test_the_rules_command_points_to_the_rule_book(game: str | None, lang: str) -> None:
    """`/mattekrig rules` names docs/rules.md, which exists."""
    (embed,) = rules_text(game, lang)
    assert embed.footer.text is not None and RULE_BOOK in embed.footer.text
    assert (ROOT / RULE_BOOK).is_file()
    assert {"{path}"} == set(re.findall(r"\{\w+\}", catalogue(lang)["rules.book"]))


# -- the replay format --------------------------------------------------------------------------

SCENARIO_KEYS = ["game", "level", "deck", "mode", "sides", "war_size", "war_rule", "seed"]
SCENARIO_KEYS += ["piles", "actions", "max_rounds", "answer_form"]
ACTION_TYPES = ["target", "answer", "timeout", "bet", "pass", "flip", "forfeit", "abandon"]
ACTION_TYPES += ["time_up"]


def _event_types() -> set[str]:
    found = set()
    for value in vars(events).values():
        if (
            isinstance(value, type)
            and issubclass(value, events.Event)
            and value is not events.Event
        ):
            found.add(value.type)
    return found


def test_the_replay_doc_names_every_key_action_event_and_reason() -> None:
    text = (DOCS / "replay.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `(\w+)` \|", text, flags=re.MULTILINE))
    assert set(SCENARIO_KEYS) <= rows
    assert set(ACTION_TYPES) <= rows
    assert _event_types() <= rows, _event_types() - rows
    reasons = {reason.value for reason in Termination} | {"forfeit", "abandoned"}
    for reason in reasons:
        assert f"`{reason}`" in text, reason
    for code in ("| 0 |", "| 1 |", "| 2 |"):
        assert code in text


# -- the commands -------------------------------------------------------------------------------


async def _commands() -> list[tuple[list[str], list[str]]]:
    """(path, option names) of every slash command, e.g. (["admin", "void"], ["game"]), from
    the command tree the bot builds (its extensions loaded by name, no login)."""
    bot = CommandsOnly(Config("unused", ROOT / "unused.db", None, "INFO"))
    await bot.setup_hook()
    found: list[tuple[list[str], list[str]]] = []

    def walk(items: list[Any], prefix: list[str]) -> None:
        for item in items:
            if isinstance(item, app_commands.Group):
                walk(item.commands, [*prefix, item.name])
            else:
                found.append(([*prefix, item.name], [p.name for p in item.parameters]))

    (root,) = bot.tree.get_commands()
    assert isinstance(root, app_commands.Group) and root.name == "mattekrig"
    walk(root.commands, [])
    await bot.close()
    return found


def _key(path: list[str]) -> str:
    return ".".join(part.replace("-", "_") for part in path)


def _name(path: list[str], lang: str) -> str:
    """The command as Discord shows it in ``lang``, translated word by word."""
    words = []
    for depth in range(1, len(path) + 1):
        kind = "cmd" if depth == len(path) else "group"
        words.append(t(f"{kind}.{_key(path[:depth])}.name", lang))
    return " ".join(["mattekrig", *words])


def _option(path: list[str], option: str, lang: str) -> str:
    specific = f"cmd.{_key(path)}.opt.{option}.name"
    return t(specific if specific in catalogue("en") else f"opt.{option}.name", lang)


async def test_commands_doc_names_every_command_and_option_in_three_languages() -> None:
    text = (DOCS / "commands.md").read_text(encoding="utf-8")
    sections = {s.split("`", 2)[1]: s for s in text.split("\n### ")[1:] if s.startswith("`")}
    commands = await _commands()
    assert len(commands) >= 12
    for path, options in commands:
        english = "/" + _name(path, "en")
        assert english in sections, english
        for lang in LANGS:
            assert f"`/{_name(path, lang)}`" in text, (path, lang)
            for option in options:
                assert f"`{_option(path, option, lang)}`" in sections[english], (path, option)


async def test_readme_lists_every_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Commands", 1)[1].split("\n## ", 1)[0]
    for path, _ in await _commands():
        assert f"`{' '.join(path)}" in table, path
    for command in ("run", "check", "sync", "backup", "restore"):
        assert f"`mattekrig {command}" in readme, command


def test_no_hypothesis_test_has_a_deadline() -> None:
    """Speed is measured in the benchmarks, never in a test: a Hypothesis example may take as long
    as a busy machine makes it, so the tests' profile has no deadline and no test sets one."""
    from hypothesis import settings

    assert settings().deadline is None
    setter = re.compile(r"settings\([^()]*\bdeadline\s*=", re.DOTALL)
    setters = [
        path.name
        for path in Path(__file__).resolve().parent.rglob("*.py")
        if setter.search(path.read_text(encoding="utf-8"))
    ]
    assert setters == []
