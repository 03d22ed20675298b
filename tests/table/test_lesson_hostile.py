"""Hostile input to a class lesson changes nothing and is answered in words: every POST and
the live connection check their Origin (the lesson's own pages, or the school proxy's public
address), a body that is too large or no form gets a localised page with the security
headers, and a pupil's replay file waits for the end of the game."""

from __future__ import annotations

import json
import re

import aiohttp
import pytest
from aiohttp import web

from classroom.i18n import t
from engine.replay import run
from table.class_web import HUB
from table.controls import CONTROLS
from table.live import MAX_SOCKETS, REPLACED
from table.web import SECURITY_HEADERS, TEACHER_COOKIE, Served
from tests.table.lessons import Device, join, teacher
from tests.table.support import Table, message_of, serve

PROXY = "https://mattekrig.school.example"


pytestmark = pytest.mark.usefixtures("quiet_log")


def post_paths(app: web.Application) -> list[str]:
    """Every POST the lesson answers (a route added later is checked too)."""
    paths = []
    for route in app.router.routes():
        if route.method == "POST":
            info = route.resource.get_info() if route.resource else {}
            path = info.get("path") or info.get("formatter", "")
            if "{control}" in path:
                paths += [path.replace("{control}", c) for c in CONTROLS]
            else:
                paths.append(re.sub(r"\{\w+\}", "x", path))
    return paths


def secured(response: aiohttp.ClientResponse) -> bool:
    return all(response.headers.get(k) == v for k, v in SECURITY_HEADERS.items())


@pytest.mark.parametrize("kind", ["class", "play"])
@pytest.mark.parametrize("origin", [None, "http://evil.example", "null", PROXY])
async def test_every_post_and_the_live_connection_check_the_origin(
    kind: str, origin: str | None
) -> None:
    """A request that does not come from the lesson's own pages (another site's form or
    script, a sandboxed frame: Origin "null", or no Origin at all) is refused before it is
    read, on every POST route and the WebSocket, from a device holding a seat and the
    teacher's key alike; nothing changes."""
    async for table in serve(seeds=[7], kind=kind):  # type: ignore[arg-type]
        boss = await teacher(table) if kind == "class" else Device.new(table)
        pupil = None
        if kind == "class":
            pupil, _ = await join(table, "Ada")
        paths = post_paths(table.app)
        # The class's POSTs: join, a press, more time, a challenge and its answer, the teacher's
        # controls, and deleting a lesson kept.
        assert len(paths) == (6 + len(CONTROLS) if kind == "class" else 4)
        version = table.lesson.version
        for device in [d for d in (boss, pupil) if d is not None]:
            headers = {} if origin is None else {"Origin": origin}
            del device.session.headers["Origin"]
            for path in paths:
                async with device.session.post(
                    path + "?lang=sv", data={"lang": "sv", "how": "random"}, headers=headers,
                    allow_redirects=False,
                ) as response:  # fmt: skip
                    assert response.status == 403, path
                    assert message_of(await response.text()) == t("table.error.cross_site", "sv")
                    assert secured(response)
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await device.session.ws_connect("/live?lang=sv", headers=headers)
            assert refused.value.status == 403
            device.session.headers["Origin"] = table.origin
        assert table.lesson.version == version and not table.lesson.paused
        assert len(table.lesson.seats) == (1 if kind == "class" else 0)
        for device in [d for d in (boss, pupil) if d is not None]:
            await device.close()


async def test_behind_the_schools_https_proxy_the_public_address_is_the_lessons_own() -> None:
    """`--base-url`: the pages are served by the school's HTTPS proxy. A press from the page
    at the public address is the lesson's own (the proxy passes the Host it was asked for, or
    its own); the device's secret is a Secure cookie; the teacher's page shows the public
    address and its QR code; another site is still refused."""
    served = Served(base_url=PROXY + "/")
    async for table in serve(seeds=[7], kind="class", served=served):
        boss = Device.new(table)
        boss.session.headers["Origin"] = PROXY
        async with boss.session.get(
            f"/teacher?key={table.lesson.teacher_secret}", allow_redirects=False
        ) as response:
            assert response.status == 303
            cookie = response.cookies[TEACHER_COOKIE]
        assert cookie["secure"] and cookie["httponly"] and cookie["samesite"] == "Strict"
        # aiohttp's client keeps a Secure cookie for https; the proxy's browser sends it.
        boss.session.cookie_jar.update_cookies({TEACHER_COOKIE: cookie.value})
        status, page = await boss.get("/teacher?lang=en")
        assert status == 200 and f'data-join-url="{PROXY}/"' in page and "<svg" in page
        for host in ("mattekrig.school.example", None):
            pupil = Device.new(table)
            pupil.session.headers["Origin"] = PROXY
            headers = {"Host": host} if host else {}
            async with pupil.session.post(
                "/join", data={"code": table.lesson.code, "name": f"Ada {host}", "lang": "en"},
                headers=headers, allow_redirects=False,
            ) as response:  # fmt: skip
                assert response.status == 303
                set_cookie = response.headers["Set-Cookie"]
            assert (
                "Secure" in set_cookie
                and "HttpOnly" in set_cookie
                and "SameSite=Strict" in set_cookie
            )
            ws = await pupil.session.ws_connect("/live?lang=en", headers=headers)
            assert json.loads(await ws.receive_str()) == {"check": "ok"}
            await ws.close()
            await pupil.close()
        assert len(table.lesson.seats) == 2
        stranger = Device.new(table)
        stranger.session.headers["Origin"] = "https://evil.example"
        status, _ = await stranger.post("/join", code=table.lesson.code, name="Eve", lang="en")
        assert status == 403 and len(table.lesson.seats) == 2
        for device in (boss, stranger):
            await device.close()


