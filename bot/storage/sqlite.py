"""The SQLite backend: every method one transaction, run whole on the database thread.

Writes go through `Database.write` (bot/storage/database.py): one writer thread, group
commit, a savepoint per write, each caller answered after its COMMIT. ``BEGIN IMMEDIATE``
takes SQLite's write lock up front, so a second process on the same file waits
(``busy_timeout``) instead of failing mid-way. Reads run on a second connection.

``synchronous=FULL`` (not WAL's usual NORMAL) because a class's game should survive a power
cut too; group commit pays that fsync once per batch, not once per action.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self, TypeVar

from bot.storage.contract import Store
from bot.storage.database import MEMORY, Database, Work
from bot.storage.errors import (
    ChannelBusyError,
    EventConflictError,
    GameClosedError,
    InvitationClosedError,
    LobbyFullError,
    NotFoundError,
)
from bot.storage.migrate import Migration, load_migrations, migrate
from bot.storage.privacy_sql import PrivacyStorage
from bot.storage.records import (
    FINAL_GAME_STATUSES,
    FINAL_INVITATION_STATUSES,
    ActionCommit,
    GameRecord,
    GameStatus,
    GuildSettings,
    Invitation,
    InvitationKind,
    InvitationStatus,
    Member,
    MemberState,
    NewEvent,
    NewGame,
    Player,
    StoredEvent,
    StoredGame,
    Timer,
)
from bot.storage.results_sql import ResultsStorage
from bot.storage.sql import dump as _dump
from bot.storage.sql import one as _one
from bot.storage.sql import placeholders as _placeholders
from bot.storage.sql import rows as _all
from bot.storage.teachers_sql import TeacherStorage

T = TypeVar("T")

# "The channel" of a game is its thread when it has one; matches games_one_live_per_channel.
_LIVE_IN_CHANNEL = (
    "SELECT * FROM games WHERE coalesce(thread_id, channel_id) = ? AND status = 'live'"
)


class Storage(ResultsStorage, PrivacyStorage, TeacherStorage):
    """The bot's repository. Create with ``await Storage.open(path)``; close when done.

    Results, ratings, boards and settings (`ResultsStorage`), export, forget-me and
    retention (`PrivacyStorage`) and the teacher's presets, accommodations, sessions and
    assignments (`TeacherStorage`) are mixins in their own modules, on the same database."""

    def __init__(self, db: Database, path: str, schema_version: int) -> None:
        self._db = db
        self.path = path
        self.schema_version = schema_version
        self._settings_cache: dict[int, GuildSettings] = {}
        self._settings_generation = 0

    # ----------------------------------------------------------------- lifecycle

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str], *, migrations: list[Migration] | None = None
    ) -> Storage:
        """Open (creating folder and file if needed) and migrate the database at ``path``.

        ``":memory:"`` gives a private in-memory database (no WAL) for tests and quick
        experiments. Raises SchemaTooNewError when the file was written by a newer bot.
        """
        name = os.fspath(path)
        if name != MEMORY:
            Path(name).parent.mkdir(parents=True, exist_ok=True)
        found = load_migrations() if migrations is None else migrations
        db = Database.open(name)
        try:
            version = await db.raw(lambda conn: migrate(conn, found))
            db.open_reader()
        except BaseException:
            await db.close()
            raise
        return cls(db, name, version)

    async def close(self) -> None:
        """Finish the queued writes and close; safe to call twice."""
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def write_batches(self) -> int:
        """Write transactions committed since opening (group commit: usually < writes)."""
        return self._db.batches

    async def pragma(self, name: str) -> Any:
        """The value of a read-only PRAGMA (for diagnostics and tests)."""
        if not name.replace("_", "").isalpha():
            raise ValueError(f"not a pragma name: {name!r}")

        def _tx(conn: sqlite3.Connection) -> Any:
            row = _one(conn, f"PRAGMA {name}", ())
            return None if row is None else row[0]

        return await self._db.raw(_tx)

    async def _write(self, work: Work[T]) -> T:
        return await self._db.write(work)

    async def _read(self, work: Work[T]) -> T:
        return await self._db.read(work)

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
        new = NewGame(
            guild_id, channel_id, game, config, seed, tuple(players), thread_id, message_id
        )
        _check_players(new.players)
        return await self._write(lambda conn: _insert_game(conn, new, at))

    async def start_game(self, new: NewGame, change: ActionCommit) -> GameRecord:
        """Create the game and store its first change (the deal, any computer moves, its
        deadlines) in one transaction; returns the game's record.

        ChannelBusyError when a live game is already played where it would be.
        """
        _check_players(new.players)

        def _tx(conn: sqlite3.Connection) -> GameRecord:
            game_id = _insert_game(conn, new, change.at)
            _commit(conn, game_id, change)
            # The record as a read would return it, without reading it back.
            return GameRecord(
                id=game_id,
                guild_id=new.guild_id,
                channel_id=new.channel_id,
                thread_id=new.thread_id,
                message_id=new.message_id,
                game=new.game,
                config=json.loads(_dump(new.config)),
                seed=new.seed,
                status=change.status or "live",
                created_at=change.at,
                updated_at=change.at,
                players=tuple(sorted(new.players, key=lambda p: p.seat)),
            )

        return await self._write(_tx)

    async def commit_action(self, game_id: int, change: ActionCommit) -> None:
        """Store one accepted press whole: its actions (seq numbered on from the last), its
        deadlines and the game's end, in one transaction or not at all.

        Raises EventConflictError when the first seq is taken (the other press won),
        GameClosedError when the game is not live, NotFoundError for an unknown game, and
        ValueError when a seq would leave a gap.
        """
        _check_change(change)
        await self._write(lambda conn: _commit(conn, game_id, change))

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

        The one-action case of `commit_action` (same refusals). ``status`` ends the game in
        the same transaction (the last action and "over" are stored together or not at all).
        """
        change = ActionCommit(at, [NewEvent(seq, action, list(events), user_id)], status=status)
        await self.commit_action(game_id, change)

    async def load_game(self, game_id: int) -> StoredGame:
        """The game with its players and every event in order; NotFoundError if unknown."""

        def _tx(conn: sqlite3.Connection) -> StoredGame:
            found = _stored_games(conn, "g.id = ?", (game_id,))
            if not found:
                raise NotFoundError(f"no game {game_id}")
            return found[0]

        return await self._read(_tx)

    async def load_live_games(self) -> list[StoredGame]:
        """Every live game with its players and events, oldest first: a restart replays them
        all from one read instead of one round trip per game (issue 9: 1,000 games ≤ 1 s)."""
        return await self._read(lambda conn: _stored_games(conn, "g.status = 'live'", ()))

    async def live_games(self) -> list[GameRecord]:
        """Every live game (oldest first), to restore at start-up."""

        def _tx(conn: sqlite3.Connection) -> list[GameRecord]:
            rows = list(_all(conn, "SELECT * FROM games WHERE status = 'live' ORDER BY id"))
            players = _players(conn, [r["id"] for r in rows])
            return [GameRecord(**_game_fields(r), players=players[r["id"]]) for r in rows]

        return await self._read(_tx)

    async def ended_since(self, at: int) -> list[int]:
        """Games that ended at or after ``at`` and have a board (oldest first): the ones
        whose board may still show buttons after a crash."""

        def _tx(conn: sqlite3.Connection) -> list[int]:
            sql = (
                "SELECT id FROM games WHERE status != 'live' AND updated_at >= ?"
                " AND message_id IS NOT NULL ORDER BY id"
            )
            return [int(r["id"]) for r in _all(conn, sql, (at,))]

        return await self._read(_tx)

    async def live_game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The live game played in this channel or thread, if any."""

        def _tx(conn: sqlite3.Connection) -> GameRecord | None:
            row = _one(conn, _LIVE_IN_CHANNEL, (channel_id,))
            if row is None:
                return None
            players = _players(conn, [row["id"]])
            return GameRecord(**_game_fields(row), players=players[row["id"]])

        return await self._read(_tx)

    async def set_board_message(
        self, game_id: int, message_id: int, at: int, *, thread_id: int | None = None
    ) -> None:
        """Remember the game's board message (and its thread, when created after the game).

        Raises ChannelBusyError if moving a live game into a thread that has one already.
        """

        def _tx(conn: sqlite3.Connection) -> None:
            row = _one(conn, "SELECT status FROM games WHERE id = ?", (game_id,))
            if row is None:
                raise NotFoundError(f"no game {game_id}")
            if thread_id is not None and row["status"] == "live":
                busy = _one(conn, _LIVE_IN_CHANNEL, (thread_id,))
                if busy is not None and busy["id"] != game_id:
                    raise ChannelBusyError(thread_id, busy["id"])
            conn.execute(
                "UPDATE games SET message_id = ?, thread_id = coalesce(?, thread_id),"
                " updated_at = ? WHERE id = ?",
                (message_id, thread_id, at, game_id),
            )

        await self._write(_tx)

    async def set_status(self, game_id: int, status: GameStatus, at: int) -> None:
        """End a live game as over, abandoned or stopped; its timers go with it.

        Raises GameClosedError if it had already ended (the other ending won the race).
        """
        if status not in FINAL_GAME_STATUSES:
            raise ValueError(f"a game can only end as one of {FINAL_GAME_STATUSES}")

        def _tx(conn: sqlite3.Connection) -> None:
            _live_status(conn, game_id)
            conn.execute(
                "UPDATE games SET status = ?, updated_at = ? WHERE id = ?", (status, at, game_id)
            )
            conn.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))

        await self._write(_tx)

    # ----------------------------------------------------------------- timers

    async def set_timer(self, game_id: int, kind: str, due_at: int, payload: Any = None) -> None:
        """Set (or move) the game's ``kind`` deadline; GameClosedError if the game ended."""

        def _tx(conn: sqlite3.Connection) -> None:
            _live_status(conn, game_id)
            _set_timer(conn, game_id, kind, due_at, payload)

        await self._write(_tx)

    async def clear_timer(self, game_id: int, kind: str) -> bool:
        """Remove a deadline; False if there was none."""

        def _tx(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "DELETE FROM timers WHERE game_id = ? AND kind = ?", (game_id, kind)
            )
            return cursor.rowcount > 0

        return await self._write(_tx)

    async def due_timers(self, now: int) -> list[Timer]:
        """Deadlines at or before ``now``, earliest first. They stay until cleared or moved."""

        def _tx(conn: sqlite3.Connection) -> list[Timer]:
            rows = _all(
                conn,
                "SELECT t.* FROM timers AS t JOIN games AS g ON g.id = t.game_id"
                " WHERE t.due_at <= ? AND g.status = 'live'"
                " ORDER BY t.due_at, t.game_id, t.kind",
                (now,),
            )
            return [_timer(r) for r in rows]

        return await self._read(_tx)

    async def timers_for(self, game_id: int) -> list[Timer]:
        """The game's deadlines, earliest first."""

        def _tx(conn: sqlite3.Connection) -> list[Timer]:
            rows = _all(
                conn, "SELECT * FROM timers WHERE game_id = ? ORDER BY due_at, kind", (game_id,)
            )
            return [_timer(r) for r in rows]

        return await self._read(_tx)

    async def live_timers(self) -> list[Timer]:
        """The deadlines of every live game, by game then earliest first (for a restart)."""

        def _tx(conn: sqlite3.Connection) -> list[Timer]:
            rows = _all(
                conn,
                "SELECT t.* FROM timers AS t JOIN games AS g ON g.id = t.game_id"
                " WHERE g.status = 'live' ORDER BY t.game_id, t.due_at, t.kind",
            )
            return [_timer(r) for r in rows]

        return await self._read(_tx)

    async def next_timer_due(self) -> int | None:
        """When the earliest deadline falls, so a scheduler knows how long to sleep."""

        def _tx(conn: sqlite3.Connection) -> int | None:
            row = _one(conn, "SELECT min(due_at) FROM timers", ())
            return None if row is None else row[0]

        return await self._read(_tx)

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

        def _tx(conn: sqlite3.Connection) -> int:
            cursor = conn.execute(
                "INSERT INTO invitations (kind, guild_id, channel_id, host_id, options, status,"
                " created_at, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?)",
                (kind, guild_id, channel_id, host_id, options_json, at, at, expires_at),
            )
            invitation_id = cursor.lastrowid
            assert invitation_id is not None
            conn.executemany(
                "INSERT INTO invitation_members (invitation_id, user_id, position, state)"
                " VALUES (?, ?, ?, ?)",
                [(invitation_id, user, i, state) for i, user in enumerate(members)],
            )
            return invitation_id

        return await self._write(_tx)

    async def load_invitation(self, invitation_id: int) -> Invitation:
        """The challenge or lobby with its members; NotFoundError if unknown."""

        def _tx(conn: sqlite3.Connection) -> Invitation:
            return _invitation(conn, invitation_id)

        return await self._read(_tx)

    async def set_invitation_message(self, invitation_id: int, message_id: int, at: int) -> None:
        """Remember the message that carries the challenge's or lobby's buttons."""

        def _tx(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "UPDATE invitations SET message_id = ?, updated_at = ? WHERE id = ?",
                (message_id, at, invitation_id),
            )
            if cursor.rowcount == 0:
                raise NotFoundError(f"no invitation {invitation_id}")

        await self._write(_tx)

    async def update_invitation_options(
        self, invitation_id: int, options: Any, at: int
    ) -> Invitation:
        """Replace the options of an open challenge or lobby."""
        options_json = _dump(options)

        def _tx(conn: sqlite3.Connection) -> Invitation:
            _open_invitation(conn, invitation_id)
            conn.execute(
                "UPDATE invitations SET options = ?, updated_at = ? WHERE id = ?",
                (options_json, at, invitation_id),
            )
            return _invitation(conn, invitation_id)

        return await self._write(_tx)

    async def answer_challenge(
        self, invitation_id: int, user_id: int, *, accept: bool, at: int
    ) -> Invitation:
        """Record an invited user's accept or decline (they may change it while it is open).

        Whether one decline ends the challenge is the service's rule: it calls
        `close_invitation`. NotFoundError if ``user_id`` was not invited.
        """

        def _tx(conn: sqlite3.Connection) -> Invitation:
            invitation = _open_invitation(conn, invitation_id)
            if invitation.kind != "challenge":
                raise ValueError(f"invitation {invitation_id} is a {invitation.kind}")
            cursor = conn.execute(
                "UPDATE invitation_members SET state = ? WHERE invitation_id = ? AND user_id = ?",
                ("accepted" if accept else "declined", invitation_id, user_id),
            )
            if cursor.rowcount == 0:
                raise NotFoundError(f"user {user_id} is not invited to {invitation_id}")
            _touch_invitation(conn, invitation_id, at)
            return _invitation(conn, invitation_id)

        return await self._write(_tx)

    async def join_lobby(
        self, invitation_id: int, user_id: int, at: int, *, capacity: int | None = None
    ) -> Invitation:
        """Add ``user_id`` to an open lobby (no-op if already in).

        With ``capacity``, raises LobbyFullError when that many have joined: the check and
        the insert are one transaction, so two players racing for the last seat cannot both
        get it.
        """

        def _tx(conn: sqlite3.Connection) -> Invitation:
            invitation = _open_invitation(conn, invitation_id)
            if invitation.kind != "lobby":
                raise ValueError(f"invitation {invitation_id} is a {invitation.kind}")
            if user_id in invitation.user_ids():
                return invitation
            if capacity is not None and len(invitation.members) >= capacity:
                raise LobbyFullError(invitation_id, capacity)
            conn.execute(
                "INSERT INTO invitation_members (invitation_id, user_id, position, state)"
                " VALUES (?, ?, (SELECT coalesce(max(position) + 1, 0) FROM invitation_members"
                " WHERE invitation_id = ?), 'joined')",
                (invitation_id, user_id, invitation_id),
            )
            _touch_invitation(conn, invitation_id, at)
            return _invitation(conn, invitation_id)

        return await self._write(_tx)

    async def leave_lobby(self, invitation_id: int, user_id: int, at: int) -> Invitation:
        """Remove ``user_id`` from an open lobby (no-op if not in)."""

        def _tx(conn: sqlite3.Connection) -> Invitation:
            invitation = _open_invitation(conn, invitation_id)
            if invitation.kind != "lobby":
                raise ValueError(f"invitation {invitation_id} is a {invitation.kind}")
            cursor = conn.execute(
                "DELETE FROM invitation_members WHERE invitation_id = ? AND user_id = ?",
                (invitation_id, user_id),
            )
            if cursor.rowcount == 0:
                return invitation
            _touch_invitation(conn, invitation_id, at)
            return _invitation(conn, invitation_id)

        return await self._write(_tx)

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

        def _tx(conn: sqlite3.Connection) -> Invitation:
            _open_invitation(conn, invitation_id)
            conn.execute(
                "UPDATE invitations SET status = ?, game_id = ?, updated_at = ? WHERE id = ?",
                (status, game_id, at, invitation_id),
            )
            return _invitation(conn, invitation_id)

        return await self._write(_tx)

    async def expire_invitations(self, now: int) -> list[Invitation]:
        """Close every open invitation whose ``expires_at`` is at or before ``now``.

        Returns them (now ``expired``) so their messages can be edited.
        """

        def _tx(conn: sqlite3.Connection) -> list[Invitation]:
            rows = _all(
                conn,
                "SELECT id FROM invitations WHERE status = 'open' AND expires_at <= ? ORDER BY id",
                (now,),
            )
            ids = [r["id"] for r in rows]
            conn.executemany(
                "UPDATE invitations SET status = 'expired', updated_at = ? WHERE id = ?",
                [(now, i) for i in ids],
            )
            return _invitations(conn, ids)

        # The scheduler asks on every pass; a read first keeps the usual "none due" out of
        # the write queue (the write re-selects, so one expiring meanwhile is not missed).
        due = "SELECT 1 FROM invitations WHERE status = 'open' AND expires_at <= ? LIMIT 1"
        if await self._read(lambda conn: _one(conn, due, (now,)) is None):
            return []
        return await self._write(_tx)

    async def open_invitations(self) -> list[Invitation]:
        """Every open challenge and lobby, oldest first (to schedule expiry at start-up)."""

        def _tx(conn: sqlite3.Connection) -> list[Invitation]:
            rows = _all(conn, "SELECT id FROM invitations WHERE status = 'open' ORDER BY id")
            return _invitations(conn, [r["id"] for r in rows])

        return await self._read(_tx)

    async def last_challenge_at(self, host_id: int) -> int | None:
        """When ``host_id`` last sent a challenge (any status), for the cooldown to survive a
        restart."""

        def _tx(conn: sqlite3.Connection) -> int | None:
            row = _one(
                conn,
                "SELECT max(created_at) FROM invitations WHERE host_id = ? AND kind = 'challenge'",
                (host_id,),
            )
            return None if row is None else row[0]

        return await self._read(_tx)

    async def open_invitations_for_user(self, user_id: int) -> list[Invitation]:
        """Open challenges and lobbies the user hosts or is in (declined ones excluded)."""

        def _tx(conn: sqlite3.Connection) -> list[Invitation]:
            rows = _all(
                conn,
                "SELECT id FROM invitations WHERE status = 'open' AND host_id = ?"
                " UNION SELECT i.id FROM invitation_members AS m"
                " JOIN invitations AS i ON i.id = m.invitation_id"
                " WHERE m.user_id = ? AND m.state <> 'declined' AND i.status = 'open'"
                " ORDER BY 1",
                (user_id, user_id),
            )
            return _invitations(conn, [r[0] for r in rows])

        return await self._read(_tx)


