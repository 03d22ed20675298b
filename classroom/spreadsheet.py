"""The teacher's spreadsheets, as both screens write them: CSV a spreadsheet in the teacher's
language opens by a double click, and cells that never run as formulas."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from classroom.i18n import t


def spreadsheet(rows: Iterable[Iterable[object]], lang: str) -> str:
    """Rows as CSV text a spreadsheet in ``lang`` opens by a double click: where the decimal
    mark is a comma (nb, nn, sv) Excel and LibreOffice split fields at a semicolon,
    elsewhere at a comma. Every file starts with a byte-order mark, in every language:
    without it Excel reads the bytes in the computer's own code page, and a pupil named
    "Åse" becomes "Ã…se", in an English school's spreadsheet as much as in a Norwegian one."""
    out = io.StringIO()
    out.write("\ufeff")
    comma = t("notation.decimal_mark", lang) == ","
    csv.writer(out, delimiter=";" if comma else ",", lineterminator="\r\n").writerows(rows)
    return out.getvalue()


def spreadsheet_cell(text: str) -> str:
    """A name a spreadsheet will not run as a formula (CSV injection: =, +, -, @)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
