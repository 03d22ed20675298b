"""Looking for a user everywhere in the database: the privacy tests' strongest check."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any


def scan(path: str | Path, *needles: object) -> list[tuple[str, str, Any]]:
    """Every (table, column, value) holding one of the needles, exactly or inside text (JSON
    columns included), across every table of the SQLite file."""
    found = []
    conn = sqlite3.connect(path)
    try:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        for table in tables:
            cursor = conn.execute(f"SELECT * FROM {table}")
            columns = [d[0] for d in cursor.description]
            for row in cursor:
                for column, value in zip(columns, row, strict=True):
                    for needle in needles:
                        if value == needle or (isinstance(value, str) and str(needle) in value):
                            found.append((table, column, value))
    finally:
        conn.close()
    return found
