"""The calendar a class lives by: days and ISO weeks in Europe/Oslo.

Why Europe/Oslo and not UTC: "today" (the per-pair cap) and "this week" (the weekly board)
should turn over at midnight where the pupils are, not at 01:00 or 02:00 their time. Norway
and Sweden share the same zone rules, so one zone serves both. Why ISO weeks (Monday to
Sunday) and not the last seven days: "this week" on a school board means the school week,
and a fixed week can be kept as a running total (a rolling window cannot), which keeps the
board fast.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from zoneinfo import ZoneInfo

SCHOOL_TZ: tzinfo = ZoneInfo("Europe/Oslo")
DAY_MS = 86_400_000


def local_time(ms: int, tz: tzinfo = SCHOOL_TZ) -> datetime:
    return datetime.fromtimestamp(ms / 1000, UTC).astimezone(tz)


def day_key(ms: int, tz: tzinfo = SCHOOL_TZ) -> int:
    """The local calendar day as YYYYMMDD."""
    d = local_time(ms, tz).date()
    return d.year * 10_000 + d.month * 100 + d.day


def week_key(ms: int, tz: tzinfo = SCHOOL_TZ) -> int:
    """The local ISO week as ISO year * 100 + week (2026-W01 is 202601)."""
    year, week, _ = local_time(ms, tz).isocalendar()
    return year * 100 + week


def week_start_ms(ms: int, tz: tzinfo = SCHOOL_TZ) -> int:
    """Local Monday 00:00 of the ISO week holding ``ms``, as epoch milliseconds."""
    local = local_time(ms, tz)
    monday = (local - timedelta(days=local.weekday())).date()
    start = datetime(monday.year, monday.month, monday.day, tzinfo=tz)
    return int(start.timestamp() * 1000)
