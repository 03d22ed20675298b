"""The fake gateway: HELLO, heartbeats, IDENTIFY → READY, RESUME with replay, dispatches.

Sessions outlive connections the way Discord's do: every dispatch gets a sequence number and is
kept, so a client that RESUMEs after a dropped socket receives exactly what it missed. Frames
are JSON text (discord.py asks for zlib but only inflates binary frames). The fault methods at
the bottom send RECONNECT / INVALID_SESSION, close with a code, or cut the TCP connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from . import payloads
from .state import World

DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11

HEARTBEAT_INTERVAL_MS = 41_250

INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

# Which intent a bot needs to receive an event (events not listed are always sent).
EVENT_INTENTS = {
    "GUILD_CREATE": INTENT_GUILDS,
    "CHANNEL_CREATE": INTENT_GUILDS,
    "THREAD_CREATE": INTENT_GUILDS,
    "MESSAGE_CREATE": INTENT_GUILD_MESSAGES,
    "MESSAGE_UPDATE": INTENT_GUILD_MESSAGES,
    "MESSAGE_DELETE": INTENT_GUILD_MESSAGES,
}


@dataclass
class GatewayConnection:
    """One WebSocket; ``path`` tells whether the client used the resume URL, ``close_code`` is
    what aiohttp reports at the end, ``sent_close_code``/``dropped`` what the fake did."""

    ws: web.WebSocketResponse
    request: web.Request
    path: str
    session: GatewaySession | None = None
    close_code: int | None = None
    sent_close_code: int | None = None
    dropped: bool = False
    closed: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, payload: dict[str, Any]) -> None:
        """Send one JSON text frame; a socket that is going away just misses it."""
        async with self.lock:
            if self.ws.closed:
                return
            with contextlib.suppress(ConnectionError, RuntimeError):
                await self.ws.send_str(json.dumps(payload))


@dataclass
class GatewaySession:
    """A gateway session: its sequence, every dispatch sent, and the socket it is on (if any)."""

    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    connection: GatewayConnection | None = None

    def wants(self, event: str) -> bool:
        needed = EVENT_INTENTS.get(event)
        return needed is None or bool(self.intents & needed)

    def owns(self, guild_id: int | None) -> bool:
        """Discord's sharding: a guild is shard ``(guild_id >> 22) % count``'s; direct
        messages go to shard 0. A session without a shard gets everything."""
        if self.shard is None:
            return True
        shard_id, count = int(self.shard[0]), int(self.shard[1])
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard_id


_GUILD_EVENTS = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")


def event_guild(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to (it goes on that guild's shard only)."""
    raw = data.get("id") if event in _GUILD_EVENTS else data.get("guild_id")
    return None if raw is None else int(raw)


