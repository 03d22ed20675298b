"""A real `mattekrig class` for the tests that kill it: `python -m table class` in a process
of its own on 127.0.0.1 (its lesson kept in the test's data folder), the devices' HTTP
sessions, and the lesson as its database holds it, read while the server is dead."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from storage import Storage, StoredLesson
from storage.paths import LESSONS_NAME


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    """`python -m table class` (what `mattekrig class` runs) in a process of its own."""

    env: dict[str, str]
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[str] | None = None

    def start(self, *extra: str) -> tuple[str, str, str]:
        """Start it; returns its address, the code and the teacher's link."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "table", "class", "--no-browser", "--host", "127.0.0.1",
             "--port", str(self.port), *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**self.env, "PYTHONPATH": os.pathsep.join(sys.path)},
        )  # fmt: skip
        assert self.process.stdout is not None
        lines: list[str] = []
        while not lines or "Teacher's page" not in lines[-1]:
            line = self.process.stdout.readline()
            assert line, (lines, self.process.stderr.read() if self.process.stderr else "")
            lines.append(line)
        text = "".join(lines)
        found = re.search(r"pupils open (\S+) with the code (\d{6})", text)
        link = re.search(r"(http://\S+/teacher\?key=\S+)", text)
        assert found is not None and link is not None, text
        return found.group(1), found.group(2), link.group(1)

    def kill(self) -> None:
        """kill -9: no clean shutdown, nothing flushed that was not committed."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.communicate(timeout=10)

    def stop(self) -> str:
        """A clean stop (Ctrl+C's signal); returns what the server wrote to stderr."""
        if self.process is None or self.process.poll() is not None:
            return ""
        self.process.terminate()
        _, err = self.process.communicate(timeout=10)
        return err


def http_session(base: str) -> aiohttp.ClientSession:
    """A device: its own cookies; it sends its page's Origin as a browser does."""
    return aiohttp.ClientSession(
        base_url=base, cookie_jar=aiohttp.CookieJar(unsafe=True), headers={"Origin": base[:-1]}
    )


async def stored_lesson(url: str | None, data: Path) -> StoredLesson:
    """The lesson as the database holds it (SQLite in `data`, or PostgreSQL at `url`), read
    with the server dead or stopped."""
    if url is None:
        store = await Storage.open(data / "mattekrig" / LESSONS_NAME)
    else:
        from storage.postgres import PostgresStorage

        store = await PostgresStorage.open_url(url)
    try:
        found = await store.lessons()
        assert len(found) == 1
        return await store.load_lesson(found[0].id)
    finally:
        await store.close()
