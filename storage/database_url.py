"""A PostgreSQL URL read once, before anything connects: one sentence for what is wrong with
it, and a label that never shows its password.

Why here and not at the first connection: Python's URL parser raises on a port that is not a
number (``:abc``, ``:99999``) and on an unclosed IPv6 bracket (``[::1``), and it did so from
the config's label and the migrate command, as tracebacks. A problem is told without the URL
itself, which holds the password.
"""

from __future__ import annotations

from urllib.parse import SplitResult, urlsplit

DATABASE_SCHEMES = ("postgresql", "postgres")
SHAPE = "postgresql://user:password@host:5432/database"


def _split(url: str) -> SplitResult | None:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - reading it is the check: it raises on a bad port
    except ValueError:
        return None
    return parts


def _port_text(netloc: str) -> str:
    """The port as written, for the message (the URL parser does not say it)."""
    host = netloc.rpartition("@")[2]
    if host.startswith("["):
        return host.partition("]")[2].removeprefix(":")
    return host.rpartition(":")[2]


def url_problem(url: str, name: str = "DATABASE_URL") -> str | None:
    """One sentence saying why ``url`` cannot be a PostgreSQL database URL, or None."""
    try:
        parts = urlsplit(url)
    except ValueError as error:  # "Invalid IPv6 URL"
        return (
            f"{name} cannot be read ({error}): write it as {SHAPE}, with an IPv6 host in "
            "brackets ([::1])."
        )
    if parts.scheme not in DATABASE_SCHEMES:
        scheme = url.split(":", 1)[0]
        return f"{name} must be a PostgreSQL URL ({SHAPE}), not one starting {scheme!r}."
    if _split(url) is None:
        return (
            f"{name} has the port {_port_text(parts.netloc)!r}, which is not a number from 1 "
            f"to 65535: write it as {SHAPE}."
        )
    return None


def url_label(url: str) -> str:
    """The URL for messages and logs: scheme, host, port and database, never the user's
    password (nor the user)."""
    parts = _split(url)
    if parts is None:
        return "(a PostgreSQL URL that cannot be read)"
    port = f":{parts.port}" if parts.port else ""
    host = parts.hostname or "localhost"
    if ":" in host:  # IPv6, as written in a URL
        host = f"[{host}]"
    return f"{parts.scheme}://{host}{port}{parts.path}"
