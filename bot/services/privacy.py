"""`/mattekrig my-data` and `/mattekrig forget-me`, and the retention PRIVACY.md promises.

Retention (PRIVACY.md), in days the operator may set (`Retention`, from the settings
GAME_LOG_DAYS, RESULT_DAYS and LEFT_SERVER_DAYS):

* a finished game's move log (games, game_players, game_events, timers) is deleted
  `game_log_days` after it ended: its result was computed when it ended;
* closed challenges and lobbies are deleted as long after they closed;
* results (and with them the boards' totals) are deleted `result_days` after the game;
  ratings stay what they are until the pupil is forgotten or the server removes the bot;
* weekly board totals are deleted after `WEEKS_KEPT` weeks;
* everything stored for a server is deleted `left_server_days` after the bot was removed
  from it, unless it was added back meanwhile.

`purge_old` runs all of it; the bot calls it once a day (and at start-up).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.services.clock import Clock
from bot.services.results import ResultsService
from classroom.errors import UserFacingError
from classroom.periods import DAY_MS, SCHOOL_TZ, week_key
from storage import UserInLiveGameError
from storage.contract import Store

WEEKS_KEPT = 2
EXPORT_FORMAT = 1


@dataclass(frozen=True, slots=True)
class Retention:
    """How long data is kept, in days (PRIVACY.md states the defaults)."""

    game_log_days: int = 30  # a finished game's move log; a closed challenge or lobby
    result_days: int = 730  # a pupil's results, answers per operation, board totals
    left_server_days: int = 30  # a server's data, after the bot was removed from it


class GuildInPlay(Exception):
    """A server still has live games: they must end before its data can go."""

    def __init__(self, guild_id: int, game_ids: list[int]) -> None:
        super().__init__(f"server {guild_id} has {len(game_ids)} live game(s)")
        self.guild_id = guild_id
        self.game_ids = game_ids


class PrivacyService:
    def __init__(
        self,
        storage: Store,
        clock: Clock,
        results: ResultsService,
        retention: Retention | None = None,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.results = results
        self.retention = retention or Retention()

    async def export(self, user_id: int, guild_id: int | None = None) -> dict[str, Any]:
        """Everything stored about the user: every table's rows that name them, and the rows
        those belong to (the games they played, those games' results). ``guild_id``: only
        what belongs to that server (the operator's `mattekrig privacy export --guild`)."""
        tables = withhold_live(await self.storage.export_user(user_id))
        data: dict[str, Any] = {
            "format": EXPORT_FORMAT,
            "user_id": str(user_id),
            "exported_at": self.clock.now_ms(),
            "about": "Mattekrig: everything this bot stores about you. See PRIVACY.md.",
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
            tables = in_guild(tables, guild_id)
        return {**data, "tables": tables}

    async def export_file(self, user_id: int, guild_id: int | None = None) -> tuple[str, bytes]:
        """`/mattekrig my-data` (and `mattekrig privacy export`): the (file name, UTF-8
        JSON) of the export."""
        data = await self.export(user_id, guild_id)
        body = json.dumps(data, ensure_ascii=False, indent=2, default=str).encode("utf-8")
        return f"mattekrig-data-{user_id}.json", body

    async def forget(self, user_id: int, guild_id: int | None = None) -> dict[str, int]:
        """`/mattekrig forget-me` (after the Discord layer's confirmation): delete the user's
        data everywhere (``guild_id``: in that server only, the operator's `mattekrig privacy
        forget --guild`); in other players' results they become an anonymous player.

        Finished games that still lack a result are recorded first, so the opponents keep
        theirs. Refused with ``privacy.forget.live_game`` while the user is in a live game
        (there; stop it or let it end first). Returns rows touched per table.
        """
        if guild_id is None and await self.storage.live_games_of(user_id):
            raise UserFacingError("privacy.forget.live_game")
        await self.results.record_pending(limit=10_000)
        try:
            return await self.storage.forget_user(user_id, self.clock.now_ms(), guild_id)
        except UserInLiveGameError:  # a game started between the check and the delete
            raise UserFacingError("privacy.forget.live_game") from None

    async def forget_guild(self, guild_id: int) -> dict[str, int]:
        """Delete everything stored for a server. Refused (GuildInPlay) while one of its
        games is live: a running bot would go on playing a game whose rows are gone."""
        live = await self.storage.live_games_in(guild_id)
        if live:
            raise GuildInPlay(guild_id, live)
        return await self.storage.forget_guild(guild_id, self.clock.now_ms())

    # -- data follows the school: a server that removed the bot ---------------------------

    async def guild_left(self, guild_id: int) -> None:
        """GUILD_DELETE: the bot was removed from the server (or it was deleted). Its data is
        deleted `left_server_days` later by the daily purge, unless the bot comes back."""
        await self.storage.guild_left(guild_id, self.clock.now_ms())

    async def guild_back(self, guild_id: int) -> bool:
        """The bot is in the server (again): its data stays. True if it had been removed."""
        return await self.storage.guild_back(guild_id)

    async def servers_now(self, present: set[int], ours: Callable[[int], bool]) -> None:
        """At start-up: the servers the bot is in now keep their data; a server whose data
        is stored and that is gone (the bot was removed while it was stopped) starts its
        grace period. ``ours``: the servers this process answers for (its shards)."""
        departed = await self.storage.departed_guilds()
        for guild_id in present & set(departed):
            await self.storage.guild_back(guild_id)
        now = self.clock.now_ms()
        for guild_id in await self.storage.known_guilds():
            if guild_id not in present and guild_id not in departed and ours(guild_id):
                await self.storage.guild_left(guild_id, now)

    async def purge_old(self) -> dict[str, int]:
        """Apply the retention periods (module docstring). Records pending results first;
        forgets the servers whose grace period after removing the bot is over (a live game
        they still have is left to end first)."""
        now = self.clock.now_ms()
        keep = self.retention
        await self.results.record_pending(limit=10_000)
        gone = 0
        for guild_id, left_at in sorted((await self.storage.departed_guilds()).items()):
            if left_at < now - keep.left_server_days * DAY_MS:
                if await self.storage.live_games_in(guild_id):
                    continue
                await self.storage.forget_guild(guild_id, now)
                gone += 1
        counts = await self.storage.purge_old(
            games_before=now - keep.game_log_days * DAY_MS,
            invitations_before=now - keep.game_log_days * DAY_MS,
            results_before=now - keep.result_days * DAY_MS,
            weeks_before=week_key(now - WEEKS_KEPT * 7 * DAY_MS, SCHOOL_TZ),
        )
        return {**counts, "servers": gone}


# What a live game's export leaves out: the seed, and the card orders chance gave (the deal,
# a reshuffled pile). With either, the engine's replay prints every card still to come for
# every side (RULES §1.6: chance comes only from the seeded generator), so a pupil could see
# their opponent's next cards mid-game. A finished game's full record stays in the export.
_CHANCE_KEYS = {
    "dealt": ("piles", "set_aside"),
    "reshuffle": ("order",),
    "endgame_shuffle": ("order",),
}
WITHHELD = "withheld until the game has ended"


def withhold_live(tables: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """The export with every live game's seed and chance outcomes left out."""
    live = {row["id"] for row in tables.get("games", []) if row.get("status") == "live"}
    if not live:
        return tables
    out = dict(tables)
    out["games"] = [
        {**row, "seed": WITHHELD} if row["id"] in live else row for row in tables["games"]
    ]
    out["game_events"] = [
        {**row, "events": [_without_chance(e) for e in row["events"]]}
        if row.get("game_id") in live and isinstance(row.get("events"), list)
        else row
        for row in tables.get("game_events", [])
    ]
    return out


def _without_chance(event: Any) -> Any:
    if not isinstance(event, dict):
        return event
    keys = _CHANCE_KEYS.get(str(event.get("type")))
    if not keys:
        return event
    return {**{k: v for k, v in event.items() if k not in keys}, **dict.fromkeys(keys, WITHHELD)}


def in_guild(
    tables: dict[str, list[dict[str, Any]]], guild_id: int
) -> dict[str, list[dict[str, Any]]]:
    """An export's rows that belong to one server: those with its ``guild_id``, and those
    that belong to its games, results or invitations (the rows without a server of their
    own: moves, seats, answers per operation, invitation members)."""

    def own(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [row for row in rows if row.get("guild_id") == guild_id]

    kept = {table: own(rows) for table, rows in tables.items()}
    games = {row["id"] for row in kept.get("games", [])}
    games |= {row["game_id"] for row in kept.get("results", [])}
    invitations = {row["id"] for row in kept.get("invitations", [])}
    for table, rows in tables.items():
        if rows and "guild_id" not in rows[0]:
            kept[table] = [
                row
                for row in rows
                if row.get("game_id") in games or row.get("invitation_id") in invitations
            ]
    return kept
