"""The round's result as one block, put into words from the view's facts (`RoundFacts`).

The facts are the engine's: who won how many cards and why, the war and its face-down count,
the bonus, each side's cards and play. Everything in them was already revealed (values only
after every side answered, bets only after every side decided), so no side's secret can reach
the block.

A block has two parts so that nothing is wider than a phone: the round's outcome (numbered,
for the board's description) and each side's own lines (for that side's embed field). Every
line is at most `LINE_MAX` characters. A side's lines give its cards as held, with their
signs, then what it played, in its game's own words (`Play.told`: each game tells its
decisions, so a new game's are told here without a line about it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from classroom.i18n import Lang, t
from classroom.text.cards import count_text, number_text
from classroom.text.naming import join_names
from classroom.text.phrases import faces_text as faces_text
from classroom.text.phrases import line_text
from engine.facts import Comparison, Play, RoundFacts, War, Why

LINE_MAX = 120  # a phone shows about this many characters of an embed line
WAR_KINDS = ("war", "three_card", "one_card")


@dataclass(frozen=True, slots=True)
class RoundBlock:
    """One round told: its outcome lines, and each side's own lines."""

    round: int
    head: tuple[str, ...]
    plays: Mapping[int, tuple[str, ...]] = field(default_factory=dict)

    def lines(self) -> tuple[str, ...]:
        """Every line of the block (for a text-only reader: the picture's alt text, tests)."""
        return self.head + tuple(line for side in sorted(self.plays) for line in self.plays[side])


def fit(line: str) -> str:
    """A line cut to `LINE_MAX` (a safety net: lines are built far shorter)."""
    return line if len(line) <= LINE_MAX else line[: LINE_MAX - 1] + "…"


def _play_lines(play: Play, at_war: bool, names: Mapping[int, str], lang: Lang) -> list[str]:
    """One side's lines for one comparison, its game's own words first (`Play.told`);
    `at_war`: a war's comparison (not the round's)."""
    if at_war and play.down:
        prefix = t("result.play.war_down", lang, count=play.down) + " "
    elif at_war:
        prefix = "⚔️ "
    else:
        prefix = ""
    if play.told:
        lines = [line_text(line, names, lang) for line in play.told]
    elif not play.up:
        lines = [t("result.play.no_cards", lang)]
    elif play.short:  # §2.4: cannot turn what a round needs
        lines = [t("result.play.too_few", lang, cards=faces_text(play.up))]
    else:
        lines = [faces_text(play.up)]  # a war card, or §3.4's round of one card each
    lines[0] = prefix + lines[0]
    return lines


def _why(facts: RoundFacts, war_rule: str, lang: Lang) -> str:
    why = facts.why
    if why is None:
        return ""
    if why is Why.WAR_CARD:
        return t("result.why.war_card", lang, rule=war_rule)
    if why in (Why.CLOSER, Why.EXACT_HIT) and facts.target is not None:
        return t(f"result.why.{why}", lang, target=number_text(facts.target))
    return t(f"result.why.{why}", lang)


def _war_line(
    comparison: Comparison, facts: RoundFacts, war: War | None, names: Mapping[int, str], lang: Lang
) -> str:
    kind = comparison.war_kind if comparison.war_kind in WAR_KINDS else "war"
    who = join_names([names[s] for s in comparison.war if s in names], lang)
    line = t(f"result.war.{kind}", lang, names=who)
    index = facts.comparisons.index(comparison)
    later = facts.comparisons[index + 1] if index + 1 < len(facts.comparisons) else None
    down = max((p.down for p in later.plays), default=0) if later is not None else None
    if down is None and war is not None:
        down = war.face_down
    if down:
        line += " · " + t("result.war.face_down", lang, count=down)
    return line


def round_block(
    facts: RoundFacts | None,
    names: Mapping[int, str],
    lang: Lang,
    *,
    war: War | None = None,
    war_rule: str = "",
) -> RoundBlock | None:
    """The round told in full: numbered, what happened in order, then each side's play.
    `war` is the war in play (its face-down count before it is laid); `war_rule` the war
    rule's name in `lang` (§3.2)."""
    if facts is None:
        return None
    revealed = [c for c in facts.comparisons if any(_revealed(p) for p in c.plays)]
    if not revealed and not facts.decided:
        return None
    head: list[str] = []
    title = t("result.round", lang, round=facts.round)
    first = revealed[0] if revealed else None
    if first is not None and first.kind in ("three_card", "one_card"):
        head.append(t(f"result.endgame.{first.kind}", lang))
    for comparison in revealed:
        if comparison.war:
            head.append(_war_line(comparison, facts, war, names, lang))
    if facts.winner is not None and facts.winner in names:
        cards = count_text(facts.cards, lang)
        won = t("result.won", lang, name=names[facts.winner], cards=cards)
        why = _why(facts, war_rule, lang)
        head.append(f"{won}: {why}" if why else won)
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
    if facts.returned is not None:
        head.append(t("result.pot_returned", lang))
    if facts.time_up:
        head.append(t("result.time_up", lang))
    head.extend(t("result.reshuffled", lang, name=names[s]) for s in facts.reshuffled)
    head.extend(t("result.side_out", lang, name=names[s]) for s in facts.out)
    plays: dict[int, list[str]] = {}
    for comparison in revealed:
        at_war = comparison is not facts.comparisons[0]
        for play in comparison.plays:
            if play.side in names:
                lines = _play_lines(play, at_war, names, lang)
                plays.setdefault(play.side, []).extend(lines)
    if not head and not plays:
        return None
    head = [f"{title} · {head[0]}", *head[1:]] if head else [title]
    label = t("result.side_round", lang, round=facts.round)
    side_lines = {
        side: tuple(fit(line) for line in [f"{label} {lines[0]}", *lines[1:]])
        for side, lines in plays.items()
    }
    return RoundBlock(facts.round, tuple(fit(line) for line in head), side_lines)


def _revealed(play: Play) -> bool:
    return play.revealed or len(play.up) <= 1


def result_line(facts: RoundFacts | None, names: Mapping[int, str], lang: Lang) -> str | None:
    """The block as one paragraph (for text that is read aloud, like a picture's alt text)."""
    block = round_block(facts, names, lang)
    if block is None:
        return None
    parts = list(block.head)
    for side in sorted(block.plays):
        # A side's lines as one: a separator where the board starts a new line.
        parts.append(f"{names[side]}: " + " · ".join(block.plays[side]))
    return "\n".join(parts)
