"""Every answer read as a maths teacher reads it: the rule book's second edition of §2.2 and
§2.6, answer by answer.

The table holds what pupils of 10–14 type at levels 1–7, each with the kind it must get (a
value, a mistake that counts as no value, or a refusal the pupil types again) and the sentence
(catalogue key) that tells it. The quoted examples of §2.2 and §2.6 are among them, marked
with the rule they quote.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from classroom.text.explain import message_key
from engine.errors import ExpressionError, Reason, Unreadable
from engine.expressions import BinOp, to_text
from engine.judge import judge
from engine.levels import AnswerForm, Reading, card_term, level_operators
from engine.solver import reachable

NUMBER, EXPRESSION = AnswerForm.NUMBER, AnswerForm.EXPRESSION
VALUE = "value"  # the answer has this value (accepted)
UNREADABLE_CODES = {code.value for code in Unreadable}


def read(
    text: str, cards: tuple[int, int], level: int, form: AnswerForm = NUMBER
) -> tuple[str, str]:
    """How an answer is read: its code (`VALUE` when accepted) and its sentence's key."""
    try:
        verdict = judge(text, cards, level, form)
    except ExpressionError as error:
        return error.code, message_key(error.code, error.details)
    if verdict.accepted:
        return VALUE, message_key(None, verdict.details)
    assert verdict.reason is not None
    return verdict.reason, message_key(verdict.reason, verdict.details)


