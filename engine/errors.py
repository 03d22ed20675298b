"""Every refusal the engine gives is an `EngineError` with a stable `code`.

The bot turns `code` (plus `details`) into a localised sentence, so codes are part of the
public API: add new ones, never rename.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Refusal(StrEnum):
    """Why `engine.game.apply` refuses an action: the `code` of its `IllegalActionError`.
    Unreadable answers are refused with the `ExpressionError` codes of `engine.expressions`."""

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
    """What a pupil typed could not be read as a number or an expression.

    These refuse the answer (it can be typed again). A well-formed answer that breaks a
    rule is not an error: it is judged and counts as *no value* (RULES.md §2.2).
    """

    code = "malformed"

    def __init__(self, message: str, *, code: str | None = None, **details: Any) -> None:
        super().__init__(message, **details)
        if code is not None:
            self.code = code
