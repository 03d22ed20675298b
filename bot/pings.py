"""Telling a player it is their turn: a mention in the game's channel, quiet enough for a
class channel. Only where the game waits for one side alone (naming the target, or the
game's first decision), only that side's players, once per decision, never the player who
just pressed, never in a game against the computer (the pupil is at the board already), not
where the teacher turned pings off, and at most once a minute per player whatever the games
(a fast game's turns are seen on the board; a ping is for one who looked away)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.board_state import BoardState
from bot.replies import TRANSPORT_ERRORS
from bot.services.admin import GuildSettings
from bot.services.clock import Clock
from bot.services.live import LiveGame
from classroom.i18n import t

log = logging.getLogger(__name__)
PING_EVERY_MS = 60_000  # a player is pinged at most once a minute, whatever the games


class TurnPings:
    def __init__(
        self,
        settings: Callable[[int], Awaitable[GuildSettings]],
        channel: Callable[[int], discord.PartialMessageable],
        clock: Clock,
    ) -> None:
        """``settings`` reads a server's settings (pings may be turned off); ``channel``
        opens the game's channel, where the ping is sent."""
        self.settings = settings
        self.channel = channel
        self.clock = clock
        self._pinged_at: dict[int, int] = {}  # player → when last pinged (clock ms)

    def pinged_at(self, user: int) -> int | None:
        """When the player was last pinged (clock ms), within the last minute; else None."""
        return self._pinged_at.get(user)

    async def ping(self, game: LiveGame, board: BoardState, presser: int | None) -> None:
        """Ping the players the game waits for now, if anyone should be (see the module)."""
        window = game.state.window
        if game.is_finished or board.pinged == window or game.computer_sides():
            return
        seen = board.seen(game)
        first = board.pinged is None and seen.round <= 1
        decision = seen.decision
        if decision is None or len(seen.awaited) != 1 or not (decision.alone or first):
            return
        users = [p.user_id for p in game.players_of(seen.awaited[0]) if p.user_id is not None]
        board.pinged = window
        if not users or users == [presser]:
            return
        now_ms = self.clock.now_ms()
        users = [
            u for u in users if now_ms - self._pinged_at.get(u, -PING_EVERY_MS) >= PING_EVERY_MS
        ]
        if not users:
            return
        guild_id = game.record.guild_id
        if guild_id is not None and not (await self.settings(guild_id)).pings:
            return
        self._pinged_at = {
            u: at for u, at in self._pinged_at.items() if now_ms - at < PING_EVERY_MS
        } | dict.fromkeys(users, now_ms)
        lang = game.settings.locale
        key = decision.ping
        players = " ".join(f"<@{uid}>" for uid in users)
        text = t(key, lang, players=players, round=seen.round, count=len(users))  # a team: both
        mentions = discord.AllowedMentions(users=[discord.Object(uid) for uid in users])
        try:
            await self.channel(game.channel_id).send(text, allowed_mentions=mentions)
        except TRANSPORT_ERRORS:  # the game goes on without it (a stop under way, too)
            log.info("could not ping the players of game %s", game.id)
