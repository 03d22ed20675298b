"""Events: what happened, in the past tense, each with its sequence number.

`to_json` gives the SCENARIOS.md form (`type` plus the listed fields; a few more are
welcome). Chance outcomes (`Dealt`, `PileReshuffled`, `EndgameShuffled`, random targets in
`RoundStarted`) carry card ids so a stored game can be restored on any Python version.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    type: ClassVar[str] = "event"
    omit_when_none: ClassVar[frozenset[str]] = frozenset()
    seq: int

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": self.seq, "type": self.type}
        for f in fields(self):
            if f.name == "seq":
                continue
            value = getattr(self, f.name)
            if value is None and f.name in self.omit_when_none:
                continue
            out[f.name.rstrip("_")] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Dealt(Event):
    type: ClassVar[str] = "dealt"
    piles: tuple[tuple[int, ...], ...]  # card ids per side, top first
    set_aside: tuple[int, ...]
    stacked: bool = False  # piles given by a scenario, not shuffled

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "type": self.type,
            "piles": [list(p) for p in self.piles],
            "set_aside": list(self.set_aside),
            "stacked": self.stacked,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStarted(Event):
    type: ClassVar[str] = "round_start"
    omit_when_none: ClassVar[frozenset[str]] = frozenset({"target", "named_by"})
    round: int
    target: int | None = None
    named_by: int | None = None  # the naming side; None with a target means drawn at random


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsLaid(Event):
    type: ClassVar[str] = "laid"
    side: int
    up: tuple[int, ...]
    down: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Answered(Event):
    """A side has answered; what it answered stays hidden until every side has."""

    type: ClassVar[str] = "answered"
    side: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ValueShown(Event):
    type: ClassVar[str] = "value"
    omit_when_none: ClassVar[frozenset[str]] = frozenset({"reason"})
    side: int
    value: str | None
    expr: str
    best: str
    best_value: str | None
    reason: str | None = None  # why an answer counted as no value


@dataclass(frozen=True, slots=True, kw_only=True)
class ThirdDrawn(Event):
    type: ClassVar[str] = "third"
    side: int
    card: int
    inside: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Decided(Event):
    """A side has made its secret bet decision (revealed together with the others')."""

    type: ClassVar[str] = "decided"
    side: int


@dataclass(frozen=True, slots=True, kw_only=True)
class BetPlaced(Event):
    type: ClassVar[str] = "bet"
    side: int
    swap: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Passed(Event):
    type: ClassVar[str] = "pass"
    side: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Swapped(Event):
    type: ClassVar[str] = "swap"
    side: int
    out: int
    in_: int


@dataclass(frozen=True, slots=True, kw_only=True)
class WarDeclared(Event):
    type: ClassVar[str] = "war"
    sides: tuple[int, ...]
    kind: str = "war"  # "war", "three_card" (RULES §3.4) or "one_card" (§3.4 two or one)


@dataclass(frozen=True, slots=True, kw_only=True)
class BonusPaid(Event):
    type: ClassVar[str] = "bonus"
    from_: int
    to: int
    cards: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundWon(Event):
    type: ClassVar[str] = "round_won"
    side: int
    cards: int


@dataclass(frozen=True, slots=True, kw_only=True)
class PotReturned(Event):
    """Cards on the table went back to the sides that laid them (RULES §2.4, §3.4)."""

    type: ClassVar[str] = "pot_returned"
    cards: tuple[int, ...]  # per side


@dataclass(frozen=True, slots=True, kw_only=True)
class PileReshuffled(Event):
    type: ClassVar[str] = "reshuffle"
    side: int
    cards: int
    order: tuple[int, ...]  # card ids, top first


@dataclass(frozen=True, slots=True, kw_only=True)
class EndgameShuffled(Event):
    type: ClassVar[str] = "endgame_shuffle"
    side: int
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SideOut(Event):
    type: ClassVar[str] = "side_out"
    side: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeUpNoted(Event):
    type: ClassVar[str] = "time_up"


@dataclass(frozen=True, slots=True, kw_only=True)
class GameOver(Event):
    type: ClassVar[str] = "game_over"
    omit_when_none: ClassVar[frozenset[str]] = frozenset({"side"})
    winner: int | None
    reason: str
    side: int | None = None  # a forfeit: the side that gave up


def chance_outcomes(events: list[dict[str, Any]]) -> tuple[tuple[int, ...], ...]:
    """The recorded chance outcomes, in draw order, from JSON events (for `GameRng.forced`)."""
    outcomes: list[tuple[int, ...]] = []
    for event in events:
        kind = event.get("type")
        if kind == "dealt" and not event.get("stacked"):
            dealt = [i for pile in event["piles"] for i in pile]
            outcomes.append((*dealt, *event["set_aside"]))
        elif kind in ("reshuffle", "endgame_shuffle"):
            outcomes.append(tuple(event["order"]))
        elif kind == "round_start" and "target" in event and "named_by" not in event:
            outcomes.append((event["target"],))
    return tuple(outcomes)


@cache
def _event_classes() -> dict[str, type[Event]]:
    """Every event class by its type, found once (a restart reads every stored event)."""
    classes: dict[str, type[Event]] = {}
    pending: list[type[Event]] = [Event]
    while pending:
        for sub in pending.pop().__subclasses__():
            classes[sub.type] = sub
            pending.append(sub)
    return classes


def event_from_json(data: dict[str, Any]) -> Event:
    """The inverse of `Event.to_json` (stored events back into objects, e.g. after a restart).
    A game module declares its own events as subclasses of `Event`: one that is new since the
    classes were last gathered is found by gathering them again."""
    classes = _event_classes()
    if data["type"] not in classes:
        _event_classes.cache_clear()
        classes = _event_classes()
    cls = classes[data["type"]]
    fields_: dict[str, Any] = {}
    for key, value in data.items():
        if key == "type":
            continue
        name = f"{key}_" if key in ("from", "in") else key
        if isinstance(value, list):
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        fields_[name] = value
    return cls(**fields_)
