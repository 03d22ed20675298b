"""The README and the rule pages quote the bot word for word as it speaks English: the private
replies (RULES §2.6: a sign slip is told to look at the sign; a rounded decimal is told its
fraction; a forbidden operation, square or root is told with the pupil's calculation) and the
README's board, so a teacher reading the docs meets what a class will."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.render.board import dump_board
from classroom.errors import UserFacingError
from classroom.text.board_text import answer_reply, refusal_text
from engine.config import GameConfig, Mode
from engine.errors import ExpressionError
from engine.judge import judge
from engine.regnekrig import Answer, NameTarget
from tests.bot.render.support import ADA, BO, L5_PILES, T0, drive, live, render_board

ROOT = Path(__file__).resolve().parents[3]
QUOTING = ("README.md", "docs/rules.md")


def _quote(page: str, answer: str) -> str:
    """The reply a page quotes for ``answer``: `answer` gets "…" (line breaks read as spaces)."""
    text = " ".join((ROOT / page).read_text(encoding="utf-8").split())
    found = re.search(rf'`{re.escape(answer)}` gets (?:the private reply )?"([^"]+)"', text)
    assert found is not None, f"{page} quotes no reply to `{answer}`"
    return found.group(1)


def _refused(text: str, cards: tuple[int, int], level: int) -> str:
    with pytest.raises(ExpressionError) as caught:
        judge(text, cards, level)
    refusal = UserFacingError.from_engine(caught.value)
    return refusal_text(refusal.key, refusal.values, "en")


@pytest.mark.parametrize("page", QUOTING)
def test_a_sign_slip_is_quoted_as_the_bot_says_it(page: str) -> None:
    """Level 1, 3 and −5, the answer `2`: "Look at the sign: 3 + (−5) = −2, not 2." (the page
    may leave out the reply's closing words, never change its own)."""
    quoted = _quote(page, "2")
    assert quoted.startswith("Look at the sign")
    assert answer_reply(judge("2", (3, -5), 1), "en").startswith(quoted)


@pytest.mark.parametrize("page", QUOTING)
def test_a_rounded_decimal_is_quoted_as_the_bot_says_it(page: str) -> None:
    """Level 3, −5 and 6, the answer `-0,83`: the English reply writes −0.83 with a point."""
    assert _quote(page, "-0,83") == _refused("-0,83", (-5, 6), 3)


def test_a_forbidden_operation_is_quoted_as_the_bot_says_it() -> None:
    """Level 1, 6 and 3, the answer `6:3` (RULES §2.6 "Illegal before missing": the reply
    says why it is illegal, not "type the result"): it names the pupil's calculation."""
    assert _quote("docs/rules.md", "6:3") == _refused("6:3", (6, 3), 1)


def test_a_square_the_level_lacks_is_quoted_as_the_bot_says_it() -> None:
    """Level 5, 3 and 5, the answer `3^2-5`: like a forbidden operation, the reply names the
    pupil's calculation (RULES §2.6 "Illegal before missing")."""
    quoted = _quote("docs/rules.md", "3^2-5")
    assert quoted.startswith("You wrote 3\u00b2 \u2212 5")
    assert quoted == _refused("3^2-5", (3, 5), 5)


def test_the_readmes_board_is_the_board_the_bot_draws() -> None:
    """ "A game": level 5 after round 1, Ada and Bo both answered and the target was 7."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.search(r"## A game[^\n]*\n.*?```\n(.*?)```", readme, re.DOTALL)  # its first block
    assert shown is not None
    level_5 = GameConfig(game="regnekrig", level=5, mode=Mode.REGN)
    round_1 = [NameTarget(0, 7), Answer(0, "3--2=5"), Answer(1, "1*1=1")]
    game = live(level_5, *drive(level_5, round_1, piles=L5_PILES), (ADA, BO))
    assert shown.group(1) == dump_board(render_board(game, "en", T0), T0) + "\n"
