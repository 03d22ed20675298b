"""docs/operations.md's nginx sample for a school server, run: Debian's nginx terminates HTTPS
in front of two stand-in serve processes on 127.0.0.2 and 127.0.0.3 that answer which one they
are. The issue: "every lesson URL carries the lesson's code, so a standard reverse proxy routes
each lesson to one process (nginx `hash … consistent`); when a process dies, the proxy sends
its lessons' requests to another", and "a tested nginx configuration (HTTPS termination,
WebSocket upgrade, the routing by code, HSTS, the sign-in callback; no key in the access log)".

The client is 127.0.0.1 and the processes are not, so "127.0.0.1" in the log could only be a
device's address."""

from __future__ import annotations

import re
import ssl
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from aiohttp import web

from tests.nginx_run import (
    NAME,
    SCHOOL_CONF,
    free_port,
    make_certificate,
    need_nginx,
    operations_block,
    running_nginx,
    school_conf,
    school_dns,
)

BASE = f"https://{NAME}"
HSTS = "max-age=31536000"
# Sixty-four six-digit codes: on two processes, all of them on one would happen about once in
# 10^16 runs (each process holds half of the hash ring).
CODES = [str(100_000 + 7_919 * i) for i in range(64)]
# What signs someone in: never in the log.
LINK_TOKEN = "LinkTokenAbc123"
OIDC_CODE = "OidcCodeXyz789"
OIDC_STATE = "OidcStateQrs456"
CARD_CODE = "CARD-7Q4K-WX"


def sample() -> str:
    return operations_block("nginx", SCHOOL_CONF)


def test_the_school_sample_has_the_essentials() -> None:
    """Read from the sample itself, wherever the tests run, nginx or not."""
    conf = sample()
    assert 'map $uri $lesson_code {\n    ~^/l/(?<c>[^/]+) $c;\n    default "";\n}' in conf
    upstream = re.search(r"upstream mattekrig_serve \{(.*?)\}", conf, re.DOTALL)
    assert upstream is not None and "hash $lesson_code consistent;" in upstream.group(1)
    assert len(re.findall(r"^\s*server 127\.0\.0\.1:\d+;", upstream.group(1), re.M)) >= 2
    assert "proxy_next_upstream error timeout;" in conf
    assert "non_idempotent" not in conf  # an action already sent is never sent twice
    assert "listen 443 ssl;" in conf and "return 301 https://$host$request_uri;" in conf
    assert f'add_header Strict-Transport-Security "{HSTS}" always;' in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    log_format = re.search(r"log_format mattekrig_school ((?:'[^']*'\s*)+);", conf)
    assert log_format is not None
    logged = log_format.group(1)
    assert not re.search(r"\$request\b|\$request_uri|\$args|\$arg_|\$query_string|\$uri", logged)
    assert not re.search(r"\$remote_addr|\$http_x_forwarded_for|\$proxy_add_x", logged)
    assert "X-Forwarded-For" not in conf and "$remote_addr" not in conf
    # both servers log in that format (a plain-HTTP request is logged too), nowhere else
    assert conf.count("access_log /var/log/nginx/mattekrig-school.log mattekrig_school;") == 2


CRASHES = web.AppKey("crashes", list)


def stand_in(name: str) -> web.Application:
    """A serve process as nginx sees it: it says who it is and what reached it, and sends an
    HSTS header of its own (nginx's must replace it). A path ending in `/crash` is a process
    that dies with the request read and unanswered (noted in ``app[CRASHES]``)."""

    async def answer(request: web.Request) -> web.StreamResponse:
        if request.path.endswith("/crash"):
            request.app[CRASHES].append((request.method, await request.text()))
            assert request.transport is not None
            request.transport.abort()
            return web.Response()
        if request.headers.get("Upgrade", "").lower() == "websocket":
            live = web.WebSocketResponse()
            await live.prepare(request)
            await live.send_str(name)
            await live.close()
            return live
        body = await request.text()
        return web.json_response(
            {
                "upstream": name,
                "method": request.method,
                "path": request.path,
                "query": request.query_string,
                "host": request.host,
                "forwarded": request.headers.get("X-Forwarded-For"),
                "body": body,
            },
            headers={"Strict-Transport-Security": "max-age=60"},
        )

    app = web.Application()
    app[CRASHES] = []
    app.router.add_route("*", "/{tail:.*}", answer)
    return app


Processes = dict[str, tuple[web.AppRunner, str]]


@pytest_asyncio.fixture
async def processes() -> AsyncIterator[Processes]:
    """Two stand-in processes, "a" on 127.0.0.2 and "b" on 127.0.0.3."""
    found: Processes = {}
    for name, host in (("a", "127.0.0.2"), ("b", "127.0.0.3")):
        runner = web.AppRunner(stand_in(name))
        await runner.setup()
        await web.TCPSite(runner, host, 0).start()
        found[name] = (runner, f"{host}:{runner.addresses[0][1]}")
    try:
        yield found
    finally:
        for runner, _ in found.values():
            await runner.cleanup()


@pytest.fixture
def nginx(tmp_path: Path, processes: Processes) -> Iterator[tuple[int, int, Path, Path]]:
    """The sample, with only its addresses and paths made the test's own."""
    need_nginx()
    https, http = free_port(), free_port()
    make_certificate(tmp_path)
    log, errors = tmp_path / "school.log", tmp_path / "school.error.log"
    conf = school_conf(tmp_path, [processes["a"][1], processes["b"][1]], https, http)
    with running_nginx(tmp_path, conf, https):
        yield https, http, log, errors


