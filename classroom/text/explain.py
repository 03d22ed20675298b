"""Which sentence tells a pupil how an answer was read (RULES.md §2.6, "Feedback explains").

A verdict's code alone does not pick the sentence: a sign slip in the result, a card read with
the wrong sign and a card typed without its sign are told differently, and so are a product
with 0, a remainder whose value is known, an operation of another level typed as a number, and
an accepted rewrite ("right: 2 − (−6) = 2 + 6 = 8"). `message_key` is that choice, one place
for the Discord bot, the browser lesson and the tests' table.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["message_key", "why_key"]


def message_key(code: str | None, details: Mapping[str, object]) -> str:
    """The catalogue key of the sentence for a verdict or refusal (`code` None: accepted)."""
    if code is None:
        return "answer.accepted.rewrite" if "rewrite" in details else "answer.accepted"
    if code == "sign_slip":
        if "read_as" in details:
            return "answer.rejected.sign_slip_read"
        if "expression" not in details:
            return "answer.rejected.sign_slip_card"
    elif code == "operator_not_allowed" and "value" in details:
        return "answer.rejected.operator_not_allowed_number"
    elif code == "arithmetic_slip" and details.get("zero"):
        return "answer.rejected.arithmetic_slip_zero"
    elif code == "remainder" and "exact" not in details:
        return "answer.rejected.remainder_general"
    return f"answer.rejected.{code}"


def why_key(details: Mapping[str, object]) -> str | None:
    """The catalogue key of the one line of *why* the engine named (`why`), if any."""
    why = details.get("why")
    return f"answer.why.{why}" if isinstance(why, str) else None
