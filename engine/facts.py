"""What a game tells a screen of its own, beside the piles, pot and comparison every game has:
its view facts (`GameFacts`) and its words (`Phrase`: a catalogue key and its values).

A game module computes its facts from the frozen state (`GameDescriptor.facts`); `engine.view`
puts them into the one `View` every screen draws, so a screen never reads a game's state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from engine.cards import Card
from engine.events import Event
from engine.state import GameState, Outcome


class Calculation(str):
    """A calculation as the engine writes it (``6 ÷ (−2)``): a screen writes it in the
    notation of the reader's school."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Exact:
    """A side's exact value: a screen writes it whole, or as the fraction with its decimal."""

    value: Fraction


@dataclass(frozen=True, slots=True)
class Faces:
    """Cards laid face up, by value: a screen draws them or writes them as cards."""

    values: tuple[int, ...]


# A phrase's value: a number (a screen writes it with the true minus sign), text as it is,
# or one of the kinds above.
PhraseValue = int | Fraction | str | Calculation | Exact | Faces


@dataclass(frozen=True, slots=True)
class Phrase:
    """Words a screen says for a game: a catalogue key, its values, and the placeholders that
    name a side (`sides`: a screen writes that side's name)."""

    key: str
    values: tuple[tuple[str, PhraseValue], ...] = ()
    sides: tuple[tuple[str, int], ...] = ()


class Why(StrEnum):
    """How a round's winner won it."""

    HIGHER = "higher"  # §2.1 levels 1–4: the highest value
    CLOSER = "closer"  # §2.1 levels 5–7: the value closest to the target
    EXACT_HIT = "exact_hit"  # §2.5: exactly the target, and the others pay the bonus
    NO_VALUE = "no_value"  # §2.2: every other side had no value
    TOO_FEW_CARDS = "too_few_cards"  # §2.4: the others could not turn two cards
    INSIDE = "inside"  # §3.1: the only third card inside its interval
    WAR_CARD = "war_card"  # §3.2, §3.4: the best war card by the war rule


@dataclass(frozen=True, slots=True)
class Play:
    """What one side showed in one comparison: the cards every game lays, and what else it did
    told in its game's own words (`told`, by the game's `GameDescriptor.play`). A game with more
    to show a screen of its own subclasses it (regnekrig's answer, intervallkrig's interval)."""

    side: int
    up: tuple[int, ...]  # the card values it turned face up
    down: int  # cards it laid face down before them
    short: bool = False  # a round's play of fewer cards than a round needs (§2.4)
    # Its lines in the round's story, each of phrases a screen joins with " · ".
    told: tuple[tuple[Phrase, ...], ...] = ()
    revealed: bool = False  # it showed what it decided (an answer, a bet, a third card)
    # The same in a few words, for a screen with little room (the card picture): joined
    # with ", "; the cards its play ends with when they are not those it laid (the interval
    # after a swap); a card drawn apart from them (the third card).
    brief: tuple[Phrase, ...] = ()
    shows: tuple[int, ...] | None = None
    apart: int | None = None


@dataclass(slots=True)
class PlayDraft:
    """One side's part of a comparison while its events are read: the cards it laid (every
    game's `CardsLaid`) and its game's own events (`GameDescriptor.story`), in order."""

    side: int
    up: tuple[int, ...] = ()
    down: int = 0
    own: list[Event] = field(default_factory=list)


def plain_play(draft: PlayDraft, target: int | None, short: bool) -> Play:
    """The play of a game that tells nothing of its own: the cards laid."""
    return Play(draft.side, draft.up, draft.down, short)


@dataclass(frozen=True, slots=True)
class Comparison:
    kind: str  # "round", "war", "three_card" (§3.4 exactly three), "one_card" (§3.4 two or one)
    plays: tuple[Play, ...]
    war: tuple[int, ...]  # the sides that went on to war from it; empty when it decided
    war_kind: str | None = None  # the war it led to: "war", "three_card" or "one_card"


@dataclass(frozen=True, slots=True)
class Bonus:
    giver: int
    taker: int
    cards: int


@dataclass(frozen=True, slots=True)
class RoundFacts:
    round: int
    target: int | None
    named_by: int | None  # None with a target: drawn at random (§2.5)
    comparisons: tuple[Comparison, ...]
    winner: int | None
    cards: int  # the cards the winner took
    why: str | None  # a `Why`, or a reason of the game's own (`result.why.<why>`)
    bonus: tuple[Bonus, ...]
    returned: tuple[int, ...] | None  # §2.4, §3.4: the cards each side took back
    reshuffled: tuple[int, ...]  # sides whose collection pile was shuffled in (§1.3)
    out: tuple[int, ...]  # sides that went out (§1.5)
    time_up: bool
    over: Outcome | None  # the game ended with this round

    @property
    def decided(self) -> bool:
        return self.winner is not None or self.returned is not None or self.over is not None


@dataclass(frozen=True, slots=True)
class War:
    kind: str  # "war", or a war of the game's own ("three_card", "one_card")
    sides: tuple[int, ...]
    face_down: int  # the cards each warring side lays face down for it


@dataclass(frozen=True, slots=True)
class GameFacts:
    """A game's own facts in a view (each empty for a game that has no such thing)."""

    target: int | None = None  # the target of the comparison in play (regnekrig §2.5)
    namer: int | None = None  # the side that names this or the next target
    war: War | None = None  # the war in play
    endgame: str | None = None  # the endgame the next round is played by (intervallkrig §3.4)
    thirds: tuple[Card | None, ...] = ()  # each side's third card in play (intervallkrig §3.1)
    hints: tuple[int, ...] = ()  # the sides that may ask for a hint now (satsing §3.3)
    own_answer: str | None = None  # the viewer's own answer before the reveal
    own_bet: int | None = None  # the viewer's own bet decision before the reveal
    notes: tuple[Phrase, ...] = ()  # anything else the game tells, in its own words


NO_FACTS = GameFacts()


def no_facts(state: GameState, viewer: int | None) -> GameFacts:
    """The facts of a game that tells nothing beyond what every game shows."""
    return NO_FACTS


def _never(play: Play) -> bool:
    return False


def shared_why(
    comparisons: Sequence[Comparison],
    winner: int,
    bonus: bool,
    target: int | None,
    *,
    drew_third: Callable[[Play], bool] = _never,
    valued: Callable[[Play], bool] = _never,
) -> str:
    """How the winner won, by the rules regnekrig and intervallkrig share: the only third card
    inside (§3.1), the best war card (§3.2, §3.4), the others could not turn two (§2.4), an
    exact hit (§2.5), no value (§2.2), closest or highest (§2.1). A game says which of its
    plays drew a third card (`drew_third`) and which had a value (`valued`)."""
    last = comparisons[-1] if comparisons else None
    mine = next((p for p in last.plays if p.side == winner), None) if last else None
    if last is None or mine is None:
        return Why.TOO_FEW_CARDS
    if drew_third(mine):
        return Why.INSIDE  # §3.1: the only third card inside
    if len(mine.up) < 2:
        return Why.WAR_CARD  # §3.2, §3.4: one card each, compared by the war rule
    contenders = [p for p in last.plays if len(p.up) == 2]
    if len(contenders) == 1:
        return Why.TOO_FEW_CARDS  # §2.4: the others could not turn two
    if bonus:
        return Why.EXACT_HIT
    if not any(valued(p) for p in contenders if p.side != winner):
        return Why.NO_VALUE
    return Why.CLOSER if target is not None else Why.HIGHER