async def _get(browser: aiohttp.ClientSession, path: str) -> dict[str, Any]:
    async with browser.get(f"{BASE}{path}") as answer:
        assert answer.status == 200
        assert answer.headers.getall("Strict-Transport-Security") == [HSTS]
        found: dict[str, Any] = await answer.json()
        return found


async def _live(browser: aiohttp.ClientSession, code: str) -> str:
    async with browser.ws_connect(f"wss://{NAME}/l/{code}/live", origin=BASE) as live:
        first = await live.receive(timeout=10)
        assert first.type == aiohttp.WSMsgType.TEXT, first
        return str(first.data)


async def test_lessons_are_routed_by_their_code_and_survive_a_dead_process(
    nginx: tuple[int, int, Path, Path], processes: Processes, tmp_path: Path
) -> None:
    https, http, log, errors = nginx
    trust = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
    connector = aiohttp.TCPConnector(resolver=school_dns(https, http), ssl=trust)
    async with aiohttp.ClientSession(connector=connector) as browser:
        # plain HTTP is sent on to HTTPS, path and query whole
        plain_url = f"http://{NAME}/signin/link/{LINK_TOKEN}?lang=nn"
        async with browser.get(plain_url, allow_redirects=False) as plain:
            assert plain.status == 301
            assert plain.headers["Location"] == f"{BASE}/signin/link/{LINK_TOKEN}?lang=nn"

        # one lesson, one process: its pages, its forms and its live connection
        holder: dict[str, Any] = {}
        for code in CODES:
            first = await _get(browser, f"/l/{code}/")
            assert (first["path"], first["host"], first["forwarded"]) == (f"/l/{code}/", NAME, None)
            holder[code] = first["upstream"]
            assert (await _get(browser, f"/l/{code}/table?lang=sv"))["upstream"] == holder[code]
        assert set(holder.values()) == {"a", "b"}  # different lessons spread over both
        on_a = [code for code in CODES if holder[code] == "a"]
        on_b = [code for code in CODES if holder[code] == "b"]
        form = {"code": on_a[0], "name": "Ada"}
        async with browser.post(f"{BASE}/l/{on_a[0]}/join", data=form) as joined:
            assert (await joined.json())["upstream"] == "a"
        assert await _live(browser, on_a[0]) == "a" and await _live(browser, on_b[0]) == "b"
        card = await _get(browser, f"/l/{on_b[0]}/card/{CARD_CODE}")
        assert (card["upstream"], card["path"]) == ("b", f"/l/{on_b[0]}/card/{CARD_CODE}")

        # the sign-in reaches a process whole
        callback = await _get(browser, f"/signin/callback?code={OIDC_CODE}&state={OIDC_STATE}")
        assert (callback["path"], callback["query"]) == (
            "/signin/callback",
            f"code={OIDC_CODE}&state={OIDC_STATE}",
        )
        assert (await _get(browser, f"/signin/link/{LINK_TOKEN}"))["path"].endswith(LINK_TOKEN)
        async with browser.post(f"{BASE}/signin/link/{LINK_TOKEN}", data={"go": "1"}) as spent:
            assert (await spent.json())["path"] == f"/signin/link/{LINK_TOKEN}"

        # process "a" dies: its lessons reach "b"; "b"'s lessons stay where they are
        await processes["a"][0].cleanup()
        for code in on_a:
            moved = await _get(browser, f"/l/{code}/")
            assert (moved["upstream"], moved["path"]) == ("b", f"/l/{code}/")
        assert await _live(browser, on_a[1]) == "b"
        assert {(await _get(browser, f"/l/{code}/"))["upstream"] for code in on_b} == {"b"}

    logged = log.read_text(encoding="utf-8")
    assert '"GET /signin/link/-" 301' in logged  # the plain-HTTP request, token cut off
    assert '"POST /signin/link/-" 200' in logged and '"GET /signin/callback" 200' in logged
    assert f'"GET /l/{on_b[0]}/card/-" 200' in logged
    assert f'"GET /l/{on_a[0]}/" 200' in logged
    # the dead process's first refusal shows as two upstreams, the second one answering
    a, b = processes["a"][1], processes["b"][1]
    assert re.search(rf'"GET /l/{on_a[0]}/" 200 \d+ {a}, {b} 502, 200', logged)
    secrets = (LINK_TOKEN, OIDC_CODE, OIDC_STATE, CARD_CODE)
    for text in (logged, errors.read_text(encoding="utf-8") if errors.exists() else ""):
        assert not [secret for secret in secrets if secret in text]
        assert "?" not in text and "127.0.0.1" not in text


async def test_a_change_a_dying_process_read_is_never_sent_to_another(
    nginx: tuple[int, int, Path, Path], processes: Processes, tmp_path: Path
) -> None:
    """The issue: "0 acknowledged actions lost, 0 duplicated". A process that read a press
    and died before answering may have applied it: nginx must not send the same press to the
    next process (`proxy_next_upstream` without `non_idempotent`); the page is told it failed
    (502) and its live connection brings it the truth."""
    https, http, _, _ = nginx
    trust = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
    connector = aiohttp.TCPConnector(resolver=school_dns(https, http), ssl=trust)
    async with aiohttp.ClientSession(connector=connector) as browser:
        holder = {code: (await _get(browser, f"/l/{code}/"))["upstream"] for code in CODES}
        code = next(code for code, name in holder.items() if name == "a")
        async with browser.post(f"{BASE}/l/{code}/table/crash", data={"card": "7"}) as press:
            assert press.status == 502
    assert processes["a"][0].app[CRASHES] == [("POST", "card=7")]
    assert processes["b"][0].app[CRASHES] == []  # the press reached one process only
