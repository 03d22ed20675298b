"""The answer tally: one fold of a game's events into what a teacher's figures are made of.

Both screens count a pupil's work from it, the Discord bot's results and reports and the
browser lesson's summary, so a best-move rate or a mistake count is the same number wherever
a teacher reads it.

* An **answer record** is one decision of one seat (RULES §2.2): the operations it practised
  (`classroom.operations.practised`), whether it counted (accepted, with a value), whether it
  was the *best move* (`is_best`), whether it hit the target exactly, the mistake's kind (the
  engine's reason code, RULES §2.6) and the answer's time. A round left to run out of time is
  a *miss*: a record of kind ``timeout`` for every seat of the side, with no operation.
* An answer counts only when the action that gave it was accepted: the engine then says the
  side ``answered`` in the same step. Its value is read when the round is revealed.
* The **area** of a wrong answer is the one operation its mistake is counted under: the most
  particular one it practised (a root, else a square, else the level's own). RULES §2.6: one
  wrong answer, one count; the target, the squares and the roots group answers, and a wrong
  answer is never counted in two of them (`disjoint` does the same for stored sums).
* The **best-move rate** is best moves ÷ rounds asked (answers plus misses): a round left to
  time out counts against it (`best_rate`).
* **Practice notes** (a rounded decimal, a fraction not simplified, RULES §2.6) are no
  mistakes: the answer was refused and could be typed again. A screen that refuses one tells
  the tally (`AnswerTally.note`), and the notes are kept per seat.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar

from classroom.operations import main_operation, practised
from engine.actions import Action, Timeout
from engine.errors import Reason
from engine.events import (
    Answered,
    CardsLaid,
    Event,
    GameOver,
    PotReturned,
    RoundStarted,
    RoundWon,
    ValueShown,
    WarDeclared,
)
from engine.regnekrig import Answer

K = TypeVar("K", bound=Hashable)

TIMEOUT = Reason.TIMEOUT.value
# The answers refused as not yet written as school wants them, kept as practice (RULES §2.6).
PRACTICE_NOTES = ("not_exact", "not_simplified")
# The most particular area first: the one a wrong answer's mistake is counted under.
_PARTICULAR = ("root", "square")


def fraction(text: str | None) -> Fraction | None:
    """A value as the engine writes it ("-5/6"), or None for none (or one that is no number)."""
    if text is None:
        return None
    try:
        return Fraction(str(text))
    except (ValueError, ZeroDivisionError):
        return None


def is_best(value: Fraction | None, best: Fraction | None, target: int | None) -> bool:
    """RULES §2.1: a best move equals the best value (levels 1–4, ``target`` None) or is as
    close to the target as the best value (levels 5–7)."""
    if value is None or best is None:
        return False
    if target is not None:
        return abs(value - target) == abs(best - target)
    return value == best


def best_rate(best: int, asked: int) -> Fraction | None:
    """The best-move rate: best moves of the rounds asked (answers plus misses); None before
    the first round asked."""
    return Fraction(best, asked) if asked else None


def best_share(best: int, asked: int) -> float | None:
    """`best_rate` as a share to show (0–1)."""
    rate = best_rate(best, asked)
    return None if rate is None else float(rate)


def area_of(operations: Sequence[str], level: int) -> str:
    """The one operation a wrong answer's mistake counts under (module docstring)."""
    for op in _PARTICULAR:
        if op in operations:
            return op
    return operations[0] if operations else main_operation(level)


@dataclass(frozen=True, slots=True)
class BestMove:
    """A round's best move that a pupil's answer missed (RULES §2.5)."""

    round: int
    expression: str  # in the engine's notation
    value: Fraction


