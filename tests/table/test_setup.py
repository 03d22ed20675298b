"""The setup forms read into a game's settings: the one-screen table's and the class lesson's
ask for the same options by the same registry keys, and every game of a lesson is played
with what the teacher chose (only its sides, teams and computer are its own)."""

from __future__ import annotations

from typing import Any

from classroom.settings import GameSettings, settings_from_options
from engine.computer import Strength
from table.setup import read_lesson_setup, read_setup

FORM = {
    "game": "regnekrig",
    "level": "4",
    "deck": "fortegn",
    "mode": "auto",
    "war_size": "3",
    "war_rule": "highest",
    "minutes": "15",
    "answer_form": "expression",
    "answer_seconds": "45",
}


def chosen(**table: Any) -> GameSettings:
    """The settings FORM chose, as `/mattekrig start` builds them from its options (the war
    rule is not regnekrig's to choose: FORM's is not read)."""
    return settings_from_options(
        game="regnekrig",
        level=4,
        deck="fortegn",
        mode="auto",
        war_size=3,
        war_rule="closest_to_zero",
        minutes=15,
        **{"answer_form": "expression", "answer_seconds": 45, **table},
    )


def test_the_one_screen_form_reads_every_option_and_sets_no_answer_time() -> None:
    """At one screen the players see each other think: no answer time, whatever the form
    says; the answer form is not asked there and stays the registry's default."""
    table = read_setup({**FORM, "player1": "Ada", "player2": "Bo"})
    assert table.names == ("Ada", "Bo")
    assert table.settings == chosen(answer_form="number", answer_seconds=0)


def test_every_game_of_a_lesson_keeps_the_teachers_choice() -> None:
    """RULES §1.2: a team is one side; a lesson's game differs from the teacher's choice only
    in its sides, its teams and the computer."""
    lesson = read_lesson_setup({**FORM, "teams": "on"})
    assert lesson.teams
    assert lesson.settings == chosen()
    assert lesson.for_match(2, True, None) == chosen(teams=True)
    assert lesson.for_match(3, False, None) == chosen(sides=3)
    against = lesson.for_match(2, False, "easy")
    assert against.computer is Strength.EASY
    assert against == chosen(computer="easy")