# (typed, cards, level, code, key after "answer."); a comment quotes the rule a row proves.
TABLE: list[tuple[str, tuple[int, int], int, str, str]] = [
    # --- level 1: addition ---------------------------------------------------------------
    ("7", (3, 4), 1, VALUE, "accepted"),
    ("3+4=7", (3, 4), 1, VALUE, "accepted"),
    ("3 + 4 = 7", (3, 4), 1, VALUE, "accepted"),
    ("3+4", (3, 4), 1, "result_missing", "rejected.result_missing"),
    # §2.2 "3 − 5 at level 1 is the addition 3 + (−5)"
    ("3-5=-2", (3, -5), 1, VALUE, "accepted.rewrite"),
    # §2.2 "−3 − 5 is −3 + (−5)"
    ("-3-5=-8", (-3, -5), 1, VALUE, "accepted.rewrite"),
    ("3+(-5)=-2", (3, -5), 1, VALUE, "accepted"),
    ("-5+3=-2", (3, -5), 1, VALUE, "accepted"),
    ("-2", (3, -5), 1, VALUE, "accepted"),
    # §2.6 "`2` for 3 + (−5)", "`3+(-5)=2`"
    ("2", (3, -5), 1, "sign_slip", "rejected.sign_slip"),
    ("3+(-5)=2", (3, -5), 1, "sign_slip", "rejected.sign_slip"),
    ("3-5=2", (3, -5), 1, "sign_slip", "rejected.sign_slip"),
    ("3-5=8", (3, -5), 1, "sign_slip", "rejected.sign_slip_read"),
    # §2.6 "`9` for −4 and 5 at level 1"
    ("9", (-4, 5), 1, "sign_slip", "rejected.sign_slip_read"),
    # §2.6 "`-9` for −4 and 5 at level 1: the sign is what went wrong"
    ("-9", (-4, 5), 1, "sign_slip", "rejected.sign_slip_read"),
    ("4+5=9", (-4, 5), 1, "sign_slip", "rejected.sign_slip_card"),
    ("1", (-4, 5), 1, VALUE, "accepted"),
    ("5-4=1", (-4, 5), 1, VALUE, "accepted.rewrite"),
    ("-4+5=1", (-4, 5), 1, VALUE, "accepted"),
    ("-1", (-4, 5), 1, "sign_slip", "rejected.sign_slip"),
    # §2.2 "with cards 3 and 5 at level 1, `3-5=-2` is a subtraction, not allowed"
    ("3-5=-2", (3, 5), 1, "operator_not_allowed", "rejected.operator_not_allowed"),
    # §2.2 "`2*2=4` is a multiplication, however equal its value"
    ("2*2=4", (2, 2), 1, "operator_not_allowed", "rejected.operator_not_allowed"),
    ("4", (2, 2), 1, VALUE, "accepted"),
    # §2.6 "`2` for 6 and 3 at level 1"
    ("2", (6, 3), 1, "operator_not_allowed", "rejected.operator_not_allowed_number"),
    ("18", (6, 3), 1, "operator_not_allowed", "rejected.operator_not_allowed_number"),
    ("10", (6, 3), 1, "arithmetic_slip", "rejected.arithmetic_slip"),
    ("6+3=10", (6, 3), 1, "arithmetic_slip", "rejected.arithmetic_slip"),
    ("-9", (6, 3), 1, "sign_slip", "rejected.sign_slip"),
    # §2.6 "Expressions that use what … the cards do not allow get their own codes (card_twice)"
    ("5+2+2=9", (5, 2), 1, "card_twice", "rejected.card_twice"),
    ("5+3=8", (5, 2), 1, "not_your_cards", "rejected.not_your_cards"),
    # §2.6 "a trailing decimal point (`7.` is 7)"
    ("7.", (3, 4), 1, VALUE, "accepted"),
    ("3+4=7.", (3, 4), 1, VALUE, "accepted"),
    ("7,0", (3, 4), 1, VALUE, "accepted"),
    ("0", (0, 0), 1, VALUE, "accepted"),
    ("-7", (-3, -4), 1, VALUE, "accepted"),
    ("-3-4=-7", (-3, -4), 1, VALUE, "accepted.rewrite"),
    ("7", (-3, -4), 1, "sign_slip", "rejected.sign_slip"),
    ("-3+4=1", (-3, -4), 1, "sign_slip", "rejected.sign_slip_card"),
    ("1", (-3, -4), 1, "sign_slip", "rejected.sign_slip_read"),
    ("3+4", (-3, -4), 1, "sign_slip", "rejected.sign_slip_card"),
    ("abc", (3, 4), 1, "unknown_symbol", "rejected.unknown_symbol"),
    ("3+", (3, 4), 1, "malformed", "rejected.malformed"),
    ("", (3, 4), 1, "empty", "rejected.empty"),
    ("3 4", (3, 4), 1, "malformed", "rejected.malformed"),
    # --- level 2: multiplication ---------------------------------------------------------
    ("12", (3, 4), 2, VALUE, "accepted"),
    ("3*4=12", (3, 4), 2, VALUE, "accepted"),
    ("3·4=12", (3, 4), 2, VALUE, "accepted"),
    ("3x4=12", (3, 4), 2, VALUE, "accepted"),
    # §2.6 "a product written by juxtaposition (`3(-4)` is 3 · (−4))"
    ("3(4)=12", (3, 4), 2, VALUE, "accepted"),
    ("3(-4)=-12", (3, -4), 2, VALUE, "accepted"),
    ("(-2)(-6)=12", (-2, -6), 2, VALUE, "accepted"),
    ("-2(-6)=12", (-2, -6), 2, VALUE, "accepted"),
    ("-12", (3, -4), 2, VALUE, "accepted"),
    # §2.2 "−3 · 4 and −(3 · 4) are 3 · (−4), 3 · 4 is (−3) · (−4)"
    ("-3*4=-12", (3, -4), 2, VALUE, "accepted.rewrite"),
    ("-(3*4)=-12", (3, -4), 2, VALUE, "accepted.rewrite"),
    ("3*4=12", (-3, -4), 2, VALUE, "accepted.rewrite"),
    ("12", (3, -4), 2, "sign_slip", "rejected.sign_slip"),
    ("3*(-4)=12", (3, -4), 2, "sign_slip", "rejected.sign_slip"),
    ("-12", (-3, -4), 2, "sign_slip", "rejected.sign_slip"),
    ("(-3)*(-4)=-12", (-3, -4), 2, "sign_slip", "rejected.sign_slip"),
    # §2.6 "a product with a 0 card typed as the other card (`-5` for 0 and −5 at level 2)"
    ("-5", (0, -5), 2, "arithmetic_slip", "rejected.arithmetic_slip_zero"),
    ("0*(-5)=-5", (0, -5), 2, "arithmetic_slip", "rejected.arithmetic_slip_zero"),
    ("5", (0, 5), 2, "arithmetic_slip", "rejected.arithmetic_slip_zero"),
    ("0", (0, -5), 2, VALUE, "accepted"),
    ("7", (3, 4), 2, "operator_not_allowed", "rejected.operator_not_allowed_number"),
    ("13", (3, 4), 2, "arithmetic_slip", "rejected.arithmetic_slip"),
    ("3*4=13", (3, 4), 2, "arithmetic_slip", "rejected.arithmetic_slip"),
    ("3+4=7", (3, 4), 2, "operator_not_allowed", "rejected.operator_not_allowed"),
    ("1", (3, 4), 2, "operator_not_allowed", "rejected.operator_not_allowed_number"),
    ("-1", (3, 4), 2, "operator_not_allowed", "rejected.operator_not_allowed_number"),
    ("3*4", (3, 4), 2, "result_missing", "rejected.result_missing"),
    ("12/1", (3, 4), 2, "not_simplified", "rejected.not_simplified"),
    ("-7", (3, -4), 2, "operator_not_allowed", "rejected.operator_not_allowed_number"),
    ("2 x 6 = 12", (2, 6), 2, VALUE, "accepted"),
    ("2×6=12", (2, 6), 2, VALUE, "accepted"),
    ("2*6=12.", (2, 6), 2, VALUE, "accepted"),
    # §2.2 "for · and ÷ any placement of the signs": a sign in front is no second operation
    ("-(2*6)=12", (-2, -6), 2, "sign_slip", "rejected.sign_slip_card"),
    ("-(3*4)=12", (3, 4), 2, "sign_slip", "rejected.sign_slip"),
    ("-(3*4)=-12", (3, 4), 2, "wrong_value", "rejected.wrong_value"),
    # --- level 3: division ---------------------------------------------------------------
    ("2", (6, 3), 3, VALUE, "accepted"),
    # §2.6 "at level 3 with cards 6 and 3 the pupil must still say 2 (`6:3=2` or `2`)"
    ("6:3=2", (6, 3), 3, VALUE, "accepted"),
    ("6:3", (6, 3), 3, "result_missing", "rejected.result_missing"),
    # §2.6 "Where the fraction is also literally the cards' division, result_missing is as right"
    ("6/3", (6, 3), 3, "not_simplified", "rejected.not_simplified"),
    ("1/2", (6, 3), 3, VALUE, "accepted"),
    # §2.6 "`3/6`" is not simplified
    ("3/6", (6, 3), 3, "not_simplified", "rejected.not_simplified"),
    # §2.6 "with cards −5 and 6 the answer `-5/6` is the number"
    ("-5/6", (-5, 6), 3, VALUE, "accepted"),
    # §2.6 "A rounded decimal (`-0,83` for −5/6, `0.333` for 1/3) is refused as *not exact*"
    ("-0,83", (-5, 6), 3, "not_exact", "rejected.not_exact"),
    ("0.333", (1, 3), 3, "not_exact", "rejected.not_exact"),
    # §2.6 "`6:4=12/8`, `6:(-3)=-6/3`" are not simplified
    ("6:4=12/8", (6, 4), 3, "not_simplified", "rejected.not_simplified"),
    ("6:(-3)=-6/3", (6, -3), 3, "not_simplified", "rejected.not_simplified"),
    ("6:(-3)=-2", (6, -3), 3, VALUE, "accepted"),
    ("-6:3=-2", (6, -3), 3, VALUE, "accepted.rewrite"),
    ("6:3=-2", (6, -3), 3, "sign_slip", "rejected.sign_slip_card"),
    ("2", (6, -3), 3, "sign_slip", "rejected.sign_slip"),
    # §2.2 "−3/6 is 3 ÷ (−6)"; as the answer's last part it is still a fraction to simplify
    ("-3/6=-1/2", (3, -6), 3, VALUE, "accepted.rewrite"),
    ("-3/6", (3, -6), 3, "not_simplified", "rejected.not_simplified"),
    # §2.6 "a mixed number (`1 1/2` is 3/2), the fraction characters (`½`, `¾`)"
    ("1 1/2", (6, 4), 3, VALUE, "accepted"),
    ("1½", (6, 4), 3, VALUE, "accepted"),
    ("½", (1, 2), 3, VALUE, "accepted"),
    ("¾", (3, 4), 3, VALUE, "accepted"),
    ("6:4=1 1/2", (6, 4), 3, VALUE, "accepted"),
    ("3/2", (6, 4), 3, VALUE, "accepted"),
    ("1,5", (6, 4), 3, VALUE, "accepted"),
    ("1.5", (6, 4), 3, VALUE, "accepted"),
    ("6/4", (6, 4), 3, "not_simplified", "rejected.not_simplified"),
    ("1 2/4", (6, 4), 3, "not_simplified", "rejected.not_simplified"),
    # §2.6 "A remainder (`2 rest 1`, `6:4=1 rest 2`) is not a value: refused … how to write it"
    ("2 rest 1", (5, 2), 3, "remainder", "rejected.remainder"),
    ("6:4=1 rest 2", (6, 4), 3, "remainder", "rejected.remainder"),
    ("3 r 2", (11, 3), 3, "remainder", "rejected.remainder"),
    ("7 rest 1", (5, 2), 3, "remainder", "rejected.remainder_general"),
    ("24", (6, 4), 3, "operator_not_allowed", "rejected.operator_not_allowed_number"),
    ("10", (6, 4), 3, "operator_not_allowed", "rejected.operator_not_allowed_number"),
    ("2/3", (6, 4), 3, VALUE, "accepted"),
    ("2", (6, 4), 3, "operator_not_allowed", "rejected.operator_not_allowed_number"),
    ("1", (6, 4), 3, "arithmetic_slip", "rejected.arithmetic_slip"),
    ("6:4=2", (6, 4), 3, "arithmetic_slip", "rejected.arithmetic_slip"),
    ("6:0", (6, 0), 3, "division_by_zero", "rejected.division_by_zero"),
    ("0", (0, 6), 3, VALUE, "accepted"),
    ("5", (0, 0), 3, "no_legal_value", "rejected.no_legal_value"),
    ("7.5", (15, 2), 3, VALUE, "accepted"),
    ("7,5", (15, 2), 3, VALUE, "accepted"),
    ("15/2", (15, 2), 3, VALUE, "accepted"),
    ("7 1/2", (15, 2), 3, VALUE, "accepted"),
    ("15:2=7.5", (15, 2), 3, VALUE, "accepted"),
    # --- level 4: subtraction ------------------------------------------------------------
    ("2", (4, 2), 4, VALUE, "accepted"),
    ("-2", (4, 2), 4, VALUE, "accepted"),
    # §2.6 "`6` for 4 and 2 at level 4: added, not subtracted"
    ("6", (4, 2), 4, "operator_not_allowed", "rejected.operator_not_allowed_number"),
    ("8", (4, 2), 4, "operator_not_allowed", "rejected.operator_not_allowed_number"),
    # §2.6 "`4-2=-2`"
    ("4-2=-2", (4, 2), 4, "sign_slip", "rejected.sign_slip"),
    ("4-2=3", (4, 2), 4, "arithmetic_slip", "rejected.arithmetic_slip"),
    # §2.6 "`-4` for 2 and −6 at level 4, explained as 2 − 6"
    ("-4", (2, -6), 4, "sign_slip", "rejected.sign_slip_read"),
    ("8", (2, -6), 4, VALUE, "accepted"),
    # §2.2 "2 + 6 is 2 − (−6)"
    ("2+6=8", (2, -6), 4, VALUE, "accepted.rewrite"),
    ("2-(-6)=8", (2, -6), 4, VALUE, "accepted"),
    ("2--6=8", (2, -6), 4, VALUE, "accepted"),
    # §2.6 "`2-(-6)=-8`"
    ("2-(-6)=-8", (2, -6), 4, "sign_slip", "rejected.sign_slip"),
    ("2-(-6)=-4", (2, -6), 4, "sign_slip", "rejected.sign_slip_read"),
    ("2-6=-4", (2, -6), 4, "sign_slip", "rejected.sign_slip_card"),
    ("-8", (2, -6), 4, VALUE, "accepted"),
    ("-6-2=-8", (2, -6), 4, VALUE, "accepted"),
    # the "`-5+2=-3` for −5 − (−2)"
    ("-5+2=-3", (-5, -2), 4, VALUE, "accepted.rewrite"),
    ("-3", (-5, -2), 4, VALUE, "accepted"),
    ("3", (-5, -2), 4, VALUE, "accepted"),
    ("-7", (-5, -2), 4, "sign_slip", "rejected.sign_slip_read"),
    ("10", (-5, -2), 4, "operator_not_allowed", "rejected.operator_not_allowed_number"),
    ("7-3=4", (7, 3), 4, VALUE, "accepted"),
    ("3-7=-4", (7, 3), 4, VALUE, "accepted"),
    ("7+3=10", (7, 3), 4, "operator_not_allowed", "rejected.operator_not_allowed"),
    ("5", (7, 3), 4, "arithmetic_slip", "rejected.arithmetic_slip"),
    ("7-3", (7, 3), 4, "result_missing", "rejected.result_missing"),
    ("0", (5, 5), 4, VALUE, "accepted"),
    ("5+5=10", (5, -5), 4, VALUE, "accepted.rewrite"),
    ("0", (5, -5), 4, "sign_slip", "rejected.sign_slip_read"),
    ("-5-5=-10", (-5, 5), 4, VALUE, "accepted"),
    # --- level 5: every operation, closest to the target ---------------------------------
    ("3-5=-2", (3, -5), 5, VALUE, "accepted.rewrite"),
    ("3-(-5)=8", (3, -5), 5, VALUE, "accepted"),
    ("3+5=8", (3, -5), 5, VALUE, "accepted.rewrite"),
    ("-15", (3, -5), 5, VALUE, "accepted"),
    ("15", (3, -5), 5, "sign_slip", "rejected.sign_slip"),
    ("3*5=15", (3, -5), 5, "sign_slip", "rejected.sign_slip_card"),
    ("3*(-5)=-16", (3, -5), 5, "arithmetic_slip", "rejected.arithmetic_slip"),
    ("16", (3, -5), 5, "wrong_value", "rejected.wrong_value"),
    ("-3/5", (3, -5), 5, VALUE, "accepted"),
    ("3/(-5)=-0.6", (3, -5), 5, VALUE, "accepted"),
    ("-0,6", (3, -5), 5, VALUE, "accepted"),
    ("3/5", (3, -5), 5, "sign_slip", "rejected.sign_slip"),
    ("2+3*4=14", (3, 4), 5, "too_many_operations", "rejected.too_many_operations"),
    ("3+4", (3, 4), 5, "result_missing", "rejected.result_missing"),
    ("6:4=1,5", (6, 4), 5, VALUE, "accepted"),
    ("12/8", (6, 4), 5, "not_simplified", "rejected.not_simplified"),
    ("3^2+4=13", (3, 4), 5, "square_not_allowed", "rejected.square_not_allowed"),
    ("3(4)=12", (3, 4), 5, VALUE, "accepted"),
    # --- level 6: one card may be squared ------------------------------------------------
    # §2.6 "`-3^2+2=11`, `(-3)^2+2=-7`"
    ("-3^2+2=11", (-3, 2), 6, "square_sign", "rejected.square_sign"),
    ("(-3)^2+2=-7", (-3, 2), 6, "square_sign", "rejected.square_sign"),
    ("(-3)^2+2=11", (-3, 2), 6, VALUE, "accepted"),
    ("(-3)²+2=11", (-3, 2), 6, VALUE, "accepted"),
    ("3^2+2=11", (-3, 2), 6, VALUE, "accepted.rewrite"),
    ("-2^2*3=-12", (-2, 3), 6, "square_sign", "rejected.square_sign"),
    ("-2^2*3=12", (-2, 3), 6, "square_sign", "rejected.square_sign"),
    # §2.6 "`2*3^2=36`, `2+3^2=25`"
    ("2*3^2=36", (2, 3), 6, "order_of_operations", "rejected.order_of_operations"),
    ("2+3^2=25", (2, 3), 6, "order_of_operations", "rejected.order_of_operations"),
    ("4-3^2=1", (3, 4), 6, "order_of_operations", "rejected.order_of_operations"),
    ("2*3^2=18", (2, 3), 6, VALUE, "accepted"),
    ("2+3^2=11", (2, 3), 6, VALUE, "accepted"),
    ("4-3^2=-5", (3, 4), 6, VALUE, "accepted"),
    # the "`5^2+6=31` for 5² − (−6)"; §2.2 "5² − 6 is 5² + (−6)"
    ("5^2+6=31", (5, -6), 6, VALUE, "accepted.rewrite"),
    ("5^2-6=19", (5, -6), 6, VALUE, "accepted.rewrite"),
    ("5²-6=19", (5, -6), 6, VALUE, "accepted.rewrite"),
    ("5^2-(-6)=31", (5, -6), 6, VALUE, "accepted"),
    ("5^2-(-6)=19", (5, -6), 6, "sign_slip", "rejected.sign_slip_read"),
    ("5^2+(-6)=31", (5, -6), 6, "sign_slip", "rejected.sign_slip_read"),
    ("5^2+(-6)=-19", (5, -6), 6, "sign_slip", "rejected.sign_slip"),
    ("3^2*4^2=144", (3, 4), 6, "squares_both", "rejected.squares_both"),
    ("(4-3)^2=1", (3, 4), 6, "too_many_operations", "rejected.too_many_operations"),
    ("sqrt(4)+3=5", (4, 3), 6, "root_not_allowed", "rejected.root_not_allowed"),
    ("2^3+1", (2, 1), 6, "unsupported_power", "rejected.unsupported_power"),
    ("-7", (-3, 2), 6, VALUE, "accepted"),
    ("25", (5, -6), 6, "wrong_value", "rejected.wrong_value"),
    ("3^2+2", (3, 2), 6, "result_missing", "rejected.result_missing"),
    ("9+2=11", (3, 2), 6, "not_your_cards", "rejected.not_your_cards"),
    # --- level 7: a root of a square card ------------------------------------------------
    ("sqrt(9)+2=5", (9, 2), 7, VALUE, "accepted"),
    ("√9+2=5", (9, 2), 7, VALUE, "accepted"),
    ("2√9=6", (2, 9), 7, VALUE, "accepted"),
    ("sqrt(-4)+6", (-4, 6), 7, "root_of_negative", "rejected.root_of_negative"),
    ("√4-6=-4", (4, -6), 7, VALUE, "accepted.rewrite"),
    ("-3^2+9=18", (-3, 9), 7, "square_sign", "rejected.square_sign"),
    ("√16*2=8", (16, 2), 7, VALUE, "accepted"),
    ("√16*2=32", (16, 2), 7, "arithmetic_slip", "rejected.arithmetic_slip"),
    ("4*2=8", (16, 2), 7, "not_your_cards", "rejected.not_your_cards"),
    ("√2+2=3,41", (2, 2), 7, "root_of_non_square", "rejected.root_of_non_square"),
    ("√9:2=1 1/2", (9, 2), 7, VALUE, "accepted"),
    ("√9:2=3/2", (9, 2), 7, VALUE, "accepted"),
    ("√9:2=6/4", (9, 2), 7, "not_simplified", "rejected.not_simplified"),
]


