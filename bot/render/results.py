"""The round's result in one line, put into words from the view's facts (`RoundFacts`).

The facts are the engine's: who won how many cards and why, the war, the bonus, each side's
play. Everything in them was already revealed (values only after every side answered, bets
only after every side decided), so no side's secret can reach this line. While a round is
still being played (a war after the first comparison) the line tells the comparison that led
to the war; once decided, the comparison that decided it.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.i18n import Lang, t
from bot.render.cards import count_text, number_text, value_text
from bot.render.naming import join_names
from engine.view import Comparison, Play, RoundFacts

WAR_KINDS = ("war", "three_card", "one_card")


def _value_part(name: str, play: Play, lang: Lang) -> str:
    value = play.value
    if value is None:
        key = "result.no_answer" if not play.played else "result.no_value"
        text = t(key, lang, name=name, expr=play.played or "", value=value_text(None, lang))
    elif play.played and play.played != number_text(value):
        text = t("result.value", lang, name=name, expr=play.played, value=number_text(value))
    else:
        text = t("result.value_only", lang, name=name, value=number_text(value))
    if play.best_value is not None and play.best_value != value:
        text += " " + t("result.best", lang, expr=play.best, value=number_text(play.best_value))
    return text


def _interval_part(name: str, play: Play, at_war: bool, lang: Lang) -> str | None:
    parts: list[str] = []
    if play.swap is not None:
        old, new = (number_text(v) for v in play.swap)
        parts.append(t("result.swapped", lang, old=old, new=new))
    elif play.passed:
        parts.append(t("result.no_bet", lang))
    if play.third is not None:
        mark = t("result.inside" if play.inside else "result.outside", lang)
        card = number_text(play.third)
        if play.interval is not None and play.swap is None and not play.passed:
            low, high = (number_text(v) for v in play.interval)
            parts.append(t("result.interval", lang, low=low, high=high, card=card, mark=mark))
        else:  # satsing: the interval was on the board before the bets
            parts.append(t("result.third", lang, card=card, mark=mark))
    elif play.up and at_war:
        parts.append("⚔️ " + ", ".join(number_text(v) for v in play.up))
    elif len(play.up) == 1:
        parts.append(number_text(play.up[0]))  # §3.4: a round of one card each
    if not parts:
        return None
    return f"{name}: " + ", ".join(parts)


def _told(facts: RoundFacts) -> Comparison | None:
    """The comparison the line tells: the one that decided the round, or the latest one that
    was revealed (it led to the war now being fought)."""
    revealed = [c for c in facts.comparisons if any(_revealed(p) for p in c.plays)]
    if facts.decided and facts.comparisons:
        last = facts.comparisons[-1]
        return last if any(_revealed(p) for p in last.plays) or not revealed else revealed[-1]
    return revealed[-1] if revealed else None


def _revealed(play: Play) -> bool:
    return play.played is not None or play.third is not None or len(play.up) == 1


def result_line(facts: RoundFacts | None, names: Mapping[int, str], lang: Lang) -> str | None:
    """One line: the round, who won how many cards (or the war), then each side's play."""
    if facts is None:
        return None
    head: list[str] = []
    tail: list[str] = []
    if facts.winner is not None:
        cards = count_text(facts.cards, lang)
        head.append(t("result.won", lang, name=names[facts.winner], cards=cards))
    for bonus in facts.bonus:
        head.append(
            t(
                "result.bonus",
                lang,
                giver=names[bonus.giver],
                taker=names[bonus.taker],
                cards=count_text(bonus.cards, lang),
            )
        )
    told = _told(facts)
    if told is not None and told.war and not facts.decided:
        kind = told.war_kind if told.war_kind in WAR_KINDS else "war"
        who = join_names([names[s] for s in told.war], lang)
        head.append(t(f"result.war.{kind}", lang, names=who))
    if facts.returned is not None:
        head.append(t("result.pot_returned", lang))
    if facts.time_up:
        tail.append(t("result.time_up", lang))
    tail.extend(t("result.reshuffled", lang, name=names[s]) for s in facts.reshuffled)
    tail.extend(t("result.side_out", lang, name=names[s]) for s in facts.out)
    plays: list[str] = []
    at_war = told is not None and told is not facts.comparisons[0]
    for play in told.plays if told is not None else ():
        if play.side not in names:
            continue
        if play.played is not None:
            plays.append(_value_part(names[play.side], play, lang))
        else:
            part = _interval_part(names[play.side], play, at_war, lang)
            if part is not None:
                plays.append(part)
    if not head and not plays:
        return None  # nothing was decided (a time-up alone is shown by the board itself)
    line = t("result.round", lang, round=facts.round)
    if head:
        line += " " + " · ".join(head)
    if plays:
        line += (" — " if head else " ") + " · ".join(plays)
    if tail:
        line += " · " + " · ".join(tail)
    return line
