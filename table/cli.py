"""`mattekrig play` (and `python -m table`): the one-screen table on this computer.
`mattekrig class` (and `python -m table class`): a class lesson the pupils join on their own
devices, served on this computer's school-network address: every device on that network
can open it (only the code lets one join).

No token, no account. The one-screen table writes nothing to disk; a lesson is stored as it
happens (`table.keep`: a SQLite file private to the user in the user's data folder, or the
PostgreSQL that ``DATABASE_URL`` names), so `mattekrig class` again after a crash brings back
the same lesson (`--new` starts a fresh one). The one-screen table listens on 127.0.0.1
unless `--host` says another address may reach it (then a warning says so); a lesson
listens on every address of this computer and names the one its pupils open (or
`--base-url`, the address of a school server's HTTPS proxy).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import os
import sys
import time
import webbrowser
from collections.abc import AsyncIterator
from importlib import metadata
from urllib.parse import urlsplit

from aiohttp import web

from storage.errors import StorageError
from storage.paths import data_dir, lessons_database, private_file
from storage.records.classes import ClassInfo
from storage.select import open_storage
from storage.sqlite import Storage
from table.app import make_app
from table.in_use import held
from table.keep import DEFAULT_KEEP_DAYS, Keeper, machine_key, open_lesson
from table.lesson import Kind, Lesson
from table.net import ANY, LOOPBACK, is_loopback, network_address, shown_host, url_of
from table.roster import Class, Recorder, load_roster, open_class, purge_classes
from table.web import Served
from table.web import runner as web_runner

__all__ = ["is_loopback", "lessons_url", "main", "url_of", "version"]


def version() -> str:
    try:
        return metadata.version("mattekrig")
    except metadata.PackageNotFoundError:
        return "unknown"


def parser(kind: Kind) -> argparse.ArgumentParser:
    if kind == "play":
        p = argparse.ArgumentParser(
            prog="mattekrig play",
            description="Play Mattekrig in the browser, on this computer (no Discord needed).",
        )
        default = LOOPBACK
    else:
        p = argparse.ArgumentParser(
            prog="mattekrig class",
            description="A class lesson: pupils join on their own devices with a code "
            "(no Discord, no accounts). Open the teacher's page on the projector.",
        )
        default = "0.0.0.0"
        p.add_argument(
            "--new",
            action="store_true",
            help="start a fresh lesson (by default the lesson not ended and used in the last "
            "hours is brought back, with the same code and the same seats)",
        )
        p.add_argument(
            "--keep-days",
            type=int,
            default=None,
            help="days an ended lesson's data is kept (default: LESSON_KEEP_DAYS or "
            f"{DEFAULT_KEEP_DAYS}; 0 deletes it as the lesson ends)",
        )
        p.add_argument(
            "--class",
            dest="klass",
            metavar="NAME",
            help="a lesson of this class (made the first time it is named, e.g. 7B): each "
            "pupil joins with a personal card, and the class's progress is kept lesson "
            "over lesson (the teacher's page: Class)",
        )
        p.add_argument(
            "--class-keep-days",
            type=int,
            default=None,
            metavar="DAYS",
            help="with --class: days the class's results are kept (default: to the end of "
            "the school year, 1 August)",
        )
        p.add_argument(
            "--base-url",
            help="the address pupils open, when a proxy serves the lesson "
            "(e.g. https://mattekrig.school.example/)",
        )
    p.add_argument("--host", default=default, help=f"address to listen on (default {default})")
    shown = "a free one" if kind == "play" else f"{LESSON_PORT}, or the next free one"
    p.add_argument("--port", type=int, default=None, help=f"port (default: {shown})")
    p.add_argument("--no-browser", action="store_true", help="do not open the browser")
    p.add_argument("--version", action="version", version=f"mattekrig {version()}")
    return p


LESSON_PORT = 8080  # a lesson's usual port; when another program has it, the next free one
LESSON_PORTS = range(LESSON_PORT, LESSON_PORT + 20)
PURGE_SECONDS = 3600  # how often a running lesson deletes the lessons past their retention


@contextlib.asynccontextmanager
async def lesson_storage(url: str | None = None) -> AsyncIterator[Storage]:
    """The lessons' storage: the PostgreSQL ``url`` or DATABASE_URL names, else a SQLite file
    in the user's data folder that only the user may read (pupils' nicknames and answers are
    in it)."""
    url = url or lessons_url()
    path = lessons_database()
    with contextlib.ExitStack() as hold:
        if url is None:
            private_file(path)
            hold.enter_context(held(path))  # no restore under a running lesson
        store = await open_storage(path, url)
        try:
            yield store
        finally:
            await store.close()


def lessons_url() -> str | None:
    """The PostgreSQL the lessons are kept in (``DATABASE_URL``), or None: the SQLite file."""
    return os.environ.get("DATABASE_URL", "").strip() or None


class ClassMismatchError(StorageError):
    """The lesson brought back is of another class (or of none, with pupils already in)."""


async def class_of_lesson(
    store: Storage,
    lesson: Lesson,
    keeper: Keeper,
    name: str | None,
    keep_days: int | None = None,
    *,
    owner: str | None = None,
) -> Class:
    """The lesson's class (`--class NAME`, or the class of the lesson brought back, or none
    until the teacher names one on the teacher's page), its roster read into the lesson, and
    its pupils' rounds stored after every save."""
    now = keeper.now_ms()
    info: ClassInfo | None
    if name is not None:
        info = await open_class(store, name.strip(), now, owner)
        if lesson.class_id is None and not lesson.seats and not lesson.removed:
            lesson.class_id = info.id
            await lesson.save()
        elif lesson.class_id != info.id:
            raise ClassMismatchError(
                f"the lesson brought back is not class {info.name}'s: start it with --new"
            )
    elif lesson.class_id is not None:
        info = await store.class_info(lesson.class_id)
    else:
        info = None
    await purge_classes(store, now / 1000)
    stored = await store.load_lesson(keeper.lesson_id)

    async def attach(chosen: ClassInfo) -> None:
        """The lesson is one of the class: its cards let its pupils in, their rounds kept."""
        if lesson.class_id is None:
            lesson.class_id = chosen.id
            await lesson.save()
        await load_roster(store, lesson)
        recorder = Recorder(store, keeper.lesson_id, stored.info.created_at, keeper.wall)
        await recorder.save(lesson)  # a lesson brought back: its rounds so far (stored once)
        recorder.wrap(lesson)

    lesson.classes = True
    if info is not None:
        if keep_days is not None:
            await store.set_class_keep(info.id, keep_days)
            info = await store.class_info(info.id)
        await attach(info)
    return Class(store, info, attach, owner)


