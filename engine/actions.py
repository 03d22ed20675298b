"""Player actions: nouns, in the SCENARIOS.md JSON form, and the choices a screen offers.

The actions every game shares are here: `Flip`, the pacing action a player presses to go on
(it plays the next round or war, and in auto mode it also makes the pending decisions with
the engine's defaults), a decision running out of time (`Timeout`), the time limit running
out (`TimeUp`), a side giving up (`Forfeit`) and a game nobody plays (`Abandon`). A game's
own decisions bring their own actions (regnekrig's `NameTarget`, satsing's `Bet`, …), listed
by its descriptor; `engine.registry.action_from_json` reads any of them back.

A `ChoiceKind` says how a screen offers one kind of choice (a press, a pick among values, a
typed text), with the words on its control, and which action it applies: every screen draws
a game's controls from these, so a game with a decision of its own needs no screen of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import ClassVar

from engine.errors import IllegalActionError, Refusal


@dataclass(frozen=True, slots=True)
class Action:
    """Something done to a game; `kind` is its SCENARIOS.md `type`."""

    kind: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class SideAction(Action):
    """An action one side takes."""

    side: int


@dataclass(frozen=True, slots=True)
class Timeout(SideAction):
    """The side's decision ran out of time: its decision's fallback is made for it."""

    kind: ClassVar[str] = "timeout"


@dataclass(frozen=True, slots=True)
class Flip(SideAction):
    kind: ClassVar[str] = "flip"


@dataclass(frozen=True, slots=True)
class TimeUp(Action):
    kind: ClassVar[str] = "time_up"


@dataclass(frozen=True, slots=True)
class Forfeit(SideAction):
    """RULES §1.5: the side gives the game up (a player stops it, or lets too many decisions
    run out while the others play on)."""

    kind: ClassVar[str] = "forfeit"


@dataclass(frozen=True, slots=True)
class Abandon(Action):
    """RULES §1.5: nobody plays the game any more; it ends with no winner."""

    kind: ClassVar[str] = "abandon"


SHARED_ACTIONS: tuple[type[Action], ...] = (Flip, Timeout, TimeUp, Forfeit, Abandon)


class Shape(StrEnum):
    """How a screen offers a kind of choice."""

    PRESS = "press"  # one press makes it (a button); a value it has is the button's own
    PICK = "pick"  # one value of several, picked from a list
    TYPE = "type"  # typed text (a box); the choice carries the best text as a suggestion


class Tone(StrEnum):
    """How a control stands out among the others."""

    PLAIN = "plain"
    MAIN = "main"  # the step a player most often wants
    GO = "go"  # a commitment (a bet)


def _no_labels() -> Mapping[int, str]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True, eq=False)
class ChoiceKind:
    """One kind of choice a game offers, and how a screen draws it.

    `make` builds the action for (side, value, typed text). `label` is the catalogue key of the
    control (a pick's list: the stem of its placeholder), `value_labels` the label of each
    value's own button. Kinds offered by one control share its `control` name and tell their
    presses apart by `token` (regnekrig's "random" button beside the target lists). Compared by
    identity: each kind is one object, declared once by its game."""

    name: str
    shape: Shape
    make: Callable[[int, int | None, str], Action]
    label: str = ""
    value_labels: Mapping[int, str] = field(default_factory=_no_labels)
    control: str = ""
    token: str | None = None
    tone: Tone = Tone.PLAIN
    emoji: str | None = None

    @property
    def control_name(self) -> str:
        return self.control or self.name

    def label_for(self, value: int | None) -> str:
        """The words on the control offering this choice with `value`."""
        if value is not None and value in self.value_labels:
            return self.value_labels[value]
        return self.label

    def __repr__(self) -> str:
        return f"ChoiceKind({self.name!r})"


def needs_value(value: int | None, what: str) -> int:
    """A choice that is one value of several cannot be made without it."""
    if value is None:
        raise IllegalActionError(f"a {what} needs a value", code=Refusal.MALFORMED_ACTION)
    return value


FLIP_CHOICE = ChoiceKind(
    "flip",
    Shape.PRESS,
    lambda side, value, text: Flip(side),
    label="button.flip",
    tone=Tone.MAIN,
    emoji="🔄",
)


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing a side may do now, with the engine action it applies. For a typed choice the
    action carries the best legal text; a screen sends the typed text instead."""

    kind: ChoiceKind
    side: int
    action: Action
    value: int | None = None  # a pick's or a value button's value (a target, a swapped card)


def choice_action(kind: ChoiceKind, side: int, value: int | None = None, text: str = "") -> Action:
    """The engine action a screen sends when `side` makes a choice of this kind (a press, a
    pick, a typed answer). Whether it is legal now is for `engine.game.apply` to say."""
    return kind.make(side, value, text)
