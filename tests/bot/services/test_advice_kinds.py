"""Advice per mistake kind with a concrete task (the issue's "Advice per kind"): sign slip →
level 1 with the plus-and-minus deck; −k² → brackets around a negative before squaring, level
6 with the integers deck; order of operations → level 6 with a worked example; not simplified
→ level 3 with the ordinary deck, simplify first; 0 in a product → level 2. Per class: when
several pupils need help with one kind, take it together."""

from __future__ import annotations

import pytest

from classroom.advice import TOGETHER_MIN, Practice, practice_for, practice_text, together_text
from classroom.i18n import LANGS, Lang, t

KINDS = [
    ("subtract", "sign_slip", 4, Practice("subtract", "sign_slip", 1, "fortegn"), None),
    (
        "square",
        "square_sign",
        6,
        Practice("square", "square_sign", 6, "heltall"),
        "advice.task.square_sign",
    ),
    (
        "square",
        "order_of_operations",
        6,
        Practice("square", "order_of_operations", 6),
        "advice.task.order_of_operations",
    ),
    (
        "divide",
        "not_simplified",
        3,
        Practice("divide", "not_simplified", 3, "vanlig"),
        "advice.task.not_simplified",
    ),
    (
        "multiply",
        "arithmetic_slip",
        2,
        Practice("multiply", "arithmetic_slip", 2),
        "advice.task.arithmetic_slip_product",
    ),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("op", "kind", "level", "practice", "task"), KINDS)
def test_each_kind_is_practised_where_it_is_trained_with_a_task(
    op: str, kind: str, level: int, practice: Practice, task: str | None, lang: Lang
) -> None:
    assert practice_for(op, kind, level) == practice
    text = practice_text(practice, lang)
    assert t(f"level.{practice.level}.name", lang) in text
    if practice.deck is not None:
        assert t(f"deck.{practice.deck}.name", lang) in text
    if task is not None:
        assert text.endswith(t(task, lang))


def test_brackets_around_a_negative_before_squaring_in_norwegian() -> None:
    text = practice_text(practice_for("square", "square_sign", 6), "nb")
    assert "Sett parentes rundt et negativt tall før du kvadrerer" in text


@pytest.mark.parametrize("lang", LANGS)
def test_a_kind_that_several_pupils_share_is_taken_together(lang: Lang) -> None:
    assert together_text("square", "square_sign", 6, TOGETHER_MIN - 1, lang) is None
    together = together_text("square", "square_sign", 6, 5, lang)
    assert together is not None and together.startswith("👥 5")
    assert practice_text(practice_for("square", "square_sign", 6), lang) in together
