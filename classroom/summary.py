"""A class's summary, as a teacher files it: when it was played, and one part per game and
level, with a row per pupil who played it (a pupil who played level 1 and level 7 has a row
in each): rounds, the best-move rate, exact hits, mistakes by kind, practice notes (rounded,
not simplified) and one line of what to practise next; the same in the spreadsheet.

Made from the answer tally (`classroom.tally`), so every figure is counted as the Discord
results count it: the best-move rate is best moves of the rounds asked, a wrong answer is one
mistake of one kind, and a round left to run out of time is a miss, no mistake kind.

Pupils are listed in the order they joined, never ranked. The CSV file is what a spreadsheet
in the teacher's language opens as it is (`classroom.spreadsheet`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from classroom.advice import NextStep, next_step, practice_text
from classroom.i18n import Lang, t
from classroom.operations import main_operation
from classroom.spreadsheet import spreadsheet, spreadsheet_cell
from classroom.tally import AnswerRecord, AnswerTally, best_rate, figures, ranked
from engine.registry import descriptor

TOP = 3  # the class's operations and mistake kinds that need work most
# The spreadsheet's columns, each a catalogue key ``lesson.summary.column.<name>``.
COLUMNS = ("name", "games", "rounds", "answers", "best", "rate", "exact", "mistakes",
           "game", "level", "missed", "notes", "next", "when")  # fmt: skip


@dataclass(frozen=True, slots=True)
class PupilLine:
    """One pupil's row in one part (``game`` None: a pupil who played no game)."""

    seat: str
    name: str
    games: int
    rounds: int
    answers: int
    best: int
    exact: int
    mistakes: tuple[tuple[str, int], ...]  # kind, count: most frequent first
    removed: bool = False  # the teacher removed the seat during the lesson
    missed: int = 0  # rounds asked and left to run out of time
    notes: tuple[tuple[str, int], ...] = ()  # practice notes: not_exact, not_simplified
    game: str | None = None
    level: int | None = None
    next: NextStep | None = None  # what to practise next

    @property
    def rate(self) -> Fraction | None:
        return best_rate(self.best, self.answers + self.missed)


@dataclass(frozen=True, slots=True)
class ClassSummary:
    """The class's summary: a row per pupil and part (parts in the order first played,
    pupils in the order they joined; pupils who played nothing last), the operations and
    mistake kinds that need work, what the class found together, and when it was played
    (epoch ms)."""

    pupils: tuple[PupilLine, ...]
    weak_operations: tuple[tuple[str, Fraction], ...]  # operation, best-move rate
    mistakes: tuple[tuple[str, int], ...]
    best: int
    exact: int
    start_ms: int | None = None
    end_ms: int | None = None

    def parts(self) -> list[tuple[tuple[str, int] | None, list[PupilLine]]]:
        """The rows by part, (game, level) or None for the pupils who played nothing."""
        out: dict[tuple[str, int] | None, list[PupilLine]] = {}
        for pupil in self.pupils:
            key = None if pupil.game is None else (pupil.game, pupil.level or 0)
            out.setdefault(key, []).append(pupil)
        return list(out.items())


@dataclass(frozen=True, slots=True)
class Played:
    """One game as the summary reads it: its game and level, the seats of each side, and its
    answer tally."""

    game: str
    level: int
    seats: tuple[tuple[str, ...], ...]
    tally: AnswerTally[str]


@dataclass(frozen=True, slots=True)
class Pupil:
    seat: str
    name: str
    removed: bool = False


@dataclass(frozen=True, slots=True)
class _Op:
    """One operation's answers (a `classroom.advice.Rated`), each mistake under every
    operation the answer practised, as the Discord results keep them, so both screens
    advise alike."""

    op: str
    answers: int = 0
    best: int = 0
    missed: int = 0
    mistakes: tuple[tuple[str, int], ...] = ()

    @property
    def asked(self) -> int:
        return self.answers + self.missed


def _operations(records: Sequence[AnswerRecord[str]], level: int) -> list[_Op]:
    answers: Counter[str] = Counter()
    best: Counter[str] = Counter()
    kinds: dict[str, Counter[str]] = {}
    missed = 0
    for r in records:
        if not r.answered:
            missed += 1
            continue
        for op in r.operations:
            answers[op] += 1
            best[op] += r.best
            if r.mistake is not None:
                kinds.setdefault(op, Counter())[r.mistake] += 1
    main = main_operation(level)
    ops = [*answers, *([main] if missed and main not in answers else [])]
    return [
        _Op(op, answers[op], best[op], missed if op == main else 0, ranked(kinds.get(op, {})))
        for op in ops
    ]


def summarise(games: Sequence[Played], pupils: Sequence[Pupil]) -> ClassSummary:
    """The summary of ``games`` for ``pupils`` (in the order they joined)."""
    parts: dict[tuple[str, int], list[Played]] = {}
    for played in games:
        key = (played.game, played.level if descriptor(played.game).has_levels else 0)
        parts.setdefault(key, []).append(played)
    lines: list[PupilLine] = []
    for (game, level), group in parts.items():
        for pupil in pupils:
            mine = [g for g in group if any(pupil.seat in held for held in g.seats)]
            if mine:
                lines.append(_line(pupil, game, level, mine))
    lines.extend(
        PupilLine(p.seat, p.name, 0, 0, 0, 0, 0, (), removed=p.removed)
        for p in pupils
        if not any(line.seat == p.seat for line in lines)
    )
    records = [r for g in games for r in g.tally.records]
    starts = [g.tally.started_at for g in games if g.tally.started_at is not None]
    ends = [g.tally.last_at for g in games if g.tally.last_at is not None]
    return ClassSummary(
        pupils=tuple(lines),
        weak_operations=_weak(records),
        mistakes=figures(records).mistakes[:TOP],
        best=sum(r.best for r in records),
        exact=sum(r.exact for r in records),
        start_ms=min(starts, default=None),
        end_ms=max(ends, default=None),
    )


