"""The pupils of the class simulation (`test_lesson_class`): scripted devices that play as a
class does, each with its own cookies, against a real `mattekrig class`.

* `Pupil`: an HTTP session with a live WebSocket, as a page's script uses them: it acts on
  each page the live connection brings (once per page), answers within a second, names a
  target, bets or passes; when the connection drops it knocks again as `table.js` does
  (250 ms, doubling, at most a second between tries).
* `BrowserPupil`: a page in headless Chromium, played by its keyboard and buttons; its own
  script keeps its live connection and reconnects by itself.

Both count the presses the server acknowledged (a 200 for the press), which must all be in
the stored games, and keep what their live connection brought after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp

from engine.solver import best, number_answer
from tests.table.process import http_session

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Page, WebSocket

LEVEL = 5
MINUS = "\u2212"
SEAT_STATES = ("playing", "war", "over", "waiting")
_CHOICE = re.compile(r'name="choice" value="([^"]+)"')
_TARGET = re.compile(r"Target: ([\u2212-]?\d+)")


def _number(text: str) -> int:
    return int(text.replace(MINUS, "-"))


def answer_for(values: list[str], about: str, rng: random.Random) -> str:
    """Level 5: the value closest to the target (RULES §2.5), as a pupil types it with its
    working; now and then a wrong value (a mistake for the summary)."""
    target = _TARGET.search(about)
    if len(values) != 2 or target is None:
        return "0"
    play = best(_number(values[0]), _number(values[1]), LEVEL, _number(target.group(1)))
    if play.value is None:
        return "0"
    if rng.random() < 0.15:
        return number_answer(play.value + 1)
    return play.answer


def pick(choices: list[str], rng: random.Random) -> str | None:
    """A target, a bet or no bet, or the page's first choice."""
    if not choices:
        return None
    targets = [c for c in choices if c.startswith("target:")]
    if targets:
        return rng.choice(targets)
    bets = [c for c in choices if c.startswith("bet:") or c == "pass"]
    if bets:
        return rng.choice(bets)
    return choices[0]


@dataclass
class Pupil:
    """A pupil's device as an HTTP client with a live WebSocket."""

    name: str
    base: str
    rng: random.Random
    root: str = ""  # the lesson's root on the server ("/l/<code>"), "" for `mattekrig class`
    session: aiohttp.ClientSession = field(init=False)
    page: dict[str, Any] = field(default_factory=dict)  # the last whole page received
    pages: int = 0  # whole pages received
    acted: int = -1  # the page (its number) last acted on
    acked: int = 0  # presses the server acknowledged
    refused: Counter[str] = field(default_factory=Counter)  # status and sentence
    fresh: asyncio.Event = field(default_factory=asyncio.Event)
    ws: aiohttp.ClientWebSocketResponse | None = None
    reader: asyncio.Task[None] | None = None
    back: tuple[float, dict[str, Any]] | None = None  # after a restart: when, its first page

    def __post_init__(self) -> None:
        self.session = http_session(self.base)

    async def join(self, code: str, name: str | None = None) -> int:
        """Open the join page (its mark), then join with the code and a name."""
        async with self.session.get(f"{self.root}/?lang=en") as response:
            await response.read()
        form = {"code": code, "name": name or self.name, "lang": "en"}
        async with self.session.post(f"{self.root}/join", data=form) as response:
            await response.read()
            return response.status

    async def connect(self) -> dict[str, Any]:
        """Open the live connection as a live page does; returns its first message."""
        self.ws = await self.session.ws_connect(f"{self.root}/live?lang=en&page=live")
        first: dict[str, Any] = await self.ws.receive_json(timeout=30)
        self._take(first)
        self.reader = asyncio.create_task(self._read(self.ws))
        return first

    def _take(self, message: dict[str, Any]) -> None:
        if "html" in message:
            self.page = message
            self.pages += 1
            self.fresh.set()

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        with contextlib.suppress(aiohttp.ClientError, OSError):
            async for message in ws:
                if message.type is aiohttp.WSMsgType.TEXT:
                    self._take(json.loads(message.data))
        self.ws = None

    async def reconnect(self, until: float) -> None:
        """Knock as the page's script does until the live connection is back; `back` keeps
        when (wall-clock seconds, as the server stores its actions) and the first page it
        brought."""
        tries = 0
        while time.time() < until:
            try:
                first = await self.connect()
                self.back = (time.time(), first)
                return
            except (TimeoutError, aiohttp.ClientError, OSError):
                await asyncio.sleep(min(1.0, 0.25 * 2**tries) * self.rng.uniform(0.75, 1.25))
                tries += 1
        raise AssertionError(f"{self.name} never got its live connection back")

    @property
    def html(self) -> str:
        return str(self.page.get("html", ""))

    @property
    def state(self) -> str:
        """The state of its page now (its root's data-state)."""
        return str(self.page.get("state", ""))

    @property
    def window(self) -> str:
        return str(self.page.get("data", {}).get("window", ""))

    def decision(self) -> dict[str, str] | None:
        """What this pupil presses on its page now, or None (nothing to press)."""
        form = self.html.split(f'action="{self.root}/table/act"', 1)
        if len(form) < 2 or not self.window:
            return None
        choices = _CHOICE.findall(form[1].split("</form>", 1)[0])
        data = {"window": self.window, "lang": "en"}
        if "answer" in choices:
            about = re.search(r'id="about">(.*?)</p>', self.html)
            text = re.sub(r"<[^>]+>", " ", about.group(1)) if about else ""
            values = re.findall(r'class="value">([^<]+)<', about.group(1) if about else "")
            return data | {"choice": "answer", "answer": answer_for(values, text, self.rng)}
        choice = pick(choices, self.rng)
        return None if choice is None else data | {"choice": choice}

    async def press(self, form: dict[str, str]) -> int:
        """Send a press as the page's script does; counts it when acknowledged."""
        async with self.session.post(
            f"{self.root}/table/act", data=form, headers={"Accept": "application/json"}
        ) as response:
            body = await response.text()
            if response.status == 200:
                self.acked += 1
            else:
                with contextlib.suppress(ValueError):
                    body = str(json.loads(body).get("error", ""))
                self.refused[f"{response.status} {body}"] += 1
            return response.status

    async def play(self, go: asyncio.Event, stop: asyncio.Event) -> None:
        """Act on each page once, within a second of it, while `go` is set."""
        while not stop.is_set():
            await go.wait()
            self.fresh.clear()
            form = self.decision() if self.pages != self.acted else None
            if form is None:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.fresh.wait(), 0.5)
                continue
            self.acted = self.pages
            await asyncio.sleep(self.rng.uniform(0, 0.3))
            if not go.is_set():
                continue
            with contextlib.suppress(aiohttp.ClientError, OSError):
                await self.press(form)

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
        if self.ws is not None:
            await self.ws.close()
        await self.session.close()