def test_the_table_holds_150_answers_at_every_level() -> None:
    assert len(TABLE) >= 150
    assert {row[2] for row in TABLE} == set(range(1, 8))


@pytest.mark.parametrize(("text", "cards", "level", "code", "key"), TABLE)
def test_every_answer_is_read_as_a_teacher_reads_it(
    text: str, cards: tuple[int, int], level: int, code: str, key: str
) -> None:
    assert read(text, cards, level) == (code, f"answer.{key}")


def test_a_refusal_is_typed_again_and_a_mistake_counts_as_no_value() -> None:
    """§2.6: not_exact, not_simplified, a remainder and text without a result are refused
    (nothing counted); a mistake is a verdict with no value."""
    refused = {code for _, _, _, code, _ in TABLE if code in UNREADABLE_CODES}
    assert {"not_exact", "not_simplified", "remainder", "result_missing"} <= refused
    mistakes = {code for _, _, _, code, _ in TABLE if code in {r.value for r in Reason}}
    assert {"sign_slip", "square_sign", "order_of_operations", "arithmetic_slip"} <= mistakes


EXPRESSION_FORM: list[tuple[str, tuple[int, int], int, str, str]] = [
    # §2.2 "`expression` — an expression alone is enough (`6/(-2)`)"; a rewrite too
    ("6/(-2)", (6, -2), 5, VALUE, "accepted"),
    ("-3/6", (3, -6), 3, VALUE, "accepted.rewrite"),
    ("3-5", (3, -5), 5, VALUE, "accepted.rewrite"),
    ("12/8", (12, 8), 5, VALUE, "accepted"),
    ("12/8", (6, 4), 5, "not_simplified", "rejected.not_simplified"),
    ("3/6", (6, 3), 3, VALUE, "accepted"),
    ("2*3^2", (2, 3), 6, VALUE, "accepted"),
]


