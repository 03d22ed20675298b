"""Fixtures of the school server's tests: a data folder of the test's own, and a log that
must stay free of tracebacks (the table's own fixtures)."""

from __future__ import annotations

from tests.table.conftest import lesson_data, quiet_log

__all__ = ["lesson_data", "quiet_log"]
