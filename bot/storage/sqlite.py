"""The SQLite backend: one aiosqlite connection, every write its own committed transaction.

Why one connection and one lock: aiosqlite runs statements on one worker thread, but two
coroutines sharing the connection would interleave their BEGIN…COMMIT blocks. The lock
makes each method one atomic step; ``BEGIN IMMEDIATE`` takes SQLite's write lock up front,
so a second process on the same file waits (``busy_timeout``) instead of failing mid-way.
Every method returns only after COMMIT: an accepted action is on disk before anyone sees it.

``synchronous=FULL`` (not WAL's usual NORMAL) because a class's game should survive a power
cut too; the cost is one fsync per action, nothing at classroom scale.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
from collections import defaultdict
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import aiosqlite

from bot.storage.errors import (
    ChannelBusyError,
    EventConflictError,
    GameClosedError,
    InvitationClosedError,
    LobbyFullError,
    NotFoundError,
    StorageError,
)
from bot.storage.migrate import Migration, load_migrations, migrate
from bot.storage.privacy_sql import PrivacyStorage
from bot.storage.records import (
    FINAL_GAME_STATUSES,
    FINAL_INVITATION_STATUSES,
    GameRecord,
    GameStatus,
    Invitation,
    InvitationKind,
    InvitationStatus,
    Member,
    MemberState,
    Player,
    StoredEvent,
    StoredGame,
    Timer,
)
from bot.storage.results_sql import ResultsStorage

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5_000
MEMORY = ":memory:"

# "The channel" of a game is its thread when it has one; matches games_one_live_per_channel.
_LIVE_IN_CHANNEL = (
    "SELECT * FROM games WHERE coalesce(thread_id, channel_id) = ? AND status = 'live'"
)


def _dump(value: Any) -> str:
    """Compact, key-sorted JSON, so equal values are stored as equal text."""
    return json.dumps(
        value, ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False
    )


class Storage(ResultsStorage, PrivacyStorage):
    """The bot's repository. Create with ``await Storage.open(path)``; close when done.

    Results, ratings, boards and settings (`ResultsStorage`) and export, forget-me and
    retention (`PrivacyStorage`) are mixins in their own modules, on the same connection."""

    def __init__(self, conn: aiosqlite.Connection, path: str, schema_version: int) -> None:
        self._conn: aiosqlite.Connection | None = conn
        self._lock = asyncio.Lock()
        self.path = path
        self.schema_version = schema_version

    # ----------------------------------------------------------------- lifecycle

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str], *, migrations: list[Migration] | None = None
    ) -> Storage:
        """Open (creating folder and file if needed) and migrate the database at ``path``.

        ``":memory:"`` gives a private in-memory database (no WAL) for quick experiments.
        Raises SchemaTooNewError when the file was written by a newer bot.
        """
        name = os.fspath(path)
        if name != MEMORY:
            Path(name).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(name, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
                row = await cursor.fetchone()
            mode = str(row[0]).lower() if row is not None else "?"
            if mode != "wal" and name != MEMORY:
                log.warning("SQLite refused WAL for %s (journal_mode=%s)", name, mode)
            await conn.execute("PRAGMA synchronous = FULL")
            await conn.execute("PRAGMA foreign_keys = ON")
            version = await migrate(conn, load_migrations() if migrations is None else migrations)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, name, version)

    async def close(self) -> None:
        """Close the connection; safe to call twice."""
        conn, self._conn = self._conn, None
        if conn is not None:
            async with self._lock:
                await conn.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def pragma(self, name: str) -> Any:
        """The value of a read-only PRAGMA (for diagnostics and tests)."""
        if not name.replace("_", "").isalpha():
            raise ValueError(f"not a pragma name: {name!r}")
        async with self._transaction("DEFERRED") as conn:
            row = await _one(conn, f"PRAGMA {name}", ())
        return None if row is None else row[0]

    @asynccontextmanager
    async def _transaction(self, mode: str = "IMMEDIATE") -> AsyncIterator[aiosqlite.Connection]:
        """One transaction at a time on the shared connection. BEGIN, COMMIT and ROLLBACK are
        shielded: aiosqlite runs them in its worker thread, where a cancelled caller would
        otherwise leave a transaction open for the next one. The worker runs requests in
        order, so a rollback queued after a cancelled BEGIN always finds it done."""
        conn = self._conn
        if conn is None:
            raise StorageError("storage is closed")
        async with self._lock:
            try:
                await asyncio.shield(conn.execute(f"BEGIN {mode}"))
            except asyncio.CancelledError:
                await asyncio.shield(_rollback(conn))
                raise
            try:
                yield conn
            except BaseException:
                await asyncio.shield(_rollback(conn))
                raise
            await asyncio.shield(conn.execute("COMMIT"))

    # ----------------------------------------------------------------- games

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game: str,
        config: Any,
        seed: int,
        players: Sequence[Player],
        at: int,
        thread_id: int | None = None,
        message_id: int | None = None,
    ) -> int:
        """Store a new live game with its players; returns its id.

        The game is played in ``thread_id`` when given, else in ``channel_id``; raises
        ChannelBusyError when a live game is already played there.
        """
        _check_players(players)
        config_json = _dump(config)
        home = thread_id if thread_id is not None else channel_id
        async with self._transaction() as conn:
            busy = await _one(conn, _LIVE_IN_CHANNEL, (home,))
            if busy is not None:
                raise ChannelBusyError(home, busy["id"])
            cursor = await conn.execute(
                "INSERT INTO games (guild_id, channel_id, thread_id, message_id, game, config,"
                " seed, status, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 'live', ?, ?)",
                (guild_id, channel_id, thread_id, message_id, game, config_json, seed, at, at),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            await conn.executemany(
                "INSERT INTO game_players (game_id, seat, side, user_id, computer, display_name)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(game_id, p.seat, p.side, p.user_id, p.computer, p.display_name) for p in players],
            )
        return game_id

    async def append_event(
        self,
        game_id: int,
        seq: int,
        action: Any,
        events: Sequence[Any],
        at: int,
        *,
        user_id: int | None = None,
        status: GameStatus | None = None,
    ) -> None:
        """Store accepted action number ``seq`` (0, 1, 2, …) and the events it produced.

        Raises EventConflictError when ``seq`` is already taken (the other write won),
        GameClosedError when the game is not live, NotFoundError for an unknown game, and
        ValueError when ``seq`` would leave a gap. ``status`` ends the game in the same
        transaction (the last action and "over" are stored together or not at all).
        """
        if seq < 0:
            raise ValueError(f"seq must be >= 0, not {seq}")
        if status is not None and status not in FINAL_GAME_STATUSES:
            raise ValueError(f"a game can only end as one of {FINAL_GAME_STATUSES}")
        action_json, events_json = _dump(action), _dump(list(events))
        async with self._transaction() as conn:
            row = await _one(
                conn,
                "SELECT status, (SELECT max(seq) FROM game_events WHERE game_id = games.id) AS last"
                " FROM games WHERE id = ?",
                (game_id,),
            )
            if row is None:
                raise NotFoundError(f"no game {game_id}")
            if row["status"] != "live":
                raise GameClosedError(game_id, row["status"])
            expected = 0 if row["last"] is None else row["last"] + 1
            if seq < expected:
                raise EventConflictError(game_id, seq)
            if seq > expected:
                raise ValueError(f"game {game_id}: next seq is {expected}, not {seq}")
            try:
                await conn.execute(
                    "INSERT INTO game_events (game_id, seq, action, events, user_id, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seq, action_json, events_json, user_id, at),
                )
            except sqlite3.IntegrityError as exc:  # only reachable if the checks above drift
                raise EventConflictError(game_id, seq) from exc
            await conn.execute(
                "UPDATE games SET updated_at = ?, status = coalesce(?, status) WHERE id = ?",
                (at, status, game_id),
            )
            if status is not None:
                await conn.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))

    async def load_game(self, game_id: int) -> StoredGame:
        """The game with its players and every event in order; NotFoundError if unknown."""
        async with self._transaction("DEFERRED") as conn:
            row = await _one(conn, "SELECT * FROM games WHERE id = ?", (game_id,))
            if row is None:
                raise NotFoundError(f"no game {game_id}")
            players = await _players(conn, [game_id])
            event_rows = await conn.execute_fetchall(
                "SELECT * FROM game_events WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        events = tuple(
            StoredEvent(
                seq=r["seq"],
                action=json.loads(r["action"]),
                events=json.loads(r["events"]),
                created_at=r["created_at"],
                user_id=r["user_id"],
            )
            for r in event_rows
        )
        return StoredGame(**_game_fields(row), players=players[game_id], events=events)

    async def live_games(self) -> list[GameRecord]:
        """Every live game (oldest first), to restore at start-up."""
        async with self._transaction("DEFERRED") as conn:
            rows = list(
                await conn.execute_fetchall("SELECT * FROM games WHERE status = 'live' ORDER BY id")
            )
            players = await _players(conn, [r["id"] for r in rows])
        return [GameRecord(**_game_fields(r), players=players[r["id"]]) for r in rows]

    async def ended_since(self, at: int) -> list[int]:
        """Games that ended at or after ``at`` and have a board (oldest first): the ones
        whose board may still show buttons after a crash."""
        async with self._transaction("DEFERRED") as conn:
            rows = await conn.execute_fetchall(
                "SELECT id FROM games WHERE status != 'live' AND updated_at >= ?"
                " AND message_id IS NOT NULL ORDER BY id",
                (at,),
            )
        return [int(r["id"]) for r in rows]

    async def live_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The live game played in this channel or thread, if any."""
        async with self._transaction("DEFERRED") as conn:
            row = await _one(conn, _LIVE_IN_CHANNEL, (channel_id,))
            if row is None:
                return None
            players = await _players(conn, [row["id"]])
        return GameRecord(**_game_fields(row), players=players[row["id"]])

    async def set_board_message(
        self, game_id: int, message_id: int, at: int, *, thread_id: int | None = None
    ) -> None:
        """Remember the game's board message (and its thread, when created after the game).

        Raises ChannelBusyError if moving a live game into a thread that has one already.
        """
        async with self._transaction() as conn:
            row = await _one(conn, "SELECT status FROM games WHERE id = ?", (game_id,))
            if row is None:
                raise NotFoundError(f"no game {game_id}")
            if thread_id is not None and row["status"] == "live":
                busy = await _one(conn, _LIVE_IN_CHANNEL, (thread_id,))
                if busy is not None and busy["id"] != game_id:
                    raise ChannelBusyError(thread_id, busy["id"])
            await conn.execute(
                "UPDATE games SET message_id = ?, thread_id = coalesce(?, thread_id),"
                " updated_at = ? WHERE id = ?",
                (message_id, thread_id, at, game_id),
            )

    async def set_status(self, game_id: int, status: GameStatus, at: int) -> None:
        """End a live game as over, abandoned or stopped; its timers go with it.

        Raises GameClosedError if it had already ended (the other ending won the race).
        """
        if status not in FINAL_GAME_STATUSES:
            raise ValueError(f"a game can only end as one of {FINAL_GAME_STATUSES}")
        async with self._transaction() as conn:
            await _live_status(conn, game_id)
            await conn.execute(
                "UPDATE games SET status = ?, updated_at = ? WHERE id = ?", (status, at, game_id)
            )
            await conn.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))

    # ----------------------------------------------------------------- timers

    async def set_timer(self, game_id: int, kind: str, due_at: int, payload: Any = None) -> None:
        """Set (or move) the game's ``kind`` deadline; GameClosedError if the game ended."""
        payload_json = _dump(payload)
        async with self._transaction() as conn:
            await _live_status(conn, game_id)
            await conn.execute(
                "INSERT INTO timers (game_id, kind, due_at, payload) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, kind)"
                " DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload",
                (game_id, kind, due_at, payload_json),
            )

    async def clear_timer(self, game_id: int, kind: str) -> bool:
        """Remove a deadline; False if there was none."""
        async with self._transaction() as conn:
            cursor = await conn.execute(
                "DELETE FROM timers WHERE game_id = ? AND kind = ?", (game_id, kind)
            )
            return cursor.rowcount > 0

    async def due_timers(self, now: int) -> list[Timer]:
        """Deadlines at or before ``now``, earliest first. They stay until cleared or moved."""
        async with self._transaction("DEFERRED") as conn:
            rows = await conn.execute_fetchall(
                "SELECT t.* FROM timers AS t JOIN games AS g ON g.id = t.game_id"
                " WHERE t.due_at <= ? AND g.status = 'live'"
                " ORDER BY t.due_at, t.game_id, t.kind",
                (now,),
            )
        return [_timer(r) for r in rows]

    async def timers_for(self, game_id: int) -> list[Timer]:
        """The game's deadlines, earliest first."""
        async with self._transaction("DEFERRED") as conn:
            rows = await conn.execute_fetchall(
                "SELECT * FROM timers WHERE game_id = ? ORDER BY due_at, kind", (game_id,)
            )
        return [_timer(r) for r in rows]

    async def next_timer_due(self) -> int | None:
        """When the earliest deadline falls, so a scheduler knows how long to sleep."""
        async with self._transaction("DEFERRED") as conn:
            row = await _one(conn, "SELECT min(due_at) FROM timers", ())
        return None if row is None else row[0]

    # ----------------------------------------------------------------- invitations

    async def create_challenge(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        invited: Sequence[int],
        options: Any,
        at: int,
        expires_at: int,
    ) -> int:
        """Store an open challenge from ``host_id`` to the ``invited`` users; returns its id."""
        if not invited or len(set(invited)) != len(invited) or host_id in invited:
            raise ValueError("a challenge invites one or more distinct users other than the host")
        return await self._create_invitation(
            "challenge", guild_id, channel_id, host_id, options, at, expires_at, invited, "invited"
        )

    async def create_lobby(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        options: Any,
        at: int,
        expires_at: int,
        joined: Sequence[int] = (),
    ) -> int:
        """Store an open lobby; ``joined`` are members from the start (usually the host)."""
        if len(set(joined)) != len(joined):
            raise ValueError("joined users must be distinct")
        return await self._create_invitation(
            "lobby", guild_id, channel_id, host_id, options, at, expires_at, joined, "joined"
        )

    async def _create_invitation(
        self,
        kind: InvitationKind,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        options: Any,
        at: int,
        expires_at: int,
        members: Sequence[int],
        state: MemberState,
    ) -> int:
        options_json = _dump(options)
        async with self._transaction() as conn:
            cursor = await conn.execute(
                "INSERT INTO invitations (kind, guild_id, channel_id, host_id, options, status,"
                " created_at, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?)",
                (kind, guild_id, channel_id, host_id, options_json, at, at, expires_at),
            )
            invitation_id = cursor.lastrowid
            assert invitation_id is not None
            await conn.executemany(
                "INSERT INTO invitation_members (invitation_id, user_id, position, state)"
                " VALUES (?, ?, ?, ?)",
                [(invitation_id, user, i, state) for i, user in enumerate(members)],
            )
        return invitation_id

    async def load_invitation(self, invitation_id: int) -> Invitation:
        """The challenge or lobby with its members; NotFoundError if unknown."""
        async with self._transaction("DEFERRED") as conn:
            return await _invitation(conn, invitation_id)

    async def set_invitation_message(self, invitation_id: int, message_id: int, at: int) -> None:
        """Remember the message that carries the challenge's or lobby's buttons."""
        async with self._transaction() as conn:
            cursor = await conn.execute(
                "UPDATE invitations SET message_id = ?, updated_at = ? WHERE id = ?",
                (message_id, at, invitation_id),
            )
            if cursor.rowcount == 0:
                raise NotFoundError(f"no invitation {invitation_id}")

    async def update_invitation_options(
        self, invitation_id: int, options: Any, at: int
    ) -> Invitation:
        """Replace the options of an open challenge or lobby."""
        options_json = _dump(options)
        async with self._transaction() as conn:
            await _open_invitation(conn, invitation_id)
            await conn.execute(
                "UPDATE invitations SET options = ?, updated_at = ? WHERE id = ?",
                (options_json, at, invitation_id),
            )
            return await _invitation(conn, invitation_id)

    async def answer_challenge(
        self, invitation_id: int, user_id: int, *, accept: bool, at: int
    ) -> Invitation:
        """Record an invited user's accept or decline (they may change it while it is open).

        Whether one decline ends the challenge is the service's rule: it calls
        `close_invitation`. NotFoundError if ``user_id`` was not invited.
        """
        async with self._transaction() as conn:
            invitation = await _open_invitation(conn, invitation_id)
            if invitation.kind != "challenge":
                raise ValueError(f"invitation {invitation_id} is a {invitation.kind}")
            cursor = await conn.execute(
                "UPDATE invitation_members SET state = ? WHERE invitation_id = ? AND user_id = ?",
                ("accepted" if accept else "declined", invitation_id, user_id),
            )
            if cursor.rowcount == 0:
                raise NotFoundError(f"user {user_id} is not invited to {invitation_id}")
            await _touch_invitation(conn, invitation_id, at)
            return await _invitation(conn, invitation_id)

    async def join_lobby(
        self, invitation_id: int, user_id: int, at: int, *, capacity: int | None = None
    ) -> Invitation:
        """Add ``user_id`` to an open lobby (no-op if already in).

        With ``capacity``, raises LobbyFullError when that many have joined: the check and
        the insert are one transaction, so two players racing for the last seat cannot both
        get it.
        """
        async with self._transaction() as conn:
            invitation = await _open_invitation(conn, invitation_id)
            if invitation.kind != "lobby":
                raise ValueError(f"invitation {invitation_id} is a {invitation.kind}")
            if user_id in invitation.user_ids():
                return invitation
            if capacity is not None and len(invitation.members) >= capacity:
                raise LobbyFullError(invitation_id, capacity)
            await conn.execute(
                "INSERT INTO invitation_members (invitation_id, user_id, position, state)"
                " VALUES (?, ?, (SELECT coalesce(max(position) + 1, 0) FROM invitation_members"
                " WHERE invitation_id = ?), 'joined')",
                (invitation_id, user_id, invitation_id),
            )
            await _touch_invitation(conn, invitation_id, at)
            return await _invitation(conn, invitation_id)

    async def leave_lobby(self, invitation_id: int, user_id: int, at: int) -> Invitation:
        """Remove ``user_id`` from an open lobby (no-op if not in)."""
        async with self._transaction() as conn:
            invitation = await _open_invitation(conn, invitation_id)
            if invitation.kind != "lobby":
                raise ValueError(f"invitation {invitation_id} is a {invitation.kind}")
            cursor = await conn.execute(
                "DELETE FROM invitation_members WHERE invitation_id = ? AND user_id = ?",
                (invitation_id, user_id),
            )
            if cursor.rowcount == 0:
                return invitation
            await _touch_invitation(conn, invitation_id, at)
            return await _invitation(conn, invitation_id)

    async def close_invitation(
        self,
        invitation_id: int,
        status: InvitationStatus,
        at: int,
        *,
        game_id: int | None = None,
    ) -> Invitation:
        """Move an open invitation to a final status (``started`` with its ``game_id``).

        Compare-and-set: raises InvitationClosedError when it is no longer open, so of two
        racing closes (accept vs. withdraw, begin vs. expiry) exactly one wins.
        """
        if status not in FINAL_INVITATION_STATUSES:
            raise ValueError(f"an invitation can only close as one of {FINAL_INVITATION_STATUSES}")
        if (status == "started") != (game_id is not None):
            raise ValueError("game_id is given exactly when the invitation is started")
        async with self._transaction() as conn:
            await _open_invitation(conn, invitation_id)
            await conn.execute(
                "UPDATE invitations SET status = ?, game_id = ?, updated_at = ? WHERE id = ?",
                (status, game_id, at, invitation_id),
            )
            return await _invitation(conn, invitation_id)

    async def expire_invitations(self, now: int) -> list[Invitation]:
        """Close every open invitation whose ``expires_at`` is at or before ``now``.

        Returns them (now ``expired``) so their messages can be edited.
        """
        async with self._transaction() as conn:
            rows = await conn.execute_fetchall(
                "SELECT id FROM invitations WHERE status = 'open' AND expires_at <= ? ORDER BY id",
                (now,),
            )
            ids = [r["id"] for r in rows]
            await conn.executemany(
                "UPDATE invitations SET status = 'expired', updated_at = ? WHERE id = ?",
                [(now, i) for i in ids],
            )
            return await _invitations(conn, ids)

    async def open_invitations(self) -> list[Invitation]:
        """Every open challenge and lobby, oldest first (to schedule expiry at start-up)."""
        async with self._transaction("DEFERRED") as conn:
            rows = await conn.execute_fetchall(
                "SELECT id FROM invitations WHERE status = 'open' ORDER BY id"
            )
            return await _invitations(conn, [r["id"] for r in rows])

    async def last_challenge_at(self, host_id: int) -> int | None:
        """When ``host_id`` last sent a challenge (any status), for the cooldown to survive a
        restart."""
        async with self._transaction("DEFERRED") as conn:
            row = await _one(
                conn,
                "SELECT max(created_at) FROM invitations WHERE host_id = ? AND kind = 'challenge'",
                (host_id,),
            )
        return None if row is None else row[0]

    async def open_invitations_for_user(self, user_id: int) -> list[Invitation]:
        """Open challenges and lobbies the user hosts or is in (declined ones excluded)."""
        async with self._transaction("DEFERRED") as conn:
            rows = await conn.execute_fetchall(
                "SELECT id FROM invitations WHERE status = 'open' AND host_id = ?"
                " UNION SELECT i.id FROM invitation_members AS m"
                " JOIN invitations AS i ON i.id = m.invitation_id"
                " WHERE m.user_id = ? AND m.state <> 'declined' AND i.status = 'open'"
                " ORDER BY 1",
                (user_id, user_id),
            )
            return await _invitations(conn, [r[0] for r in rows])


