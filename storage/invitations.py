"""Challenges (named players must accept) and lobbies (anyone joins) before their game.

Closing is compare-and-set, so of two racing closes (accept against withdraw, begin against
expiry) exactly one wins; joining a lobby checks its capacity in the same transaction.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from storage.errors import (
    InvitationClosedError,
    LobbyFullError,
    NotFoundError,
)
from storage.records import (
    FINAL_INVITATION_STATUSES,
    Invitation,
    InvitationKind,
    InvitationStatus,
    Member,
    MemberState,
)
from storage.sql import Transactions, all_rows, dump, new_id, one, placeholders, record_of


class InvitationStorage(Transactions):
    """Challenges and lobbies with their members."""

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
        options_json = dump(options)

        def _tx(conn: sqlite3.Connection) -> int:
            invitation_id = new_id(
                conn,
                "INSERT INTO invitations (kind, guild_id, channel_id, host_id, options, status,"
                " created_at, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?)"
                " RETURNING id",
                (kind, guild_id, channel_id, host_id, options_json, at, at, expires_at),
            )
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
        options_json = dump(options)

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
            rows = all_rows(
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
        if await self._read(lambda conn: one(conn, due, (now,)) is None):
            return []
        return await self._write(_tx)

    async def open_invitations(self) -> list[Invitation]:
        """Every open challenge and lobby, oldest first (to schedule expiry at start-up)."""

        def _tx(conn: sqlite3.Connection) -> list[Invitation]:
            rows = all_rows(conn, "SELECT id FROM invitations WHERE status = 'open' ORDER BY id")
            return _invitations(conn, [r["id"] for r in rows])

        return await self._read(_tx)

    async def last_challenge_at(self, host_id: int) -> int | None:
        """When ``host_id`` last sent a challenge (any status), for the cooldown to survive a
        restart."""

        def _tx(conn: sqlite3.Connection) -> int | None:
            row = one(
                conn,
                "SELECT max(created_at) FROM invitations WHERE host_id = ? AND kind = 'challenge'",
                (host_id,),
            )
            return None if row is None else row[0]

        return await self._read(_tx)

    async def open_invitations_for_user(self, user_id: int) -> list[Invitation]:
        """Open challenges and lobbies the user hosts or is in (declined ones excluded)."""

        def _tx(conn: sqlite3.Connection) -> list[Invitation]:
            rows = all_rows(
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
    marks = placeholders(len(ids))
    rows = all_rows(
        conn, f"SELECT * FROM invitations WHERE id IN ({marks}) ORDER BY id", tuple(ids)
    )
    member_rows = all_rows(
        conn,
        f"SELECT * FROM invitation_members WHERE invitation_id IN ({marks})"
        " ORDER BY invitation_id, position",
        tuple(ids),
    )
    members: defaultdict[int, list[Member]] = defaultdict(list)
    for m in member_rows:
        members[m["invitation_id"]].append(Member(m["user_id"], m["state"]))
    return [
        record_of(Invitation, r, options=json.loads(r["options"]), members=tuple(members[r["id"]]))
        for r in rows
    ]
