"""How the lesson is served to a school's network, as an operator tries it: the `Server:`
header names no version, HSTS behind HTTPS, the Host checked against the lesson's own
addresses (a DNS rebinding names another), and the teacher's key swapped for a cookie at
once, never in a URL the browser keeps or a line the log writes."""

from __future__ import annotations

import asyncio
import logging
import re
import socket

import aiohttp
import pytest
from aiohttp import web

from classroom.i18n import t
from table import cli
from table.app import make_app
from table.setup import MAX_NAME
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


def test_the_terminal_says_every_device_on_the_network_can_open_the_lesson(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The issue: "`mattekrig class` listens on every address …, and the comment 'on this
    computer' does not say that other devices can reach it now". It says so in plain words."""
    lesson = make_app("class")[LESSON]
    cli._announce_lesson(lesson, Served(), "0.0.0.0", 8080, "192.168.1.20")
    out = capsys.readouterr().out
    assert "pupils open http://192.168.1.20:8080/ with the code" in out
    assert "Every device on this computer's network can open http://192.168.1.20:8080/" in out
    cli._announce_lesson(lesson, Served(), "127.0.0.1", 8080, None)
    assert "Every device" not in capsys.readouterr().out  # only this computer: warned instead


def _taken() -> socket.socket:
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    return holder


def _free() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_taken_usual_port_moves_the_lesson_to_the_next_free_one_and_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue: "8080 is often taken". Without --port the lesson takes the next free port
    and says which; every usual port taken, or the one --port names, is one sentence."""
    with _taken() as holder:
        busy = holder.getsockname()[1]
        free = _free()
        monkeypatch.setattr(cli, "LESSON_PORTS", [busy, free])
        served = runner(make_app("class"))
        await served.setup()
        try:
            assert await cli._listen(served, "127.0.0.1", None, "class") == free
        finally:
            await served.cleanup()
        out = capsys.readouterr().out
        assert f"Port {busy} is taken by another program on this computer; " in out
        assert f"the lesson uses port {free}." in out
        monkeypatch.setattr(cli, "LESSON_PORTS", [busy])
        for given in (None, busy):
            served = runner(make_app("class"))
            await served.setup()
            taken = r"taken by (another program|other programs): choose"
            with pytest.raises(cli.PortTaken, match=taken):
                await cli._listen(served, "127.0.0.1", given, "class")


def test_a_port_given_and_taken_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    with _taken() as holder:
        busy = holder.getsockname()[1]
        args = ["class", "--host", "127.0.0.1", "--port", str(busy), "--no-browser"]
        assert cli.main(args) == 1
    err = capsys.readouterr().err
    assert err == (
        f"mattekrig class: cannot listen on 127.0.0.1: port {busy} is taken by another "
        "program: choose another with --port\n"
    )


async def test_the_tables_name_fields_allow_what_the_server_allows() -> None:
    """The issue: "the table's name field allows 64 characters where the server allows 32":
    a 40-character name typed in full was refused only after the press."""
    async for table in serve():
        page = await (await table.client.get("/?game=regnekrig&lang=en")).text()
        limits = re.findall(r'<input id="player\d" name="player\d" maxlength="(\d+)"', page)
        assert limits and set(limits) == {str(MAX_NAME)} == {"32"}


def test_behind_a_proxy_a_plain_port_open_to_the_network_is_warned_about(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The issue: "the plain port stays open beside the proxy". `--base-url` with the lesson
    on every address says so, and how to close it; on 127.0.0.1 nothing is said."""
    lesson = make_app("class")[LESSON]
    proxy = Served(base_url="https://mattekrig.school.example/")
    cli._announce_lesson(lesson, proxy, "0.0.0.0", 8080, "192.168.1.20")
    err = capsys.readouterr().err
    assert "Warning: listening on 0.0.0.0: the lesson's plain port 8080 is open beside" in err
    assert "Add --host 127.0.0.1" in err
    cli._announce_lesson(lesson, proxy, "127.0.0.1", 8080, None)
    assert capsys.readouterr().err == ""
