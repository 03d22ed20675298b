"""Every refusal the engine gives is an `EngineError` with a stable `code`.

The bot turns `code` (plus `details`) into a localised sentence, so codes are part of the
public API: add new ones, never rename.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Refusal(StrEnum):
    """Why `engine.game.apply` refuses an action: the `code` of its `IllegalActionError`.
    Unreadable answers are refused with the `ExpressionError` codes listed in `Unreadable`."""

    GAME_OVER = "game_over"  # the game has ended
    NOT_A_SIDE = "not_a_side"  # the side number is not one of the game's sides
    WRONG_PHASE = "wrong_phase"  # the game is not waiting for that kind of action now
    NOT_YOUR_TURN = "not_your_turn"  # RULES §2.5: another side names this target
    NOT_IN_COMPARISON = "not_in_comparison"  # the side is not in this comparison (a war)
    ALREADY_DECIDED = "already_decided"  # the side has answered or decided already
    CANNOT_BET = "cannot_bet"  # RULES §3.3: too few cards to bet this round
    TARGET_OUT_OF_RANGE = "target_out_of_range"  # RULES §2.5: a whole number −15…15
    BAD_SWAP = "bad_swap"  # RULES §3.3: swap the first (0) or the second (1) card
    TIME_ALREADY_UP = "time_already_up"  # the time limit has run out already
    MALFORMED_ACTION = "malformed_action"  # not an action of the replay format


class EngineError(ValueError):
    """An action or input was refused; the game state is unchanged."""

    code: str = "engine_error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.details: dict[str, Any] = details


class IllegalActionError(EngineError):
    """The action is not one of the legal actions now (wrong side, phase, or value)."""

    code = "illegal_action"

    def __init__(self, message: str, *, code: Refusal | None = None, **details: Any) -> None:
        super().__init__(message, **details)
        if code is not None:
            self.code = code.value


class ConfigurationError(EngineError):
    """A game cannot be created with these settings."""

    code = "bad_configuration"


class ExpressionError(EngineError):
    """What a pupil typed could not be read as an answer (an `Unreadable` code).

    These refuse the answer (it can be typed again). A well-formed answer that breaks a
    rule is not an error: it is judged and counts as *no value* (RULES.md §2.2). `evaluate`
    also raises this class for a value that does not exist (division by zero, the root of a
    non-square, too large); `judge` turns those into the verdict reasons of the same codes.
    """

    code = "malformed"

    def __init__(self, message: str, *, code: str | None = None, **details: Any) -> None:
        super().__init__(message, **details)
        if code is not None:
            self.code = code


class Unreadable(StrEnum):
    """Every `ExpressionError` code: the answer was not read, nothing is counted, and the pupil
    may type it again (RULES.md §2.2). Why an answer that *was* read counts as no value is a
    `Reason`; together the two are every code an answer can get."""

    EMPTY = "empty"
    TOO_LONG = "too_long"
    UNKNOWN_SYMBOL = "unknown_symbol"
    MALFORMED = "malformed"
    UNSUPPORTED_POWER = "unsupported_power"  # levels 6–7: a power other than 2
    POWER_NOT_ALLOWED = "power_not_allowed"  # levels 1–5: no power is part of the level
    RESULT_MISSING = "result_missing"  # expression: an expression without its number (§2.2)
    NOT_EXACT = "not_exact"  # number (as typed), exact: a rounded decimal of a value (§2.6)
    # number (as typed, "12/8"): a fraction not in lowest terms typed as the answer (§2.6)
    NOT_SIMPLIFIED = "not_simplified"
    # number (as typed, "2 rest 1"), and exact ("5/2") with decimal ("2,5") when the cards or
    # the expression before it say which division it was: a remainder is no value (§2.6)
    REMAINDER = "remainder"


class Reason(StrEnum):
    """Why a readable answer counts as *no value* (RULES.md §2.2): the one list of verdict
    codes, each with the `details` it carries. `engine.errors.Unreadable` lists the codes of
    answers that are not read at all. Every detail is JSON-safe: numbers are ints or "p/q"
    strings, expressions are in `to_text` notation, and `card_a`/`card_b` are the side's cards
    whenever the sentence is about them."""

    WRONG_VALUE = "wrong_value"  # value; no simple slip explains it (levels 5–7)
    NO_LEGAL_VALUE = "no_legal_value"  # the cards have no value at this level (0 and 0, §2.2)
    # expression, value (right), number (typed) — a result's sign flipped (§2.6) — and, when
    # one card's sign slipped, card (its real sign) and used (as used); an expression that
    # uses a card without its sign has card and used only
    SIGN_SLIP = "sign_slip"
    # expression (the pupil's), value (its right value), number (typed), square (the
    # squared card as written, "−3²"): −k² read as (−k)² or the reverse (levels 6–7, §2.6)
    SQUARE_SIGN = "square_sign"
    # expression (the pupil's), value (right), number (typed): worked left to right, or the
    # square taken of more than its number (levels 5–7, §2.6)
    ORDER_OF_OPERATIONS = "order_of_operations"
    ARITHMETIC_SLIP = "arithmetic_slip"  # expression, value (right), number (typed)
    NOT_YOUR_CARDS = "not_your_cards"  # number: a number that is none of the cards
    CARD_TWICE = "card_twice"  # number: one card used twice
    CARD_MISSING = "card_missing"  # missing: a card left out
    TOO_MANY_OPERATIONS = "too_many_operations"  # operators
    # operator, allowed, level, expression: the pupil's own calculation or, for a number typed
    # alone, the one of another operation that gives it, with that number as value
    OPERATOR_NOT_ALLOWED = "operator_not_allowed"
    # level, expression (the pupil's own calculation): a square below level 6, a root below 7
    SQUARE_NOT_ALLOWED = "square_not_allowed"
    ROOT_NOT_ALLOWED = "root_not_allowed"
    SQUARES_BOTH = "squares_both"
    ROOT_AND_SQUARE = "root_and_square"
    ROOT_OF_RESULT = "root_of_result"
    ROOT_OF_NEGATIVE = "root_of_negative"  # number
    ROOT_OF_NON_SQUARE = "root_of_non_square"  # number
    DIVISION_BY_ZERO = "division_by_zero"  # text
    TOO_LARGE = "too_large"  # limit_bits
    TIMEOUT = "timeout"  # no answer in time (the game gives this verdict, not `judge`)
