"""The private reply to an answer that counts as no value names the diagnosis (RULES §2.2:
"A wrong or illegal answer ... counts as *no value*"), in the pupil's language, with the
pupil's own cards and numbers written with the true minus sign."""

from __future__ import annotations

import pytest

from bot.i18n import LANGS, t
from bot.render.board_text import answer_reply
from engine.errors import Reason
from engine.judge import judge
from engine.levels import AnswerForm

EXPRESSION = AnswerForm.EXPRESSION

# One readable wrong answer per reason `judge` gives: (text, cards, level, form).
CASES = {
    Reason.WRONG_VALUE: ("99", (3, 4), 5, AnswerForm.NUMBER),
    Reason.NO_LEGAL_VALUE: ("0", (0, 0), 3, AnswerForm.NUMBER),
    Reason.SIGN_SLIP: ("4+5=9", (-4, 5), 1, AnswerForm.NUMBER),
    Reason.ARITHMETIC_SLIP: ("4*6=25", (4, 6), 2, AnswerForm.NUMBER),
    Reason.NOT_YOUR_CARDS: ("6/(-2)", (6, 6), 3, EXPRESSION),
    Reason.CARD_TWICE: ("4*4", (4, 6), 5, EXPRESSION),
    Reason.CARD_MISSING: ("3^2=9", (3, 4), 6, AnswerForm.NUMBER),
    Reason.TOO_MANY_OPERATIONS: ("1+2+3", (1, 2), 5, EXPRESSION),
    Reason.OPERATOR_NOT_ALLOWED: ("2", (6, 3), 1, AnswerForm.NUMBER),
    Reason.SQUARE_NOT_ALLOWED: ("3^2-5", (3, 5), 5, EXPRESSION),
    Reason.ROOT_NOT_ALLOWED: ("sqrt(4)+6", (4, 6), 6, EXPRESSION),
    Reason.SQUARES_BOTH: ("3^2-5^2", (3, 5), 6, EXPRESSION),
    Reason.ROOT_AND_SQUARE: ("\u221a(4\u00b2)+6", (4, 6), 7, EXPRESSION),
    Reason.ROOT_OF_RESULT: ("\u221a(4+5)", (4, 5), 7, EXPRESSION),
    Reason.ROOT_OF_NEGATIVE: ("sqrt(-4)+6", (-4, 6), 7, EXPRESSION),
    Reason.ROOT_OF_NON_SQUARE: ("\u221a5+6", (5, 6), 7, EXPRESSION),
    Reason.DIVISION_BY_ZERO: ("6/0", (6, 0), 3, AnswerForm.NUMBER),
}


def test_every_reason_the_judge_gives_has_a_case() -> None:
    """TIMEOUT comes from the game, TOO_LARGE is out of reach of one operation on two cards."""
    assert set(CASES) == set(Reason) - {Reason.TIMEOUT, Reason.TOO_LARGE}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("reason", list(CASES))
def test_each_diagnosis_reaches_the_pupil_as_its_own_sentence(reason: Reason, lang: str) -> None:
    text, cards, level, form = CASES[reason]
    verdict = judge(text, cards, level, form)
    assert verdict.reason == reason
    reply = answer_reply(verdict, lang)
    no_value = t("answer.counts_as_no_value", lang)
    assert reply.endswith(no_value) and reply != no_value
    assert "{" not in reply and "-" not in reply.replace("-(", "")  # true minus signs


def test_the_norwegian_sentences_the_issue_asks_for() -> None:
    """Issue 11: "du har −4 og 5, ikke 4" and "4 · 6 = 24, ikke 25"."""
    sign = answer_reply(judge("4+5=9", (-4, 5), 1), "nb")
    assert "du har \u22124 og 5" in sign and "ikke 4" in sign
    slip = answer_reply(judge("4*6=25", (4, 6), 2), "nb")
    assert "4 \u00b7 6 = 24, ikke 25" in slip


def test_an_accepted_answer_is_only_received() -> None:
    assert answer_reply(judge("1", (-4, 5), 1), "nb") == t("reply.answer_received", "nb")
