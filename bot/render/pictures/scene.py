"""What a picture shows, read from the view and put into words: a `Scene`.

A scene is small, frozen and hashable: it is the picture's cache key, so two views that would
draw the same picture (a side's own view and the table's, or the same state rendered twice)
share one PNG. Everything here comes from `engine.view.View` (never the game state), so a
secret answer or bet can never reach the picture.

What the table shows: while a decision is open (an answer, a bet) each side's face-up cards
with their suits and the round's facts so far; otherwise (between rounds, a war waiting for its
flip, the end) the round last told by its facts (values only, which is all the facts keep).
The round before the one in play is one line per side and the banner.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.render.pictures.palette import RGB
from bot.render.pictures.tiles import Face, Mark, signed
from classroom.i18n import Lang, t
from classroom.text.cards import count_text
from classroom.text.locale import as_lang
from classroom.text.phrases import phrase_text
from engine.cards import Card
from engine.facts import Play, RoundFacts
from engine.registry import descriptor
from engine.view import SideView, Status, View

# While a decision is open in a round the cards on the table are the ones to decide on; a war
# waiting for its flip is told by the round's facts (the interval, the third card, the tie).
_STATUS = {
    Status.NAMING: "naming",
    Status.WATCHING: "watching",
    Status.CANNOT_BET: "cannot_bet",
    Status.OUT: "out",
}


@dataclass(frozen=True, slots=True)
class Row:
    """One side's place at the table."""

    side: int
    name: str
    count: str  # "24 cards"
    cards: tuple[Face, ...]  # its face-up cards (the interval after a swap)
    third: Face | None  # intervallkrig: the third card, drawn apart
    stack: int  # its cards face down on the table
    play: str  # what it played (or where it stands)
    note: str  # the round before, or where it stands when `play` is its play
    note_mark: Mark | None
    marks: tuple[Mark, ...]
    out: bool


@dataclass(frozen=True, slots=True)
class Scene:
    colour: RGB  # the game's colour
    title: str  # "Regnekrig · Level 5"
    round: str  # "Round 3"
    target: str | None  # the target's number, levels 5–7
    pot: str | None  # "Pot 4", when cards lie on the table
    banner: str  # the news of the round (a war, a winner, the end), or ""
    banner_mark: Mark | None
    rows: tuple[Row, ...]
    # For the alternative text only (the picture draws these as shapes or not at all).
    lang: Lang
    target_value: int | None
    pot_count: int


def scene(view: View, names: dict[int, str], lang: str) -> Scene:
    """The scene of `view`; `names` are the sides' names as the picture should print them
    (plain text: a picture shows Markdown escapes literally)."""
    language = as_lang(lang)
    config = view.config
    game = descriptor(config.game)
    facts = view.result
    decision = view.decision
    in_play = decision is not None and not decision.between_rounds
    current = facts if facts is not None and (not in_play or facts.round == view.round) else None
    previous = facts if in_play and current is None and facts is not None else None
    round_number = current.round if current is not None else view.round
    title = t(game.name_key, language)
    if game.has_levels:
        title += " · " + t("picture.level", language, level=config.level)
    target: int | None = None
    if game.has_targets(config.level):
        target = view.target if in_play else (current.target if current is not None else None)
    side_names = {
        i: names.get(i) or t("side.fallback", language, number=i + 1)
        for i in range(len(view.sides))
    }
    rows = tuple(
        _row(view, side, side_names, current, previous, in_play, language) for side in view.sides
    )
    banner, banner_mark = _banner(view, current, previous, side_names, language)
    colour = game.colour
    return Scene(
        colour=((colour >> 16) & 0xFF, (colour >> 8) & 0xFF, colour & 0xFF),
        title=title,
        round=t("picture.round", language, round=round_number),
        target=signed(target) if target is not None else None,
        pot=t("picture.pot", language, count=view.pot) if view.pot else None,
        banner=banner,
        banner_mark=banner_mark,
        rows=rows,
        lang=language,
        target_value=target,
        pot_count=view.pot,
    )


def _face(deck: str, card: Card) -> Face:
    return Face(deck, card.value, card.suit.value if card.suit is not None else None, card.rank)


def _last_play(facts: RoundFacts | None, side: int) -> Play | None:
    """The side's play in the last comparison of the round that it took part in."""
    if facts is None:
        return None
    for comparison in reversed(facts.comparisons):
        for play in comparison.plays:
            if play.side == side:
                return play
    return None


def _laid_down(facts: RoundFacts, side: int, shown: Play) -> int:
    """The cards the side laid face down in the round, and those of earlier comparisons."""
    count = 0
    for comparison in facts.comparisons:
        for play in comparison.plays:
            if play.side == side:
                count += play.down + (len(play.up) if play is not shown else 0)
    return count


def play_text(play: Play, lang: Lang) -> str:
    """A play in a few symbols, in its game's words (`Play.brief`: `−3 · (−3) = 9`,
    `9 inside [−2, 3]`), or the war card."""
    if play.brief:
        return ", ".join(phrase_text(phrase, {}, lang) for phrase in play.brief)
    if len(play.up) == 1:
        return signed(play.up[0])
    return ""


