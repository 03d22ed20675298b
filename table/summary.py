"""The lesson's summary: for each pupil, the rounds played, the best-move rate, the exact hits
and the mistakes by kind (RULES §2.6, the engine's codes, named in the reader's language);
for the class, the operations and the mistake kinds that need work, and the class goal.

Pupils are listed in the order they joined, never ranked. The CSV file is what a
spreadsheet in the teacher's language opens as it is: in nb, nn and sv a semicolon between
fields and a decimal comma, in en a comma and a decimal point; in every language a byte-order
mark, as in the teacher's report files.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from classroom.i18n import Lang, t
from classroom.spreadsheet import spreadsheet, spreadsheet_cell
from table.games import Record
from table.lesson import Lesson

TOP = 3  # the class's operations and mistake kinds that need work most


@dataclass(frozen=True, slots=True)
class PupilLine:
    seat: str
    name: str
    games: int
    rounds: int
    answers: int
    best: int
    exact: int
    mistakes: tuple[tuple[str, int], ...]  # kind, count: most frequent first
    removed: bool = False  # the teacher removed the seat during the lesson

    @property
    def rate(self) -> Fraction | None:
        return Fraction(self.best, self.answers) if self.answers else None


@dataclass(frozen=True, slots=True)
class ClassLine:
    pupils: tuple[PupilLine, ...]
    weak_operations: tuple[tuple[str, Fraction], ...]  # operation, best-move rate
    mistakes: tuple[tuple[str, int], ...]
    best: int
    exact: int


def _ranked(counter: Counter[str]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


def summarise(lesson: Lesson) -> ClassLine:
    records = lesson.records()
    games = lesson.live_games()
    pupils = []
    everyone = [*lesson.seats.values(), *lesson.removed.values()]
    for seat in sorted(everyone, key=lambda s: s.joined):
        mine = [r for r in records if r.seat == seat.id]
        answers = [r for r in mine if r.operations]
        played = [g for g in games if seat.id in g.all_seats]
        pupils.append(
            PupilLine(
                seat=seat.id,
                name=seat.name,
                games=len(played),
                rounds=sum(g.state.round for g in played),
                answers=len(answers),
                best=sum(r.best for r in answers),
                exact=sum(r.exact for r in answers),
                mistakes=_ranked(Counter(r.mistake for r in mine if r.mistake)),
                removed=seat.id in lesson.removed,
            )
        )
    return ClassLine(
        pupils=tuple(pupils),
        weak_operations=_weak(records),
        mistakes=_ranked(Counter(r.mistake for r in records if r.mistake))[:TOP],
        best=sum(r.best for r in records),
        exact=sum(r.exact for r in records),
    )


def _weak(records: list[Record]) -> tuple[tuple[str, Fraction], ...]:
    """The operations with the lowest best-move rate (each answered at least once)."""
    tried: Counter[str] = Counter()
    best: Counter[str] = Counter()
    for record in records:
        for op in record.operations:
            tried[op] += 1
            best[op] += int(record.best)
    rates = [(op, Fraction(best[op], n)) for op, n in tried.items()]
    return tuple(sorted((r for r in rates if r[1] < 1), key=lambda r: (r[1], r[0]))[:TOP])


def pupil_name(pupil: PupilLine, lang: Lang) -> str:
    """A pupil's name as the summary writes it (a removed seat says so)."""
    return t("lesson.summary.removed", lang, name=pupil.name) if pupil.removed else pupil.name


def mistake_name(kind: str, lang: Lang) -> str:
    return t(f"mistake.{kind}", lang)


def operation_name(op: str, lang: Lang) -> str:
    return t(f"lesson.operation.{op}", lang)


def mistakes_text(mistakes: tuple[tuple[str, int], ...], lang: Lang) -> str:
    return ", ".join(f"{mistake_name(kind, lang)} ({n})" for kind, n in mistakes)


def decimal(value: Fraction | None, lang: Lang) -> str:
    """A share with two decimals in the language's decimal mark ("0,75"); empty for none."""
    if value is None:
        return ""
    return f"{float(value):.2f}".replace(".", t("notation.decimal_mark", lang))


def percent(value: Fraction | None, lang: Lang) -> str:
    if value is None:
        return "–"
    return t("lesson.percent", lang, percent=round(float(value) * 100))


def csv_bytes(summary: ClassLine, lang: Lang) -> bytes:
    """The summary as a CSV file for a spreadsheet in `lang`."""
    columns = ("name", "games", "rounds", "answers", "best", "rate", "exact", "mistakes")
    header = [t(f"lesson.summary.column.{column}", lang) for column in columns]
    rows = (
        [spreadsheet_cell(pupil_name(p, lang)), p.games, p.rounds, p.answers, p.best,
         decimal(p.rate, lang), p.exact, mistakes_text(p.mistakes, lang)]
        for p in summary.pupils
    )  # fmt: skip
    return spreadsheet([header, *rows], lang).encode("utf-8")
