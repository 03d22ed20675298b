"""The last round's result in one line, read from the events of the last change.

`LiveGame.recent` holds everything one change did: often the end of a comparison *and* the
start of the next round (a satsing round opens its next betting window at once). The result
is the part up to the last deciding event (a round won, a war declared, the pot returned,
the game over), so the cards of the round that has just begun never leak into it.
Everything shown here was already revealed by the engine (values come only from `value`
events, bets only from `bet`/`swap`/`pass`), so no side's secret is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.i18n import Lang, t
from bot.render.cards import count_text, number_text, parse_value, value_text
from bot.render.names import join_names
from engine.events import (
    BonusPaid,
    CardsLaid,
    Event,
    GameOver,
    Passed,
    PileReshuffled,
    PotReturned,
    RoundStarted,
    RoundWon,
    SideOut,
    Swapped,
    ThirdDrawn,
    TimeUpNoted,
    ValueShown,
    WarDeclared,
)

_DECIDING = (RoundWon, WarDeclared, PotReturned, GameOver)
_TRAILING = (SideOut, GameOver, TimeUpNoted, PileReshuffled, RoundWon, PotReturned)
WAR_KINDS = ("war", "three_card", "one_card")


def result_segment(events: Sequence[Event]) -> list[Event]:
    """The events that belong to the comparison just decided (empty when none was)."""
    last = max((i for i, e in enumerate(events) if isinstance(e, _DECIDING)), default=None)
    if last is None:
        return [e for e in events if isinstance(e, TimeUpNoted)]
    end = last + 1
    while end < len(events) and isinstance(events[end], _TRAILING):
        end += 1
    return list(events[:end])


def result_round(events: Sequence[Event], fallback: int) -> int:
    """The round the result belongs to: its own `round_start`, else the one before the next."""
    segment = result_segment(events)
    started = [e.round for e in segment if isinstance(e, RoundStarted)]
    if started:
        return started[0]
    later = [e.round for e in events[len(segment) :] if isinstance(e, RoundStarted)]
    return later[0] - 1 if later else fallback


@dataclass
class _SideStory:
    """What one side did in the segment, in the order the line tells it."""

    laid: tuple[int, ...] = ()
    third: ThirdDrawn | None = None
    value: ValueShown | None = None
    bet: tuple[int, int] | None = None  # (out, in)
    passed: bool = False
    war_cards: list[int] = field(default_factory=list)  # laid in a war (some face down)
    single_cards: list[int] = field(default_factory=list)  # §3.4 endgame: one card each


def _stories(segment: Sequence[Event]) -> dict[int, _SideStory]:
    stories: dict[int, _SideStory] = {}
    at_war = False
    for event in segment:
        side = getattr(event, "side", None)
        story = stories.setdefault(side, _SideStory()) if isinstance(side, int) else None
        if isinstance(event, WarDeclared):
            at_war = True
        elif isinstance(event, CardsLaid) and story is not None:
            if at_war or event.down:
                story.war_cards.extend(event.up)
            elif len(event.up) == 1:
                story.single_cards.extend(event.up)
            else:
                story.laid = event.up
        elif isinstance(event, ThirdDrawn) and story is not None:
            story.third = event
        elif isinstance(event, ValueShown) and story is not None:
            story.value = event
        elif isinstance(event, Swapped) and story is not None:
            story.bet = (event.out, event.in_)
        elif isinstance(event, Passed) and story is not None:
            story.passed = True
    return stories


def _value_part(name: str, shown: ValueShown, lang: Lang) -> str:
    value = parse_value(shown.value)
    if value is None:
        key = "result.no_answer" if not shown.expr else "result.no_value"
        text = t(key, lang, name=name, expr=shown.expr, value=value_text(None, lang))
    elif shown.expr and shown.expr != number_text(value):
        text = t("result.value", lang, name=name, expr=shown.expr, value=number_text(value))
    else:
        text = t("result.value_only", lang, name=name, value=number_text(value))
    best_value = parse_value(shown.best_value)
    if best_value is not None and best_value != value:
        text += " " + t("result.best", lang, expr=shown.best, value=number_text(best_value))
    return text


def _interval_part(name: str, story: _SideStory, lang: Lang) -> str | None:
    parts: list[str] = []
    if story.bet is not None:
        old, new = (number_text(v) for v in story.bet)
        parts.append(t("result.swapped", lang, old=old, new=new))
    elif story.passed:
        parts.append(t("result.no_bet", lang))
    if story.third is not None:
        mark = t("result.inside" if story.third.inside else "result.outside", lang)
        card = number_text(story.third.card)
        if len(story.laid) == 2:
            cards = _after_swap(story.laid, story.bet) if story.bet else story.laid
            low, high = sorted(cards)
            parts.append(
                t(
                    "result.interval",
                    lang,
                    low=number_text(low),
                    high=number_text(high),
                    card=card,
                    mark=mark,
                )
            )
        else:  # the interval was laid in an earlier change (satsing: before the bets)
            parts.append(t("result.third", lang, card=card, mark=mark))
    if story.single_cards:
        parts.append(", ".join(number_text(v) for v in story.single_cards))
    if story.war_cards:
        parts.append("⚔️ " + ", ".join(number_text(v) for v in story.war_cards))
    if not parts:
        return None
    return f"{name}: " + ", ".join(parts)


def _after_swap(laid: tuple[int, ...], bet: tuple[int, int]) -> tuple[int, ...]:
    out, new = bet
    cards = list(laid)
    if out in cards:
        cards[cards.index(out)] = new
    return tuple(cards)


def result_line(
    events: Sequence[Event], names: dict[int, str], lang: Lang, fallback_round: int
) -> str | None:
    """One line: the round, who won how many cards (or the war), then each side's play."""
    segment = result_segment(events)
    if not segment:
        return None
    head: list[str] = []
    tail: list[str] = []
    for event in segment:
        if isinstance(event, WarDeclared):
            who = join_names([names[s] for s in event.sides], lang)
            head.append(t(f"result.war.{_war_kind(event.kind)}", lang, names=who))
        elif isinstance(event, BonusPaid):
            head.append(
                t(
                    "result.bonus",
                    lang,
                    giver=names[event.from_],
                    taker=names[event.to],
                    cards=count_text(event.cards, lang),
                )
            )
        elif isinstance(event, RoundWon):  # the winner first, then how (war, exact hit)
            head.insert(
                0,
                t("result.won", lang, name=names[event.side], cards=count_text(event.cards, lang)),
            )
        elif isinstance(event, PotReturned):
            head.append(t("result.pot_returned", lang))
        elif isinstance(event, TimeUpNoted):
            tail.append(t("result.time_up", lang))
        elif isinstance(event, PileReshuffled):
            tail.append(t("result.reshuffled", lang, name=names[event.side]))
        elif isinstance(event, SideOut):
            tail.append(t("result.side_out", lang, name=names[event.side]))
    plays: list[str] = []
    for side, story in sorted(_stories(segment).items()):
        if side not in names:
            continue
        if story.value is not None:
            plays.append(_value_part(names[side], story.value, lang))
        else:
            part = _interval_part(names[side], story, lang)
            if part is not None:
                plays.append(part)
    if not head and not plays:
        return None  # nothing was decided (a time-up alone is shown by the board itself)
    line = t("result.round", lang, round=result_round(events, fallback_round))
    if head:
        line += " " + " · ".join(head)
    if plays:
        line += (" — " if head else " ") + " · ".join(plays)
    if tail:
        line += " · " + " · ".join(tail)
    return line


def _war_kind(kind: str) -> str:
    return kind if kind in WAR_KINDS else "war"
