"""What a school's operator runs the school server with (the issue: "a systemd unit and a
compose service for `serve`"), read from the files themselves (CI runs no systemd and no
container engine) and by `systemd-analyze verify`. The serve unit is hardened as the bot's is
and gets its secrets as credentials; compose runs two serve processes where the nginx sample
sends lessons; no container holds a secret in its environment; the serve health check is run
for real."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.ops.cli import COMMANDS
from school.serve import parser as serve_parser
from tests.nginx_run import SCHOOL_CONF, free_port, operations_block
from tests.table.browser import in_ci
from tests.test_operations import bots, compose, servers, units

SERVE_UNIT = "# /etc/systemd/system/mattekrig-serve@.service"
SECRETS = ("DISCORD_TOKEN", "DATABASE_URL", "POSTGRES_PASSWORD", "OIDC_CLIENT_SECRET")


def serve_unit() -> list[tuple[str, str]]:
    """The unit's `Key=value` lines in order (a key such as LoadCredential comes again)."""
    block = operations_block("ini", SERVE_UNIT)
    return [
        (key.strip(), value.strip())
        for line in block.splitlines()
        if "=" in line and not line.startswith("#")
        for key, value in [line.split("=", 1)]
    ]


def upstream_ports() -> list[int]:
    """The ports of the school nginx sample's `upstream`: where lessons are sent."""
    conf = operations_block("nginx", SCHOOL_CONF)
    upstream = re.search(r"upstream mattekrig_serve \{(.*?)\}", conf, re.DOTALL)
    assert upstream is not None
    return [int(port) for port in re.findall(r"server 127\.0\.0\.1:(\d+);", upstream.group(1))]


def test_the_serve_unit_runs_each_process_privately_with_its_secrets_as_credentials() -> None:
    lines = serve_unit()
    keys = dict(lines)  # the last of a repeated key; the repeated ones are read below
    bot = units()["mattekrig.service"]["Service"]
    for hardening in ("User", "UMask", "StateDirectoryMode", "NoNewPrivileges", "ProtectSystem",
                      "ProtectHome", "PrivateTmp", "PrivateDevices", "KillSignal"):  # fmt: skip
        assert keys[hardening] == bot[hardening], hardening
    assert keys["User"] not in ("root", "0")
    start = keys["ExecStart"].split()
    assert start[0].endswith("/mattekrig")
    assert start[1:] == ["serve", "--host", "127.0.0.1", "--port", "%i"]
    assert "serve" in COMMANDS  # `mattekrig serve` hands its arguments to the server's own
    chosen = serve_parser().parse_args([*start[2:-1], "8081"])
    assert (chosen.host, chosen.port) == ("127.0.0.1", 8081)
    assert keys["ExecStartPre"].split()[1:] == ["check", "--quiet"]
    # exit 2 is a setting to fix: restarting cannot help
    assert keys["Restart"] == "on-failure" and keys["RestartPreventExitStatus"] == "2"
    assert keys["EnvironmentFile"] == "/etc/mattekrig/serve.env"
    # every secret is a credential file, named to the process by NAME_FILE, never its value
    credentials = dict(v.split(":", 1) for k, v in lines if k == "LoadCredential")
    files = [v.split("=", 1) for k, v in lines if k == "Environment"]
    assert sorted(name for name, _ in files) == ["DATABASE_URL_FILE", "OIDC_CLIENT_SECRET_FILE"]
    for name, path in files:
        credential = path.removeprefix("%d/")
        assert path.startswith("%d/") and credential == name.removesuffix("_FILE").lower()
        assert credentials[credential] == f"/etc/mattekrig/credentials/{credential}"
    text = "\n".join(value for _, value in lines)
    assert "postgresql://" not in text and not re.search(r"(?<!_)SECRET=|PASSWORD", text)


def test_the_serve_instances_are_where_nginx_sends_the_lessons() -> None:
    """The step-by-step enables one instance per `server` line of the nginx sample."""
    operations = operations_block("sh", "sudo systemctl daemon-reload")
    enabled = re.findall(r"mattekrig-serve@(\d+)", operations)
    assert len(enabled) >= 2 and [int(port) for port in enabled] == upstream_ports()