def _status(side: SideView, lang: Lang) -> str:
    """Where a side stands, when that is news a picture should carry (naming the target,
    out of a war, out of cards). Whether it has answered or bet yet is not: the board's text
    ticks that off, and the picture, a new upload and a new look for every pupil, changes
    only when the table does (cards, a result, a target)."""
    status = side.status
    if status is None or status in (Status.AWAITED, Status.DECIDED):
        return ""
    return t(f"picture.status.{_STATUS[status]}", lang)


def _row(
    view: View,
    side: SideView,
    names: dict[int, str],
    current: RoundFacts | None,
    previous: RoundFacts | None,
    in_play: bool,
    lang: Lang,
) -> Row:
    deck = view.config.deck.value
    i = side.side
    shown = _last_play(current, i)
    cards: tuple[Face, ...] = ()
    third: Face | None = None
    stack = 0
    if in_play and (side.face_up or side.third is not None):
        cards = tuple(_face(deck, card) for card in side.face_up)
        third = _face(deck, side.third) if side.third is not None else None
        stack = side.face_down
    elif shown is not None and current is not None:
        values = shown.shows if shown.shows is not None else shown.up
        cards = tuple(Face(deck, value) for value in values)
        third = Face(deck, shown.apart) if shown.apart is not None else None
        stack = _laid_down(current, i, shown)
    play = play_text(shown, lang) if shown is not None else ""
    status = _status(side, lang)
    note, note_mark = "", None
    before = _last_play(previous, i)
    if previous is not None and before is not None:
        note = t("picture.last", lang, play=play_text(before, lang) or "–")
        note_mark = Mark.TROPHY if previous.winner == i else None
    if not play:
        play, status = status, ""
    if not note:
        note = status
    marks: list[Mark] = []
    if current is not None:
        if any(i in c.war for c in current.comparisons):
            marks.append(Mark.SWORDS)
        if any(b.taker == i for b in current.bonus):
            marks.append(Mark.BULLSEYE)
        if current.winner == i:
            marks.append(Mark.TROPHY)
    elif view.war is not None and i in view.war.sides:
        marks.append(Mark.SWORDS)
    if view.outcome is not None and view.outcome.winner == i and Mark.TROPHY not in marks:
        marks.append(Mark.TROPHY)
    return Row(
        side=i,
        name=names[i],
        count=count_text(side.count, lang),
        cards=cards,
        third=third,
        stack=stack,
        play=play,
        note=note,
        note_mark=note_mark,
        marks=tuple(marks),
        out=side.out,
    )


def _banner(
    view: View,
    current: RoundFacts | None,
    previous: RoundFacts | None,
    names: dict[int, str],
    lang: Lang,
) -> tuple[str, Mark | None]:
    """The round's news in one line, most important first."""
    if view.outcome is not None:
        winner = view.outcome.winner
        if winner is None:
            return t("picture.banner.over_draw", lang), None
        return t("picture.banner.over_winner", lang, name=names[winner]), Mark.TROPHY
    if current is not None and current.bonus:
        taker = current.bonus[0].taker
        return t("picture.banner.exact", lang, name=names[taker]), Mark.BULLSEYE
    if current is not None and current.winner is not None:
        cards = count_text(current.cards, lang)
        return t("picture.banner.won", lang, name=names[current.winner], cards=cards), Mark.TROPHY
    if view.war is not None:
        who = _join([names[s] for s in view.war.sides], lang)
        return t(f"picture.banner.{view.war.kind}", lang, names=who), Mark.SWORDS
    if current is not None and current.returned is not None:
        return t("picture.banner.returned", lang), None
    if view.endgame is not None:
        return t(f"picture.banner.endgame_{view.endgame}", lang), None
    if previous is not None and previous.winner is not None:
        cards = count_text(previous.cards, lang)
        won = t("picture.banner.won", lang, name=names[previous.winner], cards=cards)
        return t("picture.last", lang, play=won), Mark.TROPHY
    return "", None


def _join(names: list[str], lang: Lang) -> str:
    if len(names) <= 1:
        return "".join(names)
    return t("list.and", lang, first=", ".join(names[:-1]), last=names[-1])


# The scenes of the views looked at last. A board reads one view per state (its text, the
# question whether its picture is still true, the picture drawn) and asks for the scene of
# each: built once, then looked up. Keyed by the view's identity and holding the view itself,
# so an id is never mistaken for another's.
_KNOWN: dict[int, tuple[View, dict[int, str], str, Scene]] = {}
_KNOW_AT_MOST = 512


def scene_of(view: View, names: dict[int, str], lang: str) -> Scene:
    """`scene(view, names, lang)`, built once for the same view object, names and language."""
    known = _KNOWN.get(id(view))
    if known is not None and known[0] is view and known[1] == names and known[2] == lang:
        return known[3]
    shows = scene(view, names, lang)
    if len(_KNOWN) >= _KNOW_AT_MOST:
        _KNOWN.clear()
    _KNOWN[id(view)] = (view, dict(names), lang, shows)
    return shows