@pytest.mark.parametrize(("text", "cards", "level", "code", "key"), EXPRESSION_FORM)
def test_in_the_expression_form_a_legal_expression_alone_is_enough(
    text: str, cards: tuple[int, int], level: int, code: str, key: str
) -> None:
    assert read(text, cards, level, EXPRESSION) == (code, f"answer.{key}")


def test_the_value_of_a_rewrite_is_the_legal_expressions() -> None:
    """§2.2: "Such a *rewrite* counts as the legal expression it stands for"."""
    verdict = judge("2+6=8", (2, -6), 4)
    assert verdict.value == 8
    assert dict(verdict.details) == {"rewrite": "2 \u2212 (\u22126)", "value": 8}
    assert verdict.text == "2 + 6"


def test_the_card_read_with_the_wrong_sign_is_explained_by_the_reading_that_gives_it() -> None:
    """§2.6: "`-4` for 2 and −6 at level 4, explained as 2 − 6, the reading that gives the
    typed number"."""
    details = dict(judge("-4", (2, -6), 4).details)
    assert details["read_as"] == "2 \u2212 6"
    assert details["expression"] == "2 \u2212 (\u22126)"
    assert (details["value"], details["number"], details["why"]) == (8, -4, "subtract_negative")


def test_a_remainder_is_told_as_the_fraction_it_is() -> None:
    """§2.6: "refused … with a message that says how to write it (`5/2` or `2,5`)"."""
    with pytest.raises(ExpressionError) as caught:
        judge("2 rest 1", (5, 2), 3)
    assert caught.value.details == {"number": "2 rest 1", "exact": "5/2"}