# --------------------------------------------------------------------- helpers


def _check_players(players: Sequence[Player]) -> None:
    if not players:
        raise ValueError("a game needs at least one player")
    seats = [p.seat for p in players]
    users = [p.user_id for p in players if p.user_id is not None]
    if len(set(seats)) != len(seats) or len(set(users)) != len(users):
        raise ValueError("seats and user ids must be distinct within a game")


def _check_change(change: ActionCommit) -> None:
    if change.status is not None and change.status not in FINAL_GAME_STATUSES:
        raise ValueError(f"a game can only end as one of {FINAL_GAME_STATUSES}")
    for event in change.events:
        if event.seq < 0:
            raise ValueError(f"seq must be >= 0, not {event.seq}")


def _insert_game(conn: sqlite3.Connection, new: NewGame, at: int) -> int:
    home = new.home_channel_id
    busy = _one(conn, _LIVE_IN_CHANNEL, (home,))
    if busy is not None:
        raise ChannelBusyError(home, busy["id"])
    cursor = conn.execute(
        "INSERT INTO games (guild_id, channel_id, thread_id, message_id, game, config,"
        " seed, status, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, 'live', ?, ?)",
        (
            new.guild_id,
            new.channel_id,
            new.thread_id,
            new.message_id,
            new.game,
            _dump(new.config),
            new.seed,
            at,
            at,
        ),
    )
    game_id = cursor.lastrowid
    assert game_id is not None
    conn.executemany(
        "INSERT INTO game_players (game_id, seat, side, user_id, computer, display_name)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, p.seat, p.side, p.user_id, p.computer, p.display_name) for p in new.players],
    )
    return game_id


