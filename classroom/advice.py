"""What to practise: the mistake that keeps coming back, and the level and deck that train it.

A pupil whose only mistakes are sign slips in subtraction learns nothing from "practise level
3 (division)"; the advice follows the mistakes instead. From the rounds given (one game, or a
pupil's last rounds), per operation:

* a mistake kind *keeps coming back* in an operation when, from `HELP_MIN_ANSWERS` rounds asked
  in it, it was made at least `HELP_MIN_MISTAKES` times and in at least `HELP_SHARE` of them:
  the teacher's report's "needs help with" rule, so pupil and teacher are told the same thing;
* of several, the most frequent wins; a tie goes to the kind first in the rule book's order of
  mistakes (sign slip, an operation not at this level, arithmetic slip, wrong value), then to
  the operation with more rounds;
* the practice: a sign slip trains the sign with the `fortegn` deck (black cards plus, red
  minus), at level 1 for addition and subtraction (subtracting is adding the opposite) and for
  the target levels, at level 2 for multiplication and division; −k² read as (−k)² trains
  brackets around a negative before squaring at level 6 with the `heltall` deck; the order of
  operations, level 6 with a worked example; a fraction not simplified (a practice note),
  level 3 with the `vanlig` deck, simplifying first; an arithmetic slip or an operation not at
  this level trains that operation's own level (levels 1–4) with the pupil's own deck (a
  product's slips: level 2, where anything times 0 is 0); any other kind, the level it was
  made at;
* every kind but the sign slip (whose level and deck say it all) ends with a concrete task:
  a worked example to copy (`advice.task.<kind>`).

A miss (no answer in time) is no mistake kind here: the level rules count misses.

Both screens give this advice in the same words (`practice_text`): the bot's statistics, game
and session summaries, and the lesson's summary ("what to practise next").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, Protocol

from classroom.i18n import Lang, t
from classroom.operations import LEVEL_OPERATIONS
from engine.errors import Reason

# The teacher's report's "needs help with" and the pupil's advice: one rule.
HELP_MIN_ANSWERS = 5
HELP_MIN_MISTAKES = 2
HELP_SHARE = 0.25
HELP_BELOW = 0.5


class Asked(Protocol):
    """One operation's rounds: how many were asked, and the mistake kinds with counts."""

    @property
    def op(self) -> str: ...

    @property
    def asked(self) -> int: ...

    @property
    def mistakes(self) -> tuple[tuple[str, int], ...]: ...


