"""A lesson that survives its server (kill -9 of a real `mattekrig class`, then the same
command again), on SQLite and on PostgreSQL: the same code and teacher's link, every device
back in its seat at its game, and no acknowledged action lost or stored twice."""

from __future__ import annotations

import asyncio
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import aiohttp
import pytest

from storage import StoredLesson
from storage.contract import LessonStore
from table.keep import restore
from tests.postgres import fresh_schema_url
from tests.table.process import Server, http_session, stored_lesson
from tests.table.support import FakeClock

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed")  # two games and one against the computer
PRESSES = 4  # each pupil's presses before the crash


@dataclass
class Pupil:
    name: str
    session: aiohttp.ClientSession
    acked: int = 0
    refused: list[str] = field(default_factory=list)  # what the server said instead

    async def page(self) -> tuple[str, str]:
        """The page this device is shown now (its URL path and HTML), as a plain form sees it."""
        async with self.session.get("/table?lang=en") as response:
            return response.url.path, await response.text()

    async def press(self) -> bool:
        """The first control its page offers (an answer: the right one, so that the games go
        on round after round); True when the server acknowledged it."""
        _, page = await self.page()
        window = re.search(r'data-window="(\d+)"', page)
        choice = re.search(r'name="choice" value="([^"]+)"', page)
        if window is None or choice is None:
            return False
        data = {"window": window.group(1), "choice": choice.group(1), "answer": _sum(page),
                "lang": "en"}  # fmt: skip
        async with self.session.post(
            "/table/act", data=data, headers={"Accept": "application/json"}
        ) as response:
            if response.status != 200:
                self.refused.append(f"{response.status} {await response.text()}")
                return False
        self.acked += 1
        return True

    async def live_state(self) -> str:
        """The state of the first page the live connection brings (the reconnect)."""
        async with self.session.ws_connect("/live?lang=en&page=live") as ws:
            message = await ws.receive_json(timeout=10)
        return str(message.get("state", "?"))


def _sum(page: str) -> str:
    """Level 1's answer: the sum of the two cards the answer box names."""
    about = re.search(r'id="about">(.*?)</p>', page)
    values = re.findall(r'class="value">([^<]+)<', about.group(1) if about else "")
    return str(sum(int(v.replace("\u2212", "-")) for v in values))


async def _crash(server: Server, pupils: list[Pupil], url: str | None, data: Path) -> StoredLesson:
    """kill -9 while every pupil keeps pressing; then what the database holds."""
    pressing = True
    first = asyncio.Event()

    async def keep_pressing(pupil: Pupil) -> None:
        while pressing:
            try:
                if not await pupil.press():
                    return
            except (aiohttp.ClientError, OSError):
                return  # the server is gone: this press was never acknowledged
            first.set()

    tasks = [asyncio.create_task(keep_pressing(p)) for p in pupils]
    await first.wait()
    server.kill()
    pressing = False
    await asyncio.gather(*tasks)
    return await stored_lesson(url, data)


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
async def test_a_lesson_killed_mid_lesson_comes_back_whole(
    database: str, lesson_data: Path
) -> None:
    """Issue: kill -9 and `mattekrig class` again: the same code, the same teacher's link,
    every device's seat by its cookie, each game at its last committed action; no
    acknowledged action lost (every accepted action is committed before anyone sees it)."""
    url = fresh_schema_url() if database == "postgres" else None
    env = dict(os.environ)
    if url is not None:
        env["DATABASE_URL"] = url
    server = Server(env)
    base, code, link = server.start()
    teacher = http_session(base)
    pupils = [Pupil(name, http_session(base)) for name in NAMES]
    try:
        async with teacher.get(link[len(base) - 1 :]) as response:
            assert response.status == 200
        form = {"game": "regnekrig", "level": "1", "minutes": "0", "lang": "en"}
        async with teacher.post("/teacher/settings", data=form) as response:
            assert response.status == 200
        for pupil in pupils:
            join = {"code": code, "name": pupil.name, "lang": "en"}
            async with pupil.session.post("/join", data=join) as response:
                assert response.status == 200
        async with teacher.post("/teacher/pair", data={"how": "random", "lang": "en"}) as r:
            assert r.status == 200
        for _ in range(PRESSES):
            for pupil in pupils:
                await pupil.press()
        assert sum(p.acked for p in pupils) >= len(NAMES) * 2
        before = {p.name: await p.page() for p in pupils}
        assert all(path == "/table" for path, _ in before.values())
        stored = await _crash(server, pupils, url, lesson_data)
        assert stored.code == code
        names = {s.id: s.name for s in stored.seats}
        pressed = Counter(names[a.seat_id] for a in stored.actions if a.seat_id is not None)
        for pupil in pupils:  # every acknowledged press is stored, once (and one in flight may)
            assert pupil.acked <= pressed[pupil.name] <= pupil.acked + 1, pupil.name
        # Each game as its stored actions replay it: what every device must be shown again.
        replayed, _ = restore(stored, cast(LessonStore, None), FakeClock(), key=None, keep_ms=0)
        windows = {
            s.name: replayed.games.get(s.game_id).state.window  # type: ignore[union-attr]
            for s in stored.seats
            if s.game_id
        }

        base_again, code_again, link_again = server.start()
        assert (base_again, code_again, link_again) == (base, code, link)
        for pupil in pupils:
            assert await pupil.live_state() in ("playing", "war", "over", "waiting")
            path, page = await pupil.page()
            assert path == "/table", pupil.name  # the seat, by the device's cookie
            assert f'data-window="{windows[pupil.name]}"' in page, pupil.name
        async with teacher.get("/teacher?lang=en") as response:
            assert response.status == 200  # the teacher's cookie still opens the page
        played_on = [await p.press() for p in pupils]
        assert any(played_on), [(p.name, p.refused) for p in pupils]
    finally:
        err = server.stop()
        await teacher.close()
        for pupil in pupils:
            await pupil.session.close()
    assert "Traceback" not in err


async def test_new_starts_a_fresh_lesson_and_an_old_page_offers_the_way_in(
    lesson_data: Path,
) -> None:
    """Issue: `--new` starts a fresh lesson; a page whose seat is gone offers the join form,
    never a dead end."""
    server = Server(dict(os.environ))
    base, code, _ = server.start()
    pupil = Pupil("Ada", http_session(base))
    try:
        async with pupil.session.post("/join", data={"code": code, "name": "Ada"}) as response:
            assert response.status == 200
        server.kill()
        _, fresh, _ = server.start("--new")
        assert fresh != code
        path, page = await pupil.page()
        assert path == "/" and 'name="code"' in page and 'name="name"' in page
        assert await pupil.live_state() == "join"  # the live page is given the way in too
    finally:
        server.stop()
        await pupil.session.close()
