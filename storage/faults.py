"""Database faults in the log: one clear line when one starts, one when it is over.

Why: a database the bot cannot use (a read-only file or mount, a full disk, an I/O error, a
PostgreSQL server gone) fails every press the same way. Logged as a bug, each press wrote a
40-line traceback: a class of 28 pressing buried the one fact the operator needed. A fault is
not a bug in the bot: the pupil is asked to try again (`error.generic`), the first press
that meets a fault logs one ERROR line naming it, the same fault again is counted at DEBUG,
and the first commit that works again logs one WARNING line saying it is over and how many
presses it cost.

One tracker per process (`database_faults`): the database is the process's, and the press
path (`bot.replies.report_error`) and the commit path (`bot.services.games`) both reach it,
as does a lesson's (`table.web`, `table.keep`).
"""

from __future__ import annotations

import logging
import sqlite3
import time

log = logging.getLogger(__name__)


def is_fault(error: BaseException) -> bool:
    """Whether ``error`` is the database failing (not a bug in a statement): SQLite's
    OperationalError (read-only, full, I/O, locked) or a damaged file, or PostgreSQL's
    lost connection, full disk, or read-only server."""
    if isinstance(error, sqlite3.OperationalError) or type(error) is sqlite3.DatabaseError:
        return True
    try:
        import psycopg
    except ImportError:  # the PostgreSQL driver is optional
        return False
    read_only = psycopg.errors.ReadOnlySqlTransaction
    return isinstance(error, psycopg.OperationalError | read_only)


def fault_name(error: BaseException) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{text} ({type(error).__name__})" if text else type(error).__name__


class DatabaseFaults:
    """The fault under way, if any, and what it has cost."""

    def __init__(self) -> None:
        self.current: str | None = None
        self.refused = 0
        self._since = 0.0

    def failed(self, error: BaseException, *, press: bool = True) -> None:
        """A press (or, ``press`` False, the timers' pass) met the fault ``error``; a new
        kind of fault is a new line."""
        name = fault_name(error)
        self.refused += press
        if name == self.current:
            log.debug("the database fault goes on (%s)", name)
            return
        if self.current is None:
            self._since = time.monotonic()
        self.current = name
        log.error(
            "the database cannot be used: %s. Presses are refused (their players are asked to "
            "try again) until it can; this is said once, and again when it is over",
            name,
        )

    def worked(self) -> None:
        """A write was committed: a fault under way is over."""
        if self.current is None:
            return
        seconds = int(time.monotonic() - self._since)
        log.warning(
            "the database works again after %d s (%s); %d press(es) were refused meanwhile",
            seconds,
            self.current,
            self.refused,
        )
        self.current, self.refused = None, 0


database_faults = DatabaseFaults()
