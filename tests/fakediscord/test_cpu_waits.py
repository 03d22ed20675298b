"""The fake's time limits count the bot's time, not how busy the machine is (clock.py): the
time the test's threads sat ready to run while a shared machine ran other work is taken off,
everything else still counts, so a slow bot still misses Discord's 3-second window."""

from __future__ import annotations

import asyncio
import time

import pytest

from .clock import CpuWaits, FakeClock
from .driver import Driver
from .sample_bot import SampleBot
from .server import FakeDiscord
from .test_rules import gated


class MachineWaits(CpuWaits):
    """The loop thread's wait for a CPU, as the test says it was."""

    def __init__(self) -> None:
        super().__init__()
        self.waited = 0.0

    def snapshot(self) -> dict[str, float]:
        return {"loop": self.waited}


class AllWaiting(CpuWaits):
    """A machine so busy that every real second the loop thread waited for a CPU."""

    def snapshot(self) -> dict[str, float]:
        return {"loop": time.monotonic()}


async def _late_answer(
    fake: FakeDiscord, driver: Driver, bot: SampleBot, *, passed: float, waited: float
) -> bool:
    """A `/mattekrig run` answered after ``passed`` seconds, ``waited`` of them the test's
    loop thread waiting for a CPU: whether Discord (the fake) took the answer."""
    machine = MachineWaits()
    fake.clock.waits = machine
    gate, started = asyncio.Event(), asyncio.Event()
    gated(bot, gate, started)
    interaction = await driver.slash("alice", "mattekrig run", wait=False)
    await asyncio.wait_for(started.wait(), 5)
    fake.clock.advance(passed)
    machine.waited += waited
    gate.set()
    await fake.wait_until(lambda: interaction.answered or bool(interaction.rejected))
    return interaction.answered


async def test_the_machines_delay_is_not_counted_in_the_answer_window(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    """3.5 s passed, 3.2 of them the machine's: the bot used 0.3 s of its 3."""
    assert await _late_answer(fake_discord, driver, bot, passed=3.5, waited=3.2)
    assert not bot.errors


async def test_a_bot_slow_on_its_own_still_misses_the_window(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    """Discord's rule stands: 3.5 s passed, only 0.2 of them the machine's (404 10062)."""
    assert not await _late_answer(fake_discord, driver, bot, passed=3.5, waited=0.2)
    assert bot.errors and getattr(bot.errors[0], "code", None) == 10062


async def test_a_wait_for_the_bot_does_not_time_out_while_the_machine_holds_it_back(
    fake_discord: FakeDiscord,
) -> None:
    fake_discord.clock.waits = AllWaiting()
    done = asyncio.Event()
    asyncio.get_running_loop().call_later(0.2, done.set)
    await fake_discord.wait_until(done.is_set, timeout=0.05, what="the bot's work")


def test_a_frozen_clock_counts_exactly_what_was_added() -> None:
    """A test that moves a frozen clock past a limit gets exactly that, however busy the
    machine (on a running clock the machine's wait is part of the real time that passed, so
    time added by hand is never taken off either)."""
    machine = MachineWaits()
    clock = FakeClock(frozen=True, waits=machine)
    mark = clock.mark()
    clock.advance(3.1)
    machine.waited += 5.0
    assert clock.elapsed(mark) == pytest.approx(3.1)
