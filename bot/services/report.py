"""The teacher's report that says whom to help (`/mattekrig admin report [from] [to]
[pupil]`): per pupil, level and operation, from the recorded results.

The per-answer records decide the columns: answers, correct and best moves per
operation and game, with the mistake kinds of the wrong answers and every answer's time (so
the median is the true per-answer median); misses and exact hits per game, so per level (they
sit on the level's own line: its operation at levels 1–4, ``target`` at 5–7). "Needs help
with" names the mistake kinds that keep coming back (`SkillLine.help_with`), each once per pupil
and level. A wrong answer is counted once, under its most particular area (RULES §2.6: a
square's slip at level 6 is a slip in squares, not in squares and in the target too).
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta

from bot.services.figures import ClassReport, SkillLine
from classroom.errors import UserFacingError
from classroom.i18n import DEFAULT_LANG, lang_of, t
from classroom.operations import main_operation
from classroom.periods import SCHOOL_TZ, week_key
from classroom.spreadsheet import spreadsheet, spreadsheet_cell
from classroom.summary import notes_text
from classroom.tally import disjoint, ranked
from storage import OperationTally, PlayerGame
from storage.records import PracticeNote

# The columns, each a catalogue key (``report.csv.<column>``, the ones both spreadsheets share,
# or ``report.csv.skills.<column>``), so a translator words the spreadsheet with the screens.
_COLUMNS = (
    "pupil",
    "skills.level",
    "skills.operation",
    "answers",
    "skills.correct",
    "best",
    "missed",
    "skills.exact",
    "median",
    "skills.weeks",
    "skills.mistakes",
    "skills.help",
    "notes",
)


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
    notes: Iterable[PracticeNote] = (),
) -> ClassReport:
    """Every pupil's lines from their games that ended in [start, end), with their practice
    notes (RULES §2.6: never mistakes) on each level's own line (pure)."""
    cells: defaultdict[tuple[int, int, str], list[tuple[PlayerGame, OperationTally]]]
    cells = defaultdict(list)
    noted: defaultdict[tuple[int, int], Counter[str]] = defaultdict(Counter)
    for note in notes:
        noted[(note.game_id, note.user_id)][note.code] += note.n
    names: dict[int, str] = {}
    for game in games:
        uid = game.player.user_id
        if uid is None or (user_id is not None and uid != user_id):
            continue
        ended = game.result.ended_at
        if (start_ms is not None and ended < start_ms) or (end_ms is not None and ended >= end_ms):
            continue
        names[uid] = game.player.display_name or names.get(uid) or str(uid)
        level = game.result.level
        tallies = {t.op: t for t in game.player.operations if t.answers}
        # RULES §2.6: one wrong answer, one count, under its most particular area
        once = disjoint(level, {op: t.mistakes for op, t in tallies.items()})
        tallies = {op: replace(t, mistakes=once.get(op, t.mistakes)) for op, t in tallies.items()}
        if game.player.missed or game.player.exact_hits or noted.get((game.result.game_id, uid)):
            tallies.setdefault(main_operation(level), OperationTally(main_operation(level)))
        for op, tally in tallies.items():
            cells[(uid, level, op)].append((game, tally))
    lines = [
        _line(uid, names[uid], level, op, mine, noted) for (uid, level, op), mine in cells.items()
    ]
    lines.sort(key=lambda s: (s.name.casefold(), s.user_id, s.level, s.op))
    return ClassReport(tuple(lines), start_ms, end_ms, kinds_by_week(cells.values()))


# Kinds that are no skill of the pupil's: never a trend of the class.
_NOT_A_SKILL = ("timeout", "no_legal_value")


def kinds_by_week(
    cells: Iterable[Sequence[tuple[PlayerGame, OperationTally]]],
) -> tuple[tuple[str, tuple[tuple[int, int, int], ...]], ...]:
    """The class's kinds of mistakes week by week: per kind, per week its count and the
    answers given that week (each wrong answer once, RULES §2.6: the tallies are `disjoint`).
    Did our lesson on minus-minus work? The sign slips' share falls week on week."""
    answers: defaultdict[int, int] = defaultdict(int)
    kinds: defaultdict[str, defaultdict[int, int]] = defaultdict(lambda: defaultdict(int))
    for mine in cells:
        for game, tally in mine:
            week = week_key(game.result.ended_at)
            answers[week] += tally.answers
            for kind, n in tally.mistakes:
                if kind not in _NOT_A_SKILL:
                    kinds[kind][week] += n
    total = {kind: sum(weeks.values()) for kind, weeks in kinds.items()}
    ordered = sorted(kinds, key=lambda k: (-total[k], k))
    return tuple(
        (kind, tuple((w, kinds[kind][w], answers[w]) for w in sorted(answers))) for kind in ordered
    )