async def _purging(store: Storage) -> None:
    while True:
        await asyncio.sleep(PURGE_SECONDS)
        now = time.time()
        with contextlib.suppress(StorageError):
            await store.purge_lessons(round(now * 1000))
            await purge_classes(store, now)


async def serve(kind: Kind, args: argparse.Namespace) -> None:
    if kind == "play":
        await _serve(kind, args, Lesson(kind, asyncio.get_running_loop().time))
        return
    async with lesson_storage() as store:
        lesson, keeper, back = await open_lesson(
            store,
            asyncio.get_running_loop().time,
            key=machine_key(data_dir()),
            keep_days=args.keep_days,
            fresh=args.new,
        )
        klass = await class_of_lesson(
            store, lesson, keeper, args.klass, getattr(args, "class_keep_days", None)
        )
        purging = asyncio.create_task(_purging(store))
        try:
            await _serve(kind, args, lesson, keeper, back, klass)
        finally:
            purging.cancel()


async def _serve(
    kind: Kind,
    args: argparse.Namespace,
    lesson: Lesson,
    keeper: Keeper | None = None,
    back: bool = False,
    klass: Class | None = None,
) -> None:
    base_url: str | None = getattr(args, "base_url", None)
    found = network_address() if args.host in ANY else None
    served = Served(base_url=base_url, names=(args.host,))
    app = make_app(kind, lesson=lesson, served=served, keeper=keeper, klass=klass)
    runner = web_runner(app)
    await runner.setup()
    port = await _listen(runner, args.host, args.port, kind)
    url = url_of(args.host, port, found)
    if kind == "play":
        print(f"Mattekrig: {url}  (Ctrl+C stops)", flush=True)
        opened = url
    else:
        opened = _announce_lesson(lesson, served, args.host, port, found, back)
    if not args.no_browser:
        webbrowser.open(opened)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


class PortTaken(OSError):
    """The port asked for (or every usual one) is another program's."""


async def _listen(runner: web.AppRunner, host: str, given: int | None, kind: Kind) -> int:
    """Listen on the port given, else (a lesson) on 8080 or the next free one, said at once,
    else (the one-screen table) on a free one. A port in use is a sentence, not errno 98."""
    ports = [given] if given is not None else [0] if kind == "play" else list(LESSON_PORTS)
    for port in ports:
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                raise
            continue
        if port != ports[0]:
            print(
                f"Port {ports[0]} is taken by another program on this computer; "
                f"the lesson uses port {port}.",
                flush=True,
            )
        return int(runner.addresses[0][1])
    await runner.cleanup()
    if given is not None:
        raise PortTaken(f"port {given} is taken by another program: choose another with --port")
    raise PortTaken(
        f"ports {ports[0]} to {ports[-1]} are taken by other programs: choose one with --port"
    )