class Rated(Asked, Protocol):
    """One operation's answers in one game or lesson: with how many were the best move."""

    @property
    def answers(self) -> int: ...

    @property
    def best(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Practice:
    """A mistake that keeps coming back, and how to practise it: the operation it is made in
    (add … root), its kind (the engine's reason code), and the level and deck that train it
    (`deck` None: the pupil's own)."""

    op: str
    kind: str
    level: int
    deck: str | None = None


SIGN_DECK = "fortegn"
# The rule book's order of the mistakes a wrong number shows (RULES §2.6), first wins a tie.
_ORDER = (
    Reason.SIGN_SLIP,
    Reason.SQUARE_SIGN,
    Reason.ORDER_OF_OPERATIONS,
    Reason.OPERATOR_NOT_ALLOWED,
    Reason.ARITHMETIC_SLIP,
    Reason.WRONG_VALUE,
)
_NOT_PRACTISED = {Reason.NO_LEGAL_VALUE.value, Reason.TIMEOUT.value}  # not the pupil's skill
_LEVEL_OF = {op: level for level, op in LEVEL_OPERATIONS.items()}
_SIGN_LEVEL = {"multiply": 2, "divide": 2}  # every other operation: level 1
# A kind with a level and deck of its own, wherever it was made (RULES §2.6's new kinds).
_OWN_PRACTICE: dict[str, tuple[int, str | None]] = {
    Reason.SQUARE_SIGN.value: (6, "heltall"),
    Reason.ORDER_OF_OPERATIONS.value: (6, None),
    "not_simplified": (3, "vanlig"),
}
# The kinds whose advice ends with a worked example to copy (`advice.task.<kind>`).
TASKS = (
    Reason.SQUARE_SIGN.value,
    Reason.ORDER_OF_OPERATIONS.value,
    Reason.ARITHMETIC_SLIP.value,
    Reason.OPERATOR_NOT_ALLOWED.value,
    "not_simplified",
)


def find_practice(tallies: Iterable[Asked], level: int) -> Practice | None:
    """The mistake that keeps coming back in `tallies` (one per operation, misses counted in
    `asked`) and how to practise it, or None. `level` is where the rounds were played: the
    practice for a kind that has no level of its own."""
    found: list[tuple[int, int, int, str, str]] = []
    for tally in tallies:
        if tally.asked < HELP_MIN_ANSWERS:
            continue
        for kind, count in tally.mistakes:
            if kind in _NOT_PRACTISED or count < HELP_MIN_MISTAKES:
                continue
            if count >= HELP_SHARE * tally.asked:
                found.append((-count, _rank(kind), -tally.asked, tally.op, kind))
    if not found:
        return None
    _, _, _, op, kind = min(found)
    return practice_for(op, kind, level)


def _rank(kind: str) -> int:
    order = [reason.value for reason in _ORDER]
    return order.index(kind) if kind in order else len(order)


def practice_for(op: str, kind: str, level: int) -> Practice:
    """The level and deck that train `kind` in `op` (module docstring)."""
    if kind == Reason.SIGN_SLIP:
        return Practice(op, kind, _SIGN_LEVEL.get(op, 1), SIGN_DECK)
    if kind in _OWN_PRACTICE:
        own_level, deck = _OWN_PRACTICE[kind]
        return Practice(op, kind, own_level, deck)
    if kind in (Reason.ARITHMETIC_SLIP, Reason.OPERATOR_NOT_ALLOWED) and op in _LEVEL_OF:
        return Practice(op, kind, _LEVEL_OF[op])
    return Practice(op, kind, level)


def practice_text(practice: Practice, lang: Lang) -> str:
    """A mistake that keeps coming back, and how to practise it: "Subtraction with negative
    numbers: watch the sign. Practise level 1: Addition, with the Plus and minus deck."."""
    if practice.op in _LEVEL_OF:
        operation = t(f"level.{_LEVEL_OF[practice.op]}.name", lang)
    else:
        operation = t("advice.op.any", lang)
    families = ("sign_slip", "arithmetic_slip", "operator_not_allowed", *_OWN_PRACTICE)
    family = practice.kind if practice.kind in families else "other"
    kind = t(f"mistake.{practice.kind}", lang)
    name = t(f"level.{practice.level}.name", lang)
    if practice.deck is None:
        play = t("advice.play", lang, level=practice.level, name=name)
    else:
        deck = t(f"deck.{practice.deck}.name", lang)
        play = t("advice.play_deck", lang, level=practice.level, name=name, deck=deck)
    advice = f"{t(f'advice.{family}', lang, operation=operation, kind=kind)} {play}"
    if practice.kind in TASKS:
        task = practice.kind
        if task == Reason.ARITHMETIC_SLIP and practice.op == "multiply":
            task = "arithmetic_slip_product"
        advice += " " + t(f"advice.task.{task}", lang)
    return advice


TOGETHER_MIN = 3
"""Pupils who need help with one kind at one level before the report says to take it with the
whole class ("5 pupils: −k²; take it together")."""


def together_text(op: str, kind: str, level: int, pupils: int, lang: Lang) -> str | None:
    """The class's advice for a mistake kind that keeps coming back for `pupils` pupils at
    `level`: take it together, with the practice it needs; None for fewer than
    `TOGETHER_MIN`."""
    if pupils < TOGETHER_MIN:
        return None
    advice = practice_text(practice_for(op, kind, level), lang)
    return t("advice.together", lang, count=pupils, advice=advice)


# The next step after one game (or one lesson's part): honest about those rounds only.
MIN_ROUNDS = 4
DOWN_RATE = 0.5
UP_ROUNDS = 6
UP_RATE = 0.8
MISSED_SHARE_UP = 0.2
MAX_LEVEL = 7

Direction = Literal["down", "stay", "up", "practise"]


@dataclass(frozen=True, slots=True)
class NextStep:
    """What to play next: a direction, the level, the operation to practise most, and the
    mistake that kept coming back (with how to train it) when one did."""

    direction: Direction
    level: int
    practise: str | None = None
    practice: Practice | None = None


def next_step(
    level: int, answers: int, best: int, missed: int, operations: Iterable[Rated], mistakes: bool
) -> NextStep:
    """The next step after some rounds at ``level`` (``operations``: each operation's
    answers, misses on the level's own; ``mistakes``: the game judges typed answers, so a
    mistake that keeps coming back may decide):

    * fewer than half of the rounds answered with a best move, or more misses than answers,
      over at least `MIN_ROUNDS` rounds → one level down (never below 1);
    * at least `UP_RATE` best moves over at least `UP_ROUNDS` rounds and at most one round in
      five missed → one level up (never above 7);
    * otherwise stay. The operation to practise is the one with the lowest best-move rate;
    * but a mistake that keeps coming back decides first (`find_practice`)."""
    ops = list(operations)
    asked = answers + missed
    direction: Direction = "stay"
    suggested = level
    if asked >= MIN_ROUNDS and (best < asked * DOWN_RATE or missed > answers):
        if level > 1:
            direction, suggested = "down", level - 1
    elif (
        asked >= UP_ROUNDS
        and best >= asked * UP_RATE
        and missed <= asked * MISSED_SHARE_UP
        and level < MAX_LEVEL
    ):
        direction, suggested = "up", level + 1
    tried = [o for o in ops if o.answers]
    weakest = min(tried, key=lambda o: (o.best / o.answers, -o.answers, o.op), default=None)
    practise = weakest.op if weakest is not None and weakest.best < weakest.answers else None
    practice = find_practice(ops, level) if mistakes else None
    if practice is not None:
        return NextStep("practise", practice.level, practice.op, practice)
    return NextStep(direction, suggested, practise)
