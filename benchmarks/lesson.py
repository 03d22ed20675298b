"""A class lesson under load on one machine: `python -m benchmarks.lesson`.

Why: every device of a game must see a press at once (the target: from an action to every
device of that game updated, p99 ≤ 100 ms on a 2-core machine with the load generator on
it), and a teacher must know what one laptop holds.

The server is `python -m table class` in a process of its own on 127.0.0.1 (so its CPU is
its own). The load generator joins `--devices` pupils (default 32: 16 games), each an HTTP
session with its own cookie and a live WebSocket, plus the teacher's page with its live
overview; the teacher chooses Regnekrig level 1 with no timers and pairs the class at random.
Then every game plays as its pupils would, quickly: the device whose page offers a control
presses it (an answer, or Flip), waits until every device of its game has its new page, and
presses again after a pause of 0 to `--pause` ms. One action's time is from sending the press
to the last device of that game receiving its update. Printed: the actions, the actions a
second, p50 and p99 of that time, and the server's CPU per action (from /proc).

Then the crash: the server is killed (kill -9) mid-lesson and the same command started again
(its lesson kept in a data folder of the benchmark's own); the time from starting it to every
device back at its table (its live connection open again, its first page its seat's, not the
join page) is printed, against the target of 3 s. The devices knock every 50 ms, as a page's
script does at its quickest; a page waits at most 1 s between tries (table.js).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import aiohttp

from benchmarks.devices import (
    TARGET_P99_MS,
    Device,
    back,
    connect,
    load,
    pairs,
    percentile,
    play,
    process_cpu,
)

TARGET_RESTART_S = 3.0


async def _start_server(
    data: str, port: int = 0, *extra: str
) -> tuple[subprocess.Popen[str], str, str, str]:
    """`python -m table class`, its lesson kept in `data` (never the user's own folder)."""
    env = {**os.environ, "XDG_DATA_HOME": data}
    env.pop("DATABASE_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "table", "class", "--host", "127.0.0.1", "--port", str(port),
         "--no-browser", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )  # fmt: skip
    assert process.stdout is not None
    said = ""
    while "Teacher's page" not in said:
        line = await asyncio.to_thread(process.stdout.readline)
        if not line:
            break
        said += line
    found = re.search(r"open (\S+) with the code (\d+)", said)
    key = re.search(r"(http\S+teacher\?key=\S+)", said)
    if found is None or key is None:
        process.kill()
        raise SystemExit(f"the lesson did not start: {said!r}")
    return process, found.group(1), found.group(2), key.group(1)


async def _restart(
    process: subprocess.Popen[str], data: str, base: str, code: str, pupils: list[Device]
) -> tuple[subprocess.Popen[str], float, float]:
    """kill -9, then the same command again: seconds until every device is back, and until
    the server said it was ready (its start: the interpreter, its imports, the restore)."""
    for pupil in pupils:
        if pupil.ws is not None:
            await pupil.ws.close()
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=10)
    port = int(base.rstrip("/").rsplit(":", 1)[1])
    started = time.perf_counter()
    knocking = [asyncio.create_task(back(p, started + 30)) for p in pupils]
    again, _, code_again, _ = await _start_server(data, port)
    ready = time.perf_counter()
    returned = await asyncio.gather(*knocking)
    if code_again != code:
        raise SystemExit(f"the lesson came back with another code: {code_again} for {code}")
    return again, max(returned) - started, ready - started


async def _device(base: str, name: str) -> Device:
    session = aiohttp.ClientSession(
        base_url=base, cookie_jar=aiohttp.CookieJar(unsafe=True), headers={"Origin": base[:-1]}
    )
    return Device(name, session)


async def run(devices: int, seconds: float, pause_ms: float, seed: int) -> dict[str, Any]:
    data = tempfile.mkdtemp(prefix="mattekrig-bench-")
    process, base, code, teacher_url = await _start_server(data, 0, "--new")
    pupils: list[Device] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        teacher = await _device(base, "teacher")
        async with teacher.session.get(teacher_url[len(base) - 1 :]) as response:
            await response.read()
        form = {"game": "regnekrig", "level": "1", "answer_seconds": "0", "minutes": "0",
                "lang": "en"}  # fmt: skip
        async with teacher.session.post("/teacher/settings", data=form) as response:
            await response.read()
        tasks.append(await connect(teacher, teacher=True))
        for n in range(devices):
            pupil = await _device(base, f"P{n}")
            async with pupil.session.post(
                "/join", data={"code": code, "name": pupil.name, "lang": "en"}
            ) as response:
                await response.read()
            tasks.append(await connect(pupil))
            pupils.append(pupil)
        async with teacher.session.post("/teacher/pair", data={"how": "random", "lang": "en"}):
            pass
        for _ in range(100):  # every device has its table
            if all(p.page.get("state") in ("playing", "war") for p in pupils):
                break
            await asyncio.sleep(0.05)
        groups = pairs(pupils)
        times: list[float] = []
        cpu_before = process_cpu(process.pid)
        start = time.monotonic()
        rng = random.Random(seed)
        await asyncio.gather(
            *(play(g, times, start + seconds, (0, pause_ms / 1000), rng) for g in groups)
        )
        elapsed = time.monotonic() - start
        cpu_after = process_cpu(process.pid)
        process, restart, ready = await _restart(process, data, base, code, pupils)
    finally:
        for task in tasks:
            task.cancel()
        for pupil in pupils:
            await pupil.session.close()
        if pupils:
            await teacher.session.close()
        process.terminate()
        process.communicate(timeout=10)
        shutil.rmtree(data, ignore_errors=True)
    cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    ordered = sorted(times)
    return {
        "devices": devices,
        "games": len(groups),
        "actions": len(times),
        "per_second": len(times) / elapsed,
        "p50": statistics.median(ordered),
        "p99": percentile(ordered, 0.99),
        "cpu_ms": None if cpu is None else cpu * 1000 / max(1, len(times)),
        "restart_s": restart,
        "ready_s": ready,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.lesson", description=__doc__)
    parser.add_argument("--devices", type=int, default=32, help="pupils' devices (default 32)")
    parser.add_argument("--seconds", type=float, default=20, help="how long (default 20)")
    parser.add_argument("--pause", type=float, default=200, help="max ms between presses")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    before = load()
    result = asyncio.run(run(args.devices, args.seconds, args.pause, args.seed))
    print(f"load average (1 min) before {before}, after {load()}")
    cpu = "n/a" if result["cpu_ms"] is None else f"{result['cpu_ms']:.2f} ms"
    verdict = "met" if result["p99"] <= TARGET_P99_MS else "MISSED"
    print(
        f"{result['devices']} devices, {result['games']} games: {result['actions']} actions "
        f"({result['per_second']:.0f}/s); action -> every device of its game updated: "
        f"p50 {result['p50']:.1f} ms, p99 {result['p99']:.1f} ms (target {TARGET_P99_MS:.0f} "
        f"ms: {verdict}); server CPU per action {cpu}"
    )
    back = "met" if result["restart_s"] <= TARGET_RESTART_S else "MISSED"
    print(
        f"kill -9, then `mattekrig class` again: every device back at its table in "
        f"{result['restart_s']:.2f} s (target {TARGET_RESTART_S:.0f} s: {back}); the server "
        f"said it was ready after {result['ready_s']:.2f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
