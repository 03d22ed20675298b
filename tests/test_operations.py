"""What the operator is given does what it promises: the `.env` the documents make is private
(PRIVACY.md: secrets only from the environment or a private `.env`); the Docker image holds
every package, runs as a user with a health check, from pinned base images and a
hash-checked lock; the compose file's services, volumes and names are the ones its recipes
use. CI has no container engine and cannot fetch base images, so these read the files."""

from __future__ import annotations

import configparser
import json
import re
import shutil
import stat
import subprocess
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from bot.ops.cli import parser
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


# -- the Docker image ---------------------------------------------------------------------


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, continuation lines joined: (INSTRUCTION, arguments)."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = re.sub(r"\\\n\s*", " ", "\n".join(lines))
    return [
        (word.upper(), rest.strip())
        for word, _, rest in (line.strip().partition(" ") for line in joined.splitlines())
        if word
    ]


def packages() -> list[str]:
    """The top-level packages pyproject.toml installs (its `packages.find` include)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    return sorted(
        path.name
        for path in ROOT.iterdir()
        if (path / "__init__.py").is_file() and any(fnmatch(path.name, p) for p in include)
    )


def test_the_image_copies_every_package() -> None:
    """`mattekrig play` crashed in the image: `table/` was never copied."""
    copied = {args.split()[0] for word, args in dockerfile() if word == "COPY"}
    assert packages() == ["bot", "classroom", "cogs", "engine", "school", "storage", "table"]
    assert set(packages()) <= copied
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert all(f"!{name}/" in ignored for name in packages())  # in the build context too


def test_the_image_runs_as_a_user_with_a_health_check_and_the_bot() -> None:
    steps = dockerfile()
    words = [word for word, _ in steps]
    user = [args for word, args in steps if word == "USER"]
    assert user and user[-1] not in ("root", "0") and words.index("USER") < words.index("CMD")
    (health,) = [args for word, args in steps if word == "HEALTHCHECK"]
    command = json.loads(health.split("CMD", 1)[1])
    assert command[:2] == ["mattekrig", "check"]
    parser().parse_args(command[1:])  # flags the command line knows
    (cmd,) = [args for word, args in steps if word == "CMD"]
    assert json.loads(cmd) == ["mattekrig", "run"]


EXACT_TAG = re.compile(r"^[a-z0-9./-]+:\d+\.\d+(\.\d+)?(-[a-z0-9.-]+)?(@sha256:[0-9a-f]{64})?$")


def test_base_images_are_pinned_to_a_release() -> None:
    """No `latest`, no moving `3.11` or `15`: an exact release (digest optional)."""
    (base,) = [args for word, args in dockerfile() if word == "FROM"]
    assert EXACT_TAG.match(base) and re.search(r":\d+\.\d+\.\d+-", base), base
    services = compose()["services"]
    for name, service in services.items():
        if "image" in service and "build" not in service:
            assert EXACT_TAG.match(service["image"]), (name, service["image"])


def test_dependencies_come_from_the_hash_checked_lock() -> None:
    runs = [args for word, args in dockerfile() if word == "RUN" and "pip install" in args]
    locked, project = runs
    assert "--require-hashes" in locked and "-r requirements.lock" in locked
    assert "--only-binary=:all:" in locked  # no build step that fetches unchecked files
    assert "--no-deps" in project and "--no-build-isolation" in project


def lock() -> dict[str, tuple[Version, list[str]]]:
    """requirements.lock: name -> (pinned version, hashes)."""
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    found: dict[str, tuple[Version, list[str]]] = {}
    for block in re.split(r"\n(?=\S)", re.sub(r"^#.*\n", "", text, flags=re.M)):
        if not block.strip():
            continue
        requirement = block.split(" \\", 1)[0].split(";", 1)[0].strip()
        name, _, version = requirement.partition("==")
        assert version, f"not pinned: {requirement}"
        found[canonicalize_name(name)] = (Version(version), re.findall(r"sha256:\w{64}", block))
    return found


def test_the_lock_pins_every_dependency_with_hashes() -> None:
    """Every dependency pyproject.toml names (with the PostgreSQL extra and the build
    backend) is in the lock, at a version its range allows, with its files' hashes; so is
    every package the lock pulls in."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = [
        *config["project"]["dependencies"],
        *config["project"]["optional-dependencies"]["postgres"],
        *config["build-system"]["requires"],
    ]
    pinned = lock()
    for text in wanted:
        requirement = Requirement(text)
        version, _ = pinned[canonicalize_name(requirement.name)]
        assert requirement.specifier.contains(version, prereleases=True), (text, version)
    assert all(hashes for _, hashes in pinned.values())
    built = (ROOT / "build-requirements.in").read_text(encoding="utf-8").split()
    assert [w for w in built if not w.startswith("#")][-1:] == config["build-system"]["requires"]