# --------------------------------------------------------------------- helpers


async def _rollback(conn: aiosqlite.Connection) -> None:
    """Roll back whatever transaction is open (none is fine)."""
    with suppress(sqlite3.OperationalError):
        await conn.execute("ROLLBACK")


def _check_players(players: Sequence[Player]) -> None:
    if not players:
        raise ValueError("a game needs at least one player")
    seats = [p.seat for p in players]
    users = [p.user_id for p in players if p.user_id is not None]
    if len(set(seats)) != len(seats) or len(set(users)) != len(users):
        raise ValueError("seats and user ids must be distinct within a game")


async def _one(conn: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> sqlite3.Row | None:
    async with conn.execute(sql, params) as cursor:
        row: sqlite3.Row | None = await cursor.fetchone()
    return row


def _placeholders(count: int) -> str:
    return ", ".join("?" * count)


async def _live_status(conn: aiosqlite.Connection, game_id: int) -> None:
    row = await _one(conn, "SELECT status FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise NotFoundError(f"no game {game_id}")
    if row["status"] != "live":
        raise GameClosedError(game_id, row["status"])


def _game_fields(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "guild_id": row["guild_id"],
        "channel_id": row["channel_id"],
        "thread_id": row["thread_id"],
        "message_id": row["message_id"],
        "game": row["game"],
        "config": json.loads(row["config"]),
        "seed": row["seed"],
        "status": row["status"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }


async def _players(
    conn: aiosqlite.Connection, game_ids: Sequence[int]
) -> defaultdict[int, tuple[Player, ...]]:
    found: defaultdict[int, list[Player]] = defaultdict(list)
    if game_ids:
        rows = await conn.execute_fetchall(
            f"SELECT * FROM game_players WHERE game_id IN ({_placeholders(len(game_ids))})"
            " ORDER BY game_id, seat",
            tuple(game_ids),
        )
        for r in rows:
            found[r["game_id"]].append(
                Player(
                    seat=r["seat"],
                    side=r["side"],
                    display_name=r["display_name"],
                    user_id=r["user_id"],
                    computer=r["computer"],
                )
            )
    return defaultdict(tuple, {k: tuple(v) for k, v in found.items()})


def _timer(row: sqlite3.Row) -> Timer:
    return Timer(row["game_id"], row["kind"], row["due_at"], json.loads(row["payload"]))


async def _touch_invitation(conn: aiosqlite.Connection, invitation_id: int, at: int) -> None:
    await conn.execute("UPDATE invitations SET updated_at = ? WHERE id = ?", (at, invitation_id))


async def _open_invitation(conn: aiosqlite.Connection, invitation_id: int) -> Invitation:
    invitation = await _invitation(conn, invitation_id)
    if invitation.status != "open":
        raise InvitationClosedError(invitation_id, invitation.status)
    return invitation


async def _invitation(conn: aiosqlite.Connection, invitation_id: int) -> Invitation:
    found = await _invitations(conn, [invitation_id])
    if not found:
        raise NotFoundError(f"no invitation {invitation_id}")
    return found[0]


async def _invitations(conn: aiosqlite.Connection, ids: Iterable[int]) -> list[Invitation]:
    ids = list(ids)
    if not ids:
        return []
    marks = _placeholders(len(ids))
    rows = await conn.execute_fetchall(
        f"SELECT * FROM invitations WHERE id IN ({marks}) ORDER BY id", tuple(ids)
    )
    member_rows = await conn.execute_fetchall(
        f"SELECT * FROM invitation_members WHERE invitation_id IN ({marks})"
        " ORDER BY invitation_id, position",
        tuple(ids),
    )
    members: defaultdict[int, list[Member]] = defaultdict(list)
    for m in member_rows:
        members[m["invitation_id"]].append(Member(m["user_id"], m["state"]))
    return [
        Invitation(
            id=r["id"],
            kind=r["kind"],
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            message_id=r["message_id"],
            host_id=r["host_id"],
            options=json.loads(r["options"]),
            status=r["status"],
            game_id=r["game_id"],
            created_at=r["created_at"],
            updated_at=r["updated_at"],
            expires_at=r["expires_at"],
            members=tuple(members[r["id"]]),
        )
        for r in rows
    ]


__all__ = ["Storage"]
