"""Run any ``discord.Client`` against the fake: start, wait until ready, stop, start again.

The factory builds a fresh client each time, as a new process would after a restart; the fake's
state (messages, commands) lives on, so a button posted before the restart can be pressed after.
Factories should pass ``guild_ready_timeout=0`` (otherwise every start waits 2 s for guilds).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import discord

from .server import FakeDiscord

ClientFactory = Callable[[], discord.Client]
# A guard against a hang, not a measure of the start: a start's own time is mostly its database
# (a dozen migrations, each committed with an fsync) and an fsync on a disk the whole machine
# shares took up to 176 ms (802 of them over test_fair_e2e), so ten seconds was a busy disk.
READY_PATIENCE_S = 60.0


async def _identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
    """Replaces the default hook's 5-second sleep before a re-IDENTIFY (tests only)."""


class BotHarness:
    """Starts clients built by ``factory`` against ``fake`` and stops them cleanly."""

    def __init__(
        self,
        fake: FakeDiscord,
        factory: ClientFactory,
        *,
        ready_timeout: float = READY_PATIENCE_S,
        fast_reidentify: bool = True,
    ) -> None:
        self.fake = fake
        self.factory = factory
        self.ready_timeout = ready_timeout
        self.fast_reidentify = fast_reidentify
        self.clients: list[discord.Client] = []
        self._client: discord.Client | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def client(self) -> discord.Client:
        """The running client (``RuntimeError`` when stopped)."""
        if self._client is None:
            raise RuntimeError("the client is not running; call start()")
        return self._client

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self) -> discord.Client:
        """Build a client, log in, connect and wait until it is ready with every guild cached."""
        if self._task is not None:
            raise RuntimeError("already running; stop() first")
        client = self.factory()
        if (
            self.fast_reidentify
            and type(client).before_identify_hook is discord.Client.before_identify_hook
        ):
            # An instance attribute shadows the documented hook without touching the class.
            client.before_identify_hook = _identify_at_once  # type: ignore[method-assign]
        self._client = client
        self.clients.append(client)
        self._task = asyncio.create_task(client.start(self.fake.token), name="fake-discord-client")
        # Whichever comes first: ready, or the client's task ending (a failed start). The
        # wait for ready counts the bot's time only, not the machine's (FakeDiscord.wait_until).
        ready = asyncio.create_task(self._ready(client))
        done, _ = await asyncio.wait({self._task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if ready in done and not ready.cancelled() and ready.exception() is None:
            return client
        ready.cancel()
        failure: BaseException | None = None
        if self._task in done:
            failure = self._task.exception()
        await self.stop(raise_errors=False)
        if failure is not None:
            raise RuntimeError("the client stopped before it was ready") from failure
        raise TimeoutError(f"the client was not ready within {self.ready_timeout} s")

    async def _ready(self, client: discord.Client) -> None:
        guild_ids = [g for g in self.fake.world.guilds if _on_its_shards(client, g)]
        await self.fake.wait_until(
            lambda: client.is_ready() and all(client.get_guild(g) for g in guild_ids),
            timeout=self.ready_timeout,
            what="the client to be ready",
        )

    async def stop(self, *, raise_errors: bool = True) -> None:
        """Close the client and wait for its task; re-raises a crash of the client's task."""
        client, task = self._client, self._task
        self._client, self._task = None, None
        if client is None or task is None:
            return
        session_ids = _session_ids(client)
        await client.close()
        # discord.py closes with 4000 (resumable) even on a clean shutdown; the process is gone.
        for session_id in session_ids:
            self.fake.gateway.end_session(session_id)
        try:
            try:
                await self.fake.wait_until(task.done, timeout=self.ready_timeout, what="the stop")
            except TimeoutError:
                task.cancel()
                raise
            await task
        except asyncio.CancelledError:
            pass
        except Exception:
            if raise_errors:
                raise

    async def restart(self) -> discord.Client:
        """``stop()`` then ``start()`` a fresh client from the factory."""
        await self.stop()
        return await self.start()

    async def __aenter__(self) -> discord.Client:
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop(raise_errors=exc[0] is None)


def _on_its_shards(client: discord.Client, guild_id: int) -> bool:
    """Whether the client's shards carry the guild (a sharded client sees only theirs)."""
    count, ids = client.shard_count, getattr(client, "shard_ids", None)
    if not isinstance(client, discord.AutoShardedClient) or not count:
        return True
    return ((guild_id >> 22) % count) in (ids if ids is not None else range(count))


def _session_ids(client: discord.Client) -> list[str | None]:
    if isinstance(client, discord.AutoShardedClient):
        return [shard.ws.session_id for shard in client._AutoShardedClient__shards.values()]  # type: ignore[attr-defined]
    return [client.ws.session_id if client.ws is not None else None]


@contextlib.asynccontextmanager
async def run_client(
    fake: FakeDiscord, factory: ClientFactory, **options: Any
) -> AsyncIterator[discord.Client]:
    """``async with run_client(fake, factory) as client:`` — one client, stopped on exit."""
    harness = BotHarness(fake, factory, **options)
    async with harness as client:
        yield client