# -- docker compose -----------------------------------------------------------------------


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text("utf-8"))
    return loaded


def bots() -> dict[str, dict[str, Any]]:
    """The services that run the image's own command: the bot."""
    return {
        name: service
        for name, service in compose()["services"].items()
        if service.get("image") == "mattekrig" and "command" not in service
    }


def servers() -> dict[str, dict[str, Any]]:
    """The services that run `mattekrig serve`: the school server's processes."""
    return {
        name: service
        for name, service in compose()["services"].items()
        if service.get("image") == "mattekrig"
        and service.get("command", [None])[:2] == ["mattekrig", "serve"]
    }


def compose_env() -> dict[str, str]:
    """The `.env` the compose file's recipe makes (a password in place of `$p`)."""
    (recipe,) = [command for name, command in env_recipes() if name == "docker-compose.yml"]
    printf = re.search(r"printf '([^']*)'", recipe)
    assert printf is not None, recipe
    text = printf.group(1).replace("%s", "pw").replace("\\n", "\n")
    return dict(line.split("=", 1) for line in text.splitlines())


def test_every_bot_service_has_the_data_volume_and_rotated_logs() -> None:
    """The SQLite→PostgreSQL recipe reads /data/mattekrig.db: the bots had no /data."""
    spec = compose()
    assert set(bots()) == {"shard-0", "shard-1"}
    for name, service in bots().items():
        mounts = dict(volume.split(":")[::-1] for volume in service["volumes"])
        assert mounts["/data"] == "mattekrig-data", name
    assert spec["volumes"]["mattekrig-data"]["name"] == "mattekrig-data"  # docker run's volume
    for name, service in spec["services"].items():
        options = service["logging"]["options"]
        assert options["max-size"] and int(options["max-file"]) > 1, name


def test_no_recipe_puts_the_token_on_a_command_line_or_in_the_environment() -> None:
    """`-e DISCORD_TOKEN=…` left the token in the shell's history and in `docker inspect`:
    the token is a file (a secret) that DISCORD_TOKEN_FILE names, in `docker run` and in
    compose alike, and each `docker run` mounts the file it names."""
    texts = {**documents_with_commands(), "Dockerfile": (ROOT / "Dockerfile").read_text("utf-8")}
    runs = 0
    for name, text in texts.items():
        assert not re.search(r"(-e|--env)[ =]DISCORD_TOKEN=", text), name
        for run in re.findall(r"docker run -d [^`]*?mattekrig\n", re.sub(r"\\\n#?\s*", " ", text)):
            runs += 1
            (named,) = re.findall(r"DISCORD_TOKEN_FILE=(\S+)", run)
            assert re.search(rf":{re.escape(named)}:ro\b", run), (name, run)
    assert runs >= 3  # README, docs/operations.md, the Dockerfile's own comment
    spec = compose()
    for name, service in bots().items():
        assert "DISCORD_TOKEN" not in service["environment"], name
        path = service["environment"]["DISCORD_TOKEN_FILE"]
        assert path in {f"/run/secrets/{secret['source']}" for secret in service["secrets"]}
        for secret in service["secrets"]:  # the token and the database's URL alike
            assert secret["uid"] == "10001" and secret["mode"] == 0o400, name
            assert secret["source"] in spec["secrets"], name


