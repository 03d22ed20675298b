"""One background task that fires every stored deadline when it falls due: answer time, time
limits, idle expiry, autoplay and invitation expiry. It sleeps until the earliest deadline
(or until told that the deadlines changed), so nothing polls."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.services.clock import Clock
from bot.services.deadlines import GameDeadlines
from bot.services.figures import SessionSummary
from bot.services.games import GameService
from bot.services.invitations import InvitationService
from bot.services.sessions import SessionService
from storage import Invitation
from storage.faults import database_faults, is_fault

log = logging.getLogger(__name__)

MAX_SLEEP_S = 60.0  # look again at least once a minute, in case a clock jumped
SESSION_POLL_MS = 5_000  # an ended session's games still finishing: how often to look
RETRY_S = 5.0  # after a failed pass; doubled after each further failure, up to a minute

InvitationListener = Callable[[Invitation], Awaitable[None]]
SessionListener = Callable[[SessionSummary], Awaitable[None]]


class Scheduler:
    def __init__(
        self,
        games: GameService,
        deadlines: GameDeadlines,
        invitations: InvitationService,
        clock: Clock,
        *,
        changed: asyncio.Event,
        invitation_listeners: Sequence[InvitationListener] = (),
        sessions: SessionService | None = None,
        session_listeners: Sequence[SessionListener] = (),
    ) -> None:
        """``changed`` is the event the services set when a deadline moved (pass its ``set``
        as their ``timers_changed``); ``invitation_listeners`` are told of every expired
        challenge or lobby (the Discord layer takes its buttons away); ``session_listeners``
        of every class session's summary once its games are over (the Discord layer posts
        it)."""
        self.games = games
        self.deadlines = deadlines
        self.invitations = invitations
        self.clock = clock
        self.invitation_listeners = tuple(invitation_listeners)
        self.sessions = sessions
        self.session_listeners = tuple(session_listeners)
        self._changed = changed
        self._task: asyncio.Task[None] | None = None
        self._failing: str | None = None  # the failure last reported, until a pass works
        self._retry_s = RETRY_S

    def _failed(self, error: Exception) -> float:
        """Report a failing pass once (an unwritable database fails every pass the same
        way: one ERROR with its traceback, not one every few seconds), and wait longer
        after each failure, up to a minute."""
        what = f"{type(error).__name__}: {error}"
        if is_fault(error):  # the database: one line for presses and timers alike
            database_faults.failed(error, press=False)
        elif what != self._failing:
            log.exception("scheduler pass failed (%s); trying again, reported once", what)
            self._failing = what
        else:
            log.debug("scheduler pass failed again: %s", what)
        wait, self._retry_s = self._retry_s, min(MAX_SLEEP_S, self._retry_s * 2)
        return wait

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="mattekrig-scheduler")

    def wake(self) -> None:
        """A deadline was added outside the services that tell the scheduler themselves."""
        self._changed.set()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def run_due(self) -> None:
        """Fire everything that is due now (the loop calls this; tests may too)."""
        await self.deadlines.fire_due()
        for invitation in await self.invitations.expire_due():
            for listener in self.invitation_listeners:
                try:
                    await listener(invitation)
                except Exception:
                    log.exception("invitation listener failed for %s", invitation.id)
        if self.sessions is None:
            return
        live = [
            (g.record.guild_id, g.record.created_at)
            for g in self.games.games.values()
            if g.record.guild_id is not None and not g.is_finished
        ]
        for summary in await self.sessions.summaries_due(live):
            for session_listener in self.session_listeners:
                try:
                    await session_listener(summary)
                except Exception:
                    log.exception("session listener failed for %s", summary.session.id)

    async def _next_sleep_s(self) -> float:
        due = [
            d
            for d in (
                await self.deadlines.next_wake_ms(),
                await self.invitations.next_expiry_ms(),
            )
            if d is not None
        ]
        now = self.clock.now_ms()
        session_end = await self.sessions.next_end_ms() if self.sessions else None
        if session_end is not None:
            # a session past its end waits for its last rounds and records: look again soon
            due.append(session_end if session_end > now else now + SESSION_POLL_MS)
        if not due:
            return MAX_SLEEP_S
        return max(0.0, min(MAX_SLEEP_S, (min(due) - now) / 1000))

    async def _run(self) -> None:
        while True:
            self._changed.clear()
            try:
                await self.run_due()
                sleep_s = await self._next_sleep_s()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                sleep_s = self._failed(error)
            else:
                if self._failing is not None:
                    log.info("the scheduler works again (after: %s)", self._failing)
                    self._failing, self._retry_s = None, RETRY_S
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for swallows a cancel that
            # arrives just as the event is set, and stop() then waits forever.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(sleep_s):
                    await self._changed.wait()
