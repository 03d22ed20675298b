"""Which action each board shows, noted for storage (`games.shown_seq`) so that after a
crash the boards the log is ahead of are known and redrawn before the first press. Stored a
batch at a time a moment after they were written: not a write per press, and what a crash
loses of it is only boards redrawn once more at start-up (`may_be_behind`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any

from bot.services.live import LiveGame

log = logging.getLogger(__name__)
STORED_AFTER_S = 1.0  # what the boards show is stored this long after they were written


def may_be_behind(game: LiveGame) -> bool:
    """Whether the game's board may be behind it after a restart: its last action was never
    noted as shown, or the game ended lately (a stop moves no seq)."""
    shown = game.record.shown_seq
    return game.is_finished or shown is None or shown < game.next_seq


class ShownSeqs:
    def __init__(
        self,
        store: Callable[[Mapping[int, int]], Awaitable[None]],
        spawn: Callable[[Coroutine[Any, Any, None]], object],
    ) -> None:
        """``store`` writes a batch (game id → the next action's seq its board shows);
        ``spawn`` runs it in the background, with the board publisher's other work (a stop
        cancels it, and the stop stores what is left)."""
        self.store = store
        self.spawn = spawn
        self._seqs: dict[int, int] = {}  # boards written since what they show was stored
        self._timer: asyncio.TimerHandle | None = None
        self._closed = False

    def wrote(self, game_id: int, seq: int) -> None:
        """The game's board now shows it up to ``seq`` (the next action's)."""
        self._seqs[game_id] = max(seq, self._seqs.get(game_id, 0))
        if self._timer is None and not self._closed:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(STORED_AFTER_S, self._planned)

    def _planned(self) -> None:
        self._timer = None
        self.spawn(self.store_now())

    async def store_now(self) -> None:
        """Store what is noted so far (at a stop, after `stop`: no batch is planned later)."""
        shown, self._seqs = self._seqs, {}
        try:
            await self.store(shown)
        except Exception:  # a database going away: those boards are redrawn at start-up
            log.warning("could not store what %d board(s) show", len(shown))

    def stop(self) -> None:
        """No batch is planned from now on: the stop stores the last one (`store_now`)."""
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
