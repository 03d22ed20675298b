"""How a regnekrig round is told: each side's answer, its value, the distance to the target
and the best move it missed (RULES §2.2, §2.5), as the engine's facts (`AnswerPlay`) and in
regnekrig's own words (`Play.told`), so a screen tells the round without knowing the game.

A typed number, or an expression of other numbers, is told as its value only beside the
cards (``[ −3 ] [ −3 ] → 1``): a screen must never show a calculation with cards the pupil
does not hold. An expression of the side's own two cards is told as typed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from engine.events import ValueShown
from engine.facts import (
    Calculation,
    Comparison,
    Exact,
    Faces,
    Phrase,
    Play,
    PlayDraft,
    shared_why,
)

MINUS = "\u2212"  # how a screen writes a number's sign (the true minus)
_NUMBER = re.compile(r"\d+")
_A_NUMBER = re.compile(r"[−-]?\d+(/\d+)?")


@dataclass(frozen=True, slots=True)
class AnswerPlay(Play):
    """A side's answer in one comparison (§2.2): what was played, its value, the best it
    could have played."""

    value: Fraction | None = None
    played: str | None = None  # the typed text or the engine's expression; "" no answer
    best: str | None = None
    best_value: Fraction | None = None
    reason: str | None = None  # why the answer counted as no value
    distance: Fraction | None = None  # levels 5–7: how far the value is from the target


def _fraction(text: str | None) -> Fraction | None:
    """A value as the events carry it ("12", "-7/2"); whole numbers skip Fraction's parser."""
    if text is None:
        return None
    return Fraction(text) if "/" in text else Fraction(int(text))


def _own_cards(played: str | None, up: tuple[int, ...]) -> bool:
    """Whether what was played is an expression of the side's own two cards (by the numbers
    written in it): a typed number, or a sum of other numbers, is not."""
    if not played:
        return False
    written = Counter(int(n) for n in _NUMBER.findall(played))
    held = Counter(abs(v) for v in up)
    return written == held


def _written(value: Fraction) -> str:
    """The value as a screen writes a number (``−7/2``)."""
    return str(value).replace("-", MINUS)


def answer_play(draft: PlayDraft, target: int | None, short: bool) -> Play:
    """The side's play: its cards, and once the values are revealed its answer told."""
    shown = next((e for e in reversed(draft.own) if isinstance(e, ValueShown)), None)
    if shown is None:
        return AnswerPlay(draft.side, draft.up, draft.down, short)
    value, best_value = _fraction(shown.value), _fraction(shown.best_value)
    distance = abs(value - target) if value is not None and target is not None else None
    play = AnswerPlay(
        draft.side,
        draft.up,
        draft.down,
        short,
        value=value,
        played=shown.expr,
        best=shown.best,
        best_value=best_value,
        reason=shown.reason,
        distance=distance,
    )
    return replace(play, told=_told(play, target), revealed=True, brief=_brief(play))


def _told(play: AnswerPlay, target: int | None) -> tuple[tuple[Phrase, ...], ...]:
    """The cards, what was played and its value; then the distance to the target (levels
    5–7) and the best move when it was better."""
    cards = ("cards", Faces(play.up))
    value, played = play.value, play.played or ""
    if value is None:
        if not played:
            first = Phrase("result.play.no_answer", (cards,))
        elif _own_cards(played, play.up) or _A_NUMBER.fullmatch(played.strip()):
            first = Phrase("result.play.no_value", (cards, ("expr", Calculation(played))))
        else:
            first = Phrase("result.play.no_value_typed", (cards,))
    elif _own_cards(played, play.up) and played != _written(value):
        first = Phrase(
            "result.play.value", (cards, ("expr", Calculation(played)), ("value", Exact(value)))
        )
    else:
        first = Phrase("result.play.value_only", (cards, ("value", Exact(value))))
    extra: list[Phrase] = []
    if play.distance is not None and target is not None:
        extra.append(
            Phrase("result.play.distance", (("distance", play.distance), ("target", target)))
        )
    if play.best_value is not None and play.best_value != value and play.best:
        best = (("expr", Calculation(play.best)), ("value", Exact(play.best_value)))
        if target is None:
            extra.append(Phrase("result.play.best", best))
        else:  # levels 5–7: why it is closest, its own distance to the target (RULES §2.6)
            closer = ("best", abs(play.best_value - target))
            extra.append(Phrase("result.play.best_closest", (*best, closer)))
    return ((first,), tuple(extra)) if extra else ((first,),)


def _brief(play: AnswerPlay) -> tuple[Phrase, ...]:
    """`−3 · (−3) = 9`: what was played as typed and its value, or no answer, or no value."""
    played = play.played or ""
    if not played:
        return (Phrase("picture.play.no_answer"),)
    if play.value is None:
        return (Phrase("picture.play.no_value", (("played", played),)),)
    if played == _written(play.value):
        return (Phrase("picture.play.value_only", (("value", play.value),)),)
    return (Phrase("picture.play.value", (("played", played), ("value", play.value))),)


def _valued(play: Play) -> bool:
    return isinstance(play, AnswerPlay) and play.value is not None


def answer_why(
    comparisons: Sequence[Comparison], winner: int, bonus: bool, target: int | None
) -> str:
    """How the winner won (`shared_why`), a side's value read from its answer."""
    return shared_why(comparisons, winner, bonus, target, valued=_valued)
