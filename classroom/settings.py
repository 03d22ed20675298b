"""What a game is started with beyond the engine's own configuration: the table rules a class
agrees on (answer time, time limit), who plays which side, and the board's language."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.computer import Strength
from engine.config import GameConfig
from engine.options import ANSWER_FORM, ANSWER_TIME, DECK, TIME_LIMIT, WAR_RULE
from engine.registry import descriptor

DEFAULT_ANSWER_SECONDS = int(ANSWER_TIME.default)
IDLE_MINUTES = 10  # a game nobody touches for this long ends as abandoned


@dataclass(frozen=True, slots=True)
class GameSettings:
    engine: GameConfig
    answer_seconds: int = DEFAULT_ANSWER_SECONDS  # 0 = no answer time
    minutes: int = 0  # the game's time limit, 0 = none (RULES §1.5)
    locale: str = "en"  # the board's language (the starter's)
    teams: bool = False
    computer: Strength | None = None
    preset: bool = False  # started with the teacher's class preset (the board says so)
    # A pupil's accommodation, per side: that side's answer time in seconds (0: none). Never
    # shown: the board shows the table's `answer_seconds` only.
    side_seconds: Mapping[int, int] = field(default_factory=dict)

    def seconds_for(self, side: int) -> int:
        """The answer time of one side: its accommodation, else the table's."""
        return self.side_seconds.get(side, self.answer_seconds)

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine.to_json(),
            "answer_seconds": self.answer_seconds,
            "minutes": self.minutes,
            "locale": self.locale,
            "teams": self.teams,
            "computer": self.computer.value if self.computer else None,
            "preset": self.preset,
            "side_seconds": {str(k): v for k, v in sorted(self.side_seconds.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSettings:
        computer = data.get("computer")
        return cls(
            engine=GameConfig.from_json(data["engine"]),
            answer_seconds=int(data.get("answer_seconds", DEFAULT_ANSWER_SECONDS)),
            minutes=int(data.get("minutes", 0)),
            locale=str(data.get("locale", "en")),
            teams=bool(data.get("teams", False)),
            computer=Strength(computer) if computer else None,
            preset=bool(data.get("preset", False)),
            side_seconds={int(k): int(v) for k, v in data.get("side_seconds", {}).items()},
        )


def settings_from_options(
    *,
    game: str,
    level: int = 1,
    deck: str = str(DECK.default),
    mode: str = "regn",
    war_size: int = 6,
    war_rule: str = str(WAR_RULE.default),
    answer_form: str = str(ANSWER_FORM.default),
    answer_seconds: int = DEFAULT_ANSWER_SECONDS,
    minutes: int = 0,
    locale: str = "en",
    teams: bool = False,
    computer: str | None = None,
    sides: int = 2,
    preset: bool = False,
) -> GameSettings:
    """Settings from slash-command options (already range-checked by Discord)."""
    kind = descriptor(game)
    if kind.modes and mode not in kind.modes:
        mode = kind.modes[0].value  # satsing: the bets are the game, always asked
    engine = GameConfig.from_json(
        {
            "game": kind.key,
            "level": level if kind.has_levels else 1,
            "deck": deck,
            "mode": mode,
            "sides": sides,
            "war_size": war_size,
            "war_rule": war_rule,
            "answer_form": answer_form if ANSWER_FORM.allows(answer_form) else ANSWER_FORM.default,
        }
    )
    return GameSettings(
        engine=engine,
        answer_seconds=max(ANSWER_TIME.low, min(answer_seconds, ANSWER_TIME.high)),
        minutes=max(TIME_LIMIT.low, min(minutes, TIME_LIMIT.high)),
        locale=locale,
        teams=teams,
        computer=Strength(computer) if computer else None,
        preset=preset,
    )


def team_order(user_ids: list[int], partner: int | None) -> list[int]:
    """Seat order for two teams of two (RULES §1.2): seats 0 and 2 play seats 1 and 3. The host
    (first) sits with the team-mate they chose, or with the third to join when they chose none."""
    if partner is None or partner not in user_ids[1:]:
        return list(user_ids)
    others = [uid for uid in user_ids[1:] if uid != partner]
    return [user_ids[0], others[0], partner, others[1]]
