"""The games the engine knows, one descriptor each (python-chess's `VARIANTS`, OpenSpiel's
game registry).

A descriptor says everything a screen needs to offer a game without knowing its rules: its
key and name, the options it is started with (defaults and allowed values), the table class
that plays it, and what it asks of a screen (a target picker, an answer box, bet buttons, a
flip). Adding a game is one new module with its `Dealer` subclass plus one entry in `GAMES`;
no screen branches on the game's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from engine.dealer import Dealer
from engine.errors import ConfigurationError
from engine.intervallkrig import IntervalDealer, SatsingDealer
from engine.options import (
    ANSWER_FORM,
    ANSWER_TIME,
    DECK,
    LEVEL,
    LEVELS,
    MODE,
    SIDES_OPTION,
    TEAMS,
    TIME_LIMIT,
    WAR_RULE,
    WAR_SIZE,
    Mode,
    Option,
)
from engine.regnekrig import TARGET_LEVELS, RegnekrigDealer


class Need(StrEnum):
    """What a game asks of a screen, beyond showing the table."""

    TARGET = "target"  # a way to name a whole-number target (or ask for a random one)
    ANSWER = "answer"  # a text box for a typed value or expression
    BET = "bet"  # bet-and-swap buttons, a no-bet button and a hint
    FLIP = "flip"  # a button that plays the next step


@dataclass(frozen=True, slots=True)
class GameDescriptor:
    key: str  # the SCENARIOS.md `game` value, also the catalogue prefix `game.<key>.*`
    dealer: type[Dealer]  # runs its rules on one `apply`'s working copy of a game
    emoji: str
    colour: int  # 0xRRGGBB: the game's colour on every screen
    options: tuple[Option, ...]
    needs: frozenset[Need]
    modes: tuple[Mode, ...]  # the modes a screen offers, the default first (none: no decisions)
    levels: range = range(1, 2)
    # The modes in which skill decides the game, so a result may move a rating; in the
    # others (regnekrig's auto mode, plain intervallkrig) luck decides: the game counts in
    # results but is never rated.
    rated_modes: tuple[Mode, ...] = ()
    # The rules page a screen shows: (heading, text) catalogue keys, in order.
    rules: tuple[tuple[str, str], ...] = ()

    @property
    def name_key(self) -> str:
        return f"game.{self.key}.name"

    @property
    def has_levels(self) -> bool:
        return len(self.levels) > 1

    def has_targets(self, level: int) -> bool:
        return Need.TARGET in self.needs and level in TARGET_LEVELS

    def is_rated(self, mode: Mode | str) -> bool:
        """Whether a game played in `mode` may move a rating (skill decides it, not luck)."""
        return any(m.value == str(mode) for m in self.rated_modes)

    def option(self, key: str) -> Option | None:
        return next((o for o in self.options if o.key == key), None)


REGNEKRIG = GameDescriptor(
    key="regnekrig",
    dealer=RegnekrigDealer,
    emoji="🧮",
    colour=0x3B82F6,  # blue
    options=(
        LEVEL,
        DECK,
        MODE,
        SIDES_OPTION,
        TEAMS,
        WAR_SIZE,
        TIME_LIMIT,
        ANSWER_TIME,
        ANSWER_FORM,
    ),
    needs=frozenset({Need.TARGET, Need.ANSWER}),
    modes=(Mode.REGN, Mode.AUTO),
    rated_modes=(Mode.REGN,),  # auto mode: the engine plays every side's best value
    levels=LEVELS,
    rules=(
        ("rules.heading.round", "rules.regnekrig.round"),
        ("rules.heading.target", "rules.regnekrig.target"),
        ("rules.heading.answer", "rules.regnekrig.answer"),
        ("rules.heading.example", "rules.regnekrig.example"),
        ("rules.heading.war", "rules.regnekrig.war"),
        ("rules.heading.bonus", "rules.regnekrig.bonus"),
        ("rules.heading.end", "rules.common.end"),
    ),
)
# Satsing is intervallkrig with bets: the same options and the same wars, endgame and end.
_INTERVAL_OPTIONS = (DECK, SIDES_OPTION, TEAMS, WAR_RULE, TIME_LIMIT)
_INTERVAL_RULES_END = (
    ("rules.heading.war", "rules.intervallkrig.war"),
    ("rules.heading.endgame", "rules.intervallkrig.endgame"),
    ("rules.heading.end", "rules.common.end"),
)
INTERVALLKRIG = GameDescriptor(
    key="intervallkrig",
    dealer=IntervalDealer,
    emoji="↔️",
    colour=0x22C55E,  # green
    options=_INTERVAL_OPTIONS,
    needs=frozenset({Need.FLIP}),
    modes=(),  # nothing to decide: the mode changes nothing
    # rated_modes empty: the cards alone decide plain intervallkrig
    rules=(
        ("rules.heading.round", "rules.intervallkrig.round"),
        ("rules.heading.example", "rules.intervallkrig.example"),
        *_INTERVAL_RULES_END,
    ),
)
SATSING = GameDescriptor(
    key="satsing",
    dealer=SatsingDealer,  # RULES §3.3: the swap bets
    emoji="🎲",
    colour=0xF59E0B,  # amber
    options=(*_INTERVAL_OPTIONS, ANSWER_TIME),  # the bets are timed
    needs=frozenset({Need.BET, Need.FLIP}),
    modes=(Mode.REGN,),  # the bets are the game: a screen always asks for them
    rated_modes=(Mode.REGN,),  # choosing when to bet is the skill
    rules=(
        ("rules.heading.round", "rules.satsing.round"),
        ("rules.heading.bet", "rules.satsing.bet"),
        ("rules.heading.hint", "rules.satsing.hint"),
        ("rules.heading.example", "rules.satsing.example"),
        *_INTERVAL_RULES_END,
    ),
)

GAMES: Mapping[str, GameDescriptor] = {g.key: g for g in (REGNEKRIG, INTERVALLKRIG, SATSING)}


def descriptor(key: str) -> GameDescriptor:
    try:
        return GAMES[key]
    except KeyError:
        raise ConfigurationError(
            f"unknown game {key!r} (one of {', '.join(GAMES)})", field="game", value=key
        ) from None
