"""Progress lesson over lesson: what a class's stored rounds say of each pupil and of the class,
for every screen that shows it (the teacher's progress pages, the pupil's own line, the CSV).

The input is the rounds a class keeps (a round a pupil was asked: answered or missed, a best
move or not, the mistake's kind), counted by the database per pupil, lesson, level and kind,
and its practice notes (counts per lesson). The figures:

* **A rate of a kind** is the kind's count over the rounds *answered* in a period (a lesson or
  an ISO week); a practice note is counted the same way (RULES §2.6: refused, typed again, no
  mistake). A miss (time ran out) is no kind: it counts against the best-move rate.
* **The best-move rate** is best moves over the rounds *asked* (`classroom.tally.best_rate`).
* **Too few**: a period with fewer than `MIN_ROUNDS` rounds has no rate (None): a screen says
  "too few" rather than a share of 1 or 2 rounds.
* **The arrow** compares a period's rate with the period before it that has one: down, up or
  the same; none when either is too few.
* **The heat map**: for each kind and lesson, the pupils who made that kind at least once.
  Screens show the count; names only when the teacher opens a cell.
* **The suggested next level**: `classroom.advice.next_step` over the pupil's rounds at the
  level played most in the pupil's last lesson.

Nothing here ranks pupils: pupils are listed in the order the caller gives (the roster's).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal, Protocol

from classroom.advice import next_step
from classroom.periods import week_key, week_start_ms
from classroom.tally import PRACTICE_NOTES, TIMEOUT, best_rate

MIN_ROUNDS = 5  # a period with fewer rounds shows "too few", no rate
Arrow = Literal["up", "down", "same"]
By = Literal["lesson", "week"]
BY: tuple[By, ...] = ("lesson", "week")


class InLesson(Protocol):
    """A pupil's row of one lesson (its time: the lesson's start)."""

    @property
    def pupil_id(self) -> int: ...
    @property
    def lesson_id(self) -> int: ...
    @property
    def lesson_at(self) -> int: ...


class TallyLike(InLesson, Protocol):
    """A pupil's rounds in one lesson at one level with one kind (None: no mistake), counted
    (`storage.records.classes.TallyRow`)."""

    @property
    def level(self) -> int: ...
    @property
    def kind(self) -> str | None: ...
    @property
    def asked(self) -> int: ...
    @property
    def answered(self) -> int: ...
    @property
    def best(self) -> int: ...


class NoteLike(InLesson, Protocol):
    """A pupil's practice notes of one kind in one lesson (`NoteRow`)."""

    @property
    def kind(self) -> str: ...
    @property
    def n(self) -> int: ...


@dataclass(frozen=True, slots=True, order=True)
class Period:
    """A lesson (``key`` its id) or an ISO week (``key`` "2026-W38"), from ``start`` (ms)."""

    start: int
    key: str


@dataclass
class Figures:
    """One pupil's (or the class's) rounds in one period."""

    asked: int = 0
    answered: int = 0
    best: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    levels: Counter[int] = field(default_factory=Counter)

    def add(self, r: TallyLike) -> None:
        self.asked += r.asked
        self.answered += r.answered
        self.best += r.best
        self.levels[r.level] += r.asked
        if r.kind is not None and r.kind != TIMEOUT and r.answered:
            self.kinds[r.kind] += r.answered

    def rate(self, kind: str) -> Fraction | None:
        """The kind's share of the rounds answered; None when they are too few."""
        if self.answered < MIN_ROUNDS:
            return None
        return Fraction(self.kinds[kind], self.answered)

    @property
    def best_rate(self) -> Fraction | None:
        return best_rate(self.best, self.asked) if self.asked >= MIN_ROUNDS else None

    @property
    def missed(self) -> int:
        return self.asked - self.answered


def arrow(before: Fraction | None, now: Fraction | None) -> Arrow | None:
    if before is None or now is None:
        return None
    return "up" if now > before else "down" if now < before else "same"


def week_of(ms: int) -> Period:
    """The school's ISO week a time (ms) is in, from its Monday (`classroom.periods`: the
    week turns over at midnight where the pupils are, as the bot's weekly figures do)."""
    key = week_key(ms)
    return Period(week_start_ms(ms), f"{key // 100}-W{key % 100:02d}")


def lesson_of(r: InLesson) -> Period:
    return Period(r.lesson_at, str(r.lesson_id))


@dataclass
class PupilProgress:
    """One pupil's periods (only those the pupil played in), oldest first."""

    pupil: int
    lessons: dict[Period, Figures] = field(default_factory=dict)
    weeks: dict[Period, Figures] = field(default_factory=dict)
    by_level: dict[Period, dict[int, Figures]] = field(default_factory=dict)  # lesson's levels

    _sorted: dict[str, list[tuple[Period, Figures]]] = field(default_factory=dict)

    def periods(self, by: By) -> list[tuple[Period, Figures]]:
        """The pupil's lessons or weeks, oldest first (sorted once: read after `progress`)."""
        found = self._sorted.get(by)
        if found is None:
            found = self._sorted[by] = sorted(
                (self.lessons if by == "lesson" else self.weeks).items()
            )
        return found

    @property
    def kinds(self) -> tuple[str, ...]:
        """Every kind and note the pupil has, the most frequent first."""
        total: Counter[str] = Counter()
        for f in self.lessons.values():
            total.update(f.kinds)
        return tuple(k for k, _ in sorted(total.items(), key=lambda kv: (-kv[1], kv[0])))

    @property
    def levels(self) -> tuple[int, ...]:
        return tuple(sorted({lv for f in self.lessons.values() for lv in f.levels}))

    def latest(self, by: By) -> tuple[Period, Figures] | None:
        found = self.periods(by)
        return found[-1] if found else None

    def trend(self, kind: str | None, by: By) -> Arrow | None:
        """The last period's rate (a kind's, or the best-move rate for None) against the
        latest period before it that has one."""
        rates = [f.best_rate if kind is None else f.rate(kind) for _, f in self.periods(by)]
        if len(rates) < 2 or rates[-1] is None:
            return None
        before = next((r for r in reversed(rates[:-1]) if r is not None), None)
        return arrow(before, rates[-1])

    def suggested_level(self) -> int | None:
        """The next level to play (`classroom.advice.next_step` over the rounds at the level
        played most in the last lesson)."""
        last = self.latest("lesson")
        if last is None:
            return None
        figures = last[1]
        level = max(figures.levels, key=lambda lv: (figures.levels[lv], lv))
        at = self.by_level[last[0]].get(level, Figures())
        return next_step(level, at.answered, at.best, at.missed, (), False).level