def test_an_arithmetic_slip_is_checked_backwards_and_a_product_with_0_says_why() -> None:
    """§2.6: "a product with 0 that is not 0 says 'anything times 0 is 0'"."""
    assert judge("13", (3, 4), 2).details["check"] == "12 \u00f7 4 = 3"
    assert judge("-5", (0, -5), 2).details["zero"] is True


def test_the_first_edition_still_judges_answers_stored_without_a_reading() -> None:
    """A stored answer judged under the old rule stays as recorded (the rule applies to new
    answers): `3-5=-2` for 3 + (−5) was a sign slip, and stays one in a replay."""
    first = Reading.EACH_CARD_WITH_ITS_SIGN
    assert judge("3-5=-2", (3, -5), 1, reading=first).reason == "sign_slip"
    assert judge("3-5=-2", (3, -5), 1).value == -2


# --- properties ------------------------------------------------------------------------------

cards_st = st.integers(-10, 10)


@settings(max_examples=300)
@given(cards_st, cards_st, st.integers(1, 5))
def test_showing_correct_working_never_loses_what_the_bare_number_wins(
    a: int, b: int, level: int
) -> None:
    """§2.2: "Showing correct working must never lose a round that the bare number would
    win": every legal expression, and every sign taken into its operation, typed with its
    value, gets that value."""
    for value, text in reachable(a, b, level).items():
        shown = text.replace("\u2212", "-").replace("\u00b7", "*").replace("\u00f7", ":")
        assert judge(f"{shown}={_typed(value)}", (a, b), level).value == value
        moved = _sign_moved(a, b, level, value)
        if moved is not None:
            assert judge(f"{moved}={_typed(value)}", (a, b), level).value == value