def _commit(conn: sqlite3.Connection, game_id: int, change: ActionCommit) -> None:
    """One press: its events in seq order, the game row, its deadlines (see `commit_action`)."""
    _check_change(change)
    row = _one(
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
    for event in change.events:
        if event.seq < expected:
            raise EventConflictError(game_id, event.seq)
        if event.seq > expected:
            raise ValueError(f"game {game_id}: next seq is {expected}, not {event.seq}")
        try:
            conn.execute(
                "INSERT INTO game_events (game_id, seq, action, events, user_id, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    event.seq,
                    _dump(event.action),
                    _dump(list(event.events)),
                    event.user_id,
                    change.at,
                ),
            )
        except sqlite3.IntegrityError as exc:  # only reachable if the checks above drift
            raise EventConflictError(game_id, event.seq) from exc
        expected += 1
    conn.execute(
        "UPDATE games SET updated_at = ?, status = coalesce(?, status) WHERE id = ?",
        (change.at, change.status, game_id),
    )
    if change.status is not None:  # an ended game has no deadlines left
        conn.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
        return
    for kind, deadline in change.timers.items():
        if deadline is None:
            conn.execute("DELETE FROM timers WHERE game_id = ? AND kind = ?", (game_id, kind))
        else:
            _set_timer(conn, game_id, kind, deadline.due_at, deadline.payload)


