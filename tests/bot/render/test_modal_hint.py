"""The answer modal's texts and the betting hint."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from bot.render.board import render_hint
from engine.hints import SwapChances, swap_chances
from tests.bot.render.support import (
    LANGS,
    POSITIONS,
    render_answer_modal,
    render_modal_title,
)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["rk1_answer", "rk5_answer", "rk7_answer"])
def test_modal_texts_fit_discords_modal_limits(name: str, lang: str) -> None:
    game = POSITIONS[name]()
    for round_ in (1, 99, 1000):
        game.state = replace(game.state, round=round_)
        texts = render_answer_modal(game, 0, lang)  # type: ignore[arg-type]
        assert 0 < len(texts.title) <= 45 and texts.title == render_modal_title(game, lang)  # type: ignore[arg-type]
        assert 0 < len(texts.label) <= 45
        assert 0 < len(texts.description) <= 100 and 0 < len(texts.placeholder) <= 100


def test_the_modal_shows_the_sides_own_cards_and_the_target() -> None:
    game = POSITIONS["rk5_answer"]()
    texts = render_answer_modal(game, 0, "nb")
    assert texts.description == "Kortene dine: [ 3 ] [ −2 ] · Målverdi: 7"
    assert texts.title == "Svaret ditt, runde 1"
    assert "[ 1 ] [ 1 ]" in render_answer_modal(game, 1, "en").description
    assert "sqrt" in render_answer_modal(POSITIONS["rk7_answer"](), 0, "sv").placeholder


def test_hint_shows_exact_fractions_and_percent_and_marks_the_best() -> None:
    chances = SwapChances(now=Fraction(5, 12), swap=(Fraction(7, 12), Fraction(1, 3)))
    text = render_hint(chances, "en")
    assert "Keep both cards: **5/12 (42%)**" in text
    assert "Swap the left card: **7/12 (58%)** ← best" in text
    assert "Swap the right card: **1/3 (33%)**" in text
    assert text.count("← best") == 1
    assert "5/12 (42 %)" in render_hint(chances, "nb") and "← bäst" in render_hint(chances, "sv")


@pytest.mark.parametrize("lang", LANGS)
def test_hint_for_a_real_position(lang: str) -> None:
    game = POSITIONS["sk_bet"]()
    text = render_hint(swap_chances(game.state, 0), lang)  # type: ignore[arg-type]
    assert len(text) < 2000 and "%" in text and "/" in text
