"""`python -m table` / `mattekrig play`: serve the classroom table on this computer and open
it in the browser. No token, no account; nothing leaves this computer unless `--host` says
another address may reach it (then a warning says so)."""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import sys
import webbrowser
from importlib import metadata

from aiohttp import web

from table.pictures import installed_drawer
from table.web import make_app

LOOPBACK = "127.0.0.1"


def version() -> str:
    try:
        return metadata.version("mattekrig")
    except metadata.PackageNotFoundError:
        return "unknown"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mattekrig play",
        description="Play Mattekrig in the browser, on this computer (no Discord needed).",
    )
    p.add_argument("--host", default=LOOPBACK, help=f"address to listen on (default {LOOPBACK})")
    p.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    p.add_argument("--no-browser", action="store_true", help="do not open the browser")
    p.add_argument("--version", action="version", version=f"mattekrig {version()}")
    return p


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def url_of(host: str, port: int) -> str:
    shown = LOOPBACK if host in ("0.0.0.0", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


async def serve(host: str, port: int, open_browser: bool) -> None:
    runner = web.AppRunner(make_app(drawer=installed_drawer()), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    url = url_of(host, runner.addresses[0][1])
    print(f"Mattekrig: {url}  (Ctrl+C stops)", flush=True)
    if open_browser:
        webbrowser.open(url)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if not 0 <= args.port <= 65535:
        print("mattekrig play: --port must be 0 to 65535", file=sys.stderr)
        return 2
    if not is_loopback(args.host):
        print(
            f"Warning: listening on {args.host}: other computers on this network can open "
            "the table and play. Use the default address to keep it on this computer.",
            file=sys.stderr,
        )
    try:
        asyncio.run(serve(args.host, args.port, not args.no_browser))
    except KeyboardInterrupt:
        return 0
    except OSError as error:
        print(f"mattekrig play: cannot listen on {args.host}:{args.port}: {error}", file=sys.stderr)
        return 1
    return 0