def _set_timer(
    conn: sqlite3.Connection, game_id: int, kind: str, due_at: int, payload: Any
) -> None:
    conn.execute(
        "INSERT INTO timers (game_id, kind, due_at, payload) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (game_id, kind)"
        " DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload",
        (game_id, kind, due_at, _dump(payload)),
    )


def _live_status(conn: sqlite3.Connection, game_id: int) -> None:
    row = _one(conn, "SELECT status FROM games WHERE id = ?", (game_id,))
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


def _players(
    conn: sqlite3.Connection, game_ids: Sequence[int]
) -> defaultdict[int, tuple[Player, ...]]:
    found: defaultdict[int, list[Player]] = defaultdict(list)
    if game_ids:
        rows = _all(
            conn,
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


def _stored_games(conn: sqlite3.Connection, where: str, params: Sequence[Any]) -> list[StoredGame]:
    """Games matching ``where`` (on ``games AS g``), each with its players and events."""
    rows = _all(conn, f"SELECT g.* FROM games AS g WHERE {where} ORDER BY g.id", params)
    if not rows:
        return []
    ids = [r["id"] for r in rows]
    players = _players(conn, ids)
    events: defaultdict[int, list[StoredEvent]] = defaultdict(list)
    for r in _all(
        conn,
        "SELECT e.* FROM game_events AS e JOIN games AS g ON g.id = e.game_id"
        f" WHERE {where} ORDER BY e.game_id, e.seq",
        params,
    ):
        events[r["game_id"]].append(
            StoredEvent(
                seq=r["seq"],
                action=json.loads(r["action"]),
                events=json.loads(r["events"]),
                created_at=r["created_at"],
                user_id=r["user_id"],
            )
        )
    return [
        StoredGame(**_game_fields(r), players=players[r["id"]], events=tuple(events[r["id"]]))
        for r in rows
    ]


def _timer(row: sqlite3.Row) -> Timer:
    return Timer(row["game_id"], row["kind"], row["due_at"], json.loads(row["payload"]))


def _touch_invitation(conn: sqlite3.Connection, invitation_id: int, at: int) -> None:
    conn.execute("UPDATE invitations SET updated_at = ? WHERE id = ?", (at, invitation_id))


def _open_invitation(conn: sqlite3.Connection, invitation_id: int) -> Invitation:
    invitation = _invitation(conn, invitation_id)
    if invitation.status != "open":
        raise InvitationClosedError(invitation_id, invitation.status)
    return invitation


def _invitation(conn: sqlite3.Connection, invitation_id: int) -> Invitation:
    found = _invitations(conn, [invitation_id])
    if not found:
        raise NotFoundError(f"no invitation {invitation_id}")
    return found[0]


def _invitations(conn: sqlite3.Connection, ids: Iterable[int]) -> list[Invitation]:
    ids = list(ids)
    if not ids:
        return []
    marks = _placeholders(len(ids))
    rows = _all(conn, f"SELECT * FROM invitations WHERE id IN ({marks}) ORDER BY id", tuple(ids))
    member_rows = _all(
        conn,
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


if TYPE_CHECKING:  # mypy checks here that the backend implements the whole contract
    _IMPLEMENTS: type[Store] = Storage

__all__ = ["Storage"]
