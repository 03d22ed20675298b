"""The setup form read into a game's settings and the sides' names, or a refusal the page
puts into words. Every option and its allowed values come from the game registry, so the
form offers, and accepts, exactly what `/mattekrig start` does."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from classroom.settings import GameSettings, settings_from_options
from engine.computer import Strength
from engine.descriptor import GameDescriptor
from engine.options import (
    ANSWER_FORM,
    ANSWER_TIME,
    DECK,
    LEVEL,
    MODE,
    SIDES,
    TEAM_SIDES,
    TIME_LIMIT,
    WAR_RULE,
    WAR_SIZE,
    Option,
)
from engine.registry import GAMES

MAX_NAME = 32  # the longest name a side shows (the board's own limit)
PLAYER_FIELDS = tuple(f"player{n}" for n in range(1, TEAM_SIDES + 1))
EACH_OTHER = "players"  # the opponent field: the players play each other
# The options the form asks for (sides and teams follow from the names; the answer time is
# a chat's rule: at one screen the players see each other think).
FORM_OPTIONS = {o.key: o for o in (LEVEL, DECK, MODE, WAR_SIZE, WAR_RULE, TIME_LIMIT)}
# A class lesson: every pupil has a device of their own, so the answer time and the answer
# form are asked too (no answer time: 0, WCAG 2.2.1).
LESSON_OPTIONS = {
    o.key: o for o in (LEVEL, DECK, MODE, ANSWER_FORM, ANSWER_TIME, WAR_SIZE, WAR_RULE, TIME_LIMIT)
}


class SetupError(Exception):
    """A refusal of the setup form: a catalogue key and its values."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


@dataclass(frozen=True, slots=True)
class NewTable:
    settings: GameSettings
    names: tuple[str, ...]  # one per side; "" for the computer's side


def form_options(game: GameDescriptor, lesson: bool = False) -> tuple[Option, ...]:
    """The registry's options of this game that the form shows, in the registry's order
    (a lesson's form also asks for the answer time, whichever game it is)."""
    asked = LESSON_OPTIONS if lesson else FORM_OPTIONS
    options = list(game.options)
    if lesson and ANSWER_TIME not in options:
        options.append(ANSWER_TIME)
    return tuple(
        o
        for o in options
        if o.key in asked
        and not (o.key == "mode" and len(game.modes) < 2)
        and not (o.key == "level" and not game.has_levels)
    )


def read_game(value: str | None) -> GameDescriptor:
    game = GAMES.get(value or "")
    if game is None:
        raise SetupError("table.error.unknown_game", game=value or "")
    return game


def _option(option: Option, raw: str | None) -> int | str:
    if raw is None or raw.strip() == "":
        return int(option.default) if isinstance(option.default, bool) else option.default
    value: int | str = raw.strip()
    if option.values is not None:
        try:
            value = int(str(value), 10)
        except ValueError:
            raise SetupError("error.bad_option", option=option.key) from None
    if not option.allows(value):
        raise SetupError("error.bad_option", option=option.key)
    return value


def _chosen(
    game: GameDescriptor, form: Mapping[str, str], *, lesson: bool = False
) -> dict[str, int | str]:
    """Every option a game's settings are built from, by its registry key: as the form chose
    it where the form asks for it (refused when the registry does not allow it), else the
    registry's default."""
    asked = {o.key: _option(o, form.get(o.key)) for o in form_options(game, lesson)}
    return {key: asked.get(key, o.default) for key, o in LESSON_OPTIONS.items()}


def _settings(
    game: GameDescriptor,
    chosen: Mapping[str, int | str],
    *,
    teams: bool = False,
    computer: str | None = None,
    sides: int = 2,
) -> GameSettings:
    """A game's settings from its chosen options (as `_chosen` reads them) and how its
    players sit."""
    return settings_from_options(
        game=game.key,
        level=int(chosen["level"]),
        deck=str(chosen["deck"]),
        mode=str(chosen["mode"]),
        war_size=int(chosen["war_size"]),
        war_rule=str(chosen["war_rule"]),
        answer_form=str(chosen["answer_form"]),
        answer_seconds=int(chosen["answer_seconds"]),
        minutes=int(chosen["minutes"]),
        teams=teams,
        computer=computer,
        sides=sides,
    )


def _names(form: Mapping[str, str]) -> list[str]:
    names = [" ".join(form.get(f, "").split()) for f in PLAYER_FIELDS]
    typed = [n for n in names if n]
    for name in typed:
        if len(name) > MAX_NAME:
            raise SetupError("table.error.name_too_long", count=MAX_NAME)
    seen: set[str] = set()
    for name in typed:
        if name.casefold() in seen:
            raise SetupError("table.error.same_name", name=name)
        seen.add(name.casefold())
    return typed


def read_setup(form: Mapping[str, str]) -> NewTable:
    """The game the form asks for; raises `SetupError` for anything the form cannot start."""
    game = read_game(form.get("game"))
    chosen = _chosen(game, form)
    opponent = form.get("opponent", EACH_OTHER)
    teams = form.get("teams") == "on"
    names = _names(form)
    computer: str | None = None
    if opponent != EACH_OTHER:
        if opponent not in tuple(s.value for s in Strength):
            raise SetupError("error.bad_option", option="opponent")
        if teams:
            raise SetupError("table.error.teams_computer")
        if len(names) != 1:
            raise SetupError("table.error.computer_one_player")
        computer = opponent
        sides: tuple[str, ...] = (names[0], "")
    elif teams:
        if len(names) != TEAM_SIDES:
            raise SetupError("error.teams_need_four")
        # RULES §1.2: a team is one side with one pile, its two players act for it.
        sides = (f"{names[0]} & {names[1]}", f"{names[2]} & {names[3]}")
    else:
        if len(names) not in SIDES:
            raise SetupError("error.lobby_size")
        sides = tuple(names)
    chosen["answer_seconds"] = 0  # at one screen the players see each other think
    settings = _settings(game, chosen, teams=teams, computer=computer, sides=len(sides))
    return NewTable(settings, sides)


@dataclass(frozen=True, slots=True)
class LessonSetup:
    """What the teacher chose for the whole class: the game's settings and two against two."""

    settings: GameSettings
    teams: bool = False

    def for_match(self, sides: int, teams: bool, computer: str | None) -> GameSettings:
        """The settings of one game of the lesson: the class's, with this game's sides (a
        team is one side, RULES §1.2), teams and computer."""
        return replace(
            self.settings,
            engine=replace(self.settings.engine, sides=sides),
            teams=teams,
            computer=Strength(computer) if computer else None,
        )


DEFAULT_LESSON = LessonSetup(settings_from_options(game="regnekrig", level=1, minutes=10))


def read_lesson_setup(form: Mapping[str, str]) -> LessonSetup:
    """The teacher's choice for the class; raises `SetupError` for a value the registry does
    not allow."""
    game = read_game(form.get("game"))
    settings = _settings(game, _chosen(game, form, lesson=True))
    return LessonSetup(settings, teams=form.get("teams") == "on")
