"""Cards and the three deck profiles of RULES.md §1.1.

A card is identified by its `id` (its place in the fresh deck) so two cards of equal value
stay distinct objects; the rules only ever compare `value`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache


class Suit(StrEnum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


class DeckProfile(StrEnum):
    HELTALL = "heltall"
    FORTEGN = "fortegn"
    VANLIG = "vanlig"


DEFAULT_DECK = DeckProfile.HELTALL


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One physical card. `rank` is 1..13 (A=1, J=11, Q=12, K=13); `suit` is None for stacked
    test piles that only give values."""

    id: int
    value: int
    suit: Suit | None = None
    rank: int | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"id": self.id, "value": self.value}
        if self.suit is not None:
            out["suit"] = self.suit.value
        if self.rank is not None:
            out["rank"] = self.rank
        return out

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Card:
        suit = data.get("suit")
        rank = data.get("rank")
        return cls(
            id=int(data["id"]),  # type: ignore[call-overload]
            value=int(data["value"]),  # type: ignore[call-overload]
            suit=Suit(str(suit)) if suit is not None else None,
            rank=int(rank) if rank is not None else None,  # type: ignore[call-overload]
        )


def card_value(profile: DeckProfile, suit: Suit, rank: int) -> int:
    """The mathematical value of (suit, rank) in a profile (RULES.md §1.1)."""
    if profile is DeckProfile.HELTALL:
        return rank - 7  # ranks 1..13 carry -6..6 in every suit
    if profile is DeckProfile.FORTEGN:
        return -rank if suit.is_red else rank
    return rank


@cache
def new_deck(profile: DeckProfile) -> tuple[Card, ...]:
    """The 52 cards of a profile in a fixed, documented order (suit by suit, rank 1..13).

    Built once per profile: the cards are frozen values, and building them took about half of
    `new_game`."""
    cards: list[Card] = []
    for suit in SUITS:
        for rank in range(1, 14):
            cards.append(Card(len(cards), card_value(profile, suit, rank), suit, rank))
    return tuple(cards)


def profile_values(profile: DeckProfile) -> tuple[int, ...]:
    """The distinct card values a profile can deal, ascending."""
    return tuple(sorted({card.value for card in new_deck(profile)}))


def stacked_cards(piles: list[list[int]]) -> tuple[tuple[Card, ...], ...]:
    """Cards for stacked test piles (SCENARIOS.md `piles`), ids numbered pile by pile."""
    out: list[tuple[Card, ...]] = []
    next_id = 0
    for pile in piles:
        row = []
        for value in pile:
            row.append(Card(next_id, int(value)))
            next_id += 1
        out.append(tuple(row))
    return tuple(out)
