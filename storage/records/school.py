"""The rows of a school server's teachers (`mattekrig serve`): who may sign in.

Times are integers, milliseconds since the Unix epoch, always supplied by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Teacher:
    """A teacher of the school server: a random opaque id (what their lessons' and classes'
    ``owner`` holds, never their name), the name the operator gave, whether an OpenID
    Connect account is bound to them, and when they last signed in (None: never)."""

    id: str
    name: str
    bound: bool
    created_at: int
    signed_in_at: int | None


__all__ = ["Teacher"]
