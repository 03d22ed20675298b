"""The storage modules' parameters in psycopg's spelling: the only difference left.

The statements themselves are written once, in SQL that SQLite (3.35 or later) and
PostgreSQL both accept: ``ON CONFLICT``, ``RETURNING``, upserts whose old columns are named
with their table, ``greatest``/``least`` (which SQLite gets as functions of ours,
storage/database.py). What differs is how a parameter is written: ``?`` and ``:name``
for sqlite3, ``%s`` and ``%(name)s`` for psycopg, which also reads every ``%`` as the start
of one, so a literal ``%`` is doubled. A string literal or a quoted name is copied as it
is (a ``?`` inside one is text, not a parameter), but for its ``%`` signs.
"""

from __future__ import annotations

import re
from functools import lru_cache

# A quoted piece ('text', with '' inside; "name"), a parameter (?, :name, never a ::cast),
# or a percent sign; everything between them is copied.
_TOKEN = re.compile(r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|\?|(?<![:\w]):([A-Za-z_]\w*)|%""")


@lru_cache(maxsize=4096)
def translate(sql: str, *, named: bool) -> str:
    """psycopg's text for ``sql``, whose parameters are ``:name`` (``named``, a mapping) or
    ``?`` (a sequence). Cached per statement: each is worked out once per process."""

    def swap(match: re.Match[str]) -> str:
        token = match.group(0)
        if token[0] in "'\"":
            return token.replace("%", "%%")
        if token == "%":
            return "%%"
        if token == "?":
            if named:
                raise ValueError(f"a ? among named parameters: {sql!r}")
            return "%s"
        if not named:
            raise ValueError(f"a named parameter among ? parameters: {sql!r}")
        return f"%({match.group(1)})s"

    return _TOKEN.sub(swap, sql)


__all__ = ["translate"]
