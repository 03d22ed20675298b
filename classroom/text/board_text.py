"""The board's words that are not Discord's: the title, the header, what happens now, who
is awaited, each side's status, the outcome, the betting hint and the reply to an answer.

Pure functions of the engine's view and the board's language, with no discord import, so
every screen (the Discord board, the browser table) says the same thing in the same words.
Markdown bold (``**…**``) is kept as Discord shows it; a screen without Markdown renders it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from classroom.i18n import Lang, MissingTranslationError, t
from classroom.text.cards import MINUS, count_text, number_text
from classroom.text.explain import message_key, why_key
from classroom.text.locale import as_lang
from classroom.text.naming import join_names
from classroom.text.notation import school_expression
from classroom.text.phrases import phrase_text
from classroom.text.results import LINE_MAX
from engine.config import GameConfig, Mode
from engine.decision import Decision
from engine.descriptor import GameDescriptor
from engine.errors import Reason
from engine.game import MISSES_TO_ABANDON
from engine.hints import SwapChances
from engine.judge import Verdict
from engine.levels import RESULT_LEVELS
from engine.registry import descriptor
from engine.state import Outcome, Termination
from engine.view import Now, SideView, Status, View

_FRACTION = re.compile(r"-?\d+/\d+")  # an exact engine number ("-7/2")
_REASONS = frozenset(reason.value for reason in Reason)


def clip(text: str, limit: int) -> str:
    """Cut to Discord's limit with an ellipsis (a safety net: normal boards are far shorter)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def settings_parts(config: GameConfig, lang: Lang) -> list[str]:
    """The game's settings as the board's footer lists them: deck, mode, answer form, war
    size, war rule (each only for a game that has it)."""
    parts = [t(f"deck.{config.deck.value}.name", lang)]
    game = descriptor(config.game)
    if game.option("mode") is not None:
        parts.append(t(f"mode.{config.mode.value}.name", lang))
    answers = config.mode is not Mode.AUTO and config.level not in RESULT_LEVELS
    if game.option("answer_form") is not None and answers:  # RULES §2.2, levels 3–7
        parts.append(t(f"answer_form.{config.answer_form.value}.name", lang))
    if game.option("war_size") is not None:
        parts.append(t("board.war_size", lang, count=config.war_size))
    if game.option("war_rule") is not None:
        parts.append(t(f"war_rule.{config.war_rule.value}.name", lang))
    return parts


def game_title(game: GameDescriptor, level: int, lang: Lang) -> str:
    name = t(game.name_key, lang)
    if game.has_levels:
        level_name = t(f"level.{level}.name", lang)
        name = f"{name} · {t('board.level', lang, level=level, name=level_name)}"
    return f"{game.emoji} {name}"


def _rule_name(view: View, lang: Lang) -> str:
    return t(f"war_rule.{view.config.war_rule.value}.name", lang)


def _war_told(view: View) -> bool:
    """Whether the result line already says "war between …" (the prompt then does not)."""
    facts = view.result
    return facts is not None and not facts.decided and any(c.war for c in facts.comparisons)


def prompt_lines(view: View, names: Mapping[int, str], lang: Lang) -> list[str]:
    """What happens now, and what a player should do: the decision's own words, or a flip."""
    lines: list[str] = []
    decision = view.decision
    if decision is not None:
        if view.war is not None:  # a war decided like a round (regnekrig §2.3)
            if not _war_told(view):
                who = join_names([names[s] for s in view.war.sides], lang)
                lines.append(t("board.war.war", lang, names=who))
            if decision.war_prompt:  # the decision's own words for its war
                explain = t(decision.war_prompt, lang)
                if view.target is not None:
                    target = number_text(view.target)
                    explain += " " + t("board.war_explain.same_target", lang, target=target)
                lines.append(explain)
        alone = names[view.awaited[0]] if decision.alone and view.awaited else ""
        how = t(f"level.{view.config.level}.desc", lang)
        key = (decision.prompt_auto or decision.prompt) if view.auto else decision.prompt
        lines.append(t(key, lang, round=view.round, name=alone, how=how))
    elif view.now is Now.FLIP:
        if view.endgame == "one_card":
            lines.append(t("board.endgame.one_card", lang, rule=_rule_name(view, lang)))
        elif view.endgame == "three_card":
            lines.append(t("board.endgame.three", lang))
        lines.append(t("board.prompt.flip", lang))
    elif view.now is Now.WAR and view.war is not None:
        kind = view.war.kind
        if not _war_told(view):
            who = join_names([names[s] for s in view.war.sides], lang)
            lines.append(t(f"board.war.{kind}", lang, names=who))
        lines.append(t(f"board.war_explain.{kind}", lang, rule=_rule_name(view, lang)))
    return lines


