"""`mattekrig play` (and `python -m table`): the one-screen table on this computer.
`mattekrig class` (and `python -m table class`): a class lesson the pupils join on their own
devices, served on this computer's school-network address.

No token, no account, nothing written to disk. The one-screen table listens on 127.0.0.1
unless `--host` says another address may reach it (then a warning says so); a lesson
listens on every address of this computer and names the one its pupils open (or
`--base-url`, the address of a school server's HTTPS proxy).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import webbrowser
from importlib import metadata
from urllib.parse import urlsplit

from aiohttp import web

from table.app import make_app
from table.lesson import Kind, Lesson
from table.net import ANY, LOOPBACK, is_loopback, network_address, shown_host, url_of
from table.web import Served

__all__ = ["is_loopback", "main", "url_of", "version"]


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
            "--base-url",
            help="the address pupils open, when a proxy serves the lesson "
            "(e.g. https://mattekrig.school.example/)",
        )
    p.add_argument("--host", default=default, help=f"address to listen on (default {default})")
    port = 0 if kind == "play" else 8080
    shown = "a free one" if kind == "play" else str(port)
    p.add_argument("--port", type=int, default=port, help=f"port (default: {shown})")
    p.add_argument("--no-browser", action="store_true", help="do not open the browser")
    p.add_argument("--version", action="version", version=f"mattekrig {version()}")
    return p


async def serve(kind: Kind, args: argparse.Namespace) -> None:
    base_url: str | None = getattr(args, "base_url", None)
    lesson = Lesson(kind, asyncio.get_running_loop().time)
    found = network_address() if args.host in ANY else None
    served = Served(base_url=base_url)
    app = make_app(kind, lesson=lesson, served=served)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, args.host, args.port)
    await site.start()
    port = runner.addresses[0][1]
    url = url_of(args.host, port, found)
    if kind == "play":
        print(f"Mattekrig: {url}  (Ctrl+C stops)", flush=True)
        opened = url
    else:
        opened = _announce_lesson(lesson, served, args.host, port, found)
    if not args.no_browser:
        webbrowser.open(opened)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


def _announce_lesson(
    lesson: Lesson, served: Served, host: str, port: int, found: str | None
) -> str:
    """Print where pupils go, the code and the teacher's link; returns the teacher's link.
    Behind a proxy the teacher, like the pupils, opens the proxy's address (the server may be
    a machine in a cupboard), and the terminal says where the proxy must send the lesson."""
    url = url_of(host, port, found)
    shown = shown_host(host, found)
    if served.base_url:
        served.join_url = served.base_url
        served.address_note = urlsplit(served.base_url).netloc
        teacher = f"{served.base_url}teacher?key={lesson.teacher_secret}"
    else:
        served.join_url = url
        served.address_note = "127.0.0.1" if is_loopback(shown) else shown
        local = url_of(LOOPBACK if host in ANY else host, port)
        teacher = f"{local}teacher?key={lesson.teacher_secret}"
    print(
        f"Mattekrig lesson: pupils open {served.join_url} with the code {lesson.code}",
        flush=True,
    )
    print(f"Teacher's page (keep this link to yourself): {teacher}  (Ctrl+C stops)", flush=True)
    if served.base_url:
        print(
            f"The proxy must send {served.base_url} (and its WebSocket /live) to {url}",
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
    if not 0 <= args.port <= 65535:
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
    except OSError as error:
        print(f"{command}: cannot listen on {args.host}:{args.port}: {error}", file=sys.stderr)
        return 1
    return 0
