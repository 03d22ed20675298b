"""docs/operations.md's nginx sample, run: Debian's nginx on 127.0.0.1 terminates HTTPS (a
certificate made for the test) in front of a real class lesson, as the sample says. The issue:
"behind a proxy: no sample configuration (WebSocket upgrade), no HSTS, … the teacher's key
travels as `?key=` into the proxy's access log". Through the proxy: the join page, HSTS, the
teacher's key swapped for a cookie, a pupil's live connection (WebSocket upgrade), a plain
HTTP request sent on to HTTPS, and a log without the key."""

from __future__ import annotations

import re
import ssl
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio
from aiohttp import web

from table.app import make_app
from table.web import HSTS, LESSON, TEACHER_COOKIE, Served, runner
from tests.nginx_run import (
    NAME,
    free_port,
    make_certificate,
    need_nginx,
    operations_block,
    running_nginx,
    school_dns,
)

NGINX_CONF = "# /etc/nginx/conf.d/mattekrig.conf"


def sample() -> str:
    return operations_block("nginx", NGINX_CONF)


def test_the_sample_has_the_essentials() -> None:
    """What a proxy in front of a lesson must do, read from the sample itself (this part runs
    wherever the tests run, nginx or not)."""
    conf = sample()
    assert "listen 443 ssl;" in conf and "return 301 https://$host$request_uri;" in conf
    assert "proxy_set_header Host $host;" in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "proxy_set_header Connection $connection_upgrade;" in conf
    assert "proxy_http_version 1.1;" in conf and "proxy_read_timeout 1h;" in conf
    log_format = re.search(r"log_format mattekrig '([^']*)'", conf)
    assert log_format is not None and "$uri" in log_format.group(1)
    assert not re.search(r"\$request\b|\$request_uri|\$args|\$query_string", log_format.group(1))
    assert "$remote_addr" not in log_format.group(1)  # a pupil's device is no one's to log
    assert "access_log /var/log/nginx/mattekrig.log mattekrig;" in conf


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    return make_certificate(tmp_path)


@pytest_asyncio.fixture
async def lesson() -> AsyncIterator[tuple[web.Application, int]]:
    """`mattekrig class --host 127.0.0.1 --base-url https://mattekrig.school.example/`."""
    app = make_app("class", served=Served(base_url=f"https://{NAME}/", names=("127.0.0.1",)))
    served = runner(app)
    await served.setup()
    await web.TCPSite(served, "127.0.0.1", 0).start()
    try:
        yield app, int(served.addresses[0][1])
    finally:
        await served.cleanup()


@pytest.fixture
def nginx(
    tmp_path: Path, certificate: tuple[Path, Path], lesson: tuple[web.Application, int]
) -> Iterator[tuple[int, int, Path]]:
    """The sample, with only its addresses and paths made the test's own."""
    need_nginx()
    https, http = free_port(), free_port()
    cert, key = certificate
    log = tmp_path / "access.log"
    conf = (
        sample()
        .replace("listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;")
        .replace("listen 80;", f"listen 127.0.0.1:{http};")
        .replace(f"/etc/ssl/certs/{NAME}.pem", str(cert))
        .replace(f"/etc/ssl/private/{NAME}.key", str(key))
        .replace("/var/log/nginx/mattekrig.log", str(log))
        .replace("http://127.0.0.1:8080", f"http://127.0.0.1:{lesson[1]}")
    )
    with running_nginx(tmp_path, conf, https):
        yield https, http, log


async def test_a_lesson_behind_the_sample_nginx(
    nginx: tuple[int, int, Path],
    certificate: tuple[Path, Path],
    lesson: tuple[web.Application, int],
) -> None:
    https, http, log = nginx
    app = lesson[0]
    secret = app[LESSON].teacher_secret
    assert secret is not None
    trust = ssl.create_default_context(cafile=str(certificate[0]))
    connector = aiohttp.TCPConnector(resolver=school_dns(https, http), ssl=trust)
    jar = aiohttp.CookieJar()
    base = f"https://{NAME}"
    async with aiohttp.ClientSession(connector=connector, cookie_jar=jar) as browser:
        async with browser.get(f"http://{NAME}/?lang=nn", allow_redirects=False) as plain:
            assert plain.status == 301 and plain.headers["Location"] == f"{base}/?lang=nn"
        async with browser.get(f"{base}/?lang=nn") as page:
            assert page.status == 200 and 'data-state="join"' in await page.text()
            assert page.headers["Strict-Transport-Security"] == HSTS
            assert page.headers["Server"].startswith("nginx")  # the lesson's own is hidden
        async with browser.get(f"{base}/teacher?key={secret}", allow_redirects=False) as key:
            assert key.status == 303 and key.headers["Location"] == "/teacher?lang=en"
            assert key.cookies[TEACHER_COOKIE]["secure"]
        async with browser.get(f"{base}/teacher?lang=en") as teacher:
            assert teacher.status == 200 and f'data-join-url="{base}/"' in await teacher.text()
        join = {"code": app[LESSON].code, "name": "Ada"}
        async with browser.post(f"{base}/join", data=join, headers={"Origin": base}) as joined:
            assert joined.status == 200 and 'data-state="waiting"' in await joined.text()
        async with browser.ws_connect(f"wss://{NAME}/live?lang=en", origin=base) as live:
            first = await live.receive(timeout=10)
            assert first.type == aiohttp.WSMsgType.TEXT, first
        async with browser.get(f"{base}/", headers={"Host": "evil.example"}) as evil:
            assert evil.status == 421
    logged = log.read_text(encoding="utf-8")
    assert '"GET /teacher" 303' in logged and "?" not in logged and secret not in logged


def test_the_caddy_sample_proxies_the_lesson_and_logs_nothing() -> None:
    """Caddy passes Host and the WebSocket upgrade on and redirects to HTTPS by itself; a
    `log` line would write the teacher's `?key=` (Caddy is not installed here to run it)."""
    lines = [line.strip() for line in operations_block("caddy").splitlines()]
    assert lines == ["mattekrig.school.example {", "reverse_proxy 127.0.0.1:8080", "}"]