def note_lines(view: View, names: Mapping[int, str], lang: Lang) -> list[str]:
    """What else the game tells, in its own words (`engine.facts.Phrase`): a side it names is
    written by its name."""
    return [phrase_text(note, names, lang) for note in view.notes]


def waiting_lines(view: View, names: Mapping[int, str], lang: Lang) -> list[str]:
    """Who we still wait for (⏳), never a side that has decided (its own field says ✓), in
    lines no wider than a phone."""
    marks = [f"⏳ {names[s]}" for s in view.battle if view.sides[s].status is Status.AWAITED]
    if not marks:
        return []
    lines = [t("board.waiting", lang, sides=marks[0])]
    for mark in marks[1:]:
        if len(lines[-1]) + 3 + len(mark) <= LINE_MAX:
            lines[-1] += f" · {mark}"
        else:
            lines.append(mark)
    return lines


def waiting_line(view: View, names: Mapping[int, str], lang: Lang) -> str | None:
    """The waiting lines as one text (for screens that wrap by themselves)."""
    return "\n".join(waiting_lines(view, names, lang)) or None


def header_line(view: View, lang: Lang) -> str:
    parts = [t("board.round", lang, round=view.round)]
    if view.target is not None:
        parts.append(t("board.target", lang, target=number_text(view.target)))
    if view.pot:
        parts.append(t("board.pot", lang, cards=count_text(view.pot, lang)))
    return " · ".join(parts)


def outcome_lines(outcome: Outcome, names: Mapping[int, str], lang: Lang) -> list[str]:
    """Who won (or a draw) and why the game ended, by the rules (RULES §1.5)."""
    lines: list[str] = []
    if outcome.winner is None:
        if outcome.reason is not Termination.ABANDONED:
            lines.append(t("over.draw", lang))
    else:
        lines.append(t("over.winner", lang, name=names[outcome.winner]))
    if outcome.reason is Termination.FORFEIT and outcome.side is not None:
        lines.append(t("over.reason.forfeit", lang, name=names[outcome.side]))
    elif outcome.reason is Termination.ABANDONED:
        lines.append(t("over.reason.no_answers", lang, count=MISSES_TO_ABANDON))
    else:
        lines.append(t(f"over.reason.{outcome.reason.value}", lang))
    return lines


def side_mark(view: View, side: SideView) -> str:
    """The mark before a side's name: 🏆 the winner, 💤 out of cards, the decision's own mark
    beside the side that decides alone (🎯 names the target)."""
    if view.outcome is not None and view.outcome.winner == side.side:
        return "🏆 "
    if side.out:
        return "💤 "
    decision = view.decision
    if decision is not None and decision.mark and side.side in view.awaited:
        return decision.mark
    return ""


def status_text(side: SideView, now: str, lang: Lang) -> str | None:
    """Where the side stands in the decision the game waits for (never what it decided), in
    the decision's own words."""
    if side.status is None or not isinstance(now, Decision):
        return None
    key = now.statuses.get(side.status)
    return t(key, lang) if key is not None else None


def percent_text(chance: float, lang: Lang) -> str:
    return t("hint.percent", lang, percent=round(chance * 100))


def _chance(chance: Fraction, lang: Lang) -> str:
    return percent_text(float(chance), lang)


def _render_hint(chances: SwapChances, lang: Lang) -> str:
    """The betting hint: what to count first (how many of the unseen cards lie inside), then
    the chance now and after each swap as rounded percentages, the best marked. No bare
    fractions like 449/1128: they mean nothing to a ten-year-old."""
    count = chances.count
    options = [
        ("hint.keep", chances.now),
        ("hint.swap_left", chances.swap[0]),
        ("hint.swap_right", chances.swap[1]),
    ]
    top = max(chance for _, chance in options)
    lines = [
        t("hint.title", lang),
        t(
            "hint.count",
            lang,
            inside=count.inside,
            count=count.unseen,
            low=number_text(count.low),
            high=number_text(count.high),
            percent=_chance(count.chance, lang),
        ),
    ]
    for key, chance in options:
        line = f"• {t(key, lang)}: **{_chance(chance, lang)}**"
        if chance == top:
            line += " " + t("hint.best", lang)
        lines.append(line)
    lines.append(t("hint.cost", lang))
    return "\n".join(lines)


