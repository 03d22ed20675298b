"""What a game is started with (SCENARIOS.md input keys); validated once, then trusted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import DeckProfile
from engine.errors import ConfigurationError
from engine.levels import AnswerForm
from engine.options import LEVEL, SIDES_OPTION, WAR_SIZE, Mode, WarRule

# A game's mode and war rule are its configuration's field types: importable from here too.
__all__ = ["GameConfig", "Mode", "WarRule"]


@dataclass(frozen=True, slots=True)
class GameConfig:
    game: str  # a key of `engine.registry.GAMES` (checked by `engine.game.new_game`)
    level: int = 1
    deck: DeckProfile = DeckProfile.HELTALL
    mode: Mode = Mode.AUTO
    sides: int = 2
    war_size: int = 6
    war_rule: WarRule = WarRule.CLOSEST_TO_ZERO
    max_rounds: int = 1000
    answer_form: AnswerForm = AnswerForm.NUMBER  # regn mode, levels 3–7 (RULES §2.2)

    def __post_init__(self) -> None:
        # Plain data: the ranges every game shares are checked here, by the options that say
        # them (`engine.options`); which games exist is the registry's to say
        # (`engine.registry.descriptor`, asked when a game is dealt).
        object.__setattr__(self, "game", str(self.game))  # a plain str, whatever came in
        LEVEL.check(self.level)
        SIDES_OPTION.check(self.sides)
        WAR_SIZE.check(self.war_size)
        if self.max_rounds < 1:
            raise ConfigurationError("max_rounds must be positive", field="max_rounds")

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "level": self.level,
            "deck": self.deck.value,
            "mode": self.mode.value,
            "sides": self.sides,
            "war_size": self.war_size,
            "war_rule": self.war_rule.value,
            "max_rounds": self.max_rounds,
            "answer_form": self.answer_form.value,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameConfig:
        """Build from SCENARIOS.md keys (missing keys take the documented defaults)."""
        try:
            return cls(
                game=_text(data["game"], "game"),
                level=_int(data.get("level", 1), "level"),
                deck=DeckProfile(data.get("deck", DeckProfile.HELTALL.value)),
                mode=Mode(data.get("mode", Mode.AUTO.value)),
                sides=_int(data.get("sides", 2), "sides"),
                war_size=_int(data.get("war_size", 6), "war_size"),
                war_rule=WarRule(data.get("war_rule", WarRule.CLOSEST_TO_ZERO.value)),
                max_rounds=_int(data.get("max_rounds", 1000), "max_rounds"),
                answer_form=AnswerForm(data.get("answer_form", AnswerForm.NUMBER.value)),
            )
        except KeyError as missing:
            raise ConfigurationError(f"missing key {missing}", field=str(missing)) from None
        except ValueError as bad:
            if isinstance(bad, ConfigurationError):
                raise
            raise ConfigurationError(str(bad)) from None


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise ConfigurationError(f"{name} must be a text", field=name, value=value)
    return value


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigurationError(f"{name} must be a whole number", field=name, value=value)
    return value
