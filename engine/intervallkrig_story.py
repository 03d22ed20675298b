"""How an intervallkrig or satsing round is told: each side's two cards, its bet and the new
interval (RULES §3.3), its third card inside or outside (§3.1), as the engine's facts
(`IntervalPlay`) and in the games' own words (`Play.told`), so a screen tells the round
without knowing the game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.events import Passed, Swapped, ThirdDrawn
from engine.facts import Comparison, Faces, Phrase, Play, PlayDraft, shared_why

# The events that tell what a side did in a comparison (they are revealed together).
STORY = (Swapped, Passed, ThirdDrawn)


@dataclass(frozen=True, slots=True)
class IntervalPlay(Play):
    """A side's interval in one comparison: its bet, its interval after it, its third card."""

    swap: tuple[int, int] | None = None  # §3.3: (the card given away, the card taken)
    passed: bool = False  # §3.3: decided not to bet
    interval: tuple[int, int] | None = None  # (low, high), after a swap
    third: int | None = None
    inside: bool | None = None


def interval_play(draft: PlayDraft, target: int | None, short: bool) -> Play:
    """The side's play: its cards, and once bets or third cards are revealed, those told."""
    swap: tuple[int, int] | None = None
    passed = False
    third: ThirdDrawn | None = None
    for event in draft.own:
        if isinstance(event, Swapped):
            swap = (event.out, event.in_)
        elif isinstance(event, Passed):
            passed = True
        elif isinstance(event, ThirdDrawn):
            third = event
    interval = None
    if len(draft.up) == 2:
        cards = list(draft.up)
        if swap is not None and swap[0] in cards:
            cards[cards.index(swap[0])] = swap[1]
        low, high = sorted(cards)
        interval = (low, high)
    play = IntervalPlay(
        draft.side,
        draft.up,
        draft.down,
        short,
        swap=swap,
        passed=passed,
        interval=interval if third is not None or swap or passed else None,
        third=third.card if third is not None else None,
        inside=third.inside if third is not None else None,
    )
    if third is None and swap is None and not passed:
        return play
    return replace(
        play,
        told=_told(play),
        revealed=third is not None or passed,
        brief=_brief(play),
        shows=play.interval,
        apart=play.third,
    )


def _told(play: IntervalPlay) -> tuple[tuple[Phrase, ...], ...]:
    """The two cards, the bet and the new interval; then the third card inside or outside."""
    cards = Phrase("result.play.cards", (("cards", Faces(play.up)),))
    first: tuple[Phrase, ...] = (cards,)
    if play.swap is not None and play.interval is not None:
        (old, new), (low, high) = play.swap, play.interval
        swapped = (("old", old), ("new", new), ("low", low), ("high", high))
        first = (cards, Phrase("result.play.swapped", swapped))
    elif play.passed:
        first = (cards, Phrase("result.play.no_bet"))
    if play.third is None:
        return (first,)
    key = "result.play.inside" if play.inside else "result.play.outside"
    return (first, (Phrase(key, (("card", play.third),)),))


def _brief(play: IntervalPlay) -> tuple[Phrase, ...]:
    """`9 inside [−2, 3]` (the swap after it: where room is short, the swap goes), the swap,
    or no bet."""
    swapped = None
    if play.swap is not None:
        swapped = Phrase("picture.play.swapped", (("old", play.swap[0]), ("new", play.swap[1])))
    if play.third is not None and play.interval is not None:
        low, high = play.interval
        key = "picture.play.inside" if play.inside else "picture.play.outside"
        verdict = Phrase(key, (("third", play.third), ("low", low), ("high", high)))
        return (verdict, swapped) if swapped is not None else (verdict,)
    if swapped is not None:
        return (swapped,)
    return (Phrase("picture.play.no_bet"),) if play.passed else ()


def _drew_third(play: Play) -> bool:
    return isinstance(play, IntervalPlay) and play.third is not None


def interval_why(
    comparisons: Sequence[Comparison], winner: int, bonus: bool, target: int | None
) -> str:
    """How the winner won (`shared_why`): the only third card inside, else as every game."""
    return shared_why(comparisons, winner, bonus, target, drew_third=_drew_third)
