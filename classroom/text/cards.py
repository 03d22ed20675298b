"""Card faces and exact values as text that reads well on a phone.

Discord embeds cannot draw or colour a card, so a card is a short bracketed token with the
true minus sign (U+2212, which never wraps away from its digit the way a hyphen may) and the
suit symbol: ``[ −4 ♥ ]``. Picture cards of the ordinary decks also show their letter
(``[ −12 ♦ Q ]``) so a pupil can find the card in a real deck; the ``heltall`` deck maps ranks
to −6…6, where a letter would only confuse, so it never gets one. Stacked test cards have no
suit and show only their value: ``[ −4 ]``.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from classroom.i18n import Lang, t
from classroom.text.locale import as_lang
from engine.cards import Card

MINUS = "\u2212"
HIDDEN = "[ ▒ ]"
_LETTERS = {1: "A", 11: "J", 12: "Q", 13: "K"}
_SPELLED_OUT = 3  # up to this many face-down cards are drawn one by one


def number_text(value: int | Fraction) -> str:
    """A whole number or fraction with the true minus sign: ``-7/2`` → ``−7/2``."""
    text = str(Fraction(value))
    return text.replace("-", MINUS)


def _value_text(value: Fraction | None, lang: Lang) -> str:
    """A side's exact value (``−7/2``), or the glossary's word for *no value*."""
    if value is None:
        return t("value.none", lang)
    return number_text(value)


def _letter(card: Card) -> str | None:
    """The picture letter, only where the value is the rank (fortegn and vanlig decks)."""
    if card.rank is None or abs(card.value) != card.rank:
        return None
    return _LETTERS.get(card.rank)


def card_face(card: Card) -> str:
    """One card face up: ``[ −4 ♥ ]``, ``[ 12 ♠ Q ]``, or ``[ −4 ]`` for a stacked card."""
    parts = [number_text(card.value)]
    if card.suit is not None:
        parts.append(card.suit.symbol)
    letter = _letter(card)
    if letter is not None:
        parts.append(letter)
    return f"[ {' '.join(parts)} ]"


def cards_text(cards: Iterable[Card]) -> str:
    """Several faces side by side."""
    return " ".join(card_face(card) for card in cards)


def face_down(count: int) -> str:
    """``count`` cards face down, compact: up to three drawn, more as ``[ ▒ ]×5``."""
    if count <= 0:
        return ""
    if count <= _SPELLED_OUT:
        return " ".join([HIDDEN] * count)
    return f"{HIDDEN}×{count}"


def count_text(count: int, lang: Lang) -> str:
    """``1 card`` / ``5 cards`` with the language's plural (nb, nn and sv: ``kort`` either way)."""
    return t("cards", lang, count=count)


def value_text(value: Fraction | None, lang: str) -> str:
    """A side's exact value (``−7/2``), or the glossary's word for *no value*."""
    return _value_text(value, as_lang(lang))
