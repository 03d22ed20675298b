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
  the target levels, at level 2 for multiplication and division; an arithmetic slip or an
  operation not at this level trains that operation's own level (levels 1–4) with the pupil's
  own deck; any other kind, the level it was made at.

A miss (no answer in time) is no mistake kind here: the level rules count misses.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.services.figures import HELP_MIN_ANSWERS, HELP_MIN_MISTAKES, HELP_SHARE, Practice
from classroom.operations import LEVEL_OPERATIONS
from engine.errors import Reason
from storage import OperationTally

SIGN_DECK = "fortegn"
# The rule book's order of the mistakes a wrong number shows (RULES §2.6), first wins a tie.
_ORDER = (Reason.SIGN_SLIP, Reason.OPERATOR_NOT_ALLOWED, Reason.ARITHMETIC_SLIP, Reason.WRONG_VALUE)
_NOT_PRACTISED = {Reason.NO_LEGAL_VALUE.value, Reason.TIMEOUT.value}  # not the pupil's skill
_LEVEL_OF = {op: level for level, op in LEVEL_OPERATIONS.items()}
_SIGN_LEVEL = {"multiply": 2, "divide": 2}  # every other operation: level 1


def find_practice(tallies: Iterable[OperationTally], level: int) -> Practice | None:
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
    if kind in (Reason.ARITHMETIC_SLIP, Reason.OPERATOR_NOT_ALLOWED) and op in _LEVEL_OF:
        return Practice(op, kind, _LEVEL_OF[op])
    return Practice(op, kind, level)
