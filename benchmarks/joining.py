"""Guessing a lesson's code under a flood: `python -m benchmarks.joining`.

Why: a six-digit code checked without a limit falls in minutes (the whole code space at
1,400 wrong codes a second); the lesson must check at most about ten wrong codes a second in
all, and still let a pupil with the right code in at once, from the same school address.

A class lesson is served on 127.0.0.1 with the real clock. For `--seconds` (default 10)
`--flood` tasks (default 8) send wrong codes as fast as the server answers: half as a script
without cookies, half as a browser that opens the join page for a fresh cookie before every
try. Meanwhile, every second or so, a pupil opens the join page, types for `RIPE` seconds and
joins with the right code.
Printed: the tries a second, the wrong codes the server checked a second (the rest were
refused with 429 before their code was compared), and the pupils' join times.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import aiohttp
from aiohttp import web

from table.app import make_app
from table.class_web import GUARD
from table.joining import RIPE
from table.web import LESSON


async def _serve() -> tuple[web.AppRunner, str]:
    app = make_app("class")
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, f"http://127.0.0.1:{port}"


async def run(seconds: float, flood: int) -> dict[str, float]:
    runner, base = await _serve()
    app = runner.app
    lesson = app[LESSON]
    wrong = f"{(int(lesson.code) + 1) % 1_000_000:06d}"
    statuses: dict[int, int] = {}
    joins: list[float] = []
    stop = time.monotonic() + seconds

    async def guesser(browser: bool) -> None:
        jar: aiohttp.abc.AbstractCookieJar = (
            aiohttp.CookieJar(unsafe=True) if browser else aiohttp.DummyCookieJar()
        )
        async with aiohttp.ClientSession(base, cookie_jar=jar, headers={"Origin": base}) as s:
            while time.monotonic() < stop:
                if browser:
                    s.cookie_jar.clear()
                    async with s.get("/") as page:
                        await page.read()
                form = {"code": wrong, "name": "x", "lang": "en"}
                async with s.post("/join", data=form, allow_redirects=False) as answer:
                    await answer.read()
                    statuses[answer.status] = statuses.get(answer.status, 0) + 1

    async def pupils() -> None:
        n = 0
        while time.monotonic() < stop - RIPE - 1:
            await asyncio.sleep(1)
            n += 1
            jar = aiohttp.CookieJar(unsafe=True)
            async with aiohttp.ClientSession(base, cookie_jar=jar, headers={"Origin": base}) as s:
                async with s.get("/") as page:
                    await page.read()
                await asyncio.sleep(RIPE)  # the pupil types the code and a name
                began = time.monotonic()
                form = {"code": lesson.code, "name": f"Elev {n}", "lang": "en"}
                async with s.post("/join", data=form, allow_redirects=False) as answer:
                    await answer.read()
                    assert answer.status == 303, answer.status
                joins.append(time.monotonic() - began)

    began = time.monotonic()
    await asyncio.gather(*(guesser(n % 2 == 1) for n in range(flood)), pupils())
    took = time.monotonic() - began
    await runner.cleanup()
    tries = sum(statuses.values())
    return {
        "seconds": took,
        "tries_per_second": tries / took,
        "checked_per_second": app[GUARD].checked_wrong / took,
        "refused_429": statuses.get(429, 0),
        "pupils_in": len(joins),
        "join_ms_max": max(joins) * 1000 if joins else 0.0,
        "join_ms_median": statistics.median(joins) * 1000 if joins else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--flood", type=int, default=8)
    args = parser.parse_args()
    found = asyncio.run(run(args.seconds, args.flood))
    print(
        f"{found['tries_per_second']:.0f} tries a second for {found['seconds']:.1f} s; "
        f"wrong codes checked: {found['checked_per_second']:.1f} a second "
        f"({found['refused_429']:.0f} refused with 429 before their code was compared); "
        f"{found['pupils_in']:.0f} pupils with the right code joined meanwhile, "
        f"median {found['join_ms_median']:.0f} ms, slowest {found['join_ms_max']:.0f} ms"
    )


if __name__ == "__main__":
    main()
