"""Player actions: nouns, in the SCENARIOS.md JSON form.

`Flip` is the pacing action a player presses to go on: it plays the next intervallkrig round
or war, and in auto mode it also makes the pending decisions with the engine's defaults (a
random target, each side's best value, no bet). It is optional in scenario files: the replay
supplies it whenever the next listed action does not fit.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from engine.errors import IllegalActionError, Refusal


@dataclass(frozen=True, slots=True)
class NameTarget:
    kind: ClassVar[str] = "target"
    side: int
    value: int


@dataclass(frozen=True, slots=True)
class RandomTarget:
    """RULES §2.5: the naming side lets the engine draw the target (uniformly at random)."""

    kind: ClassVar[str] = "random_target"
    side: int


@dataclass(frozen=True, slots=True)
class Answer:
    kind: ClassVar[str] = "answer"
    side: int
    text: str


@dataclass(frozen=True, slots=True)
class Timeout:
    kind: ClassVar[str] = "timeout"
    side: int


@dataclass(frozen=True, slots=True)
class Bet:
    kind: ClassVar[str] = "bet"
    side: int
    swap: int


@dataclass(frozen=True, slots=True)
class Pass:
    kind: ClassVar[str] = "pass"
    side: int


@dataclass(frozen=True, slots=True)
class Flip:
    kind: ClassVar[str] = "flip"
    side: int


@dataclass(frozen=True, slots=True)
class TimeUp:
    kind: ClassVar[str] = "time_up"


@dataclass(frozen=True, slots=True)
class Forfeit:
    """RULES §1.5: the side gives the game up (a player stops it, or lets too many decisions
    run out while the others play on)."""

    kind: ClassVar[str] = "forfeit"
    side: int


@dataclass(frozen=True, slots=True)
class Abandon:
    """RULES §1.5: nobody plays the game any more; it ends with no winner."""

    kind: ClassVar[str] = "abandon"


Action = (
    NameTarget | RandomTarget | Answer | Timeout | Bet | Pass | Flip | TimeUp | Forfeit | Abandon
)


class ChoiceKind(StrEnum):
    """What a player may do, as a screen offers it (one button, select or box each)."""

    FLIP = "flip"
    TARGET = "target"  # name this target (`value`)
    RANDOM_TARGET = "random_target"  # RULES §2.5: let the engine draw the target
    ANSWER = "answer"  # type a value or an expression (the text is the player's)
    BET = "bet"  # bet and swap the card at index `value`
    PASS = "pass"  # no bet


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing a side may do now, with the engine action it applies. For an answer the
    action carries the best legal text; a screen sends `Answer(side, typed text)` instead."""

    kind: ChoiceKind
    side: int
    action: Action
    value: int | None = None  # TARGET: the target; BET: the index of the card to swap


def choice_action(kind: ChoiceKind, side: int, value: int | None = None, text: str = "") -> Action:
    """The engine action a screen sends when `side` makes a choice of this kind (a press, a
    select, a typed answer). Whether it is legal now is for `engine.game.apply` to say."""
    if kind is ChoiceKind.FLIP:
        return Flip(side)
    if kind is ChoiceKind.RANDOM_TARGET:
        return RandomTarget(side)  # RULES §2.5: the engine draws the target
    if kind is ChoiceKind.ANSWER:
        return Answer(side, text)
    if kind is ChoiceKind.PASS:
        return Pass(side)
    if value is None:
        raise IllegalActionError(f"a {kind.value} needs a value", code=Refusal.MALFORMED_ACTION)
    return NameTarget(side, value) if kind is ChoiceKind.TARGET else Bet(side, value)


def action_to_json(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": action.kind}
    if not isinstance(action, TimeUp | Abandon):
        out["side"] = action.side
    if isinstance(action, NameTarget):
        out["value"] = action.value
    elif isinstance(action, Answer):
        out["text"] = action.text
    elif isinstance(action, Bet):
        out["swap"] = action.swap
    return out


def action_from_json(data: Any) -> Action:
    """Parse one SCENARIOS.md action; anything malformed is an `IllegalActionError`."""
    if not isinstance(data, dict):
        raise IllegalActionError("an action must be an object", code=Refusal.MALFORMED_ACTION)
    kind = data.get("type")
    if kind == "time_up":
        return TimeUp()
    if kind == "abandon":
        return Abandon()
    side = _whole(data, "side")
    if kind == "target":
        return NameTarget(side, _whole(data, "value"))
    if kind == "answer":
        text = data.get("text")
        if isinstance(text, int) and not isinstance(text, bool):
            text = str(text)
        if not isinstance(text, str):
            raise IllegalActionError("an answer needs a text", code=Refusal.MALFORMED_ACTION)
        return Answer(side, text)
    if kind == "random_target":
        return RandomTarget(side)
    if kind == "timeout":
        return Timeout(side)
    if kind == "bet":
        return Bet(side, _whole(data, "swap"))
    if kind == "pass":
        return Pass(side)
    if kind == "flip":
        return Flip(side)
    if kind == "forfeit":
        return Forfeit(side)
    raise IllegalActionError(f"unknown action type {kind!r}", code=Refusal.MALFORMED_ACTION)


def _whole(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalActionError(f"{key!r} must be a whole number", code=Refusal.MALFORMED_ACTION)
    return value
