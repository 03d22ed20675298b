"""Limits for a shared server. The issue: "rate limits per lesson and per server (joins,
wrong codes, actions)": one pupil's loop, or a flood into one lesson, never slows the
lessons beside it, and a class pressing together is never held back."""

from __future__ import annotations

from school.limits import (
    DEVICE_BURST,
    DEVICE_RATE,
    LESSON_BURST,
    LESSON_RATE,
    Buckets,
    ChangeLimits,
)
from school.settings import load_school_settings
from tests.table.support import FakeClock


def test_a_class_pressing_together_is_never_held_back() -> None:
    """30 devices in one lesson each press 3 times in the same second: every press goes on."""
    limits = ChangeLimits(FakeClock())
    waits = [limits.admit("123456", f"device-{d}") for _ in range(3) for d in range(30)]
    assert waits == [0] * 90


def test_a_loop_on_one_device_waits_and_nobody_else_does() -> None:
    """A device past its burst waits (whole seconds, for Retry-After); its neighbour in the
    same lesson, and the same device's seat in another lesson, go on."""
    clock = FakeClock()
    limits = ChangeLimits(clock)
    admitted = [limits.admit("123456", "loop") for _ in range(int(DEVICE_BURST) + 5)]
    assert admitted[: int(DEVICE_BURST)] == [0] * int(DEVICE_BURST)
    assert all(wait >= 1 for wait in admitted[int(DEVICE_BURST) :])
    assert limits.admit("123456", "neighbour") == 0
    assert limits.admit("654321", "loop") == 0
    clock.now += 1 / DEVICE_RATE
    assert limits.admit("123456", "loop") == 0  # a token back after its time


def test_a_flood_into_one_lesson_stays_in_that_lesson() -> None:
    """Many devices (a script making up cookies) flood one lesson: past the lesson's burst
    that lesson waits, and the lesson beside it goes on."""
    limits = ChangeLimits(FakeClock())
    admitted = [limits.admit("111111", f"made-up-{n}") for n in range(int(LESSON_BURST) + 10)]
    assert admitted.count(0) == int(LESSON_BURST)
    assert limits.admit("222222", "pupil") == 0


def test_buckets_forget_the_least_recently_used() -> None:
    """A flood of made-up keys cannot grow the server's memory without end."""
    buckets = Buckets(1.0, 2.0, FakeClock(), max_keys=3)
    for key in "abcd":
        buckets.take(key)
    assert len(buckets._buckets) == 3 and "a" not in buckets._buckets


def test_the_servers_settings_set_the_rates_and_keep_the_bursts_seconds() -> None:
    """DEVICE_CHANGES_PER_SECOND and LESSON_CHANGES_PER_SECOND (`RateLimits`): a stricter
    server holds a loop back sooner; its bursts stay as many seconds of the rate."""
    settings = load_school_settings(
        {"DEVICE_CHANGES_PER_SECOND": "2", "LESSON_CHANGES_PER_SECOND": "6"}
    )
    limits = ChangeLimits(
        FakeClock(), settings.limits.device_per_second, settings.limits.lesson_per_second
    )
    device_burst = int(2 * DEVICE_BURST / DEVICE_RATE)
    admitted = [limits.admit("123456", "loop") for _ in range(device_burst + 1)]
    assert admitted == [0] * device_burst + [1]
    lesson_burst = int(6 * LESSON_BURST / LESSON_RATE)
    flood = [limits.admit("111111", f"made-up-{n}") for n in range(lesson_burst + 1)]
    assert flood.count(0) == lesson_burst
    defaults = load_school_settings({}).limits
    assert (defaults.device_per_second, defaults.lesson_per_second) == (DEVICE_RATE, LESSON_RATE)
