"""How the lesson is served to a school's network, as an operator tries it: the `Server:`
header names no version, HSTS behind HTTPS, the Host checked against the lesson's own
addresses (a DNS rebinding names another), and the teacher's key swapped for a cookie at
once, never in a URL the browser keeps or a line the log writes."""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import pytest
from aiohttp import web

from classroom.i18n import t
from table.app import make_app
from table.web import HSTS, LESSON, TEACHER_COOKIE, Served, runner
from tests.table.support import serve

PROXY = "https://mattekrig.school.example"

pytestmark = pytest.mark.usefixtures("quiet_log")


@pytest.mark.parametrize("kind", ["play", "class"])
async def test_the_server_header_names_no_library_and_no_version(kind: str) -> None:
    """The issue: "`Server:` names aiohttp's version" (a scanner's first clue). Every answer,
    a page, a refusal, the live connection's handshake, names the game alone."""
    async for table in serve(kind=kind):  # type: ignore[arg-type]
        for path in ("/", "/nowhere", "/static/table.css"):
            response = await table.client.get(path)
            assert response.headers["Server"] == "Mattekrig", path
        if kind == "class":
            async with table.client.ws_connect("/live") as ws:
                await ws.close()
            live = await table.client.get(
                "/live", headers={"Upgrade": "websocket", "Connection": "Upgrade"}
            )
            assert "aiohttp" not in live.headers.get("Server", "")


async def test_a_request_no_handler_can_read_names_no_version_either() -> None:
    """A browser speaking TLS to the plain port gets aiohttp's own 400, before any route:
    its `Server:` names the game alone too."""
    async for table in serve():
        assert table.client.port is not None
        reader, writer = await asyncio.open_connection("127.0.0.1", table.client.port)
        writer.write(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 hello\r\n\r\n")
        await writer.drain()
        head = (await reader.read(4096)).decode("latin-1")
        writer.close()
        assert head.startswith("HTTP/1.") and " 400 " in head.split("\r\n")[0]
        assert "\r\nServer: Mattekrig\r\n" in head and "aiohttp" not in head


async def test_hsts_only_behind_https() -> None:
    """The issue: "no HSTS" behind the school's HTTPS proxy. With `--base-url https://…`
    every answer tells the browser to come back by HTTPS only; on the school's plain network
    (a laptop lesson at http://10.0.0.5:8080/) it would lock the pupils out, so it is not sent."""
    async for table in serve(kind="class", served=Served(base_url=PROXY + "/")):
        for path in ("/", "/nowhere"):
            response = await table.client.get(path, headers={"Host": "mattekrig.school.example"})
            assert response.headers["Strict-Transport-Security"] == HSTS == "max-age=31536000"
    async for table in serve(kind="class"):
        response = await table.client.get("/")
        assert "Strict-Transport-Security" not in response.headers


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "localhost", "10.0.0.5:8080", "[::1]:8080", "mattekrig.school.example",
     "MATTEKRIG.school.example:443"],
)  # fmt: skip
async def test_the_lessons_own_addresses_are_answered(host: str) -> None:
    async for table in serve(kind="class", served=Served(base_url=PROXY + "/")):
        response = await table.client.get("/?lang=en", headers={"Host": host})
        assert response.status == 200, host


@pytest.mark.parametrize("kind", ["play", "class"])
async def test_a_host_the_lesson_never_named_is_refused_in_words(kind: str) -> None:
    """The issue: "the Host header is not checked (DNS rebinding against a lesson on every
    address)". A page at evil.example whose name is made to point at the lesson's address
    reads the lesson as its own origin; its requests name evil.example as their Host. They
    are refused with a page in the browser's language, and nothing changes."""
    async for table in serve(kind=kind):  # type: ignore[arg-type]
        evil = {"Host": "evil.example:8080", "Origin": "http://evil.example:8080",
                "Accept-Language": "nn"}  # fmt: skip
        response = await table.client.get("/", headers=evil)
        assert response.status == 421
        page = await response.text()
        assert t("table.error.wrong_host", "nn") in page.replace("&#x27;", "'")
        assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
        path, form = ("/join", {"code": table.lesson.code, "name": "Ada"})
        if kind == "play":
            path, form = ("/games", {"game": "regnekrig", "player1": "Ada", "player2": "Bo"})
        response = await table.client.post(path, data=form, headers=evil, allow_redirects=False)
        assert response.status == 421
        assert not table.lesson.seats and len(table.games) == 0


async def test_a_host_given_to_the_lesson_by_name_is_its_own() -> None:
    """`--host mattekrig.local`: the name the lesson listens on is one of its own."""
    served = Served(names=("Mattekrig.local",))
    assert served.own_host("mattekrig.local:8080") and not served.own_host("other.local")
    assert not Served().own_host("") and not Served().own_host("evil.example")


async def test_the_teachers_key_becomes_a_cookie_and_leaves_the_address_and_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The issue: "the teacher's key travels as `?key=`": the first request swaps it for a
    cookie and sends the browser on to an address without it (so it is not in the history,
    a bookmark or the next request's log line); the lesson, served as `mattekrig class`
    serves it, logs no request line at all (aiohttp's access log would write the key)."""
    caplog.set_level(logging.DEBUG)
    app = make_app("class", served=Served(base_url=PROXY + "/"))
    served = runner(app)
    await served.setup()
    site = web.TCPSite(served, "127.0.0.1", 0)
    await site.start()
    port = served.addresses[0][1]
    secret = app[LESSON].teacher_secret
    assert secret is not None
    try:
        jar = aiohttp.CookieJar(unsafe=True)
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port}", cookie_jar=jar) as boss:
            async with boss.get(f"/teacher?key={secret}", allow_redirects=False) as response:
                assert response.status == 303
                assert response.headers["Location"] == "/teacher?lang=en"
                assert response.cookies[TEACHER_COOKIE].value == secret
                assert response.headers["Strict-Transport-Security"] == HSTS
            async with boss.get("/teacher?lang=en", cookies={TEACHER_COOKIE: secret}) as page:
                assert page.status == 200
                assert secret not in await page.text()
    finally:
        await served.cleanup()
    assert not [r for r in caplog.records if r.name == "aiohttp.access"]
    assert not [r for r in caplog.records if secret in r.getMessage()]
