"""The answer modal's texts and the betting hint."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from bot.render.board import render_hint
from engine.hints import InsideCount, SwapChances, swap_chances
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
        texts = render_answer_modal(game, 0, lang)
        assert 0 < len(texts.title) <= 45 and texts.title == render_modal_title(game, lang)
        assert 0 < len(texts.label) <= 45
        assert 0 < len(texts.description) <= 100 and 0 < len(texts.placeholder) <= 100


def test_the_modal_shows_the_sides_own_cards_and_the_target() -> None:
    game = POSITIONS["rk5_answer"]()
    texts = render_answer_modal(game, 0, "nb")
    assert texts.description == "Kortene dine: [ 3 ] [ −2 ] · Målverdi: 7"
    assert texts.title == "Svaret ditt, runde 1"
    assert "[ 1 ] [ 1 ]" in render_answer_modal(game, 1, "en").description
    assert "sqrt" in render_answer_modal(POSITIONS["rk7_answer"](), 0, "sv").placeholder


def test_hint_says_what_to_count_and_marks_the_best() -> None:
    """A hint says what to count: "25 av de 48 kortene du ikke ser, ligger mellom −4 og 2
    (52 %)"."""
    chances = SwapChances(
        now=Fraction(25, 48),
        swap=(Fraction(7, 12), Fraction(1, 3)),
        count=InsideCount(-4, 2, 25, 48),
    )
    text = render_hint(chances, "en")
    assert "25 of the 48 cards you cannot see lie between −4 and 2 (52%)." in text
    assert "Keep both cards: **52%**" in text
    assert "Swap the left card: **58%** ← best" in text
    assert "Swap the right card: **33%**" in text
    assert text.count("← best") == 1
    nb = render_hint(chances, "nb")
    assert "25 av de 48 kortene du ikke ser, ligger mellom −4 og 2 (52 %)." in nb
    assert "25 av de 48 kort du inte ser ligger mellan −4 och 2" in render_hint(chances, "sv")
    assert "← bäst" in render_hint(chances, "sv")


@pytest.mark.parametrize("lang", LANGS)
def test_hint_for_a_real_position(lang: str) -> None:
    game = POSITIONS["sk_bet"]()
    text = render_hint(swap_chances(game.state, 0), lang)
    assert len(text) < 2000 and "%" in text and "/" not in text  # no bare fractions
