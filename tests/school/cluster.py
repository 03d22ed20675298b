"""A school server as a school runs it, for the cluster test: two `python -m school serve`
processes (what `mattekrig serve` runs) on one PostgreSQL schema behind Debian's nginx (the
sample of docs/operations.md), the school's devices reaching it by its public name, and the
lessons' leases read from PostgreSQL's own views (which process holds which lesson)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import aiohttp

from tests.nginx_run import NAME
from tests.table.class_pupils import Pupil

BASE = f"https://{NAME}"
KNOCKING = 60.0  # seconds a page knocks before the test says it never got back
STARTED = re.compile(r"listening on (\S+):(\d+)")


@dataclass
class ServeProcess:
    """`python -m school serve` on its own address; its stderr in a file of the test's."""

    address: str  # host:port, as nginx's upstream names it
    errors: Path
    process: subprocess.Popen[str] | None = None
    _stderr: IO[str] | None = field(default=None, repr=False)

    async def start(self, env: dict[str, str], cwd: Path) -> None:
        """Start it and wait for its "listening" line (its migrations are done by then)."""
        host, port = self.address.split(":")
        self._stderr = self.errors.open("w", encoding="utf-8")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "school", "serve", "--host", host, "--port", port],
            stdout=subprocess.PIPE, stderr=self._stderr, text=True, env=env, cwd=cwd,
        )  # fmt: skip
        assert self.process.stdout is not None
        line = await asyncio.to_thread(self.process.stdout.readline)
        assert STARTED.search(line), (line, self.errors.read_text(encoding="utf-8"))

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """kill -9: no clean shutdown, nothing saved that was not committed."""
        os.kill(self.pid, signal.SIGKILL)
        assert self.process is not None
        self.process.wait(timeout=10)

    def stop(self) -> int | None:
        """SIGTERM (systemd's stop), if still running; its exit status."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self._stderr is not None:
            self._stderr.close()
        if self.process is not None and self.process.stdout is not None:
            self.process.stdout.close()
        return None if self.process is None else self.process.returncode

    def stderr(self) -> str:
        return self.errors.read_text(encoding="utf-8") if self.errors.exists() else ""


def serve_env(database_url: str, issuer: str) -> dict[str, str]:
    """What the operator sets: the database, the public address, the school's provider."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OIDC_", "MATTEKRIG_"))}
    return env | {
        "PYTHONPATH": os.pathsep.join(sys.path),
        "DATABASE_URL": database_url,
        "MATTEKRIG_BASE_URL": BASE,
        "OIDC_ISSUER": issuer,
        "OIDC_CLIENT_ID": "mattekrig-school",
        "OIDC_CLIENT_SECRET": "school-secret",
        "OIDC_NAME": "Feide",
    }


def device(connector: aiohttp.BaseConnector) -> aiohttp.ClientSession:
    """A browser at the school's address: its own cookies, the page's Origin on every POST
    (the school's DNS and the test's certificate are the connector's)."""
    return aiohttp.ClientSession(
        base_url=f"{BASE}/",
        connector=connector,
        connector_owner=False,
        cookie_jar=aiohttp.CookieJar(),
        headers={"Origin": BASE},
    )


@dataclass
class SchoolPupil(Pupil):
    """A `Pupil` at the school's address, in the lesson ``code`` (its root ``/l/<code>``)."""

    code: str = ""
    connector: aiohttp.BaseConnector | None = None
    drops: int = 0  # live connections that dropped (each knocked again)
    unanswered: int = 0  # presses sent whose answer never came (the connection broke)
    seen: str = ""  # the decision window its page showed when its connection last dropped
    lost: bool = False  # one never came back
    closing: bool = False

    def __post_init__(self) -> None:
        assert self.connector is not None
        self.session = device(self.connector)

    async def arrive(self) -> None:
        """As a pupil does: the front page, the code on the board, the lesson's join page
        (where `/go` sends it), a name."""
        async with self.session.get("/?lang=en") as front:
            assert front.status == 200, await front.text()
        form = {"code": self.code, "lang": "en"}
        async with self.session.post("/go", data=form) as went:
            assert went.status == 200, (self.name, went.status, await went.text())
            assert went.url.path == f"{self.root}/", went.url
        form = {"code": self.code, "name": self.name, "lang": "en"}
        async with self.session.post(f"{self.root}/join", data=form) as joined:
            assert joined.status == 200 and joined.url.path == f"{self.root}/table", (
                self.name,
                joined.status,
                await joined.text(),
            )

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        """Its page's live connection, kept as `table.js` keeps it: whenever it drops (its
        process died, or handed the lesson over to another), the page knocks again at once
        (bounded: `lost` says it never came back)."""
        await super()._read(ws)
        if self.closing:
            return
        self.drops += 1
        self.seen = self.window
        try:
            await self.reconnect(time.time() + KNOCKING)
        except AssertionError:
            self.lost = True

    async def press(self, form: dict[str, str]) -> int:
        try:
            return await super().press(form)
        except (aiohttp.ClientError, OSError):
            self.unanswered += 1
            raise

    def unknown(self) -> int:
        """Its presses that may be stored though never acknowledged: those in flight when a
        process died (nginx's 502, or no answer at all), and those refused with "try again"
        because the database failed (stored by the first save that works, by design)."""
        died = sum(n for what, n in self.refused.items() if what.startswith(("502 ", "503 ")))
        return died + self.unanswered

    @property
    def connected(self) -> bool:
        return self.ws is not None and self.reader is not None and not self.reader.done()

    async def close(self) -> None:
        self.closing = True
        await super().close()


def lease_holders(url: str, pids: list[int]) -> dict[str, int]:
    """Which process holds which lesson's lease: its code → the serve process's pid, read
    from `pg_locks` (the lessons' session advisory locks, the two-int form) and the lease
    connection's `application_name` ("mattekrig serve <pid>", docs/operations.md)."""
    import psycopg

    names = [f"mattekrig serve {pid}" for pid in pids]
    with psycopg.connect(url, autocommit=True) as conn:
        codes: dict[int, str] = dict(conn.execute("SELECT id, code FROM lessons").fetchall())
        rows = conn.execute(
            "SELECT l.objid, a.application_name FROM pg_locks l"
            " JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.objsubid = 2 AND l.granted"
            " AND a.application_name = ANY(%s)",
            (names,),
        ).fetchall()
    return {
        str(codes[int(objid)]): int(str(name).rsplit(" ", 1)[1])
        for objid, name in rows
        if int(objid) in codes  # (the namespace is this schema's: ids of its lessons)
    }


__all__ = ["BASE", "SchoolPupil", "ServeProcess", "device", "lease_holders", "serve_env"]
