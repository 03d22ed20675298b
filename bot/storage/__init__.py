"""The bot's persistent state: event-sourced games, timers, challenges and lobbies.

Storage never imports discord and never reads the clock: ids are plain ints, times are
milliseconds since the Unix epoch passed in by the caller, JSON is encoded and decoded here.
"""

from bot.storage.errors import (
    ChannelBusyError,
    ConflictError,
    EventConflictError,
    GameClosedError,
    InvitationClosedError,
    LobbyFullError,
    MigrationError,
    NotFoundError,
    SchemaTooNewError,
    StorageError,
)
from bot.storage.records import (
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
from bot.storage.sqlite import Storage

__all__ = [
    "ChannelBusyError",
    "ConflictError",
    "EventConflictError",
    "GameClosedError",
    "GameRecord",
    "GameStatus",
    "Invitation",
    "InvitationClosedError",
    "InvitationKind",
    "InvitationStatus",
    "LobbyFullError",
    "Member",
    "MemberState",
    "MigrationError",
    "NotFoundError",
    "Player",
    "SchemaTooNewError",
    "Storage",
    "StorageError",
    "StoredEvent",
    "StoredGame",
    "Timer",
]
