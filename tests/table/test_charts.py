"""The charts drawn on the server (table/charts.py): every count written in the heat map, in a
colour of at least 4.5:1 against its cell (WCAG 2.1 AA, 1.4.3; axe-core does not read SVG
text), and a line chart with a gap where a period had too few rounds."""

from __future__ import annotations

import re
from fractions import Fraction

from table.charts import Series, heat_map, line_chart


def _luminance(colour: str) -> float:
    parts = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [p / 12.92 if p <= 0.03928 else ((p + 0.055) / 1.055) ** 2.4 for p in parts]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_count_is_written_legibly_on_its_cell() -> None:
    counts = [list(range(0, 31, 3))]
    svg = heat_map(["sign slip"], [f"L{i}" for i in range(11)], counts, title="t",
                   description="d", most=30)  # fmt: skip
    cells = re.findall(
        r'<rect [^>]*fill="(#[0-9a-f]{6})"[^>]*/><text [^>]*fill="(#[0-9a-f]{6})">(\d+)<', svg
    )
    assert [int(n) for _, _, n in cells] == counts[0]
    for fill, ink, _ in cells:
        assert _contrast(fill, ink) >= 4.5, (fill, ink)


def test_a_period_with_too_few_rounds_is_a_gap_in_its_line() -> None:
    rates = [Fraction(1, 2), None, Fraction(1, 4), Fraction(1, 8)]
    svg = line_chart(["a", "b", "c", "d"], [Series("slips", rates)], title="t", description="d",
                     ident="x")  # fmt: skip
    assert svg.count("<circle") == 3
    assert svg.count("<polyline") == 1  # a alone, b too few: one line, from c to d
