"""The one exception of start-up: a problem the operator can fix, told in one sentence."""

from __future__ import annotations


class StartupError(Exception):
    """A setting, the database or the lock stops the bot; the message is one sentence
    (no traceback), printed as ``mattekrig: <sentence>`` with exit code 2."""