def _line(pupil: Pupil, game: str, level: int, mine: Sequence[Played]) -> PupilLine:
    records = [r for g in mine for r in g.tally.records if r.seat == pupil.seat]
    notes: Counter[str] = Counter()
    for g in mine:
        notes.update(g.tally.notes.get(pupil.seat, {}))
    done = figures(records)
    ops = _operations(records, level)
    judged = descriptor(game).typed_answers  # its answers are typed and judged (§2.6)
    step = next_step(level, done.answers, done.best, done.missed, ops, judged) if judged else None
    return PupilLine(
        seat=pupil.seat,
        name=pupil.name,
        games=len(mine),
        rounds=sum(g.tally.rounds for g in mine),
        answers=done.answers,
        best=done.best,
        exact=done.exact,
        mistakes=done.mistakes,
        removed=pupil.removed,
        missed=done.missed,
        notes=ranked(notes),
        game=game,
        level=level if descriptor(game).has_levels else None,
        next=step if records else None,
    )


def _weak(records: Iterable[AnswerRecord[str]]) -> tuple[tuple[str, Fraction], ...]:
    """The operations with the lowest best-move rate (each answered at least once)."""
    tried: Counter[str] = Counter()
    best: Counter[str] = Counter()
    for record in records:
        for op in record.operations:
            tried[op] += 1
            best[op] += int(record.best)
    rates = [(op, Fraction(best[op], n)) for op, n in tried.items()]
    return tuple(sorted((r for r in rates if r[1] < 1), key=lambda r: (r[1], r[0]))[:TOP])


# -- in words ---------------------------------------------------------------------------------


def pupil_name(pupil: PupilLine, lang: Lang) -> str:
    """A pupil's name as the summary writes it (a removed seat says so)."""
    return t("lesson.summary.removed", lang, name=pupil.name) if pupil.removed else pupil.name


def mistake_name(kind: str, lang: Lang) -> str:
    return t(f"mistake.{kind}", lang)


def operation_name(op: str, lang: Lang) -> str:
    return t(f"lesson.operation.{op}", lang)


def mistakes_text(mistakes: tuple[tuple[str, int], ...], lang: Lang) -> str:
    return ", ".join(f"{mistake_name(kind, lang)} ({n})" for kind, n in mistakes)


def notes_text(notes: tuple[tuple[str, int], ...], lang: Lang) -> str:
    """Practice notes in words: "rounded (2), not simplified (5)"."""
    return ", ".join(f"{t(f'lesson.summary.note.{kind}', lang)} ({n})" for kind, n in notes)


def next_text(step: NextStep | None, lang: Lang) -> str:
    """What to practise next, in the words the bot's game summary uses."""
    if step is None:
        return ""
    if step.practice is not None:
        return practice_text(step.practice, lang)
    name = t(f"level.{step.level}.name", lang)
    text = t(f"lesson.summary.next.{step.direction}", lang, level=step.level, name=name)
    if step.practise is not None:
        most = t("lesson.summary.next.most", lang, operation=operation_name(step.practise, lang))
        return f"{text} {most}"
    return text


def part_title(game: str, level: int, lang: Lang) -> str:
    """A part's heading: the game, and its level where the game has levels."""
    about = descriptor(game)
    name = t(about.name_key, lang)
    if not about.has_levels:
        return name
    level_name = t(f"level.{level}.name", lang)
    return f"{name} · {t('board.level', lang, level=level, name=level_name)}"


def when_text(summary: ClassSummary, lang: Lang) -> str:
    """The date and the time span, in the computer's own time zone ("2026-03-02, 09:05–09:50");
    empty before the first game."""
    if summary.start_ms is None or summary.end_ms is None:
        return ""
    start = datetime.fromtimestamp(summary.start_ms / 1000).astimezone()
    end = datetime.fromtimestamp(summary.end_ms / 1000).astimezone()
    return t(
        "lesson.summary.when",
        lang,
        date=start.date().isoformat(),
        start=start.strftime("%H:%M"),
        end=end.strftime("%H:%M"),
    )


def decimal(value: Fraction | None, lang: Lang) -> str:
    """A share with two decimals in the language's decimal mark ("0,75"); empty for none."""
    if value is None:
        return ""
    return f"{float(value):.2f}".replace(".", t("notation.decimal_mark", lang))


def percent(value: Fraction | None, lang: Lang) -> str:
    if value is None:
        return "–"
    return t("lesson.percent", lang, percent=round(float(value) * 100))


def csv_bytes(summary: ClassSummary, lang: Lang) -> bytes:
    """The summary as a CSV file for a spreadsheet in `lang`: a row per pupil and part, the
    part's game and level in columns of their own (so the file sorts and filters)."""
    header = [t(f"lesson.summary.column.{column}", lang) for column in COLUMNS]
    when = when_text(summary, lang)
    rows = (
        [spreadsheet_cell(pupil_name(p, lang)), p.games, p.rounds, p.answers, p.best,
         decimal(p.rate, lang), p.exact, mistakes_text(p.mistakes, lang),
         t(descriptor(p.game).name_key, lang) if p.game else "",
         "" if p.level is None else p.level, p.missed, notes_text(p.notes, lang),
         next_text(p.next, lang), when]
        for p in summary.pupils
    )  # fmt: skip
    return spreadsheet([header, *rows], lang).encode("utf-8")
