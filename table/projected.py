"""One table's last round on the teacher's projector, for the class to talk over: the round
told in the board's words with each side's best move, and each side's cards drawn as the
pupils' own tables draw them (`table.board.card_html`: page elements with a spoken name),
big enough to read from the back of the classroom. The names are hidden unless the teacher
shows them, so a mistake discussed in front of the class is nobody's."""

from __future__ import annotations

from collections.abc import Mapping

from classroom.i18n import Lang, t
from classroom.text.notation import school_expression, school_value
from engine.facts import RoundFacts
from engine.regnekrig_story import AnswerPlay
from table.board import drawn_line, shown_block, side_names, table_title
from table.lesson import Lesson
from table.page import button, esc, hidden, md

LETTERS = "ABCD"


def _best_lines(facts: RoundFacts, side: int, lines: tuple[str, ...], lang: Lang) -> list[str]:
    """The side's best move where its own lines do not say it (it found it): the class
    talks over what was best, found or not."""
    out = []
    for play in (p for c in facts.comparisons for p in c.plays if p.side == side):
        if isinstance(play, AnswerPlay) and play.best and play.best_value is not None:
            best = t("result.play.best", lang, expr=school_expression(play.best, lang),
                     value=school_value(play.best_value, lang))  # fmt: skip
            if not any(best in line for line in lines):
                out.append(best)
    return out


def _sides(lesson: Lesson, names: Mapping[int, str], lang: Lang) -> str:
    assert lesson.projected is not None
    table, cards = lesson.projected.view, lesson.projected.cards
    block = shown_block(table, names, lang)
    facts = table.result
    if block is None or facts is None:
        return f"<p>{esc(t('lesson.teacher.no_round_yet', lang))}</p>"
    label = t("result.side_round", lang, round=block.round) + " "
    head = "".join(f"<p>{md(line)}</p>" for line in block.head)
    sides = []
    for side in sorted(block.plays):
        laid = list(cards.get(side, ()))
        lines = [line.removeprefix(label) for line in block.plays[side]]
        plays = "".join(
            f'<p class="play">{drawn_line(line, laid, lang, row=True)}</p>' for line in lines
        )
        best = "".join(f'<p class="play best">{md(line)}</p>'
                       for line in _best_lines(facts, side, block.plays[side], lang))  # fmt: skip
        sides.append(
            f'<article class="shown-side" data-side="{side}">'
            f"<h3>{esc(names[side])}</h3>{plays}{best}</article>"
        )
    return f'<div class="shown-head">{head}</div><div class="shown-sides">{"".join(sides)}</div>'


def _fit(lesson: Lesson) -> str:
    """A war round lays cards several times and its lines are many: they go compact (each
    laying's cards beside its words) and the cards a size down with each laying, so the
    round stays on one laptop screen, with no scrolling in front of the class."""
    assert lesson.projected is not None
    facts = lesson.projected.view.result
    layings = len(facts.comparisons) if facts is not None else 1
    return f" war layings-{min(layings, 4)}" if layings > 1 else ""


def _control(root: str, label: str, lang: Lang, **fields: str) -> str:
    extra = "".join(hidden(k, v) for k, v in fields.items())
    return (
        f'<form method="post" action="{root}/teacher/show" class="inline">{hidden("lang", lang)}'
        f"{extra}{button(label)}</form>"
    )


def shown_part(lesson: Lesson, lang: Lang, root: str = "") -> str:
    """The round on the projector (empty when the teacher shows none)."""
    if lesson.projected is None:
        return ""
    game = lesson.projected.game
    names = side_names(game, lang)
    if lesson.hide_names:
        names = {s: t("lesson.side_letter", lang, letter=LETTERS[s]) for s in names}
    toggle = "lesson.teacher.show_names" if lesson.hide_names else "lesson.teacher.hide_names"
    title = t("lesson.teacher.on_projector", lang, title=table_title(game, lang))
    sides = _sides(lesson, names, lang)
    return (
        f'<h2 id="shown-title">{esc(title)}</h2>'
        f'<div class="projected{_fit(lesson)}" data-shown="{esc(game.id)}">{sides}</div>'
        + _control(root, t(toggle, lang), lang, hide="false" if lesson.hide_names else "true")
        + _control(root, t("lesson.teacher.hide_table", lang), lang, table="")
    )
