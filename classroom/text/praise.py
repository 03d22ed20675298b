"""A short word of praise for a pupil's best move or exact hit, the same on every screen (the
Discord board's round lesson, the pupil's own page in a class lesson).

The praise varies with the round, the side and the target (the same round always says the
same thing, so an edit never changes it), and is given only for an answer a pupil gave: in
auto mode the engine plays, and nobody is praised for it, nor is the computer. At levels 1–2
there is no choice to praise: a right answer is called right.
"""

from __future__ import annotations

from classroom.i18n import Lang, t
from engine.facts import Play, RoundFacts
from engine.levels import RESULT_LEVELS
from engine.regnekrig_story import AnswerPlay

PRAISE_BEST = 4  # lesson.praise.best.1 … 4
PRAISE_EXACT = 3  # lesson.praise.exact.1 … 3
PRAISE_RIGHT = 2  # lesson.praise.right.1 … 2


def found_best(play: AnswerPlay, target: int | None) -> bool:
    """Levels 1–4: the best value; levels 5–7: as close to the target as the best."""
    if play.value is None or play.best_value is None:
        return False
    if target is None:
        return play.value == play.best_value
    return abs(play.value - target) == abs(play.best_value - target)


def _praise(kind: str, count: int, facts: RoundFacts, play: AnswerPlay, lang: Lang) -> str:
    number = (facts.round + play.side + (facts.target or 0)) % count + 1
    return t(f"lesson.praise.{kind}.{number}", lang)


def answer_of(play: Play) -> AnswerPlay | None:
    """The play as an answer revealed (praise is for regnekrig's answers), else None."""
    return play if isinstance(play, AnswerPlay) and play.played is not None else None


def praise(facts: RoundFacts, play: Play, level: int, lang: Lang) -> str | None:
    """The praise for a side's play in a round (None when it found neither the best move nor
    the target, or was no answer). The caller says whether a pupil made it."""
    if not isinstance(play, AnswerPlay):
        return None
    target = facts.target
    if play.value is not None and target is not None and play.value == target:
        return _praise("exact", PRAISE_EXACT, facts, play, lang)
    if not found_best(play, target):
        return None
    if level in RESULT_LEVELS:
        # Levels 1–2 have one value and no choice: the pupil is right, not smart in choosing.
        return _praise("right", PRAISE_RIGHT, facts, play, lang)
    return _praise("best", PRAISE_BEST, facts, play, lang)