class Gateway:
    """The fake gateway endpoint plus its recorded traffic (``received``, ``connections``)."""

    def __init__(self, world: World, token: str, changed: Callable[[], None]) -> None:
        self._world = world
        self._token = token
        self._changed = changed
        self.resume_url = ""
        self.allowed_privileged_intents = 0
        self.sessions: dict[str, GatewaySession] = {}
        self.received: list[dict[str, Any]] = []
        self.connections: list[GatewayConnection] = []
        self.replayed: list[dict[str, Any]] = []
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- inspection ---------------------------------------------------------------------------

    def ops(self, op: int) -> list[dict[str, Any]]:
        """Received payloads with this opcode (tokens redacted), oldest first."""
        return [p for p in self.received if p.get("op") == op]

    @property
    def identify_count(self) -> int:
        return len(self.ops(IDENTIFY))

    @property
    def resume_count(self) -> int:
        return len(self.ops(RESUME))

    @property
    def live_connections(self) -> list[GatewayConnection]:
        """Connections attached to a session (identified or resumed) and still open."""
        return [
            s.connection
            for s in self.sessions.values()
            if s.connection is not None and not s.connection.closed
        ]

    def is_connected(self) -> bool:
        return bool(self.live_connections)

    # -- the endpoint -------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """One client connection, from HELLO until either side closes."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = GatewayConnection(ws, request, request.path)
        self.connections.append(conn)
        await conn.send(
            {"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None, "t": None}
        )
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._receive(conn, json.loads(msg.data))
        finally:
            conn.closed = True
            conn.close_code = ws.close_code
            session = conn.session
            if session is not None and session.connection is conn:
                session.connection = None
                if ws.close_code in (1000, 1001):
                    # A clean close ends the session on Discord: it cannot be resumed.
                    self.sessions.pop(session.id, None)
            self._changed()
        return ws

    async def _receive(self, conn: GatewayConnection, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data = payload.get("d")
        recorded = dict(payload)
        if isinstance(data, dict) and "token" in data:
            recorded["d"] = {**data, "token": "<redacted>"}
        self.received.append(recorded)
        self._changed()
        if op == HEARTBEAT:
            await conn.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif op == REQUEST_GUILD_MEMBERS:
            await self._members_chunk(conn, data or {})

    def _token_ok(self, data: dict[str, Any]) -> bool:
        token = data.get("token")
        return isinstance(token, str) and secrets.compare_digest(token, self._token)

    async def _identify(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        if not self._token_ok(data):
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self.allowed_privileged_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        session = GatewaySession(secrets.token_hex(16), intents, data.get("shard"))
        self.sessions[session.id] = session
        session.connection = conn
        conn.session = session
        ready: dict[str, Any] = {
            "v": 10,
            "user": payloads.user(self._world.bot_user),
            "guilds": [
                {"id": str(g), "unavailable": True} for g in self._world.guilds if session.owns(g)
            ],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_url,
            "application": {"id": str(self._world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        await self._emit(session, "READY", ready)
        for guild in self._world.guilds.values():
            if not session.owns(guild.id):
                continue
            data = payloads.guild_create(
                self._world, guild, all_members=bool(intents & INTENT_GUILD_MEMBERS)
            )
            await self._emit(session, "GUILD_CREATE", data)

    async def _resume(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if not self._token_ok(data) or session is None:
            await conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        old = session.connection
        session.connection = conn
        conn.session = session
        if old is not None and old is not conn:
            old.session = None
        last_seen = int(data.get("seq") or 0)
        missed = [e for e in session.events if e["s"] > last_seen]
        for event in missed:
            self.replayed.append(event)
            await conn.send(event)
        await self._emit(session, "RESUMED", {})

    async def _members_chunk(self, conn: GatewayConnection, data: dict[str, Any]) -> None:
        if conn.session is None:
            return
        guild = self._world.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        users = [self._world.users[u] for u in guild.member_ids]
        query = str(data.get("query") or "").lower()
        users = [u for u in users if u.username.lower().startswith(query)]
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            users = [u for u in users if u.id in wanted]
        if data.get("limit"):
            users = users[: int(data["limit"])]
        members = [payloads.member(self._world, u, guild) for u in users]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._emit(conn.session, "GUILD_MEMBERS_CHUNK", chunk)

    # -- dispatching --------------------------------------------------------------------------

    async def _emit(self, session: GatewaySession, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.events.append(payload)
        conn = session.connection
        if conn is not None:
            await conn.send(payload)
        self._changed()

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        """Send an event to every session that wants it; kept for replay if disconnected.

        A guild's event goes only to the session of its shard (or unsharded sessions), as an
        interaction is dispatched on the connection of its guild's shard. Returns how many
        sessions it went to (0 means no bot would ever see it).
        """
        guild_id = event_guild(event, data)
        targets = [s for s in list(self.sessions.values()) if s.wants(event) and s.owns(guild_id)]
        for session in targets:
            await self._emit(session, event, data)
        return len(targets)

    # -- faults -------------------------------------------------------------------------------

    async def send_reconnect(self) -> None:
        """Op 7 RECONNECT: the client should close and RESUME."""
        for conn in self.live_connections:
            await conn.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def invalidate_session(self, *, resumable: bool) -> None:
        """Op 9 INVALID_SESSION; when not resumable the session is gone and a RESUME fails."""
        for conn in self.live_connections:
            session = conn.session
            if session is not None and not resumable:
                self.sessions.pop(session.id, None)
            await conn.send({"op": INVALID_SESSION, "d": resumable, "s": None, "t": None})

    def close(self, code: int = 4000) -> None:
        """Close every live socket with ``code``; sessions stay resumable (as for 4000)."""
        for conn in self.live_connections:
            self._detach(conn)
            conn.sent_close_code = code
            task = asyncio.create_task(conn.ws.close(code=code, message=b"fake close"))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def drop(self) -> None:
        """Cut the TCP connection without a close frame; later events wait for a RESUME."""
        for conn in self.live_connections:
            self._detach(conn)
            conn.dropped = True
            transport = conn.request.transport
            if transport is not None:
                transport.abort()

    def end_session(self, session_id: str | None) -> None:
        """Forget a session whose process is gone (Discord would let it time out); events are
        no longer queued for it, so the driver can tell that no bot is listening."""
        if session_id is not None:
            self.sessions.pop(session_id, None)
            self._changed()

    def _detach(self, conn: GatewayConnection) -> None:
        session = conn.session
        if session is not None and session.connection is conn:
            session.connection = None

    async def shutdown(self) -> None:
        """Close every socket (used when the server stops)."""
        for task in list(self._tasks):
            task.cancel()
        for conn in self.connections:
            if not conn.ws.closed:
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1001)