def _typed(value: Fraction) -> str:
    return str(value)


def _sign_moved(a: int, b: int, level: int, value: Fraction) -> str | None:
    """x + (−y) typed as x − y, or x − (−y) as x + y, when the level has that legal value."""
    ops = level_operators(level)
    for op, partner in (("+", "-"), ("-", "+")):
        if (
            op in ops
            and b < 0
            and reachable(a, b, level).get(value) == to_text(BinOp(op, card_term(a), card_term(b)))
        ):
            left = to_text(card_term(a)).replace("\u2212", "-")
            return f"{left}{partner}{-b}"
    return None


@settings(max_examples=300)
@given(cards_st, cards_st, st.integers(1, 4), st.integers(-200, 200))
def test_a_wrong_number_always_gets_a_kind_and_a_sentence(
    a: int, b: int, level: int, typed: int
) -> None:
    """§2.6: every wrong number is named by the ladder, first match wins, and has a
    sentence: never an error."""
    code, key = read(str(typed), (a, b), level)
    if code != VALUE:
        assert key.startswith("answer.rejected.")
        assert Fraction(typed) not in reachable(a, b, level)


@settings(max_examples=200)
@given(st.integers(1, 12), st.integers(1, 12))
def test_a_positive_cards_addition_never_becomes_a_subtraction(a: int, b: int) -> None:
    """§2.2: "A rewrite moves signs only: it never turns a positive card's addition into a
    subtraction or one operation into another"."""
    assert judge(f"{a}-{b}={a - b}", (a, b), 1).reason == "operator_not_allowed"
    assert judge(f"{a}*{b}={a * b}", (a, b), 1).reason == "operator_not_allowed"
