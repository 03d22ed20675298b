"""Games and their event logs: a game is its configuration, its seed and its actions.

Every accepted press is stored whole by `commit_action` (its actions, its deadlines, the
game's end) before anyone sees its result. ``BEGIN IMMEDIATE`` (storage/database.py)
takes SQLite's write lock up front, so a second process on the same file waits instead of
failing mid-way.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from storage.errors import (
    ChannelBusyError,
    EventConflictError,
    GameClosedError,
    NotFoundError,
)
from storage.records import (
    FINAL_GAME_STATUSES,
    ActionCommit,
    GameRecord,
    GameStatus,
    NewGame,
    Player,
    StoredEvent,
    StoredGame,
)
from storage.sql import Transactions, all_rows, dump, new_id, one, placeholders, record_of

# "The channel" of a game is its thread when it has one; matches games_one_live_per_channel.
_LIVE_IN_CHANNEL = (
    "SELECT * FROM games WHERE coalesce(thread_id, channel_id) = ? AND status = 'live'"
)


class GameStorage(Transactions):
    """Games, their players and their events."""

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
                config=json.loads(dump(new.config)),
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
        all from one read instead of one round trip per game."""
        return await self._read(lambda conn: _stored_games(conn, "g.status = 'live'", ()))

    async def ended_since(self, at: int) -> list[int]:
        """Games that ended at or after ``at`` and have a board (oldest first): the ones
        whose board may still show buttons after a crash."""

        def _tx(conn: sqlite3.Connection) -> list[int]:
            sql = (
                "SELECT id FROM games WHERE status != 'live' AND updated_at >= ?"
                " AND message_id IS NOT NULL ORDER BY id"
            )
            return [int(r["id"]) for r in all_rows(conn, sql, (at,))]

        return await self._read(_tx)

    async def set_board_message(
        self, game_id: int, message_id: int, at: int, *, thread_id: int | None = None
    ) -> None:
        """Remember the game's board message (and its thread, when created after the game).

        Raises ChannelBusyError if moving a live game into a thread that has one already.
        """

        def _tx(conn: sqlite3.Connection) -> None:
            row = one(conn, "SELECT status FROM games WHERE id = ?", (game_id,))
            if row is None:
                raise NotFoundError(f"no game {game_id}")
            if thread_id is not None and row["status"] == "live":
                busy = one(conn, _LIVE_IN_CHANNEL, (thread_id,))
                if busy is not None and busy["id"] != game_id:
                    raise ChannelBusyError(thread_id, busy["id"])
            conn.execute(
                "UPDATE games SET message_id = ?, thread_id = coalesce(?, thread_id),"
                " updated_at = ? WHERE id = ?",
                (message_id, thread_id, at, game_id),
            )

        await self._write(_tx)

    async def set_shown_seqs(self, seqs: Mapping[int, int]) -> None:
        """Remember what the games' boards show: game id → the seq of the next action when
        its board was last written. Only ever forward (an older note arriving late changes
        nothing); a game deleted meanwhile is skipped. Not a game's change: `updated_at`
        stays."""
        rows = [(seq, game_id, seq) for game_id, seq in sorted(seqs.items())]
        if not rows:
            return

        def _tx(conn: sqlite3.Connection) -> None:
            conn.executemany(
                "UPDATE games SET shown_seq = ? WHERE id = ?"
                " AND (shown_seq IS NULL OR shown_seq < ?)",
                rows,
            )

        await self._write(_tx)

    async def set_status(self, game_id: int, status: GameStatus, at: int) -> None:
        """End a live game as over, abandoned or stopped; its timers go with it.

        Raises GameClosedError if it had already ended (the other ending won the race).
        """
        if status not in FINAL_GAME_STATUSES:
            raise ValueError(f"a game can only end as one of {FINAL_GAME_STATUSES}")

        def _tx(conn: sqlite3.Connection) -> None:
            live_status(conn, game_id)
            conn.execute(
                "UPDATE games SET status = ?, updated_at = ? WHERE id = ?", (status, at, game_id)
            )
            conn.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))

        await self._write(_tx)


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
    busy = one(conn, _LIVE_IN_CHANNEL, (home,))
    if busy is not None:
        raise ChannelBusyError(home, busy["id"])
    game_id = new_id(
        conn,
        "INSERT INTO games (guild_id, channel_id, thread_id, message_id, game, config,"
        " seed, status, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, 'live', ?, ?) RETURNING id",
        (
            new.guild_id,
            new.channel_id,
            new.thread_id,
            new.message_id,
            new.game,
            dump(new.config),
            new.seed,
            at,
            at,
        ),
    )
    conn.executemany(
        "INSERT INTO game_players (game_id, seat, side, user_id, computer, display_name)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        [(game_id, p.seat, p.side, p.user_id, p.computer, p.display_name) for p in new.players],
    )
    return game_id


def _commit(conn: sqlite3.Connection, game_id: int, change: ActionCommit) -> None:
    """One press: its events in seq order, the game row, its deadlines (see `commit_action`)."""
    _check_change(change)
    row = one(
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
                    dump(event.action),
                    dump(list(event.events)),
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
            set_deadline(conn, game_id, kind, deadline.due_at, deadline.payload)


def set_deadline(
    conn: sqlite3.Connection, game_id: int, kind: str, due_at: int, payload: Any
) -> None:
    conn.execute(
        "INSERT INTO timers (game_id, kind, due_at, payload) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (game_id, kind)"
        " DO UPDATE SET due_at = excluded.due_at, payload = excluded.payload",
        (game_id, kind, due_at, dump(payload)),
    )


def live_status(conn: sqlite3.Connection, game_id: int) -> None:
    row = one(conn, "SELECT status FROM games WHERE id = ?", (game_id,))
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
        "shown_seq": row["shown_seq"],
    }


def _players(
    conn: sqlite3.Connection, game_ids: Sequence[int]
) -> defaultdict[int, tuple[Player, ...]]:
    found: defaultdict[int, list[Player]] = defaultdict(list)
    if game_ids:
        rows = all_rows(
            conn,
            f"SELECT * FROM game_players WHERE game_id IN ({placeholders(len(game_ids))})"
            " ORDER BY game_id, seat",
            tuple(game_ids),
        )
        for r in rows:
            found[r["game_id"]].append(record_of(Player, r))
    return defaultdict(tuple, {k: tuple(v) for k, v in found.items()})


def _stored_games(conn: sqlite3.Connection, where: str, params: Sequence[Any]) -> list[StoredGame]:
    """Games matching ``where`` (on ``games AS g``), each with its players and events."""
    rows = all_rows(conn, f"SELECT g.* FROM games AS g WHERE {where} ORDER BY g.id", params)
    if not rows:
        return []
    ids = [r["id"] for r in rows]
    players = _players(conn, ids)
    events: defaultdict[int, list[StoredEvent]] = defaultdict(list)
    for r in all_rows(
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
