"""What a round teaches, said after it, put into words from the view's facts.

Kept apart from the result line (`classroom.text.results`, which says who won what) so any round
block can add it: `round_lesson` gives the lines, one for the round's own target (the header
already shows the next one) and one per side that played a value: its distance to the target
(``12 er 3 unna 15``), the middle step where a square or a root was involved
(``3² + (−2) = 9 − 2 = 7``, from the engine's `middle_step`), the best move's middle step when
the round's winner did not play the best (the board is public: a side that lost reads the best
move it missed in its own "My summary", never in front of the class), and a short word of praise
for a best move or an exact hit. The praise varies with the round, the side and the target (the
same board always says the same thing, so an edit never changes it), and is given only for an
answer a pupil gave: in auto mode the engine plays, and nobody is praised for it, nor is the
computer. At levels 1–2 there is no choice to praise: a right answer is called right.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from fractions import Fraction

from classroom.i18n import Lang, t
from classroom.text.cards import number_text
from classroom.text.locale import as_lang
from classroom.text.notation import school_expression, school_value
from classroom.text.praise import answer_of
from classroom.text.praise import praise as praise_for
from engine.config import Mode
from engine.errors import ExpressionError
from engine.expressions import parse, to_text
from engine.facts import Comparison, RoundFacts
from engine.regnekrig_story import AnswerPlay
from engine.steps import middle_step
from engine.view import View


def _step(expression: str | None, value: Fraction, lang: Lang) -> str | None:
    """``3² + (−2) = 9 − 2 = 7`` when the expression has a square or a root, else None."""
    if not expression:
        return None
    try:
        middle = middle_step(parse(expression))
    except ExpressionError:
        return None
    if middle is None:
        return None
    shown = f"{expression} = {to_text(middle)} = {number_text(value)}"
    return school_expression(shown, lang)


def best_move_text(best: str, value: Fraction, lang: Lang) -> str:
    """A best move as a pupil reads it: with its middle step where a square or a root is
    involved (``2² + 3 = 4 + 3 = 7``), else the calculation and its value."""
    step = _step(best, value, lang)
    if step is not None:
        return step
    return school_expression(f"{best} = {number_text(value)}", lang)


def _side_line(
    facts: RoundFacts, play: AnswerPlay, name: str, praise: bool, level: int, lang: Lang
) -> str | None:
    value = play.value
    parts: list[str] = []
    target = facts.target
    exact = value is not None and target is not None and value == target
    if value is not None and target is not None:
        distance = abs(value - target)
        if exact:
            parts.append(t("lesson.exact", lang, value=school_value(value, lang)))
        else:
            parts.append(
                t(
                    "lesson.distance",
                    lang,
                    value=school_value(value, lang),
                    distance=school_value(distance, lang),
                    target=number_text(target),
                )
            )
    if value is not None:
        step = _step(play.played, value, lang)
        if step is not None:
            parts.append(step)
    best_value = play.best_value
    # The board is public: the best move a side missed is told for the round's winner only
    # (its play is the round's news); a side that lost reads its own in "My summary".
    if best_value is not None and best_value != value and facts.winner == play.side:
        step = _step(play.best, best_value, lang)
        if step is not None:
            parts.append(t("lesson.best_step", lang, step=step))
    praised = praise_for(facts, play, level, lang) if praise else None
    if praised is not None:
        parts.append(praised)
    if not parts:
        return None
    return f"{name}: " + " · ".join(parts)


def _taught(facts: RoundFacts) -> Comparison | None:
    """The latest comparison whose answers were revealed (the one that decided the round, or
    the one that led to the war being fought)."""
    answered = [c for c in facts.comparisons if any(answer_of(p) for p in c.plays)]
    return answered[-1] if answered else None


def _round_lesson(
    view: View, names: Mapping[int, str], humans: Collection[int], lang: Lang
) -> list[str]:
    facts = view.result
    if facts is None:
        return []
    told = _taught(facts)
    if told is None:
        return []
    praise = view.config.mode is not Mode.AUTO
    lines: list[str] = []
    if facts.target is not None:
        lines.append(t("lesson.target", lang, round=facts.round, target=number_text(facts.target)))
    for shown in told.plays:
        play = answer_of(shown)
        if play is None or play.side not in names or play.played is None:
            continue
        played = bool(play.played) and praise and play.side in humans
        line = _side_line(facts, play, names[play.side], played, view.config.level, lang)
        if line is not None:
            lines.append(line)
    return lines if len(lines) > (1 if facts.target is not None else 0) else []


def round_lesson(
    view: View, names: Mapping[int, str], lang: str, humans: Collection[int] | None = None
) -> list[str]:
    """The lines that say what the round shown teaches (empty when it teaches nothing: an
    intervallkrig round, or a round nobody has answered yet). Only the sides in `humans`
    (default: every side) are praised: the computer is never told "well done"."""
    return _round_lesson(view, names, names if humans is None else humans, as_lang(lang))
