"""The teacher's report that says whom to help (`/mattekrig admin report [from] [to]
[pupil]`): per pupil, level and operation, from the recorded results.

What the results hold today decides the columns: answers, correct and best moves per
operation and game; misses and exact hits per game (so per level: at levels 1–4 a level is
one operation); answer time as a per-game total (so the median is over games' mean times).
The mistake kinds and per-answer times of issue 11 add their columns when they are recorded.
"""

from __future__ import annotations

import csv
import io
import statistics
from collections import defaultdict
from collections.abc import Sequence
from datetime import date, datetime, timedelta

from bot.reports import ClassReport, SkillLine
from bot.services.errors import UserFacingError
from bot.services.periods import SCHOOL_TZ, week_key
from bot.storage import PlayerGame

_HEADERS = {
    "en": (
        "Pupil",
        "Level",
        "Operation",
        "Answers",
        "Correct (%)",
        "Best moves (%)",
        "Missed",
        "Exact hits",
        "Median time (s)",
        "Best moves by week",
        "Needs help",
    ),
    "nb": (
        "Elev",
        "Nivå",
        "Regneart",
        "Svar",
        "Riktige (%)",
        "Beste trekk (%)",
        "Bommet",
        "Blink",
        "Mediantid (s)",
        "Beste trekk per uke",
        "Trenger hjelp",
    ),
    "sv": (
        "Elev",
        "Nivå",
        "Räknesätt",
        "Svar",
        "Rätta (%)",
        "Bästa drag (%)",
        "Missade",
        "Fullträffar",
        "Mediantid (s)",
        "Bästa drag per vecka",
        "Behöver hjälp",
    ),
}
_YES = {"en": "yes", "nb": "ja", "sv": "ja"}
_WEEK = {"en": "w", "nb": "u", "sv": "v"}


def parse_day(text: str | None, option: str) -> date | None:
    """A date the teacher typed (2026-03-02, 2.3.2026 or 02.03.2026), or a clear refusal."""
    if text is None or not text.strip():
        return None
    for form in ("%Y-%m-%d", "%d.%m.%Y", "%d.%m.%y"):
        try:
            return datetime.strptime(text.strip(), form).date()
        except ValueError:
            continue
    raise UserFacingError("report.bad_date", option=option)


def day_bounds(start: date | None, end: date | None) -> tuple[int | None, int | None]:
    """Local midnight of ``start`` and of the day after ``end``, in epoch milliseconds."""

    def midnight(d: date) -> int:
        return int(datetime(d.year, d.month, d.day, tzinfo=SCHOOL_TZ).timestamp() * 1000)

    if start is not None and end is not None and end < start:
        raise UserFacingError("report.bad_range")
    return (
        midnight(start) if start else None,
        midnight(end + timedelta(days=1)) if end else None,
    )


def class_report(
    games: Sequence[PlayerGame],
    *,
    start_ms: int | None = None,
    end_ms: int | None = None,
    user_id: int | None = None,
) -> ClassReport:
    """Every pupil's lines from their games that ended in [start, end) (pure)."""
    cells: defaultdict[tuple[int, int, str], list[PlayerGame]] = defaultdict(list)
    names: dict[int, str] = {}
    for game in games:
        uid = game.player.user_id
        if uid is None or (user_id is not None and uid != user_id):
            continue
        ended = game.result.ended_at
        if (start_ms is not None and ended < start_ms) or (end_ms is not None and ended >= end_ms):
            continue
        names[uid] = game.player.display_name or names.get(uid) or str(uid)
        for tally in game.player.operations:
            if tally.answers:
                cells[(uid, game.result.level, tally.op)].append(game)
    lines = []
    for (uid, level, op), mine in cells.items():
        answers = correct = best = 0
        means: list[float] = []
        weeks: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0])
        for game in mine:
            tally = next(t for t in game.player.operations if t.op == op)
            answers += tally.answers
            correct += tally.correct
            best += tally.best
            means.append(tally.answer_ms / tally.answers)
            week = weeks[week_key(game.result.ended_at)]
            week[0] += tally.answers
            week[1] += tally.best
        lines.append(
            SkillLine(
                user_id=uid,
                name=names[uid],
                level=level,
                op=op,
                answers=answers,
                correct=correct,
                best=best,
                missed=sum(g.player.missed for g in mine),
                exact_hits=sum(g.player.exact_hits for g in mine),
                median_ms=round(statistics.median(means)) if means else None,
                weeks=tuple((w, a, b) for w, (a, b) in sorted(weeks.items())),
            )
        )
    lines.sort(key=lambda s: (s.name.casefold(), s.user_id, s.level, s.op))
    return ClassReport(tuple(lines), start_ms, end_ms)


def report_rows_csv(report: ClassReport, op_names: dict[str, str], *, lang: str = "en") -> str:
    """The report as a spreadsheet: `;` and a decimal comma in nb/sv (`,` and a point in en),
    UTF-8 with a BOM so æøå open correctly, headers in the teacher's language."""
    lang = lang if lang in _HEADERS else "en"
    comma = lang != "en"
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";" if comma else ",", lineterminator="\r\n")
    writer.writerow(_HEADERS[lang])
    for line in report.lines:
        weeks = ", ".join(
            f"{_WEEK[lang]}{w % 100:02d}: {_number(b / a * 100, comma, 0)} %"
            for w, a, b in line.weeks
            if a
        )
        writer.writerow(
            [
                spreadsheet_cell(line.name),
                str(line.level),
                op_names.get(line.op, line.op),
                str(line.answers),
                _number(_pct(line.accuracy), comma, 1),
                _number(_pct(line.best_rate), comma, 1),
                str(line.missed),
                str(line.exact_hits),
                "" if line.median_ms is None else _number(line.median_ms / 1000, comma, 1),
                weeks,
                _YES[lang] if line.needs_help else "",
            ]
        )
    return "\ufeff" + out.getvalue()


def _pct(value: float | None) -> float | None:
    return None if value is None else value * 100


def _number(value: float | None, comma: bool, places: int) -> str:
    if value is None:
        return ""
    text = f"{value:.{places}f}"
    return text.replace(".", ",") if comma else text


def spreadsheet_cell(text: str) -> str:
    """A name a spreadsheet will not run as a formula (CSV injection: =, +, -, @)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
