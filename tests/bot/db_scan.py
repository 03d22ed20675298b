"""Looking for a user everywhere in the database: the privacy tests' strongest check."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any


def holds(value: Any, text: Any, needle: object) -> bool:
    """The value is the needle, or its text holds it: a number as a number of its own (an id
    in JSON, ``"user": 101``), never as a run of digits inside a word such as a keyed digest
    (``af1017bd``: a hexadecimal fingerprint holds "101" about once in 150)."""
    if value == needle:
        return True
    if not isinstance(text, str):
        return False
    if isinstance(needle, int):
        return re.search(rf"(?<![0-9A-Za-z]){needle}(?![0-9A-Za-z])", text) is not None
    return str(needle) in text


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
                        if holds(value, value, needle):
                            found.append((table, column, value))
    finally:
        conn.close()
    return found


def scan_postgres(url: str, *needles: object) -> list[tuple[str, str, Any]]:
    """The same search in every table of the PostgreSQL schema ``url`` names (JSON values
    searched as their text)."""
    import psycopg

    found = []
    with psycopg.connect(url) as conn:
        tables = [
            str(r[0])
            for r in conn.execute(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            )
        ]
        for table in tables:
            cursor = conn.execute(f'SELECT * FROM "{table}"'.encode())
            columns = [d.name for d in cursor.description or ()]
            for row in cursor:
                for column, value in zip(columns, row, strict=True):
                    text = json.dumps(value) if isinstance(value, dict | list) else value
                    for needle in needles:
                        if holds(value, text, needle):
                            found.append((table, column, value))
    return found
