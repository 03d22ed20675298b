"""SQLite's SQL, as the storage modules write it, in PostgreSQL's words.

The storage modules keep one set of statements (``?`` and ``:name`` parameters, SQLite's
spellings); this table of rewrites is the whole of the difference, so a statement added to
bot/storage runs on both backends or fails the PostgreSQL contract suite, never silently.
Rewrites are cached per statement text: each is worked out once per process.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Tables whose rows get their id from the database: an INSERT asks for it back
# (SQLite's ``cursor.lastrowid``).
ID_TABLES = frozenset({"games", "invitations", "class_sessions", "assignments"})

_INSERT_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.IGNORECASE)
_INSERT_INTO = re.compile(r"^\s*INSERT\s+INTO\s+([a-z_]+)", re.IGNORECASE)
# SQLite's two-argument max/min are PostgreSQL's greatest/least (the one-argument forms are
# aggregates in both).
_SCALAR_MAX = re.compile(r"\bmax\(([^(),]+),([^(),]+)\)", re.IGNORECASE)
_SCALAR_MIN = re.compile(r"\bmin\(([^(),]+),([^(),]+)\)", re.IGNORECASE)
_AS_REAL = re.compile(r"\bAS\s+REAL\b", re.IGNORECASE)
# In ON CONFLICT … DO UPDATE SET, PostgreSQL wants the old row's columns qualified
# (``games = games + 1`` is ambiguous beside ``excluded.games``).
_UPSERT = re.compile(r"\bDO\s+UPDATE\s+SET\b", re.IGNORECASE)
_OLD_COLUMN = re.compile(r"(=\s*|greatest\()(?!excluded\b)([a-z_]+)(?=\s*[+,])")
_NAMED = re.compile(r"(?<![:\w]):([a-z_][a-z0-9_]*)", re.IGNORECASE)


@lru_cache(maxsize=4096)
def translate(sql: str, *, named: bool, bound: bool) -> tuple[str, bool]:
    """PostgreSQL's text for ``sql`` and whether it returns the new row's id.

    ``named``: parameters are ``:name`` (a mapping), else ``?``. ``bound``: parameters are
    passed, so psycopg reads ``%`` as a placeholder's start and a literal one is doubled.
    """
    text = sql
    ignore = bool(_INSERT_OR_IGNORE.match(text))
    if ignore:
        text = _INSERT_OR_IGNORE.sub("INSERT INTO", text, count=1) + " ON CONFLICT DO NOTHING"
    text = _SCALAR_MAX.sub(r"greatest(\1,\2)", text)
    text = _SCALAR_MIN.sub(r"least(\1,\2)", text)
    text = _AS_REAL.sub("AS DOUBLE PRECISION", text)
    table = _INSERT_INTO.match(text)
    upsert = _UPSERT.search(text)
    if table and upsert:
        head, tail = text[: upsert.end()], text[upsert.end() :]
        text = head + _OLD_COLUMN.sub(rf"\g<1>{table.group(1)}.\g<2>", tail)
    if bound:
        text = text.replace("%", "%%")
        text = _NAMED.sub(r"%(\1)s", text) if named else text.replace("?", "%s")
    insert = _INSERT_INTO.match(text)
    returns_id = bool(insert and insert.group(1) in ID_TABLES and "RETURNING" not in text.upper())
    if returns_id:
        text += " RETURNING id"
    return text, returns_id


__all__ = ["ID_TABLES", "translate"]
