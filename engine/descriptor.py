"""What a game says of itself (python-chess's variants, OpenSpiel's game type): one
`GameDescriptor` per game, declared in the game's own module and listed in `engine.registry`.

A descriptor says everything a screen needs to offer a game without knowing its rules: its
key and name, the options it is started with (`engine.options`), the dealer that plays it,
the decisions it may wait for (their actions and the choices a screen draws), its view facts,
its levels and rules pages. No screen branches on a game's name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from engine.actions import FLIP_CHOICE, Action, ChoiceKind, Shape
from engine.dealer import Dealer
from engine.decision import Decision
from engine.events import Event
from engine.facts import Comparison, GameFacts, Play, PlayDraft, no_facts, plain_play, shared_why
from engine.options import Mode, Option
from engine.state import GameState


@dataclass(frozen=True)
class GameDescriptor:
    key: str  # the SCENARIOS.md `game` value, also the catalogue prefix `game.<key>.*`
    dealer: type[Dealer]  # the dealer that plays its rules
    emoji: str
    colour: int  # 0xRRGGBB: the game's colour on every screen
    options: tuple[Option, ...]
    decisions: tuple[Decision[Any], ...]  # what it may wait for (none: a flip plays it all)
    modes: tuple[Mode, ...]  # the modes a screen offers, the default first (none: no decisions)
    levels: range = range(1, 2)
    # The modes in which skill decides the game, so a result may move a rating; in the
    # others (regnekrig's auto mode, plain intervallkrig) luck decides: the game counts in
    # results but is never rated.
    rated_modes: tuple[Mode, ...] = ()
    # The rules page a screen shows: (heading, text) catalogue keys, in order.
    rules: tuple[tuple[str, str], ...] = ()
    target_levels: range = range(0)  # the levels at which a side names a target (regnekrig)
    # Its own facts in a view (`engine.facts`): the game's state read for a screen.
    facts: Callable[[GameState, int | None], GameFacts] = no_facts
    # How a round is told: the cards each side turns for it (fewer: it could not play), and
    # how its winner won (a `Why`, or a reason of its own: `result.why.<why>`).
    round_cards: int = 2
    why: Callable[[Sequence[Comparison], int, bool, int | None], str] = shared_why
    # Its own part of the round's story: the events of its own that tell what a side did
    # (each has a `side`; they reveal the comparison), and each side's `Play` made of them
    # (its draft, the round's target, whether it laid fewer cards than a round needs), told
    # in its own words (`Play.told`), so every screen tells it without knowing the game.
    story: tuple[type[Event], ...] = ()
    play: Callable[[PlayDraft, int | None, bool], Play] = plain_play

    @property
    def name_key(self) -> str:
        return f"game.{self.key}.name"

    @property
    def has_levels(self) -> bool:
        return len(self.levels) > 1

    def has_targets(self, level: int) -> bool:
        return level in self.target_levels

    @property
    def typed_answers(self) -> bool:
        """Whether its players type answers (a summary of them is worth showing)."""
        return any(k.shape is Shape.TYPE for k in self.kinds)

    def is_rated(self, mode: Mode | str) -> bool:
        """Whether a game played in `mode` may move a rating (skill decides it, not luck)."""
        return any(m.value == str(mode) for m in self.rated_modes)

    def option(self, key: str) -> Option | None:
        return next((o for o in self.options if o.key == key), None)

    @cached_property
    def actions(self) -> tuple[type[Action], ...]:
        """The actions of its decisions (the shared ones are every game's)."""
        return tuple(a for d in self.decisions for a in d.actions)

    @cached_property
    def kinds(self) -> tuple[ChoiceKind, ...]:
        """Every kind of choice a screen may have to offer for it, the flip first."""
        return (FLIP_CHOICE, *(k for d in self.decisions for k in d.kinds))

    def kind(self, name: str) -> ChoiceKind | None:
        return next((k for k in self.kinds if k.name == name), None)
