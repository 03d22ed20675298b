"""PRIVACY.md matches the schema (its promise: every table that names a pupil is listed): a
table with a user-id column that PRIVACY.md does not mention fails here, as does one the export
or forget-me do not know."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from storage import EXPORTED_TABLES, USER_COLUMNS, Storage

from .conftest import Backend, need_file

ROOT = Path(__file__).resolve().parents[3]
# Columns that hold a Discord user id: user_id, *_user_id, host_id, member_id, author_id, *_by.
USER_ID = re.compile(r"^(.+_)?user_id$|^host_id$|^member_id$|^author_id$|_by$")


async def _schema(store: Storage) -> dict[str, list[str]]:
    conn = sqlite3.connect(store.path)
    try:
        tables = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {t: [r[1] for r in conn.execute(f"PRAGMA table_xinfo({t})")] for t in tables}
    finally:
        conn.close()


def _user_columns(schema: dict[str, list[str]]) -> dict[str, tuple[str, ...]]:
    found = {t: tuple(c for c in cols if USER_ID.search(c)) for t, cols in schema.items()}
    return {t: cols for t, cols in found.items() if cols}


async def test_privacy_notice_names_every_user_id_column_and_table(
    backend: Backend, store: Storage
) -> None:
    need_file(backend)
    notice = (ROOT / "PRIVACY.md").read_text(encoding="utf-8")
    schema = await _schema(store)
    missing = [
        f"{table}.{column}"
        for table, columns in _user_columns(schema).items()
        for column in columns
        if f"`{table}.{column}`" not in notice
    ]
    assert missing == [], f"PRIVACY.md does not mention {missing}"
    unlisted = [t for t in schema if f"`{t}`" not in notice]
    assert unlisted == [], f"PRIVACY.md does not list the tables {unlisted}"
    mentioned = set(re.findall(r"`([a-z_]+)\.([a-z_]+)`", notice))
    stale = [f"{t}.{c}" for t, c in mentioned if c not in schema.get(t, [])]
    assert stale == [], f"PRIVACY.md mentions columns that do not exist: {stale}"


async def test_export_and_forget_know_every_user_id_column(
    backend: Backend, store: Storage
) -> None:
    need_file(backend)
    assert _user_columns(await _schema(store)) == USER_COLUMNS
    assert set(USER_COLUMNS) <= set(EXPORTED_TABLES)
