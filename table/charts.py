"""Charts drawn on the server as SVG: a heat map (kinds × lessons) and a line chart of rates.

Why our own: two small pictures, inline in the page (the pages load nothing from anywhere
else, and the style policy allows no inline styles, so colours are SVG attributes), with no
script and no dependency. Every chart is an image with a name and a description, and the page
gives the same numbers in a table beside it; colour is never the only carrier (each cell
writes its count, each line has its own dash pattern and point marks, named in the legend).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape

# Light to dark; counts are written dark on the first four (4.8:1 or more) and white on the
# last two (6.7:1 or more), WCAG AA for text.
_HEAT = ("#ffffff", "#dbeafe", "#93c5fd", "#3b82f6", "#1d4ed8", "#1e3a8a")
_INK_DARK, _INK_LIGHT = "#111827", "#ffffff"
_LINES = (("#1d4ed8", ""), ("#b91c1c", "6 4"), ("#14532d", "2 3"), ("#7c2d12", "10 3 2 3"),
          ("#6b21a8", "1 2"))  # fmt: skip


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def heat_map(
    rows: Sequence[str],
    columns: Sequence[str],
    counts: Sequence[Sequence[int]],
    *,
    title: str,
    description: str,
    most: int,
) -> str:
    """Rows (kinds) × columns (lessons), each cell its count, darker for more; ``most`` is
    the count that is darkest (the class's size)."""
    label_w, cell_w, cell_h, top = 200, 56, 30, 64
    width = label_w + cell_w * max(1, len(columns)) + 8
    height = top + cell_h * max(1, len(rows)) + 8
    out = [
        f'<svg class="heat" role="img" aria-labelledby="heat-title heat-desc" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        'xmlns="http://www.w3.org/2000/svg" font-family="sans-serif" font-size="13">'
        f'<title id="heat-title">{_e(title)}</title><desc id="heat-desc">{_e(description)}</desc>'
    ]
    for j, column in enumerate(columns):
        x = label_w + j * cell_w + cell_w / 2
        out.append(
            f'<text x="{x:.0f}" y="{top - 8}" text-anchor="end" fill="{_INK_DARK}" '
            f'transform="rotate(-35 {x:.0f} {top - 8})">{_e(column)}</text>'
        )
    for i, row in enumerate(rows):
        y = top + i * cell_h
        out.append(
            f'<text x="{label_w - 6}" y="{y + cell_h / 2 + 4:.0f}" text-anchor="end" '
            f'fill="{_INK_DARK}">{_e(row)}</text>'
        )
        for j, count in enumerate(counts[i]):
            step = 0 if count <= 0 else min(len(_HEAT) - 1, 1 + (count * 4) // max(1, most))
            ink = _INK_LIGHT if step >= 4 else _INK_DARK  # each at least 4.5:1 on its fill
            x = label_w + j * cell_w
            out.append(
                f'<rect x="{x}" y="{y}" width="{cell_w}" height="{cell_h}" fill="{_HEAT[step]}" '
                'stroke="#64748b" stroke-width="1"/>'
                f'<text x="{x + cell_w / 2:.0f}" y="{y + cell_h / 2 + 5:.0f}" '
                f'text-anchor="middle" fill="{ink}">{count}</text>'
            )
    out.append("</svg>")
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    values: Sequence[Fraction | None]  # one per column; None: too few rounds (a gap)


def line_chart(
    columns: Sequence[str], series: Sequence[Series], *, title: str, description: str, ident: str
) -> str:
    """Rates (0–100 %) over the columns (lessons), one line per series, gaps where a period
    had too few rounds; a legend names each line by its colour and dash pattern."""
    left, top, plot_w, plot_h = 44, 12, max(120, 64 * len(columns)), 180
    legend_y = top + plot_h + 48
    width = left + plot_w + 20
    height = legend_y + 20 * len(series) + 8
    out = [
        f'<svg class="chart" role="img" aria-labelledby="{ident}-title {ident}-desc" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        'xmlns="http://www.w3.org/2000/svg" font-family="sans-serif" font-size="12">'
        f'<title id="{ident}-title">{_e(title)}</title>'
        f'<desc id="{ident}-desc">{_e(description)}</desc>'
    ]
    for pct in (0, 25, 50, 75, 100):
        y = top + plot_h - plot_h * pct / 100
        out.append(
            f'<line x1="{left}" x2="{left + plot_w}" y1="{y:.0f}" y2="{y:.0f}" '
            'stroke="#cbd5e1" stroke-width="1"/>'
            f'<text x="{left - 6}" y="{y + 4:.0f}" text-anchor="end" fill="{_INK_DARK}">'
            f"{pct} %</text>"
        )
    step = plot_w / max(1, len(columns))
    for j, column in enumerate(columns):
        x = left + step * (j + 0.5)
        out.append(
            f'<text x="{x:.0f}" y="{top + plot_h + 16}" text-anchor="end" fill="{_INK_DARK}" '
            f'transform="rotate(-30 {x:.0f} {top + plot_h + 16})">{_e(column)}</text>'
        )
    for k, line in enumerate(series):
        colour, dash = _LINES[k % len(_LINES)]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        runs: list[list[tuple[float, float]]] = [[]]
        for j, value in enumerate(line.values):
            if value is None:
                runs.append([])
                continue
            x = left + step * (j + 0.5)
            y = top + plot_h - plot_h * float(value)
            runs[-1].append((x, y))
            out.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="3.5" fill="{colour}"/>')
        for run in runs:
            if len(run) > 1:
                points = " ".join(f"{x:.0f},{y:.0f}" for x, y in run)
                out.append(
                    f'<polyline points="{points}" fill="none" stroke="{colour}" '
                    f'stroke-width="2.5"{dashed}/>'
                )
        y = legend_y + 20 * k
        out.append(
            f'<line x1="{left}" x2="{left + 36}" y1="{y}" y2="{y}" stroke="{colour}" '
            f'stroke-width="2.5"{dashed}/>'
            f'<text x="{left + 44}" y="{y + 4}" fill="{_INK_DARK}">{_e(line.name)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


__all__ = ["Series", "heat_map", "line_chart"]
