"""What each round teaches, on the board after the round: the round's own
target and each side's distance (``12 er 3 unna 15``), the middle step where a square or a root
was involved (``3² + (−2) = 9 − 2 = 7``, the rules page's own example, RULES §2.2 level 6), the
best move's middle step when it was not played, and a short praise for a best move or an exact
hit (RULES §2.5)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.render.lessons import round_lesson
from classroom.i18n import t
from classroom.text.praise import PRAISE_BEST, PRAISE_EXACT, PRAISE_RIGHT
from engine.actions import Action, Flip, Timeout
from engine.config import GameConfig, Mode
from engine.game import apply
from engine.regnekrig import Answer, NameTarget
from engine.view import view
from tests.bot.render.support import L5_PILES, drive

NAMES = {0: "Ada", 1: "Bo"}
L6_PILES = [[3, -2, 1, 1, 4, 4, 5, 5, 6, 6], [2, 3, 2, 2, 4, 4, 5, 5, 6, 6]]
L7_PILES = [[9, -3, 1, 1, 4, 4, 5, 5, 6, 6], [2, 3, 2, 2, 4, 4, 5, 5, 6, 6]]


def _lesson(
    level: int,
    actions: Sequence[Action],
    piles: list[list[int]],
    lang: str,
    humans: frozenset[int] | None = None,
) -> list[str]:
    config = GameConfig(game="regnekrig", level=level, mode=Mode.REGN)
    state, _ = drive(config, actions, piles=piles)
    return round_lesson(view(state, None), NAMES, lang, humans)


def _praises(lang: str, kind: str, count: int) -> set[str]:
    return {t(f"lesson.praise.{kind}.{n}", lang) for n in range(1, count + 1)}


def _praised(line: str, lang: str) -> bool:
    every = _praises(lang, "best", PRAISE_BEST) | _praises(lang, "exact", PRAISE_EXACT)
    every |= _praises(lang, "right", PRAISE_RIGHT)
    return any(p in line for p in every)


@pytest.mark.parametrize(
    ("lang", "target", "distance"),
    [
        ("nb", "🎯 Målverdien i runde 1 var 7.", "Ada: 5 er 2 unna 7 · "),
        ("sv", "🎯 Målvärdet i omgång 1 var 7.", "Ada: 5 är 2 från 7 · "),
        ("en", "🎯 The target in round 1 was 7.", "Ada: 5 is 2 away from 7 · "),
    ],
)
def test_the_rounds_own_target_and_each_sides_distance(
    lang: str, target: str, distance: str
) -> None:
    """Ada has 3 and −2, target 7: 3 − (−2) = 5 is the best she can do, 2 away from 7, so she
    is praised for the best move; Bo did not answer: nothing to say about him."""
    lines = _lesson(5, [NameTarget(0, 7), Answer(0, "3--2=5"), Timeout(1)], L5_PILES, lang)
    assert lines[0] == target
    assert lines[1].startswith(distance)
    assert lines[1].split(" · ")[-1] in _praises(lang, "best", PRAISE_BEST)
    assert len(lines) == 2  # no line for Bo


@pytest.mark.parametrize(
    ("lang", "exact", "best"),
    [
        ("nb", "7 er akkurat målverdien", "Bo: 6 er 1 unna 7 · beste trekk: 2² + 3 = 4 + 3 = 7"),
        ("sv", "7 är precis målvärdet", "Bo: 6 är 1 från 7 · bästa drag: 2² + 3 = 4 + 3 = 7"),
        ("en", "7 is exactly the target", "Bo: 6 is 1 away from 7 · best move: 2² + 3 = 4 + 3 = 7"),
    ],
)
def test_the_middle_step_of_a_square_and_of_the_best_move(lang: str, exact: str, best: str) -> None:
    """Level 6, target 7: Ada types the rules page's 3² + (−2) = 7, an exact hit; Bo (2, 3)
    types 2 · 3 = 6, one away, where 2² + 3 = 7 was best. He lost the round, and the board is
    the class's: his result is shown, not the best move he missed (his own summary has it),
    and he is not praised."""
    actions = [NameTarget(0, 7), Answer(0, "3^2+(-2)=7"), Answer(1, "2*3=6")]
    lines = _lesson(6, actions, L6_PILES, lang)
    ada, bo = lines[1], lines[2]
    assert ada.startswith(f"Ada: {exact} · 3² + (−2) = 9 − 2 = 7 · ")
    assert ada.split(" · ")[-1] in _praises(lang, "exact", PRAISE_EXACT)
    assert bo == best.split(" · ")[0] and not _praised(bo, lang)


@pytest.mark.parametrize(
    ("lang", "best"),
    [
        ("nb", "Bo: 6 er 1 unna 7 · beste trekk: 2² + 3 = 4 + 3 = 7"),
        ("sv", "Bo: 6 är 1 från 7 · bästa drag: 2² + 3 = 4 + 3 = 7"),
        ("en", "Bo: 6 is 1 away from 7 · best move: 2² + 3 = 4 + 3 = 7"),
    ],
)
def test_the_best_move_is_shown_for_the_rounds_winner_only(lang: str, best: str) -> None:
    """The public board shows the round's result and the winner's play: Bo wins with 6 and is
    shown the 2² + 3 = 7 he could have played; Ada, who lost with 3 · (−2) = −6, is not shown
    the 3² + (−2) = 7 she missed, in front of the class."""
    actions = [NameTarget(0, 7), Answer(0, "3*(-2)=-6"), Answer(1, "2*3=6")]
    lines = _lesson(6, actions, L6_PILES, lang)
    ada, bo = lines[1], lines[2]
    assert bo == best
    assert ada.startswith("Ada: −6 ") and " · " not in ada  # her result only


def test_division_in_the_middle_step_is_written_the_schools_way() -> None:
    """School notation: nb and sv write division as ':'; en as ÷."""
    actions = [NameTarget(0, -1), Answer(0, "sqrt(9):(-3)=-1"), Timeout(1)]
    assert "√9 : (−3) = 3 : (−3) = −1" in _lesson(7, actions, L7_PILES, "nb")[1]
    assert "√9 : (−3) = 3 : (−3) = −1" in _lesson(7, actions, L7_PILES, "sv")[1]
    assert "√9 ÷ (−3) = 3 ÷ (−3) = −1" in _lesson(7, actions, L7_PILES, "en")[1]


def test_the_praise_varies_from_round_to_round() -> None:
    said = set()
    for target in (3, 4, 6, 7, 8):  # 5 is Ada's best value for each (and not an exact hit)
        lines = _lesson(5, [NameTarget(0, target), Answer(0, "3--2=5"), Timeout(1)], L5_PILES, "en")
        said.add(lines[1].split(" · ")[-1])
    assert said <= _praises("en", "best", PRAISE_BEST) and len(said) >= 3


def test_a_round_not_yet_answered_teaches_nothing() -> None:
    assert _lesson(5, [NameTarget(0, 7)], L5_PILES, "nb") == []
    assert _lesson(5, [NameTarget(0, 7), Answer(0, "5")], L5_PILES, "nb") == []


def test_auto_mode_praises_nobody() -> None:
    """In auto mode the engine plays every side's best value: there is nobody to praise."""
    config = GameConfig(game="regnekrig", level=5, mode=Mode.AUTO)
    state, _ = drive(config, [], piles=L5_PILES)
    for _ in range(2):
        state, _ = apply(state, Flip(0))
    lines = round_lesson(view(state, None), NAMES, "en")
    assert len(lines) == 3 and not any(_praised(line, "en") for line in lines)