def render_hint(chances: SwapChances, lang: str) -> str:
    """The betting hint: what to count, and the chances now and after each swap in percent."""
    return _render_hint(chances, as_lang(lang))


def answer_reply(verdict: Verdict | None, lang: str) -> str:
    """The reply to an accepted answer (the browser table's note): received, or why it counts
    as no value."""
    return answer_explanation(verdict, lang) or t("reply.answer_received", lang)


def answer_explanation(verdict: Verdict | None, lang: str) -> str | None:
    """What a pupil is told privately of an accepted answer on Discord: nothing when it has
    a value (the board's ✓ says it was received), except for a rewrite, which is shown as the
    legal expression it stands for ("Right: 2 − (−6) = 2 + 6 = 8", RULES §2.2). An answer
    that breaks a rule is accepted as *no value* (RULES §2.2); the pupil is told which rule,
    their calculation, the right one and why, so the mistake teaches something (§2.6)."""
    if verdict is None:
        return None
    if verdict.value is not None:
        if "rewrite" not in verdict.details:
            return None
        values = sentence_values({**verdict.details, "expression": verdict.text}, lang)
        return t("answer.accepted.rewrite", lang, **values)
    if verdict.reason is None:
        return None
    no_value = t("answer.counts_as_no_value", lang)
    try:
        sentence = rejection_sentence(verdict.reason, verdict.details, lang)
    except (KeyError, MissingTranslationError):
        return no_value
    return f"{sentence} {no_value}"


def rejection_sentence(code: str, details: Mapping[str, object], lang: str) -> str:
    """Why an answer counts as no value or is refused, in the pupil's words: its code's
    sentence (`classroom.text.explain.message_key`), the details in the language's notation,
    then the one line of why the engine named. A sign slip points at the sign where it
    slipped: at the value the pupil meant ("Look at the sign: 3 + (−5) = −2, not 2"), at the
    card read with the wrong sign, with the reading that gives the typed number, or at the
    card typed without its sign (RULES §2.6). An operation, a square or a root the level does
    not allow is told with the pupil's calculation ("You wrote 6 ÷ 3, …", "You wrote
    3² − 5, …"), or for a number typed alone with the calculation of another operation that
    gives it ("2 is 6 ÷ 3, …") and the level's own. An arithmetic slip is checked backwards
    ("24 ÷ 6 = 4")."""
    values = sentence_values(details, lang)
    lines = [t(message_key(code, details), lang, **values)]
    why = why_key(details)
    if why is not None:
        lines.append(t(why, lang))
    if "check" in details:
        lines.append(t("answer.check", lang, check=values["check"]))
    if "right" in details and "right_value" in details:
        lines.append(t("answer.right_line", lang, **values))
    return " ".join(lines)


def refusal_text(key: str, values: Mapping[str, object], lang: str) -> str:
    """A refusal's sentence (a `UserFacingError`'s key and values). A refused answer says its
    numbers with the true minus sign and its calculation in the school's notation, like the
    reply to a counted one; one refused because the expression without its value also breaks
    a rule (illegal before missing, RULES §2.6) says which rule, then that nothing is counted."""
    family = "answer.rejected."
    if not key.startswith(family):
        return t(key, lang, **values)
    code = key.removeprefix(family)
    sentence = rejection_sentence(code, values, lang)
    if code in _REASONS:
        return f"{sentence} {t('answer.not_counted', lang)}"
    return sentence


def sentence_values(details: Mapping[str, object], lang: str) -> dict[str, str]:
    """A verdict's details as the sentence shows them: numbers (ints, "p/q") with the true
    minus sign (``−4``, ``−7/2``), expressions and typed numbers in the language's school
    notation (``6 : (−2)`` in nb and sv)."""
    values: dict[str, str] = {}
    for key, value in details.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            values[key] = number_text(value)
        elif isinstance(value, str):
            shown = value.replace("-", MINUS) if _FRACTION.fullmatch(value) else value
            values[key] = school_expression(shown, lang)
    return values
