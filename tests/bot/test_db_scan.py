"""The privacy tests' database scan finds a user's id wherever it is stored, and only there:
a keyed fingerprint of a forgotten id is hexadecimal text that holds a pupil's short test id
("101") as digits now and then, and is not that id (PRIVACY.md: a forget leaves only a keyed
fingerprint)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.bot.db_scan import scan


def test_an_id_is_found_as_a_number_and_not_inside_a_digest(tmp_path: Path) -> None:
    path = tmp_path / "scan.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (kind TEXT, value)")
    rows = [("digest", "ff7f12af1017bd808af8b864ae01abcf"), ("column", 101),
            ("json", json.dumps({"user": 101, "other": 1010})), ("list", "[5, 101]"),
            ("name", "Zelda Ørnebu")]  # fmt: skip
    conn.executemany("INSERT INTO t VALUES (?, ?)", rows)
    conn.commit()
    conn.close()
    found = {value for _, _, value in scan(path, 101, "Ørnebu")}
    assert found == {101, json.dumps({"user": 101, "other": 1010}), "[5, 101]", "Zelda Ørnebu"}