def test_compose_runs_two_serve_processes_where_nginx_sends_the_lessons() -> None:
    spec = compose()
    serving = servers()
    assert len(serving) >= 2
    published: list[int] = []
    for name, service in serving.items():
        assert service["profiles"] == ["school"], name  # `docker compose up -d` stays the bot's
        command = service["command"]
        assert command[:2] == ["mattekrig", "serve"] and "--port" in command, name
        inside = command[command.index("--port") + 1]
        (port,) = service["ports"]
        host, outside, container = port.split(":")
        assert host == "127.0.0.1" and container == inside, name  # nginx only, never the network
        published.append(int(outside))
        assert service["environment"]["DATABASE_URL_FILE"] == "/run/secrets/database_url"
        (secret,) = service["secrets"]
        assert (secret["source"], secret["uid"], secret["mode"]) == ("database_url", "10001", 0o400)
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy", name
        assert service["logging"] == spec["services"]["postgres"]["logging"], name
        assert service["restart"] == "unless-stopped", name
        # its own health check: the image's is the bot's (`check --running`)
        assert "python" in service["healthcheck"]["test"], name
    assert published == upstream_ports()
    assert all("profiles" not in service for service in bots().values())


def test_no_container_holds_a_secret_in_its_environment() -> None:
    """`docker inspect` shows a container's environment: every secret is a file under
    /run/secrets that the container's NAME_FILE names, filled by compose from `.env`."""
    spec = compose()
    for name, service in spec["services"].items():
        environment: dict[str, Any] = service.get("environment", {})
        assert not set(environment) & set(SECRETS), name
        assert not any("PASSWORD}" in str(value) for value in environment.values()), name
        mounted = {f"/run/secrets/{secret['source']}" for secret in service.get("secrets", [])}
        for key, value in environment.items():
            if key.endswith("_FILE"):
                assert value in mounted, (name, key)
                source = value.removeprefix("/run/secrets/")
                assert spec["secrets"][source]["environment"] == key.removesuffix("_FILE")


def health_code() -> str:
    (first, *_) = servers().values()
    test = first["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "-c"]
    return str(test[3])


async def _health(port: int) -> int:
    code = health_code().replace("127.0.0.1:8080", f"127.0.0.1:{port}")
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    return await process.wait()


@pytest.mark.parametrize(("status", "healthy"), [(200, True), (303, True), (421, True),
                                                 (503, False)])  # fmt: skip
async def test_the_serve_health_check_wants_an_answer(status: int, healthy: bool) -> None:
    """Any answer below 500 is a process that serves (a 421 too: it answers only its own
    host name); a 5xx or no answer is unhealthy."""
    port = free_port()

    async def answer(request: web.Request) -> web.Response:
        headers = {"Location": "/elsewhere"} if status == 303 else {}
        return web.Response(status=status, headers=headers)

    app = web.Application()
    app.router.add_get("/{tail:.*}", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        assert (await _health(port) == 0) is healthy
    finally:
        await runner.cleanup()
    assert await _health(port) != 0  # nothing listens any more


SYSTEMD_ANALYZE = shutil.which("systemd-analyze")


def test_every_unit_the_documents_give_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    """systemd reads each unit as written (an unknown key or a bad value is only a warning
    when it starts, and the hardening silently gone): `systemd-analyze verify` says every such
    line. The serve unit as an instance (`@8081`), the program path this test's own."""
    if SYSTEMD_ANALYZE is None:
        if in_ci():
            pytest.fail("systemd-analyze must run in CI (.ci/run installs systemd)")
        pytest.skip("no systemd-analyze here (apt-get install -y systemd)")
    program = Path(sys.executable).with_name("mattekrig")
    assert program.exists()
    names = []
    for name in units():
        text = operations_block("ini", f"# /etc/systemd/system/{name}")
        text = text.replace("/srv/mattekrig/.venv/bin/mattekrig", str(program))
        name = name.replace("@.service", "@8081.service")
        (tmp_path / name).write_text(text, encoding="utf-8")
        names.append(str(tmp_path / name))
    assert any(name.endswith("mattekrig-serve@8081.service") for name in names)
    verified = subprocess.run(
        [SYSTEMD_ANALYZE, "verify", "--man=no", *names], capture_output=True, text=True
    )
    assert (verified.returncode, verified.stderr, verified.stdout) == (0, "", "")
