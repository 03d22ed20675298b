"""Debian's nginx run by a test (or `benchmarks.school`): a certificate made for the run, a
sample from docs/operations.md with only its addresses and paths made the run's own, and the
school's DNS (its name is nginx on 127.0.0.1) for aiohttp's client."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import pytest
from aiohttp.abc import ResolveResult

ROOT = Path(__file__).resolve().parents[1]
NAME = "mattekrig.school.example"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def operations_block(language: str, first_line: str | None = None) -> str:
    """A fenced block of docs/operations.md: the first in ``language``, or the first whose
    first line is ``first_line``."""
    operations = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    for block in re.findall(rf"```{language}\n(.*?)```", operations, re.DOTALL):
        if first_line is None or block.splitlines()[0] == first_line:
            return str(block)
    raise AssertionError(f"docs/operations.md has no {language} block {first_line or ''}")


SCHOOL_CONF = "# /etc/nginx/conf.d/mattekrig-school.conf"


def school_conf(folder: Path, upstreams: list[str], https: int, http: int) -> str:
    """docs/operations.md's school server sample with only its addresses and paths made a
    test's own: its `upstream` lists ``upstreams`` (``host:port``, one per serve process), the
    certificate is ``folder``'s (`make_certificate`), the logs are ``folder/school.log`` and
    ``folder/school.error.log``."""
    conf = operations_block("nginx", SCHOOL_CONF)
    servers = re.findall(r"^ *server 127\.0\.0\.1:\d+;\n", conf, re.M)
    assert len(servers) >= 2, "the sample's upstream has fewer than two processes"
    lines = "".join(f"    server {address};\n" for address in upstreams)
    conf = conf.replace("".join(servers), lines)
    return (
        conf.replace("listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;")
        .replace("listen 80;", f"listen 127.0.0.1:{http};")
        .replace(f"/etc/ssl/certs/{NAME}.pem", str(folder / "cert.pem"))
        .replace(f"/etc/ssl/private/{NAME}.key", str(folder / "key.pem"))
        .replace("/var/log/nginx/mattekrig-school.log", str(folder / "school.log"))
        .replace("/var/log/nginx/mattekrig-school.error.log", str(folder / "school.error.log"))
    )


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def make_certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", f"/CN={NAME}", "-addext", f"subjectAltName=DNS:{NAME}",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def need_nginx() -> None:
    if not Path(NGINX).exists():
        if os.environ.get("CI"):
            pytest.fail("nginx must run in CI (.ci/run installs it)")
        pytest.skip("no nginx here (apt-get install -y nginx)")


@contextmanager
def running_nginx(
    folder: Path, conf: str, https: int, connections: int = 512
) -> Iterator[subprocess.Popen[str]]:
    """nginx in the foreground (one process) with ``conf`` as its whole ``http`` block's
    content and ``connections`` open at most (each device's and each to a process count),
    until it listens on ``https``; stopped at the end."""
    temp = folder / "temp"
    temp.mkdir()
    main = folder / "nginx.conf"
    main.write_text(
        f"daemon off;\nmaster_process off;\npid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'} warn;\n"
        f"worker_rlimit_nofile {connections * 2};\nevents {{ worker_connections {connections}; }}\n"
        "http {\n"
        f"client_body_temp_path {temp}/body; proxy_temp_path {temp}/proxy;\n"
        f"fastcgi_temp_path {temp}/fastcgi; uwsgi_temp_path {temp}/uwsgi;\n"
        f"scgi_temp_path {temp}/scgi;\naccess_log {folder / 'other.log'};\n{conf}\n}}\n",
        encoding="utf-8",
    )
    checked = subprocess.run([NGINX, "-t", "-c", str(main), "-p", str(folder)],
                             capture_output=True, text=True)  # fmt: skip
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen([NGINX, "-c", str(main), "-p", str(folder)],
                               stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        for _ in range(500):  # until it listens (or has exited, which the assert reports)
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", https)) == 0:
                    break
            assert process.poll() is None, process.communicate()[1]
            time.sleep(0.01)
        yield process
    finally:
        process.terminate()
        process.communicate(timeout=10)


def school_dns(https: int, http: int) -> aiohttp.abc.AbstractResolver:
    """The school's DNS, for the test: mattekrig.school.example is nginx on 127.0.0.1."""

    class School(aiohttp.abc.AbstractResolver):
        async def resolve(
            self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
        ) -> list[ResolveResult]:
            port = {443: https, 80: http}.get(port, port)
            return [ResolveResult(hostname=host, host="127.0.0.1", port=port,
                                  family=socket.AF_INET, proto=0, flags=0)]  # fmt: skip

        async def close(self) -> None:
            return None

    return School()
