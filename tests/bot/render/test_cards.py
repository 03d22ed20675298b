"""Card faces and exact values."""

from __future__ import annotations

from fractions import Fraction

import pytest

from classroom.text.cards import (
    card_face,
    cards_text,
    count_text,
    face_down,
    number_text,
    value_text,
)
from engine.cards import Card, DeckProfile, Suit, new_deck


def test_a_face_shows_the_true_minus_sign_and_the_suit() -> None:
    assert card_face(Card(0, -4, Suit.HEARTS, 3)) == "[ −4 ♥ ]"
    assert card_face(Card(0, 4, Suit.SPADES, 11)) == "[ 4 ♠ ]"  # heltall: no picture letter
    assert card_face(Card(0, 0, Suit.CLUBS, 7)) == "[ 0 ♣ ]"


def test_picture_cards_of_ordinary_decks_show_their_letter() -> None:
    assert card_face(Card(0, -12, Suit.DIAMONDS, 12)) == "[ −12 ♦ Q ]"
    assert card_face(Card(0, 13, Suit.SPADES, 13)) == "[ 13 ♠ K ]"
    assert card_face(Card(0, 1, Suit.CLUBS, 1)) == "[ 1 ♣ A ]"
    assert card_face(Card(0, 7, Suit.CLUBS, 7)) == "[ 7 ♣ ]"


@pytest.mark.parametrize("deck", list(DeckProfile))
def test_every_card_of_every_deck_is_short(deck: DeckProfile) -> None:
    faces = {card_face(card) for card in new_deck(deck)}
    assert max(len(face) for face in faces) <= 11
    assert not any("-" in face for face in faces)  # never the hyphen-minus
    if deck is DeckProfile.HELTALL:
        assert not any(letter in face for face in faces for letter in "AJQK")


def test_stacked_cards_have_no_suit() -> None:
    assert card_face(Card(0, -4)) == "[ −4 ]"
    assert cards_text([Card(0, 3), Card(1, -2)]) == "[ 3 ] [ −2 ]"


def test_face_down_cards() -> None:
    assert face_down(1) == "[ ▒ ]"
    assert face_down(0) == ""
    assert face_down(2) == "[ ▒ ] [ ▒ ]"
    assert face_down(5) == "[ ▒ ]×5"


@pytest.mark.parametrize(
    ("value", "text"),
    [(Fraction(-7, 2), "−7/2"), (Fraction(12), "12"), (Fraction(0), "0"), (Fraction(2, 3), "2/3")],
)
def test_exact_values(value: Fraction, text: str) -> None:
    assert value_text(value, "en") == text
    assert number_text(value) == text


@pytest.mark.parametrize(
    ("lang", "word"), [("en", "no value"), ("nb", "ingen verdi"), ("sv", "inget värde")]
)
def test_no_value_uses_the_glossary_word(lang: str, word: str) -> None:
    assert value_text(None, lang) == word


def test_card_counts_are_plural_in_english_only() -> None:
    assert count_text(1, "en") == "1 card" and count_text(5, "en") == "5 cards"
    assert count_text(1, "nb") == "1 kort" and count_text(5, "sv") == "5 kort"
