"""Errors a player is told about, as i18n catalogue keys, so services stay free of Discord."""

from __future__ import annotations

from typing import Any


class UserFacingError(Exception):
    """A refusal the player sees as a short ephemeral message: `key` is a catalogue key and
    `values` fill its placeholders."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values
