"""Small helpers every SQLite transaction function uses (plain `sqlite3`, on the DB thread)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

Params = Sequence[Any] | Mapping[str, Any]


def one(conn: sqlite3.Connection, sql: str, params: Params = ()) -> sqlite3.Row | None:
    row: sqlite3.Row | None = conn.execute(sql, params).fetchone()
    return row


def rows(conn: sqlite3.Connection, sql: str, params: Params = ()) -> list[sqlite3.Row]:
    return conn.execute(sql, params).fetchall()


def dump(value: Any) -> str:
    """Compact, key-sorted JSON, so equal values are stored as equal text."""
    return json.dumps(
        value, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False
    )


def placeholders(count: int) -> str:
    return ", ".join("?" * count)
