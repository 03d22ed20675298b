"""The settings a game is started with, each said once: its key (the SCENARIOS.md input key),
its default and the values it allows.

`GameConfig` checks its fields against these, and a game's descriptor lists the ones it offers
(`engine.registry`), so the slash command's ranges, the table's form and the engine's own check
read the same range.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.cards import DeckProfile
from engine.errors import ConfigurationError
from engine.levels import AnswerForm


class Mode(StrEnum):
    REGN = "regn"  # pupils answer; the engine waits for decisions
    AUTO = "auto"  # the engine plays every side's best value and no bets


class WarRule(StrEnum):
    CLOSEST_TO_ZERO = "closest_to_zero"
    HIGHEST = "highest"


@dataclass(frozen=True, slots=True)
class Option:
    """One setting a game is started with.

    Either a whole number in `values` (a range), one of `choices`, or a yes/no (a `bool`
    default); `default` is what a new game gets when the starter says nothing.
    """

    key: str
    default: int | str | bool
    values: range | None = None
    choices: tuple[str, ...] = ()

    def allows(self, value: object) -> bool:
        if isinstance(self.default, bool):
            return isinstance(value, bool)
        if self.values is not None:
            return isinstance(value, int) and not isinstance(value, bool) and value in self.values
        return value in self.choices

    def check(self, value: object) -> None:
        """Raise a `ConfigurationError` naming this option unless it allows `value`."""
        if not self.allows(value):
            raise ConfigurationError(
                f"{self.key} must be {self.described}", field=self.key, value=value
            )

    @property
    def described(self) -> str:
        if isinstance(self.default, bool):
            return "true or false"
        if self.values is not None:
            return f"a whole number from {self.low} to {self.high}"
        return "one of " + ", ".join(self.choices)

    @property
    def low(self) -> int:
        assert self.values is not None
        return self.values.start

    @property
    def high(self) -> int:
        assert self.values is not None
        return self.values.stop - 1


LEVELS = range(1, 8)  # RULES §2.2: seven levels
SIDES = range(2, 5)  # RULES §1.2: two to four sides
TEAM_SIDES = 4  # RULES §1.2 [decision]: teams are two against two
WAR_SIZES = range(1, 7)  # RULES §2.3: the starter may choose 1–6
MINUTES = range(0, 121)  # RULES §1.5: an optional time limit (0: none)
ANSWER_SECONDS = range(0, 601)  # the answer time a table agrees on (0: none)

LEVEL = Option("level", 1, values=LEVELS)
DECK = Option("deck", DeckProfile.HELTALL.value, choices=tuple(d.value for d in DeckProfile))
MODE = Option("mode", Mode.REGN.value, choices=(Mode.REGN.value, Mode.AUTO.value))
SIDES_OPTION = Option("sides", 2, values=SIDES)
WAR_SIZE = Option("war_size", 6, values=WAR_SIZES)
WAR_RULE = Option(
    "war_rule", WarRule.CLOSEST_TO_ZERO.value, choices=tuple(w.value for w in WarRule)
)
TEAMS = Option("teams", False)
TIME_LIMIT = Option("minutes", 0, values=MINUTES)
ANSWER_TIME = Option("answer_seconds", 60, values=ANSWER_SECONDS)
# RULES §2.2: what a regn-mode answer at levels 3–7 must contain (levels 1–2: the number).
ANSWER_FORM = Option(
    "answer_form", AnswerForm.NUMBER.value, choices=tuple(f.value for f in AnswerForm)
)
