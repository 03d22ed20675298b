"""Advice that follows the mistakes: the suggestion names the operation and the mistake kind a
pupil keeps making, and the level and deck that train it, instead of pointing at the last
game's level. Every case is built from a pupil's answer history: what they typed for which
cards, judged by the engine (RULES §2.6) and counted as the results service counts a game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest

from bot.render.stats import practice_text, render_stats
from bot.render.summary import render_summary
from bot.services.figures import Practice
from bot.services.stats import suggest_level, summarize
from bot.services.summary import summarise
from classroom.i18n import Lang, t
from classroom.operations import LEVEL_OPERATIONS
from engine.errors import ExpressionError
from engine.judge import judge
from engine.solver import best
from storage import OperationTally, PlayerGame
from tests.bot.storage.results_helpers import duel, seat

A, B = 201, 202
Typed = tuple[tuple[int, int], str | None]  # the cards, and what was typed (None: a miss)


def history(level: int, answers: Sequence[Typed], game_id: int = 1) -> PlayerGame:
    """One game of `answers` at a level 1–4, judged and counted: answers, legal ones, best
    moves, misses, and each wrong answer's mistake kind under the level's operation."""
    kinds: Counter[str] = Counter()
    given = legal = best_moves = missed = 0
    for (a, b), text in answers:
        if text is None:
            missed += 1
            continue
        try:
            verdict = judge(text, (a, b), level)
        except ExpressionError as refused:  # refused, typed again: not an answer
            raise AssertionError(f"{text!r} is refused ({refused.code})") from None
        given += 1
        if verdict.accepted:
            legal += 1
            best_moves += verdict.value == best(a, b, level).value
        else:
            assert verdict.reason is not None
            kinds[verdict.reason] += 1
    tally = OperationTally(
        LEVEL_OPERATIONS[level],
        given,
        legal,
        best_moves,
        given * 4000,
        mistakes=tuple(sorted(kinds.items(), key=lambda k: (-k[1], k[0]))),
    )
    player = replace(
        seat(0, 0, A, "loss", answers=given, correct=legal),
        best=best_moves,
        missed=missed,
        operations=(tally,),
    )
    result = replace(duel(game_id, A, B, level=level), players=(player,))
    return PlayerGame(result, player)


def right(level: int, pairs: Sequence[tuple[int, int]]) -> list[Typed]:
    """The best value typed for each pair."""
    return [((a, b), best(a, b, level).answer) for a, b in pairs]


PAIRS = [(4, 2), (2, -6), (5, -3), (-1, 6), (3, 1), (-4, -2), (6, 5), (1, -5), (-2, 3)]

# A pupil at level 4, 44 % best moves (8 of 18), and every mistake a flipped sign.
SIGN_SLIPPER = history(
    4,
    [
        *right(4, PAIRS[:8]),
        ((4, 2), "4-2=-2"),
        ((2, -6), "2-(-6)=-8"),
        ((5, -3), "5-(-3)=-8"),
        ((-1, 6), "6-(-1)=-7"),
        ((3, 1), "-2"),  # 3 − 1 = 2 is legal, and −2 is 1 − 3: legal too; the best is 2
        ((6, 5), "6-5=-1"),
        ((1, -5), "1-(-5)=-6"),
        ((-2, 3), "3-(-2)=-5"),
        ((-4, -2), "-2-(-4)=-2"),
        ((4, 2), "4-2=-2"),
    ],
)


def test_sign_slips_in_subtraction_are_practised_with_the_sign_deck() -> None:
    """Not "practise level 3 (division) … practise division most" (division was not the trouble):
    subtraction with negative numbers, watch the sign, at level 1 with the `fortegn` deck."""
    suggestion = suggest_level([SIGN_SLIPPER])
    assert suggestion.rule == "practise" and suggestion.current == 4
    assert suggestion.practice == Practice("subtract", "sign_slip", 1, "fortegn")
    summary = summarise(SIGN_SLIPPER.result, A)
    assert summary is not None and summary.practice == suggestion.practice
    assert summary.suggested_level == 1 and summary.practise == "subtract"


@pytest.mark.parametrize(
    ("lang", "advice"),
    [
        (
            "nb",
            "Subtraksjon med negative tall: se på fortegnet. Øv på nivå 1: Addisjon, med "
            "kortstokken Fortegn.",
        ),
        (
            "nn",
            "Subtraksjon med negative tal: sjå på forteiknet. Øv på nivå 1: Addisjon, med "
            "kortstokken Forteikn.",
        ),
        (
            "sv",
            "Subtraktion med negativa tal: titta på tecknet. Öva på nivå 1: Addition, med "
            "kortleken Förtecken.",
        ),
        (
            "en",
            "Subtraction with negative numbers: watch the sign. Practise level 1: Addition, "
            "with the Plus and minus deck.",
        ),
    ],
)
def test_the_advice_in_words(lang: Lang, advice: str) -> None:
    practice = suggest_level([SIGN_SLIPPER]).practice
    assert practice is not None and practice_text(practice, lang) == advice
    summary = summarise(SIGN_SLIPPER.result, A)
    assert summary is not None
    shown = render_summary(summary, lang)
    assert advice in shown
    assert t("level.3.name", lang) not in shown  # not division
    stats = render_stats(summarize(1, A, "Ada", [SIGN_SLIPPER]), lang)
    assert stats.fields[-1].value == advice  # "⏭️ Next level" in /mattekrig stats


@pytest.mark.parametrize(
    ("level", "answers", "practice"),
    [
        # multiplying with a flipped sign: the sign rules of multiplication, level 2
        (
            2,
            [((-3, 4), "-3*4=12"), ((2, -5), "10"), ((-2, -2), "-4"), *right(2, PAIRS[:5])],
            Practice("multiply", "sign_slip", 2, "fortegn"),
        ),
        # dividing instead of adding, at level 1: that level's own operation
        (
            1,
            [((6, 3), "2"), ((8, 2), "4"), ((9, 3), "3"), *right(1, PAIRS[:5])],
            Practice("add", "operator_not_allowed", 1),
        ),
        # slips in division (legal expressions, wrong numbers): level 3 with the own deck
        (
            3,
            [((6, 4), "6:4=1,6"), ((9, 2), "9:2=4"), ((5, 2), "5:2=3"), *right(3, PAIRS[:5])],
            Practice("divide", "arithmetic_slip", 3),
        ),
    ],
)
def test_each_mistake_kind_is_practised_where_it_is_trained(
    level: int, answers: list[Typed], practice: Practice
) -> None:
    suggestion = suggest_level([history(level, answers)])
    assert (suggestion.rule, suggestion.practice) == ("practise", practice)


def test_a_slip_now_and_then_is_no_pattern() -> None:
    """One sign slip in twelve best moves is not what the pupil needs to practise: the level
    rule decides (90 % best over enough rounds → the next level)."""
    answers = [*right(4, PAIRS), *right(4, PAIRS[:3]), ((4, 2), "4-2=-2")]
    suggestion = suggest_level([history(4, answers)])
    assert (suggestion.rule, suggestion.level, suggestion.practice) == ("next", 5, None)


def test_misses_are_not_a_mistake_to_practise() -> None:
    """A pupil who lets most rounds run out is told to go down a level, as before."""
    answers: list[Typed] = [*right(3, PAIRS[:3]), *[((6, 3), None)] * 6]
    suggestion = suggest_level([history(3, answers)])
    assert (suggestion.rule, suggestion.level, suggestion.practice) == ("previous", 2, None)


def test_the_current_level_is_where_the_pupil_plays_not_the_last_game() -> None:
    """Nineteen rounds of level 2, all best, then one round of level 4 to try it: the pupil
    plays level 2 now, so level 3 is next; one round of level 4 is no verdict on level 4."""
    level2 = history(2, [*right(2, PAIRS), *right(2, PAIRS[:8]), ((3, 4), "12"), ((2, 2), "4")])
    tried = history(4, right(4, PAIRS[:1]), game_id=2)
    suggestion = suggest_level([level2, tried])
    assert (suggestion.current, suggestion.rule, suggestion.level) == (2, "next", 3)
