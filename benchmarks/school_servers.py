"""The servers `benchmarks.school` measures: `mattekrig serve` processes, alone or behind
Debian's nginx with the school sample of docs/operations.md, each setup on a PostgreSQL
database of its own, and what /proc says of their CPU, memory and database backends."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import ssl
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import aiohttp

from benchmarks.devices import (
    Device,
    process_cpu,
    process_waited,
)
from storage.select import open_storage
from storage.sqlite import Storage
from tests.nginx_run import (
    NAME,
    free_port,
    make_certificate,
    running_nginx,
    school_conf,
    school_dns,
)
from tests.postgres import new_schema_url


@dataclass
class School:
    """One setup's servers, as its devices reach them."""

    name: str
    base: str  # the origin devices open
    store: Storage  # the benchmark's own hand into the database (teachers, sign-in links)
    processes: list[subprocess.Popen[str]]
    addresses: list[str]  # each process's host:port, as nginx's log names it
    nginx: subprocess.Popen[str] | None = None
    log: Path | None = None  # nginx's access log
    connector: Callable[[], aiohttp.BaseConnector | None] = lambda: None
    database_url: str = ""
    teachers: list[Device] = field(default_factory=list)
    # answers "wait a moment" (429) the devices waited out, by what was sent
    throttled: dict[str, int] = field(default_factory=dict)

    def device(self, name: str) -> Device:
        session = aiohttp.ClientSession(
            base_url=self.base, connector=self.connector(),
            cookie_jar=aiohttp.CookieJar(unsafe=True), headers={"Origin": self.base},
        )  # fmt: skip
        return Device(name, session)

    def memory(self) -> float | None:
        """The living serve processes' resident memory, MB."""
        known = [m for p in self.processes if p.returncode is None if (m := rss_mb(p.pid))]
        return sum(known) if known else None

    def cpu(self) -> dict[str, float | None]:
        """CPU seconds so far: the serve processes' (the living ones), nginx's, and the
        PostgreSQL backends' that serve them (the database is on this machine too)."""
        living = [p.pid for p in self.processes if p.returncode is None]
        waited = [process_waited(pid) for pid in living]
        return {
            "serve": sum_cpu(living),
            "serve waited": sum(w for w in waited if w is not None) if living else None,
            "load waited": process_waited(os.getpid()),
            "nginx": None if self.nginx is None else process_cpu(self.nginx.pid),
            "database": sum_cpu(backends_of(living, self.database_url)),
        }


def rss_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            found = re.search(r"^VmRSS:\s+(\d+) kB", status.read(), re.M)
    except OSError:
        return None
    return None if found is None else int(found.group(1)) / 1024


def sum_cpu(pids: list[int]) -> float | None:
    known = [c for c in (process_cpu(pid) for pid in pids) if c is not None]
    return sum(known) if known else None


def backends_of(pids: list[int], url: str) -> list[int]:
    """The PostgreSQL backends of ``pids``' connections (by their client ports, from /proc),
    when the server is on this machine; else none."""
    server = urlsplit(url)
    if server.hostname not in ("127.0.0.1", "localhost", "::1"):
        return []
    sockets: set[str] = set()
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if link.startswith("socket:["):
                        sockets.add(link[len("socket:[") : -1])
    ports: list[int] = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table, encoding="ascii") as rows:
            for row in list(rows)[1:]:
                fields = row.split()
                remote_port = int(fields[2].rsplit(":", 1)[1], 16)
                if fields[9] in sockets and remote_port == (server.port or 5432):
                    ports.append(int(fields[1].rsplit(":", 1)[1], 16))
    if not ports:
        return []
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        found = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE client_port = ANY(%s)", (ports,)
        ).fetchall()
    return [int(row[0]) for row in found]


async def start_serve(
    folder: Path, port: int, database_url: str, base_url: str | None
) -> subprocess.Popen[str]:
    """`python -m school serve` on 127.0.0.1:``port``, in a folder of the run's own (no `.env`
    of the user's, no data folder of theirs); its log to ``folder/serve-<port>.log``."""
    env = {**os.environ, "DATABASE_URL": database_url, "XDG_DATA_HOME": str(folder)}
    env.pop("DATABASE_URL_FILE", None)
    env.pop("MATTEKRIG_BASE_URL", None)
    if base_url is not None:
        env["MATTEKRIG_BASE_URL"] = base_url
    log = (folder / f"serve-{port}.log").open("w", encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "school", "serve", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=log, text=True, env=env, cwd=folder,
    )  # fmt: skip
    log.close()
    assert process.stdout is not None
    line = await asyncio.to_thread(process.stdout.readline)
    if f"listening on 127.0.0.1:{port}" not in line:
        process.kill()
        said = (folder / f"serve-{port}.log").read_text(encoding="utf-8")
        raise SystemExit(f"mattekrig serve did not start: {line!r} {said}")
    return process


@contextlib.asynccontextmanager
async def one_process(folder: Path, database_url: str) -> AsyncIterator[School]:
    """(a) One serve process, reached directly over HTTP (no proxy)."""
    port = free_port()
    process = await start_serve(folder, port, database_url, None)
    store = await open_storage(folder / "unused.db", database_url)
    try:
        yield School("1 process", f"http://127.0.0.1:{port}", store, [process],
                     [f"127.0.0.1:{port}"], database_url=database_url)  # fmt: skip
    finally:
        await store.close()
        stop_process(process)


@contextlib.asynccontextmanager
async def behind_nginx(folder: Path, database_url: str, connections: int) -> AsyncIterator[School]:
    """(b) Two serve processes behind Debian's nginx, the docs' school sample (HTTPS)."""
    https, http = free_port(), free_port()
    base = f"https://{NAME}"
    ports = [free_port(), free_port()]
    processes: list[subprocess.Popen[str]] = []
    try:
        for port in ports:  # one after the other: the first migrates the fresh schema
            processes.append(await start_serve(folder, port, database_url, base))
        make_certificate(folder)
        trust = ssl.create_default_context(cafile=str(folder / "cert.pem"))
        addresses = [f"127.0.0.1:{port}" for port in ports]
        conf = school_conf(folder, addresses, https, http)
        store = await open_storage(folder / "unused.db", database_url)
        try:
            with running_nginx(folder, conf, https, connections) as nginx:
                yield School(
                    "2 processes, nginx", base, store, processes, addresses, nginx,
                    folder / "school.log",
                    lambda: aiohttp.TCPConnector(resolver=school_dns(https, http), ssl=trust),
                    database_url,
                )  # fmt: skip
        finally:
            await store.close()
    finally:
        for process in processes:
            stop_process(process)


def stop_process(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
    try:
        process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()


def fresh_database(url: str, notes: list[str]) -> str:
    """A new database of the server at ``url`` for one setup, else (no right to create one) a
    new schema of ``url``'s. A database of its own because PostgreSQL's advisory locks are
    the database's: the lessons' write locks are keyed by lesson ids that every fresh schema
    numbers from 1, so lessons of another schema's tests running meanwhile would wait on
    this run's locks, and it on theirs."""
    import psycopg

    name = f"mattekrig_bench_{secrets.token_hex(6)}"
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}".encode())
    except psycopg.Error as error:
        notes.append(f"a schema, not a database of its own ({str(error).strip()})")
        return new_schema_url(url)
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def drop_database(url: str) -> None:
    """The run's own database dropped (a schema is left to the throw-away server)."""
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    if not name.startswith("mattekrig_bench_"):
        return
    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)".encode())
