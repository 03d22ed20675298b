"""The fake clock and snowflakes: Discord's time rules are testable without sleeping."""

from __future__ import annotations

import discord
import pytest

from .clock import FakeClock
from .snowflake import SnowflakeFactory, snowflake_time


def test_frozen_clock_moves_only_when_advanced() -> None:
    clock = FakeClock(frozen=True, start=1_700_000_000.0)

    assert clock.now() == 1_700_000_000.0
    clock.advance(15 * 60)
    assert clock.now() == 1_700_000_900.0
    with pytest.raises(ValueError):
        clock.advance(-1)


def test_snowflakes_carry_the_fake_time_and_always_grow() -> None:
    clock = FakeClock(frozen=True, start=1_700_000_000.0)
    ids = SnowflakeFactory(clock)

    minted = [ids.next() for _ in range(5000)]  # more than one millisecond's worth

    assert minted == sorted(set(minted))
    assert snowflake_time(minted[0]) == 1_700_000_000.0
    assert discord.utils.snowflake_time(minted[0]).timestamp() == 1_700_000_000.0
    clock.advance(60)
    assert snowflake_time(ids.next()) == 1_700_000_060.0
    assert snowflake_time(ids.at(1_600_000_000.5)) == 1_600_000_000.5
