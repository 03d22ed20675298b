"""The private reply to an answer that counts as no value names the diagnosis (RULES §2.2:
"A wrong or illegal answer ... counts as *no value*"), in the pupil's language, with the
pupil's own cards and numbers written with the true minus sign."""

from __future__ import annotations

import pytest

from classroom.errors import UserFacingError
from classroom.i18n import LANGS, catalogue, t
from classroom.text.board_text import answer_reply, refusal_text
from engine.errors import ExpressionError, Reason
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
    Reason.DIVISION_BY_ZERO: ("6/0=6", (6, 0), 3, AnswerForm.NUMBER),
    Reason.SQUARE_SIGN: ("-3^2+2=11", (-3, 2), 6, AnswerForm.NUMBER),
    Reason.ORDER_OF_OPERATIONS: ("2*3^2=36", (2, 3), 6, AnswerForm.NUMBER),
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
    """ "du har −4 og 5, ikke 4" and "4 · 6 = 24, ikke 25"."""
    sign = answer_reply(judge("4+5=9", (-4, 5), 1), "nb")
    assert "Se på fortegnet: du har \u22124 og 5" in sign and "ikke 4" in sign
    slip = answer_reply(judge("4*6=25", (4, 6), 2), "nb")
    assert "4 \u00b7 6 = 24, ikke 25" in slip


def test_an_accepted_answer_is_only_received() -> None:
    assert answer_reply(judge("1", (-4, 5), 1), "nb") == t("reply.answer_received", "nb")


SIGN_SLIPS = {  # RULES §2.6: the result's sign flipped, said as "look at the sign"
    "nb": "Se på fortegnet: 3 + (\u22125) = \u22122, ikke 2.",
    "nn": "Sjå på forteiknet: 3 + (\u22125) = \u22122, ikkje 2.",
    "sv": "Titta på tecknet: 3 + (\u22125) = \u22122, inte 2.",
    "en": "Look at the sign: 3 + (\u22125) = \u22122, not 2.",
}


@pytest.mark.parametrize("lang", sorted(SIGN_SLIPS))
@pytest.mark.parametrize("text", ["2", "3+(-5)=2"])
def test_a_sign_slip_points_at_the_sign(lang: str, text: str) -> None:
    """The private reply to `2` for 3 + (−5), at every level that has it, points at the
    sign, not at the arithmetic ("work it out again")."""
    for level in (1, 5):
        reply = answer_reply(judge(text, (3, -5), level), lang)
        assert reply.startswith(SIGN_SLIPS[lang])
        assert catalogue(lang)["answer.rejected.arithmetic_slip"].split(":")[0] not in reply


def refused(text: str, cards: tuple[int, int], level: int, lang: str) -> str:
    """What a pupil reads when an answer is refused (nothing counted), as the bot and the
    browser table say it."""
    with pytest.raises(ExpressionError) as caught:
        judge(text, cards, level)
    refusal = UserFacingError.from_engine(caught.value)
    return refusal_text(refusal.key, refusal.values, lang)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("nb", "\u22120,83 er avrundet. Den nøyaktige verdien er brøken \u22125/6"),
        ("nn", "\u22120,83 er avrunda. Den nøyaktige verdien er brøken \u22125/6"),
        ("sv", "\u22120,83 är avrundat. Det exakta värdet är bråket \u22125/6"),
        ("en", "\u22120.83 is rounded. The exact value is the fraction \u22125/6"),
    ],
)
def test_a_rounded_decimal_is_told_its_fraction(lang: str, words: str) -> None:
    """RULES §2.6: "the message says the exact value is a fraction (`-5/6`)"."""
    assert refused("-0,83", (-5, 6), 3, lang).startswith(words)


@pytest.mark.parametrize("lang", LANGS)
def test_an_illegal_expression_without_its_value_says_why(lang: str) -> None:
    """RULES §2.6 "illegal before missing": `sqrt(-4)+6` at level 7 is told why it is not
    allowed, and that nothing is counted, not "type the result"."""
    reply = refused("sqrt(-4)+6", (-4, 6), 7, lang)
    why = t("answer.rejected.root_of_negative", lang, number="\u22124")
    assert reply == f"{why} {t('answer.not_counted', lang)}"
    assert catalogue(lang)["answer.rejected.result_missing"].split(":")[0] not in reply


@pytest.mark.parametrize("lang", LANGS)
def test_a_refusal_writes_numbers_and_calculations_as_the_replies_do(lang: str) -> None:
    """No hyphen beside a true minus: a refused answer's numbers have the true minus sign, and
    its calculation is in the school's notation, like the reply to a counted answer."""
    reply = refused("3:(-4)", (3, -4), 3, lang)
    assert "(\u22124)" in reply and "-" not in reply.replace("-(", "")
    assert ("3 \u00f7 (\u22124)" if lang == "en" else "3 : (\u22124)") in reply
    card = refused("-3+4", (3, 4), 1, lang)  # the card 3 typed as −3
    assert "\u22123" in card and "-3" not in card


@pytest.mark.parametrize("lang", LANGS)
def test_a_word_is_named_whole(lang: str) -> None:
    """`hei` is not "I don't understand `h`"."""
    assert "`hei`" in refused("hei", (3, 4), 1, lang)