def _line(
    uid: int,
    name: str,
    level: int,
    op: str,
    mine: Sequence[tuple[PlayerGame, OperationTally]],
    noted: Mapping[tuple[int, int], Counter[str]],
) -> SkillLine:
    """One cell: the tallies summed (mistake kinds and times with them), and the games'
    misses, exact hits and practice notes when ``op`` is the level's own line."""
    own = op == main_operation(level)
    total = OperationTally(op)
    notes: Counter[str] = Counter()
    if own:
        for game, _ in mine:
            notes.update(noted.get((game.result.game_id, uid), Counter()))
    weeks: defaultdict[int, list[int]] = defaultdict(lambda: [0, 0])
    for game, tally in mine:
        total = total + tally
        week = weeks[week_key(game.result.ended_at)]
        week[0] += tally.answers + (game.player.missed if own else 0)
        week[1] += tally.best
    return SkillLine(
        user_id=uid,
        name=name,
        level=level,
        op=op,
        answers=total.answers,
        correct=total.correct,
        best=total.best,
        missed=sum(g.player.missed for g, _ in mine) if own else 0,
        exact_hits=sum(g.player.exact_hits for g, _ in mine) if own else 0,
        median_ms=round(statistics.median(total.times)) if total.times else None,
        weeks=tuple((w, a, b) for w, (a, b) in sorted(weeks.items())),
        mistakes=total.mistakes,
        notes=ranked(notes),
    )


def report_rows_csv(
    report: ClassReport,
    op_names: dict[str, str],
    mistake_name: Callable[[str], str],
    *,
    lang: str = "en",
) -> str:
    """The report as a spreadsheet (`spreadsheet`: `;` and a decimal comma in nb/nn/sv, `,`
    and a point in en, a BOM in every language), headers in the teacher's language; mistake
    kinds in words (``mistake_name``: a reason code in the teacher's language), and the
    practice notes on each level's own line in the lesson summary's words ("not simplified
    (3)")."""
    lang = lang_of(lang) or DEFAULT_LANG
    mark = t("notation.decimal_mark", lang)
    rows = [[t(f"report.csv.{column}", lang) for column in _COLUMNS]]
    helped = report.help_of()
    for line in report.lines:
        weeks = ", ".join(
            t(
                "report.csv.skills.week",
                lang,
                week=f"{w % 100:02d}",
                percent=_number(b / a * 100, mark, 0),
            )
            for w, a, b in line.weeks
            if a
        )
        kinds = ", ".join(f"{mistake_name(code)} ({n})" for code, n in line.mistakes[:3])
        rows.append(
            [
                spreadsheet_cell(line.name),
                str(line.level),
                op_names.get(line.op, line.op),
                str(line.answers),
                _number(_pct(line.accuracy), mark, 1),
                _number(_pct(line.best_rate), mark, 1),
                str(line.missed),
                str(line.exact_hits),
                "" if line.median_ms is None else _number(line.median_ms / 1000, mark, 1),
                weeks,
                kinds,
                ", ".join(
                    mistake_name(code) for code in helped[(line.user_id, line.level, line.op)]
                ),
                notes_text(line.notes, lang),  # RULES §2.6: practice, never a mistake
            ]
        )
    return spreadsheet(rows, lang)


def report_trend_csv(
    report: ClassReport, mistake_name: Callable[[str], str], *, lang: str = "en"
) -> str:
    """The class's kinds × weeks as a spreadsheet (the report's 📈 field, with every kind and
    every week, not only the last four): a row of the answers given each week, then a row per
    kind of mistake, the commonest first, with its count each week. Counts of the server's
    pupils together: no name, and nothing ranks a pupil."""
    lang = lang_of(lang) or DEFAULT_LANG
    weeks = [w for w, _, _ in report.trend[0][1]] if report.trend else []
    answers = [str(a) for _, _, a in report.trend[0][1]] if report.trend else []
    header = [t("report.csv.trend.kind", lang)] + [
        t("report.csv.trend.week", lang, week=w % 100, year=w // 100) for w in weeks
    ]
    rows = [header, [t("report.csv.answers", lang), *answers]]
    for kind, counts in report.trend:
        rows.append([mistake_name(kind), *(str(n) for _, n, _ in counts)])
    return spreadsheet(rows, lang)


def _pct(value: float | None) -> float | None:
    return None if value is None else value * 100


def _number(value: float | None, mark: str, places: int) -> str:
    return "" if value is None else f"{value:.{places}f}".replace(".", mark)