@dataclass(frozen=True, slots=True)
class AnswerRecord(Generic[K]):
    """One decision of one seat (module docstring). ``seat`` is whoever answered, as the
    screen knows its players: the lesson's seat id, the Discord user's id."""

    seat: K
    side: int
    round: int
    level: int
    operations: tuple[str, ...]  # empty for a miss
    correct: bool
    best: bool
    mistake: str | None  # the engine's reason code; ``timeout`` for a miss
    exact: bool
    ms: int | None = None  # from the cards turned to the answer (None: the screen keeps no time)
    missed_best: BestMove | None = None  # the round's best move, when the answer was not one

    @property
    def answered(self) -> bool:
        return self.mistake != TIMEOUT

    @property
    def area(self) -> str:
        return area_of(self.operations, self.level)


@dataclass
class SideFacts:
    """What belongs to a side and is shared by a team's members: rounds and wars won, exact
    hits (every value shown that hit the target, whoever typed it)."""

    rounds_won: Counter[int] = field(default_factory=Counter)
    wars_won: Counter[int] = field(default_factory=Counter)
    exact_hits: Counter[int] = field(default_factory=Counter)


@dataclass
class AnswerTally(Generic[K]):
    """The fold: feed it every step of a game in order (`add`), read its `records`.

    ``members`` are the seats that play each side (a miss counts for each of them);
    ``opened_at`` is when the first cards were turned, in ms (None: no times kept)."""

    level: int
    targets: bool  # the level names a target (RULES §2.5)
    members: Mapping[int, Sequence[K]] = field(default_factory=dict)
    opened_at: int | None = None
    records: list[AnswerRecord[K]] = field(default_factory=list)
    notes: dict[K, Counter[str]] = field(default_factory=dict)
    sides: SideFacts = field(default_factory=SideFacts)
    rounds: int = 0
    game_over: GameOver | None = None
    found: tuple[int, int] = (0, 0)  # the records' best moves and exact hits, as kept
    started_at: int | None = None  # the first step's time and the last's (ms), when told
    last_at: int | None = None
    _round: int = 0
    _target: int | None = None
    _at_war: bool = False
    _waiting: dict[int, tuple[K, int | None]] = field(default_factory=dict)

    def add(
        self, action: Action | None, events: Iterable[Event], who: K | None, at: int | None = None
    ) -> list[AnswerRecord[K]]:
        """One accepted action (None for the deal) with the events it produced, who pressed
        (None: the computer or the engine) and when (ms); returns the records it made."""
        events = tuple(events)
        made: list[AnswerRecord[K]] = []
        answered = {e.side for e in events if isinstance(e, Answered)}
        if isinstance(action, Answer) and who is not None and action.side in answered:
            ms = None if at is None or self.opened_at is None else max(0, at - self.opened_at)
            self._waiting[action.side] = (who, ms)
        elif isinstance(action, Timeout) and action.side in answered:
            self._waiting.pop(action.side, None)
            for seat in self.members.get(action.side, ()):
                made.append(
                    AnswerRecord(seat, action.side, self._round, self.level, (), False, False,
                                 TIMEOUT, False)
                )  # fmt: skip
        for event in events:
            self._read(event, made)
        if at is not None:
            self.started_at = at if self.started_at is None else self.started_at
            self.last_at = at if self.last_at is None else max(self.last_at, at)
            if any(isinstance(e, CardsLaid) for e in events):
                self.opened_at = at
        self.records.extend(made)
        return made

    def _read(self, event: Event, made: list[AnswerRecord[K]]) -> None:
        if isinstance(event, RoundStarted):
            self._round = event.round
            self.rounds = max(self.rounds, event.round)
            self._target = event.target if self.targets else None
            self._at_war = False
        elif isinstance(event, WarDeclared):
            self._at_war = True
        elif isinstance(event, RoundWon):
            self.sides.rounds_won[event.side] += 1
            if self._at_war:
                self.sides.wars_won[event.side] += 1
            self._at_war = False
        elif isinstance(event, PotReturned):
            self._at_war = False
        elif isinstance(event, ValueShown):
            self._shown(event, made)
        elif isinstance(event, GameOver):
            self.game_over = event

    def _shown(self, event: ValueShown, made: list[AnswerRecord[K]]) -> None:
        value = fraction(event.value)
        target = self._target
        exact = target is not None and value == target
        if exact:
            self.sides.exact_hits[event.side] += 1
        pending = self._waiting.pop(event.side, None)
        if pending is None or event.reason == TIMEOUT:
            return
        seat, ms = pending
        best_value = fraction(event.best_value)
        best = is_best(value, best_value, target)
        missed = None
        if not best and best_value is not None:
            missed = BestMove(self._round, event.best, best_value)
        record = AnswerRecord(
            seat,
            event.side,
            self._round,
            self.level,
            practised(self.level, self.targets, event.expr),
            event.reason is None and value is not None,
            best,
            event.reason,
            exact,
            ms,
            missed,
        )
        made.append(record)
        self.found = (self.found[0] + record.best, self.found[1] + record.exact)

    def note(self, seat: K, code: str) -> None:
        """A practice note for ``seat`` (RULES §2.6: refused, typed again, never a mistake)."""
        if code in PRACTICE_NOTES:
            self.notes.setdefault(seat, Counter())[code] += 1


