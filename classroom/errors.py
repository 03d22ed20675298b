"""Errors a player is told about, as i18n catalogue keys, so services stay free of Discord."""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError, ExpressionError


class UserFacingError(Exception):
    """A refusal the player sees as a short ephemeral message: `key` is a catalogue key and
    `values` fill its placeholders."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values

    @classmethod
    def from_engine(cls, error: EngineError) -> UserFacingError:
        """An engine refusal as a catalogue key: unreadable answers under
        ``answer.rejected.<code>``, every other refusal under ``engine.<code>``; only plain
        details (text, whole numbers) fill the sentence."""
        family = "answer.rejected" if isinstance(error, ExpressionError) else "engine"
        values = {k: v for k, v in error.details.items() if isinstance(v, str | int)}
        return cls(f"{family}.{error.code}", **values)