def test_the_health_check_wants_a_bot_connected_to_discord() -> None:
    """It passed on PostgreSQL always, and for a bot reconnecting for hours: `--running` now
    reads the bot's sign of life (tests/bot/test_health.py), and the image's start period
    leaves the first login time to finish."""
    (health,) = [args for word, args in dockerfile() if word == "HEALTHCHECK"]
    assert "--running" in json.loads(health.split("CMD", 1)[1])
    start = re.search(r"--start-period=(\d+)s", health)
    assert start is not None and int(start[1]) >= 120


def documents_with_commands() -> dict[str, str]:
    paths = [ROOT / "README.md", ROOT / "docker-compose.yml", *(ROOT / "docs").glob("*.md")]
    return {path.name: path.read_text(encoding="utf-8") for path in paths}


def test_the_migrate_recipes_name_what_compose_has() -> None:
    """The README's recipe used the host `db` while the service is `postgres`."""
    services = compose()["services"]
    database = next(
        n for n, s in services.items() if str(s.get("image", "")).startswith("postgres")
    )
    url = compose_env()["DATABASE_URL"]  # the secret the bots read (DATABASE_URL_FILE)
    assert urlsplit(url).hostname == database
    assert url == f"postgresql://mattekrig:pw@{database}:5432/mattekrig"
    recipes = 0
    for name, text in documents_with_commands().items():
        for run in re.findall(r"docker compose run (?:--\S+ )*(\S+)", text):
            assert run in services, (name, run)
            recipes += 1
        for url in re.findall(r"migrate-db [^`]*--to\s+(postgres[^\s`]+)", text):
            host = urlsplit(url).hostname
            assert host in (database, "localhost", "host") or "." in str(host), (name, url)
    assert recipes >= 1


# -- systemd ------------------------------------------------------------------------------


class Unit(configparser.ConfigParser):
    """A systemd unit file: its keys keep their case (`ExecStart`, not `execstart`)."""

    def optionxform(self, optionstr: str) -> str:
        return optionstr


def units() -> dict[str, configparser.ConfigParser]:
    """The systemd units docs/operations.md gives, by the file name in their first line."""
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    found: dict[str, configparser.ConfigParser] = {}
    for block in re.findall(r"```ini\n(.*?)```", text, flags=re.S):
        name = block.splitlines()[0].removeprefix("# ").rsplit("/", 1)[-1]
        unit = Unit(strict=False, interpolation=None)
        unit.read_string(block)
        found[name] = unit
    return found


def _command(line: str) -> list[str]:
    """An ExecStart line as `mattekrig` arguments (checked by the real argument parser)."""
    words = line.split()
    assert words[0].endswith("/mattekrig"), line
    parser().parse_args(words[1:])
    return words[1:]


def test_the_systemd_unit_runs_the_bot_privately_and_stops_on_a_problem() -> None:
    service = units()["mattekrig.service"]["Service"]
    assert _command(service["ExecStart"]) == ["run"]
    _command(service["ExecStartPre"])
    assert service["User"] not in ("root", "0")
    assert service["UMask"] == "0077" and service["StateDirectoryMode"] == "0700"
    assert service["KillSignal"] == "SIGTERM"  # the bot's clean stop (bot.client.serve)
    # exit 2 is a problem the operator must fix (bot.ops.cli): restarting cannot help
    assert service["Restart"] == "on-failure" and service["RestartPreventExitStatus"] == "2"


def test_the_backup_timer_keeps_a_bounded_number_of_backups() -> None:
    found = units()
    backup = found["mattekrig-backup.service"]["Service"]
    words = _command(backup["ExecStart"])
    assert words[0] == "backup" and words[1].endswith("/") and "--keep" in words
    assert backup["User"] == found["mattekrig.service"]["Service"]["User"]
    assert found["mattekrig-backup.timer"]["Timer"]["OnCalendar"]