@dataclass(frozen=True, slots=True)
class Figures:
    """One seat's figures over some answer records: what every teacher-facing summary shows."""

    answers: int = 0
    correct: int = 0
    best: int = 0
    exact: int = 0
    missed: int = 0
    mistakes: tuple[tuple[str, int], ...] = ()  # kind, count: most frequent first, no misses

    @property
    def asked(self) -> int:
        return self.answers + self.missed

    @property
    def rate(self) -> Fraction | None:
        return best_rate(self.best, self.asked)


def figures(records: Iterable[AnswerRecord[K]]) -> Figures:
    """The figures of some records (one wrong answer, one count)."""
    answers = correct = best = exact = missed = 0
    kinds: Counter[str] = Counter()
    for r in records:
        if not r.answered:
            missed += 1
            continue
        answers += 1
        correct += r.correct
        best += r.best
        exact += r.exact
        if r.mistake is not None:
            kinds[r.mistake] += 1
    return Figures(answers, correct, best, exact, missed, ranked(kinds))


def ranked(counts: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """Counts, the most first; a tie by name, so the order is the same on every run."""
    return tuple(sorted(((k, n) for k, n in counts.items() if n), key=lambda kv: (-kv[1], kv[0])))


def by_seat(records: Iterable[AnswerRecord[K]]) -> dict[K, list[AnswerRecord[K]]]:
    out: defaultdict[K, list[AnswerRecord[K]]] = defaultdict(list)
    for record in records:
        out[record.seat].append(record)
    return dict(out)


def disjoint(
    level: int, mistakes: Mapping[str, Iterable[tuple[str, int]]]
) -> dict[str, tuple[tuple[str, int], ...]]:
    """Mistake counts per operation kept the older way, where an answer's mistake was counted
    under every operation it practised (a square at level 6 under ``target`` and ``square``),
    made into one count per wrong answer: each kind under its most particular area (a root,
    a square), the rest under the level's own operation (RULES §2.6: areas group, never
    count twice). ``mistakes``: kinds with counts by operation."""
    main = main_operation(level)
    left: Counter[str] = Counter(dict(mistakes.get(main, ())))
    out: dict[str, tuple[tuple[str, int], ...]] = {}
    for op in _PARTICULAR:
        if op == main or op not in mistakes:
            continue
        own: Counter[str] = Counter()
        for kind, n in mistakes[op]:
            took = min(n, left[kind]) if main in mistakes else n
            own[kind] = took
            left[kind] -= took if main in mistakes else 0
        out[op] = ranked(own)
    for op, kinds in mistakes.items():
        if op not in out and op != main:
            out[op] = ranked(dict(kinds))
    if main in mistakes:
        out[main] = ranked(left)
    return out
