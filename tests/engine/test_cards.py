"""RULES.md §1.1 — the deck and its three profiles."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.cards import Card, DeckProfile, Suit, new_deck, profile_values, stacked_cards


def test_heltall_is_minus_six_to_six_in_every_suit() -> None:
    """§1.1 `heltall` (default): 52 cards, four suits × 13, values −6 … 6 (zero included)."""
    deck = new_deck(DeckProfile.HELTALL)
    assert len(deck) == 52
    for suit in Suit:
        assert sorted(c.value for c in deck if c.suit is suit) == list(range(-6, 7))


def test_fortegn_black_positive_red_negative() -> None:
    """§1.1 `fortegn`: black suits +1 … +13, red suits −1 … −13 (A=1, J=11, Q=12, K=13)."""
    deck = new_deck(DeckProfile.FORTEGN)
    for card in deck:
        assert card.rank is not None and card.suit is not None
        assert card.value == (-card.rank if card.suit.is_red else card.rank)
    assert Counter(c.value > 0 for c in deck) == {True: 26, False: 26}


def test_vanlig_ignores_suits() -> None:
    """§1.1 `vanlig`: +1 … +13, suits ignored."""
    deck = new_deck(DeckProfile.VANLIG)
    assert Counter(c.value for c in deck) == {v: 4 for v in range(1, 14)}


@pytest.mark.parametrize("profile", list(DeckProfile))
def test_cards_of_equal_value_stay_distinct(profile: DeckProfile) -> None:
    """§1.1: a card is identified by (suit, index), so equal values are still distinct cards."""
    deck = new_deck(profile)
    assert len({c.id for c in deck}) == 52
    assert len({(c.suit, c.rank) for c in deck}) == 52


def test_profile_values() -> None:
    assert profile_values(DeckProfile.HELTALL) == tuple(range(-6, 7))
    assert profile_values(DeckProfile.VANLIG) == tuple(range(1, 14))
    assert 0 not in profile_values(DeckProfile.FORTEGN)


def test_card_json_round_trip_and_stacked_ids() -> None:
    card = new_deck(DeckProfile.FORTEGN)[20]
    assert Card.from_json(card.to_json()) == card
    piles = stacked_cards([[3, 3], [3]])
    assert [c.id for pile in piles for c in pile] == [0, 1, 2]
    assert Card.from_json(piles[0][0].to_json()) == piles[0][0]