# What a browser pupil reads of its page before it acts.
READ_PAGE = """() => {
  const root = document.querySelector("main#table");
  if (!root) return null;
  const form = root.querySelector('form[action="/table/act"]');
  const about = document.getElementById("about");
  return {
    state: root.dataset.state || "",
    window: root.dataset.window || "",
    choices: form ? [...form.querySelectorAll("button[name=choice]")].map((b) => b.value) : [],
    values: about ? [...about.querySelectorAll(".value")].map((v) => v.textContent) : [],
    about: about ? about.textContent : "",
  };
}"""


@dataclass
class BrowserPupil:
    """A pupil in headless Chromium: its page's own script presses and keeps it live."""

    name: str
    context: BrowserContext
    page: Page
    rng: random.Random
    acked: int = 0
    # The live pages received, each with when (wall-clock seconds).
    frames: list[tuple[float, dict[str, Any]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.page.on("response", self._response)
        self.page.on("websocket", self._socket)

    def _response(self, response: Any) -> None:
        if response.url.split("?")[0].endswith("/table/act") and response.status == 200:
            self.acked += 1

    def _socket(self, socket: WebSocket) -> None:
        def frame(payload: str | bytes) -> None:
            with contextlib.suppress(ValueError):
                message = json.loads(payload)
                if "html" in message:
                    self.frames.append((time.time(), message))

        socket.on("framereceived", frame)

    async def join(self, base: str, code: str) -> None:
        """The join page, typed into as a pupil does, and Enter."""
        await self.page.goto(f"{base}?lang=en")
        await self.page.fill("#code", code)
        await self.page.fill("#name", self.name)
        await self.page.press("#name", "Enter")
        await self.page.wait_for_url("**/table**", timeout=30_000)

    async def read(self) -> dict[str, Any] | None:
        from playwright.async_api import Error

        try:
            found = await self.page.evaluate(READ_PAGE)
        except Error:
            return None  # the page was being drawn again
        return found if isinstance(found, dict) else None

    async def play(self, go: asyncio.Event, stop: asyncio.Event) -> None:
        """Act once in each decision window, by the keyboard (an answer) or a button."""
        from playwright.async_api import Error

        done = ""
        while not stop.is_set():
            await go.wait()
            seen = await self.read()
            if seen is None or not seen["choices"] or seen["window"] == done:
                await asyncio.sleep(0.15)
                continue
            done = seen["window"]
            await asyncio.sleep(self.rng.uniform(0, 0.3))
            with contextlib.suppress(Error):
                if "answer" in seen["choices"]:
                    text = answer_for(seen["values"], seen["about"], self.rng)
                    await self.page.fill("#answer", text, timeout=2000)
                    await self.page.press("#answer", "Enter", timeout=2000)
                else:
                    choice = pick(seen["choices"], self.rng)
                    button = f'form[action="/table/act"] button[value="{choice}"]'
                    await self.page.click(button, timeout=2000)

    @property
    def state(self) -> str:
        """The state of the last page its live connection brought."""
        return str(self.frames[-1][1].get("state", "")) if self.frames else ""

    def back_after(self, moment: float) -> tuple[float, dict[str, Any]] | None:
        """The first page its live connection brought after `moment` (a restart)."""
        return next(((at, m) for at, m in self.frames if at > moment), None)