@pytest.mark.parametrize("lang", ["nb", "nn", "sv", "en"])
async def test_a_body_too_large_or_no_form_is_a_localised_page_with_the_headers(
    lesson: Table, lang: str
) -> None:
    """Bad or oversized input gets a 400 or 413 page in the pupil's language, with the
    security headers, never a 500; nobody joins."""
    device = Device.new(lesson)
    cases = [
        ({"Content-Type": "application/x-www-form-urlencoded"}, b"name=" + b"A" * 70_000, 413,
         t("table.error.too_large", lang)),
        ({"Content-Type": "multipart/form-data; boundary=x"}, b"--x\r\nnonsense", 400,
         t("lesson.error.code", lang)),
        ({"Content-Type": "application/x-www-form-urlencoded"}, b"code=%FF%FE&name=%00", 400,
         t("lesson.error.code", lang)),
    ]  # fmt: skip
    for headers, body, status, said in cases:
        async with device.session.post(
            f"/join?lang={lang}", data=body, headers={**headers, "Accept-Language": lang}
        ) as response:
            assert response.status == status
            page = await response.text()
            assert f'<html lang="{lang}">' in page and message_of(page) == said
            assert secured(response)
    assert not lesson.lesson.seats
    await device.close()


async def test_a_pupils_replay_file_waits_for_the_end_of_the_game(lesson: Table) -> None:
    """RULES §1.6: the replay file holds the seed (every card to come) and the other side's
    answers: a pupil gets it once the game is over, and it plays back."""
    boss = await teacher(lesson)
    ada, _ = await join(lesson, "Ada")
    bo, _ = await join(lesson, "Bo")
    await boss.post("/teacher/pair", how="random", lang="en")
    (game,) = lesson.lesson.live_games()
    async with ada.session.get("/table/replay.json?lang=nn") as response:
        assert response.status == 409
        body = await response.text()
    assert message_of(body) == t("table.error.replay_after", "nn") and '"seed"' not in body
    await boss.post("/teacher/end", lang="en")  # RULES §1.5: the round in play is finished
    for _ in range(5):
        lesson.clock.now += 61  # nobody answers: the answer time runs out
        lesson.lesson.tick()
    assert game.over
    async with ada.session.get("/table/replay.json") as response:
        assert response.status == 200
        replayed = run(json.loads(await response.text()))
    assert replayed["status"] == "over"
    for device in (ada, bo, boss):
        await device.close()


async def test_a_device_opening_many_live_connections_keeps_only_its_last_few(
    lesson: Table,
) -> None:
    """A device with a few tabs is normal; one that opens hundreds of live connections would
    make every change of its game cost hundreds of pages for the whole lesson. Beyond
    `MAX_SOCKETS` the device's oldest connections are closed, with a code that tells the page
    not to reconnect (else the tabs would close each other in turn for ever)."""
    ada, seat = await join(lesson, "Ada")
    sockets = [await ada.session.ws_connect("/live?lang=en") for _ in range(MAX_SOCKETS + 2)]
    for ws in sockets:
        first = json.loads(await ws.receive_str())
        assert first["state"] == "waiting"
    for ws in sockets[:2]:
        closing = await ws.receive()
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert (closing.type, closing.data) == (aiohttp.WSMsgType.CLOSE, REPLACED)
    hub = lesson.app[HUB]
    assert len(hub.pupils[seat.device]) == MAX_SOCKETS
    bo, _ = await join(lesson, "Bo")  # a change: each kept connection hears of it
    for ws in sockets[2:]:
        assert json.loads(await ws.receive_str())["state"] == "waiting"
    for ws in sockets:
        await ws.close()
    for device in (ada, bo):
        await device.close()
