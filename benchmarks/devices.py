"""Simulated pupils' devices and what the lesson benchmarks measure them by, shared by
`benchmarks.lesson` (one lesson on a laptop) and `benchmarks.school` (many lessons on a school
server): a device is an HTTP session with its own cookies and a live WebSocket, its lesson's
pages under ``root`` ("" on a laptop, "/l/<code>" on the school server).

Every game plays as its pupils would, quickly: the device whose page offers a control presses
it (an answer, or Flip), waits until every device of its game has its new page, and presses
again after a pause. One action's time is from sending the press to the last device of that
game receiving its update.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

TARGET_P99_MS = 100.0
SEAT_STATES = ("playing", "war", "over", "waiting")  # a live page that is a seat's, not the door


@dataclass
class Device:
    name: str
    session: aiohttp.ClientSession
    root: str = ""  # the lesson's pages: "" (`mattekrig class`) or "/l/<code>" (the server)
    ws: aiohttp.ClientWebSocketResponse | None = None
    page: dict[str, Any] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    received: int = 0

    async def read(self) -> None:
        assert self.ws is not None
        async for message in self.ws:
            if message.type is aiohttp.WSMsgType.TEXT:
                data = json.loads(message.data)
                if "html" not in data:
                    continue  # a part alone (the class goal, moved by another game's round)
                self.page = data
                self.received += 1
                self.changed.set()

    @property
    def control(self) -> str | None:
        html = self.page.get("html", "")
        if 'name="answer"' in html:
            return "answer"
        if 'value="flip"' in html:
            return "flip"
        return None


def load() -> str:
    """The machine's load average over the last minute (Linux), as shared machines vary."""
    try:
        with open("/proc/loadavg", encoding="ascii") as loadavg:
            return loadavg.read().split()[0]
    except OSError:
        return "n/a"


def process_cpu(pid: int) -> float | None:
    """A process's user + system CPU seconds so far (Linux /proc), else None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def process_waited(pid: int) -> float | None:
    """Seconds a process's threads have waited for a core so far, ready to run but another
    process on it (Linux /proc schedstat: on a shared machine, the others' share), else None."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
        total = 0
        for task in tasks:
            with open(f"/proc/{pid}/task/{task}/schedstat", encoding="ascii") as stat:
                total += int(stat.read().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return total / 1e9


def percentile(ordered: list[float], share: float) -> float:
    """The value ``share`` of the way up ``ordered`` (sorted), as the benchmarks have read it."""
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


async def connect(device: Device, teacher: bool = False) -> asyncio.Task[None]:
    device.ws = await device.session.ws_connect(
        f"{device.root}/live?lang=en" + ("&as=teacher" if teacher else "")
    )
    return asyncio.create_task(device.read())


async def back(device: Device, until: float) -> float:
    """Knock until the device's live connection is open again and brings its seat's page;
    returns when (perf_counter)."""
    while time.perf_counter() < until:
        try:
            async with device.session.ws_connect(f"{device.root}/live?lang=en&page=live") as ws:
                message = await ws.receive_json(timeout=5)
                if message.get("state") in SEAT_STATES:
                    return time.perf_counter()
                raise SystemExit(f"{device.name} was not given its seat back: {message}")
        except (aiohttp.ClientError, OSError, TimeoutError):
            await asyncio.sleep(0.05)
    raise SystemExit(f"{device.name} did not get back in time")


def _sum(html: str) -> str:
    """Level 1's answer: the sum of the two cards the answer box names (a pupil who is right,
    so the games go on round after round instead of ending in wars)."""
    about = re.search(r'id="about">(.*?)</p>', html)
    values = re.findall(r'class="value">([^<]+)<', about.group(1) if about else "")
    return str(sum(int(v.replace("\u2212", "-")) for v in values))


async def press(device: Device) -> int:
    """The device presses what its page offers; the answer's HTTP status."""
    page = device.page
    window = page.get("data", {}).get("window", "")
    data = {"window": window, "lang": "en"}
    if device.control == "answer":
        data.update(choice="answer", answer=_sum(page.get("html", "")))
    else:
        data.update(choice="flip")
    async with device.session.post(
        f"{device.root}/table/act", data=data, headers={"Accept": "application/json"}
    ) as response:
        await response.read()
        return response.status


async def play(game: list[Device], times: list[float], until: float, pause: tuple[float, float],
               rng: random.Random) -> None:  # fmt: skip
    """Press after press until ``until`` (monotonic), ``pause`` seconds (from, to) between a
    press seen by all and the next; each press's time (ms) to ``times``."""
    while time.monotonic() < until:
        actor = next((d for d in game if d.control is not None), None)
        if actor is None:
            return  # the game is over
        for device in game:
            device.changed.clear()
        seen = [d.received for d in game]
        sent = time.perf_counter()
        status = await press(actor)
        if status != 200:
            raise SystemExit(f"{actor.name}'s press was answered {status}")
        for device, before in zip(game, seen, strict=True):
            while device.received == before:
                device.changed.clear()
                await asyncio.wait_for(device.changed.wait(), 5)
        times.append((time.perf_counter() - sent) * 1000)
        await asyncio.sleep(rng.uniform(*pause))


def pairs(pupils: list[Device]) -> list[list[Device]]:
    """The games: each pupil's page names both sides (its own and its partner's)."""
    by_name = {p.name: p for p in pupils}
    groups: list[list[Device]] = []
    placed: set[str] = set()
    for pupil in pupils:
        if pupil.name in placed:
            continue
        html = pupil.page.get("html", "")
        names = re.findall(r'<article class="side"[^>]*><h2>(?:[^A-Za-z<]*)(P\d+)', html)
        group = [by_name[n] for n in names if n in by_name]
        placed.update(d.name for d in group)
        groups.append(group)
    return groups