# RULES §2.6: an operation the level does not allow is told with the pupil's own calculation,
# division written as the language's schools write it (':' in nb, nn, sv; '÷' in en).
OPERATION_REFUSED = {
    "nb": "Du skrev {calc}, men tegnet {sign} hører ikke med på nivå 1.",
    "nn": "Du skreiv {calc}, men teiknet {sign} høyrer ikkje med på nivå 1.",
    "sv": "Du skrev {calc}, men tecknet {sign} hör inte till nivå 1.",
    "en": "You wrote {calc}, but the sign {sign} is not part of level 1.",
}
NUMBER_OF_ANOTHER_OPERATION = {
    "nb": "2 er 6 : 3, men tegnet : hører ikke med på nivå 1.",
    "nn": "2 er 6 : 3, men teiknet : høyrer ikkje med på nivå 1.",
    "sv": "2 är 6 : 3, men tecknet : hör inte till nivå 1.",
    "en": "2 is 6 \u00f7 3, but the sign \u00f7 is not part of level 1.",
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_forbidden_operation_is_told_with_the_pupils_own_calculation(lang: str) -> None:
    """RULES §2.6 "Illegal before missing": "When that expression is also illegal (…, an
    operation the level does not allow), the message says why it is illegal, not 'type the
    result'". At level 1, `6 : 3` is told as the pupil typed it, in the notation they read
    (the true minus sign, ':' or '÷'), whether it is refused for lack of its result (nothing
    counted) or counts as no value with one; the bot's private reply and the browser's note
    are these sentences."""
    sign = "\u00f7" if lang == "en" else ":"
    for typed, calc in (("6:3", f"6 {sign} 3"), ("(-6)\u00f73", f"\u22126 {sign} 3")):
        cards = (6, 3) if typed == "6:3" else (-6, 3)
        why = OPERATION_REFUSED[lang].format(calc=calc, sign=sign)
        assert refused(typed, cards, 1, lang) == f"{why} {t('answer.not_counted', lang)}"
        reply = answer_reply(judge(f"{typed}=2", cards, 1), lang)
        assert reply == f"{why} {t('answer.counts_as_no_value', lang)}"
    number = answer_reply(judge("2", (6, 3), 1), lang)  # the number 6 : 3 gives, typed alone
    # RULES §2.6 "Feedback explains": the right calculation of the level follows.
    right = t("answer.right_line", lang, level="1", right="6 + 3", right_value="9")
    no_value = t("answer.counts_as_no_value", lang)
    assert number == f"{NUMBER_OF_ANOTHER_OPERATION[lang]} {right} {no_value}"


# RULES §2.6: a square or a root the level does not have is told, like an operation, with the
# pupil's own calculation in the notation they read.
DECORATION_REFUSED = {
    "square_not_allowed": {
        "nb": "Du skrev {calc}, men potenser hører ikke med på nivå {level}.",
        "nn": "Du skreiv {calc}, men potensar høyrer ikkje med på nivå {level}.",
        "sv": "Du skrev {calc}, men potenser hör inte till nivå {level}.",
        "en": "You wrote {calc}, but powers are not part of level {level}.",
    },
    "root_not_allowed": {
        "nb": "Du skrev {calc}, men kvadratrot hører ikke med på nivå {level}.",
        "nn": "Du skreiv {calc}, men kvadratrot høyrer ikkje med på nivå {level}.",
        "sv": "Du skrev {calc}, men kvadratrot hör inte till nivå {level}.",
        "en": "You wrote {calc}, but square roots are not part of level {level}.",
    },
}
DECORATIONS = [  # (code, typed without its value, its value, cards, level, as the pupil reads it)
    ("square_not_allowed", "3^2-5", "4", (3, 5), 5, "3\u00b2 \u2212 5"),
    ("square_not_allowed", "(-3)\u00b2+5", "14", (-3, 5), 1, "(\u22123)\u00b2 + 5"),
    ("root_not_allowed", "sqrt(4)+6", "8", (4, 6), 6, "\u221a4 + 6"),
    ("root_not_allowed", "\u221a9:(-3)", "-1", (9, -3), 3, "\u221a9 {div} (\u22123)"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("code", "typed", "value", "cards", "level", "calc"), DECORATIONS)
def test_a_square_or_root_the_level_lacks_is_told_with_the_pupils_own_calculation(
    lang: str,
    code: str,
    typed: str,
    value: str,
    cards: tuple[int, int],
    level: int,
    calc: str,
) -> None:
    """RULES §2.6 "Illegal before missing": "When that expression is also illegal (…, an
    operation the level does not allow), the message says why it is illegal". A square below
    level 6 and a root below level 7 name the calculation the pupil typed (true minus signs,
    ':' or '÷'), as `operator_not_allowed` does, whether refused for lack of its value
    (nothing counted) or counted as no value with one; the bot's private reply and the
    browser's note are these sentences."""
    shown = calc.format(div="\u00f7" if lang == "en" else ":")
    why = DECORATION_REFUSED[code][lang].format(calc=shown, level=level)
    assert refused(typed, cards, level, lang) == f"{why} {t('answer.not_counted', lang)}"
    verdict = judge(f"{typed}={value}", cards, level)
    assert verdict.reason == code
    assert answer_reply(verdict, lang) == f"{why} {t('answer.counts_as_no_value', lang)}"