@pytest.mark.parametrize("lang", ["nb", "nn", "sv", "en"])
def test_levels_one_and_two_praise_a_right_answer_not_a_choice(lang: str) -> None:
    """At levels 1–2 the cards have one value (RULES §2.2): there is no choice, so a right
    answer is praised as right, never as "Smart valg!" or "best move"."""
    for level, answers in ((1, ("3+4=7", "1+1=2")), (2, ("12", "1"))):
        piles = [[3, 4, 5, 5], [1, 1, 5, 5]]
        lines = _lesson(level, [Answer(0, answers[0]), Answer(1, answers[1])], piles, lang)
        said = {line.split(": ", 1)[1] for line in lines}
        right = _praises(lang, "right", PRAISE_RIGHT)
        assert said == right  # both, one per side
        assert t("lesson.praise.best.4", lang) not in right  # "✨ Smart valg!"


def test_the_computer_is_not_praised() -> None:
    """Only a pupil's answer is praised: the computer (here Bo, side 1) plays its moves but is
    never told "well done"."""
    actions = [NameTarget(0, 7), Answer(0, "3--2=5"), Answer(1, "1+1=2")]  # both best
    ada, bo = _lesson(5, actions, L5_PILES, "en")[1:]
    assert _praised(ada, "en") and _praised(bo, "en")
    ada, bo = _lesson(5, actions, L5_PILES, "en", humans=frozenset({0}))[1:]
    assert _praised(ada, "en") and not _praised(bo, "en")