def _announce_lesson(
    lesson: Lesson, served: Served, host: str, port: int, found: str | None, back: bool = False
) -> str:
    """Print where pupils go, the code and the teacher's link; returns the teacher's link.
    Behind a proxy the teacher, like the pupils, opens the proxy's address (the server may be
    a machine in a cupboard), and the terminal says where the proxy must send the lesson."""
    url = url_of(host, port, found)
    shown = shown_host(host, found)
    key = f"?key={lesson.teacher_secret}" if lesson.teacher_secret else ""
    if served.base_url:
        served.join_url = served.base_url
        served.address_note = urlsplit(served.base_url).netloc
        teacher = f"{served.base_url}teacher{key}"
    else:
        served.join_url = url
        served.address_note = "127.0.0.1" if is_loopback(shown) else shown
        local = url_of(LOOPBACK if host in ANY else host, port)
        teacher = f"{local}teacher{key}"
    if back:
        print(
            "Mattekrig: the lesson is back where it was (every seat and game); "
            "`mattekrig class --new` starts a fresh one.",
            flush=True,
        )
    print(
        f"Mattekrig lesson: pupils open {served.join_url} with the code {lesson.code}",
        flush=True,
    )
    if not served.base_url and not is_loopback(shown):
        print(
            f"Every device on this computer's network can open {served.join_url} "
            "(pupils' tablets and phones, and anyone else's); only the code lets it join.",
            flush=True,
        )
    if key:
        print(f"Teacher's page (keep this link to yourself): {teacher}  (Ctrl+C stops)", flush=True)
    else:  # brought back on a machine that cannot derive the key: the teacher's cookie works
        print(f"Teacher's page: {teacher} in the browser you used before  (Ctrl+C stops)")
    if served.base_url:
        print(
            f"The proxy must send {served.base_url} (and its WebSocket /live) to {url}",
            flush=True,
        )
        if not is_loopback(host):
            print(
                f"Warning: listening on {host}: the lesson's plain port {port} is open beside "
                "the proxy, without HTTPS. Add --host 127.0.0.1 when the proxy runs on this "
                "computer.",
                file=sys.stderr,
                flush=True,
            )
    elif is_loopback(shown):
        why = (
            "no network address found"
            if host in ANY
            else f"listening on {host}, this computer's own address"
        )
        print(
            f"Warning: {why}: only this computer can join. "
            "Connect to the school network (and leave out --host), or use --base-url.",
            file=sys.stderr,
            flush=True,
        )
    return teacher


def public_address(text: str) -> str | None:
    """A --base-url as the lesson uses it (scheme://host[:port]/), or None when it is not the
    root of a web address: the lesson's pages live at the root of their address, so a proxy
    must give the lesson a host name of its own, not a folder."""
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - reading it checks the port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        return None
    return f"{parts.scheme}://{parts.netloc.lower()}/"


def main(argv: list[str] | None = None, kind: Kind = "play") -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    if kind == "play" and given[:1] == ["class"]:
        kind, given = "class", given[1:]
    args = parser(kind).parse_args(given)
    command = f"mattekrig {kind}"
    if args.port is not None and not 0 <= args.port <= 65535:
        print(f"{command}: --port must be 0 to 65535", file=sys.stderr)
        return 2
    base_url = getattr(args, "base_url", None)
    if base_url is not None:
        args.base_url = public_address(base_url)
        if args.base_url is None:
            print(
                f"{command}: --base-url must be the root of a web address, "
                "e.g. https://mattekrig.school.example/",
                file=sys.stderr,
            )
            return 2
    if (
        kind == "class"
        and args.class_keep_days is not None
        and (args.klass is None or not 0 <= args.class_keep_days <= 3650)
    ):
        print(f"{command}: --class-keep-days needs --class and 0 to 3650 days", file=sys.stderr)
        return 2
    if kind == "class":
        args.keep_days = _keep_days(args.keep_days)
        if args.keep_days is None:
            print(
                f"{command}: --keep-days (or LESSON_KEEP_DAYS) must be a whole number of days, "
                "0 or more",
                file=sys.stderr,
            )
            return 2
    if kind == "play" and not is_loopback(args.host):
        shown = shown_host(args.host)
        print(
            f"Warning: listening on {args.host}: other computers on this network can open "
            f"the table at {shown} and play. Use the default address to keep it on this computer.",
            file=sys.stderr,
        )
    try:
        asyncio.run(serve(kind, args))
    except KeyboardInterrupt:
        return 0
    except StorageError as error:
        print(f"{command}: the lesson's storage: {error}", file=sys.stderr)
        return 2
    except PortTaken as error:
        print(f"{command}: cannot listen on {args.host}: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        where = args.host if args.port is None else f"{args.host}:{args.port}"
        print(f"{command}: cannot listen on {where}: {error}", file=sys.stderr)
        return 1
    return 0


def _keep_days(given: int | None) -> int | None:
    """The retention of an ended lesson's data: the option, else LESSON_KEEP_DAYS, else 14;
    None when it is not a whole number of days, 0 or more."""
    if given is None:
        raw = os.environ.get("LESSON_KEEP_DAYS", "").strip()
        if not raw:
            return DEFAULT_KEEP_DAYS
        if not raw.isdigit():
            return None
        given = int(raw)
    return given if 0 <= given <= 3650 else None
