"""A bot in its own process against the fake Discord (the fake's subprocess mode).

Why a process: a test that kills the bot with SIGKILL, or a benchmark that measures the bot's
own CPU and memory, needs the bot outside the test's process. The fake stays in the test's
process (its state is inspected there); the child points discord.py at it the way
`FakeDiscord.patch_discord` does, prints ``READY`` once connected, and runs until killed.

Child: ``python -m tests.fakediscord.process real|bare|durable --database PATH`` with the fake's
addresses and token in the environment (never on the command line).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path

import discord
import yarl
from discord.ext import commands

from .driver import Driver
from .server import FakeDiscord
from .state import FakeChannel, FakeInteraction, FakeUser

READY = "READY"
ENV_API, ENV_GATEWAY, ENV_TOKEN, ENV_GUILD = (
    "FAKE_DISCORD_API",
    "FAKE_DISCORD_GATEWAY",
    "FAKE_DISCORD_TOKEN",
    "FAKE_DISCORD_GUILD",
)
ENV_NO_PICTURES = "FAKE_DISCORD_NO_PICTURES"
ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """``async with BotProcess(fake, "real", database) as bot:`` — started and connected."""

    def __init__(
        self,
        fake: FakeDiscord,
        kind: str,
        database: Path,
        *,
        ready_timeout: float = 30.0,
        python: str = sys.executable,
        prefix: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        self.fake = fake
        self.kind = kind
        self.database = database
        self.ready_timeout = ready_timeout
        self.command = (*prefix, python, "-m", "tests.fakediscord.process", kind)
        self.env = env or {}
        self.process: asyncio.subprocess.Process | None = None
        self.output: list[str] = []
        self.sessions: set[str] = set()
        self._reader: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    async def start(self) -> None:
        before = set(self.fake.gateway.sessions)
        env = {
            **os.environ,
            ENV_API: self.fake.api_base,
            ENV_GATEWAY: str(self.fake.gateway_url),
            ENV_TOKEN: self.fake.token,
            ENV_GUILD: str(self.fake.guild.id),
            "PYTHONUNBUFFERED": "1",
            **self.env,
        }
        self.process = await asyncio.create_subprocess_exec(
            *self.command,
            "--database",
            str(self.database),
            cwd=ROOT,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        ready = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read(ready))
        # The bot's time, not the machine's: its wait for a CPU is not counted (clock.py).
        self.fake.clock.waits.watch(self.process.pid)
        try:
            await self.fake.wait_until(
                ready.done, timeout=self.ready_timeout, what="the bot process to be ready"
            )
            ready.result()
        except BaseException as error:
            await self.kill()
            output = "\n".join(self.output)
            raise RuntimeError(f"the bot process did not get ready:\n{output}") from error
        self.sessions = set(self.fake.gateway.sessions) - before

    async def _read(self, ready: asyncio.Future[None]) -> None:
        assert self.process is not None and self.process.stdout is not None
        async for raw in self.process.stdout:
            line = raw.decode(errors="replace").rstrip()
            self.output.append(line)
            if line == READY and not ready.done():
                ready.set_result(None)
        if not ready.done():
            ready.set_exception(RuntimeError("the bot process ended"))

    async def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as a power cut or the OOM killer would do."""
        await self._end(signal.SIGKILL)

    async def stop(self) -> None:
        await self._end(signal.SIGTERM)

    async def _end(self, sig: signal.Signals) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(sig)
        with contextlib.suppress(TimeoutError):
            await self.fake.wait_until(
                lambda: process.returncode is not None, timeout=10, what=f"the end after {sig.name}"
            )
        if process.returncode is None:
            self.output.append(f"(still running 10 s after {sig.name}: killed)")
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)
        # asyncio leaves an ended child's transport open; closed by the garbage collector
        # after the test's loop is gone it raises "Event loop is closed" (unraisable), which
        # pytest reports and, on Python 3.11, can break its summary. Close it here.
        transport = getattr(process, "_transport", None)
        if transport is not None:
            transport.close()
        self.fake.clock.waits.forget(process.pid)
        # The old process's gateway session is gone; the fake must not queue events for it.
        for session_id in self.sessions:
            self.fake.gateway.end_session(session_id)

    async def __aenter__(self) -> BotProcess:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


async def start_against_computer(
    driver: Driver, user: FakeUser, channel: FakeChannel, *, wait: bool = True
) -> FakeInteraction:
    """The game the process tests and the benchmarks play: `/mattekrig start` of Intervallkrig
    against the easy computer in the channel itself (no thread), so that a press is one answer
    and one board edit, the same for every kind of bot."""
    return await driver.slash(
        user,
        "mattekrig start",
        channel=channel,
        game="intervallkrig",
        computer="easy",
        thread=False,
        wait=wait,
    )


# --------------------------------------------------------------------- the child


def _point_at_the_fake() -> tuple[str, int]:
    discord.http.Route.BASE = os.environ[ENV_API]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ[ENV_GATEWAY])
    return os.environ[ENV_TOKEN], int(os.environ[ENV_GUILD])


async def _identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
    """No 5-second wait before a re-IDENTIFY (as in the in-process harness)."""


def _client(kind: str, database: Path, token: str, guild_id: int) -> discord.Client:
    if kind == "real":
        from bot.client import make_bot
        from bot.config import Config, read_config

        # DATABASE_URL, SHARD_COUNT and SHARD_IDS as the operator's would be read (the
        # two-process shard test sets them in the child's environment).
        settings, _ = read_config(os.environ, need_token=False)
        config = Config(
            token,
            database,
            guild_id,
            "WARNING",
            database_url=settings.database_url,
            shard_count=settings.shard_count,
            shard_ids=settings.shard_ids,
        )
        # the benchmark's --no-pictures: text boards
        pictures = not os.environ.get(ENV_NO_PICTURES)
        return make_bot(config, guild_ready_timeout=0, pictures=pictures)
    if kind == "bare":
        from tests.fakediscord.bare_bot import BareBot

        return BareBot(guild_id)
    if kind == "durable":  # the benchmark's durable floor: the bare bot storing each press
        from tests.fakediscord.durable_bot import DurableBot

        return DurableBot(guild_id, database)
    raise SystemExit(f"unknown bot {kind!r}")


async def _main(kind: str, database: Path) -> None:
    token, guild_id = _point_at_the_fake()
    client = _client(kind, database, token, guild_id)
    client.before_identify_hook = _identify_at_once  # type: ignore[method-assign]

    async def announce() -> None:
        print(READY, flush=True)

    assert isinstance(client, commands.Bot)
    client.add_listener(announce, "on_ready")
    if kind == "real":  # the bot's own stop: SIGTERM and SIGINT drain and close
        from bot.client import MattekrigBot
        from bot.ops.lock import DatabaseLock

        assert isinstance(client, MattekrigBot)
        from bot.config import StartupError

        try:
            lock = DatabaseLock(database)
            lock.acquire()  # as `mattekrig run` holds it, and refused the way it says so
            client.boards_may_be_ahead = lock.boards_may_be_ahead  # as `run` tells the bot
        except StartupError as refused:
            await client.close()
            print(refused, flush=True)
            raise SystemExit(1) from None
        try:
            await client.serve(token)
        finally:
            lock.release()
        return
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    runner = asyncio.create_task(client.start(token))
    waiter = asyncio.create_task(stop.wait())
    await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
    await client.close()
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await runner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("kind", choices=("real", "bare", "durable"))
    parser.add_argument("--database", type=Path, required=True)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    asyncio.run(_main(args.kind, args.database))


if __name__ == "__main__":
    main()
