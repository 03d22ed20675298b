"""`mattekrig serve`: the lesson server of a school, one process of one or more.

Each process serves the lessons whose requests the proxy sends it (by the code in their
address: nginx's consistent hash), taking each over from the database on its first request
under the lesson's lease (`school.hosts`). Nothing lives only in a process: a lesson is stored
as it happens, a teacher's session and sign-in links are rows, so any process may die at
any moment and the next request of each of its lessons brings it back elsewhere.

The settings are the environment's (or `.env`'s, `school.settings`): the database (PostgreSQL
for two or more processes; without one, the lessons' SQLite file and a single process), the
public address and the school's OpenID Connect provider. ``--host`` defaults to 127.0.0.1:
the proxy in front is what the network reaches.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
import time
from collections.abc import AsyncIterator

from aiohttp import web

from school.app import make_school_app
from school.front import front_guard
from school.hosts import Hosts, Restored
from school.mine import MineSetup
from school.opening import Refusal, database_target, school_settings, school_storage
from school.sessions import SignInSetup, teacher_of
from school.settings import SchoolSettings
from school.signin import add_routes as add_signin_routes
from storage.errors import StorageError
from storage.leases import Leases, open_leases
from storage.sqlite import Storage
from table.cli import class_of_lesson, version
from table.host import LessonHost
from table.roster import purge_classes
from table.web import Served
from table.web import runner as web_runner

log = logging.getLogger(__name__)

DEFAULT_PORT = 8080
PURGE_SECONDS = 3600.0  # expired sign-ins and class rounds past their year go this often


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mattekrig serve",
        description="The lesson server of a school: pupils open one address and type their "
        "lesson's code; teachers sign in to start their lessons. Run one or more behind an "
        "HTTPS proxy (docs/operations.md).",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument(
        "--base-url",
        metavar="URL",
        help="the public address pupils open (default: MATTEKRIG_BASE_URL), "
        "e.g. https://mattekrig.school.example",
    )
    p.add_argument("--version", action="version", version=f"mattekrig {version()}")
    return p


@contextlib.asynccontextmanager
async def _opened(settings: SchoolSettings) -> AsyncIterator[tuple[Storage, Leases]]:
    async with school_storage(settings) as store:
        try:
            leases = await open_leases(database_target(settings))
        except StorageError as error:
            raise Refusal(str(error)) from None
        try:
            yield store, leases
        finally:
            await leases.close()


def lesson_hosts(
    store: Storage, leases: Leases, settings: SchoolSettings, served: Served
) -> Hosts[LessonHost]:
    """This process's lessons; each, when taken, on the lesson's pages under its root, its
    teacher the signed-in teacher who owns it."""

    async def build(restored: Restored) -> LessonHost:
        lesson, keeper, owner = restored.lesson, restored.keeper, restored.stored.info.owner

        async def owns(request: web.Request) -> bool:
            teacher = await teacher_of(request)
            return teacher is not None and owner is not None and teacher.id == owner

        klass = await class_of_lesson(store, lesson, keeper, None, owner=owner)
        return LessonHost(
            lesson, served, root=f"/l/{lesson.code}", keeper=keeper, klass=klass, teacher=owns,
            front=served.base_url or "", home="/mine",
        )  # fmt: skip

    return Hosts(
        store,
        leases,
        build,
        clock=asyncio.get_running_loop().time,
        quiet_minutes=settings.quiet_minutes,
        idle_hours=settings.idle_hours,
        keep_days=settings.keep_days,
    )


async def server_app(
    store: Storage, hosts: Hosts[LessonHost], settings: SchoolSettings, served: Served
) -> web.Application:
    clock = asyncio.get_running_loop().time
    mine = MineSetup(
        teacher_of, clock, lessons_per_teacher=settings.lessons_per_teacher,
        keep_days=settings.keep_days,
    )  # fmt: skip
    signin = SignInSetup(store, settings.base_url, settings.oidc)
    front = await front_guard(store, settings.limits, clock)
    return make_school_app(
        store, hosts, served, mine, clock, settings.limits, front,
        lambda app: add_signin_routes(app, signin),
    )  # fmt: skip


async def _purging(store: Storage) -> None:
    while True:
        await asyncio.sleep(PURGE_SECONDS)
        now = time.time()
        with contextlib.suppress(StorageError):
            await store.purge_sign_ins(round(now * 1000))
            await purge_classes(store, now)


async def serve(settings: SchoolSettings, host: str, port: int) -> None:
    """Serve until SIGTERM or SIGINT; then every lesson held is saved and let go, so another
    process (or this one started again) takes it at once."""
    base = None if settings.base_url is None else settings.base_url + "/"
    served = Served(base_url=base, names=(host,))
    async with _opened(settings) as (store, leases):
        hosts = lesson_hosts(store, leases, settings, served)
        app = await server_app(store, hosts, settings, served)
        runner = web_runner(app)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as error:
            await runner.cleanup()
            raise Refusal(f"Cannot listen on {host}:{port}: {error.strerror}.") from None
        hosts.start()
        purging = asyncio.create_task(_purging(store))
        where = settings.base_url or f"http://localhost:{port}"
        database = settings.database_label or "the lessons' SQLite file (one process only)"
        print(
            f"Mattekrig school server {version()}: {where} (listening on {host}:{port}; "
            f"lessons in {database})",
            flush=True,
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        try:
            await stop.wait()
        finally:
            purging.cancel()
            await hosts.close_all()
            await runner.cleanup()


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    try:
        settings = school_settings(args.base_url)
        asyncio.run(serve(settings, args.host, args.port))
    except Refusal as refusal:
        print(f"mattekrig serve: {refusal}", file=sys.stderr)
        return 2
    return 0


__all__ = ["lesson_hosts", "main", "serve", "server_app"]
