"""Discord's answer to a body that breaks its rules: 400 50035 with a nested ``errors`` tree.

A :class:`Problems` collects every broken rule of one request at its field path, shaped as
Discord shapes it (``{"embeds": {"0": {"title": {"_errors": [{"code", "message"}]}}}}``), so a
bot that would be refused by Discord is refused here too, with the same path to debug from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import invalid_form_body

Path = tuple[str | int, ...]


class Problems:
    """Collects broken rules as Discord's nested ``errors`` map, then raises them all at once."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}

    def add(self, path: Path, code: str, message: str) -> None:
        """Record one broken rule at ``path`` (e.g. ``("embeds", 0, "title")``)."""
        node = self.errors
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def __bool__(self) -> bool:
        return bool(self.errors)

    def raise_if_any(self) -> None:
        """Raise 400 50035 Invalid Form Body when anything was recorded."""
        if self.errors:
            raise invalid_form_body(self.errors)

    def required(self, path: Path) -> None:
        self.add(path, "BASE_TYPE_REQUIRED", "This field is required")

    def length(self, path: Path, value: Any, low: int, high: int) -> None:
        """Check an optional string's length is in ``low..high`` (missing: error if low > 0)."""
        if value is None:
            if low > 0:
                self.required(path)
            return
        if not isinstance(value, str):
            self.add(path, "BASE_TYPE_STRING", "Must be a string.")
        elif len(value) > high and low == 0:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
        elif not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def count(self, path: Path, items: Sequence[Any], low: int, high: int) -> None:
        """Check a list's length is in ``low..high``."""
        if len(items) > high:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
        elif len(items) < low:
            self.add(path, "BASE_TYPE_MIN_LENGTH", f"Must be {low} or more in length.")

    def number(self, path: Path, value: Any, low: int, high: int) -> None:
        """Check an optional integer is in ``low..high``."""
        if value is None:
            return
        if not isinstance(value, int) or isinstance(value, bool):
            self.add(path, "NUMBER_TYPE_COERCE", f"Value {value!r} is not int.")
        elif value < low:
            self.add(
                path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {low}."
            )
        elif value > high:
            self.add(path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {high}.")


def as_list(value: Any) -> list[Any]:
    """The value if it is a list, else empty (a wrong type is the schema's to report)."""
    return value if isinstance(value, list) else []


def as_dict(value: Any) -> Mapping[str, Any]:
    """The value if it is an object, else empty (a wrong type is the schema's to report)."""
    return value if isinstance(value, Mapping) else {}