@dataclass
class ClassProgress:
    """The class's progress: each pupil's, and the heat map of kinds × lessons."""

    lessons: list[Period]
    weeks: list[Period]
    pupils: dict[int, PupilProgress]
    heat: dict[tuple[str, str], frozenset[int]]  # (kind, lesson key) -> pupils

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds of the heat map: most pupils over all lessons first."""
        total: Counter[str] = Counter()
        for (kind, _), pupils in self.heat.items():
            total[kind] += len(pupils)
        return tuple(k for k, _ in sorted(total.items(), key=lambda kv: (-kv[1], kv[0])))

    def count(self, kind: str, lesson: str) -> int:
        return len(self.heat.get((kind, lesson), ()))

    def pupil(self, pupil: int) -> PupilProgress:
        return self.pupils.get(pupil) or PupilProgress(pupil)


def progress(
    tallies: Iterable[TallyLike], notes: Iterable[NoteLike], pupils: Sequence[int] = ()
) -> ClassProgress:
    """The figures of a class's stored rounds, counted (`TallyLike`), and its notes (module
    docstring). ``pupils``: the roster's order (pupils without rounds get an empty
    progress)."""
    found: dict[int, PupilProgress] = {p: PupilProgress(p) for p in pupils}
    heat: dict[tuple[str, str], set[int]] = {}
    lessons: set[Period] = set()
    weeks: set[Period] = set()
    week_cache: dict[int, Period] = {}
    for r in tallies:
        who = found.get(r.pupil_id)
        if who is None:
            who = found[r.pupil_id] = PupilProgress(r.pupil_id)
        lesson = Period(r.lesson_at, str(r.lesson_id))
        week = week_cache.get(r.lesson_at)
        if week is None:
            week = week_cache[r.lesson_at] = week_of(r.lesson_at)
        lessons.add(lesson)
        weeks.add(week)
        for box, period in ((who.lessons, lesson), (who.weeks, week)):
            figures = box.get(period)
            if figures is None:
                figures = box[period] = Figures()
            figures.add(r)
        levels = who.by_level.setdefault(lesson, {})
        at_level = levels.get(r.level)
        if at_level is None:
            at_level = levels[r.level] = Figures()
        at_level.add(r)
        if r.answered and r.kind is not None and r.kind != TIMEOUT:
            heat.setdefault((r.kind, lesson.key), set()).add(r.pupil_id)
    for n in notes:
        who = found.get(n.pupil_id)
        if who is None or n.kind not in PRACTICE_NOTES or n.n <= 0:
            continue
        lesson = Period(n.lesson_at, str(n.lesson_id))
        week = week_of(n.lesson_at)
        for box, period in ((who.lessons, lesson), (who.weeks, week)):
            box.setdefault(period, Figures()).kinds[n.kind] += n.n
        lessons.add(lesson)
        weeks.add(week)
        heat.setdefault((n.kind, lesson.key), set()).add(n.pupil_id)
    return ClassProgress(
        sorted(lessons),
        sorted(weeks),
        found,
        {key: frozenset(v) for key, v in heat.items()},
    )


@dataclass(frozen=True, slots=True)
class Change:
    """A pupil's own line: a kind (None: best moves) in the period before and in the last."""

    kind: str | None
    before: tuple[int, int] | None  # (count, rounds) in the period before; None: not played
    now: tuple[int, int]


def own_changes(pupil: PupilProgress, by: By = "lesson") -> list[Change]:
    """What the pupil's own page says (never anyone else's, never a rank): for the best moves
    and each kind of the pupil's last period, its count of the rounds then and the period
    before ("sign slips: 6 of 20 last time → 2 of 20 today")."""
    periods = pupil.periods(by)
    if not periods:
        return []
    now = periods[-1][1]
    before = periods[-2][1] if len(periods) > 1 else None
    out = [Change(None, None if before is None else (before.best, before.asked),
                  (now.best, now.asked))]  # fmt: skip
    kinds = sorted(set(now.kinds) | set(before.kinds if before else ()),
                   key=lambda k: (-now.kinds[k], k))  # fmt: skip
    for kind in kinds:
        then = None if before is None else (before.kinds[kind], before.answered)
        out.append(Change(kind, then, (now.kinds[kind], now.answered)))
    return out


__all__ = [
    "BY",
    "MIN_ROUNDS",
    "Arrow",
    "By",
    "Change",
    "ClassProgress",
    "Figures",
    "Period",
    "PupilProgress",
    "TallyLike",
    "arrow",
    "lesson_of",
    "own_changes",
    "progress",
    "week_of",
]
