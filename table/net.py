"""Where the lesson can be reached: this computer's school-network address, the join URL a
teacher shows (or `--base-url`, behind the school's HTTPS proxy), and its QR code (segno)."""

from __future__ import annotations

import io
import ipaddress
import socket
from functools import lru_cache

import segno

LOOPBACK = "127.0.0.1"
ANY = ("0.0.0.0", "", "::")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def network_address() -> str:
    """This computer's address on its network (the one its default route leaves by), or
    127.0.0.1 when it has none. Connecting a UDP socket only asks the routing table: no
    packet is sent."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): never a real host
        address = str(probe.getsockname()[0])
    except OSError:
        return LOOPBACK
    finally:
        probe.close()
    if address in ANY or is_loopback(address):
        return LOOPBACK
    return address


def shown_host(host: str, found: str | None = None) -> str:
    """The address a browser can open for a server listening on `host`: a wildcard address
    listens on every interface, so the network's own address is shown (found by itself)."""
    if host in ANY:
        return found if found is not None else network_address()
    return host


def url_of(host: str, port: int, found: str | None = None) -> str:
    shown = shown_host(host, found)
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


@lru_cache(maxsize=16)
def qr_svg(url: str, label: str) -> str:
    """The URL as a QR code: an inline SVG that scales to its box, with its accessible name."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", border=2, xmldecl=False, svgns=True, omitsize=True, svgclass="qr",
        lineclass=None, dark="#000", light="#fff",
    )  # fmt: skip
    svg = out.getvalue().decode("ascii")
    label = label.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    return svg.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1)
