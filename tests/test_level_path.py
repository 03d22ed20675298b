"""A level path for years 4–10 (the issue's "A level path"): the help, the teacher's setup and
the report say which deck and levels suit a year group, in the school's order (subtraction with
negatives before products and quotients of negatives), and the curriculum aim of each level."""

from __future__ import annotations

import pytest

from bot.render.admin import render_presets
from bot.render.texts import help_text
from classroom.i18n import LANGS, Lang, t
from classroom.level_path import LEVEL_PATH, aim_text, path_text


def test_the_path_is_the_schools_order() -> None:
    assert [(step.years, step.deck, step.levels) for step in LEVEL_PATH] == [
        ("4\u20135", "vanlig", (1, 2, 3)),
        ("6\u20137", "heltall", (1, 4, 5)),
        ("7\u20138", "heltall", (2, 3)),
        ("8\u201310", "heltall", (6, 7)),
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_the_help_and_the_teachers_setup_show_the_path(lang: Lang) -> None:
    (embed,) = help_text(lang)
    fields = {field.name: field.value for field in embed.fields}
    assert fields[t("path.title", lang)] == path_text(lang)
    setup = render_presets([], lang)
    assert any(field.value == path_text(lang) for field in setup.fields)


@pytest.mark.parametrize("lang", LANGS)
def test_every_level_names_its_curriculum(lang: Lang) -> None:
    for level in range(1, 8):
        aim = aim_text(level, lang)
        assert ("LK20" in aim) or ("Lgr22" in aim)


def test_norwegian_years_are_written_as_schools_write_them() -> None:
    assert "4.\u20135. trinn" in path_text("nb")
    assert "Årskurs 7\u20139" in path_text("sv")
