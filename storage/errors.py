"""Storage refusals the services turn into answers; every one is a `StorageError`.

`ConflictError` and its subclasses mean "the state moved under you" (a double click, two
players pressing at once, a game stopped while someone answered): the error ladder answers
them with "someone was quicker" or a more precise sentence, never with an apology.
"""

from __future__ import annotations


class StorageError(Exception):
    """Base of everything storage raises on purpose."""


class LeaseError(StorageError):
    """A lesson's lease cannot be asked for now (the lease connection is down): try again."""


class LeaseLostError(LeaseError):
    """A lesson's write was refused: this process no longer holds the lesson's lease (its
    lease connection is gone, and another process may serve the lesson now), so nothing of
    it was stored. The lesson answers "try again" and is served where it is held."""

    def __init__(self, lesson_id: int) -> None:
        super().__init__(f"lesson {lesson_id}: this process no longer holds its lease")
        self.lesson_id = lesson_id


class NotFoundError(StorageError):
    """No game or invitation (or invitation member) with that id."""


class SchemaTooNewError(StorageError):
    """The database was written by a newer version of the bot than this one."""


class MigrationError(StorageError):
    """A migration file is misnamed or failed to apply; nothing of it was kept."""


class ConflictError(StorageError):
    """The write lost a race with another write; retrying with fresh state may succeed."""


class ChannelBusyError(ConflictError):
    """The channel (or thread) already has a live game."""

    def __init__(self, channel_id: int, game_id: int | None) -> None:
        super().__init__(f"channel {channel_id} already has live game {game_id}")
        self.channel_id = channel_id
        self.game_id = game_id


class EventConflictError(ConflictError):
    """That sequence number of the game is already taken: another action was stored first."""

    def __init__(self, game_id: int, seq: int, message: str | None = None) -> None:
        super().__init__(message or f"game {game_id} already has an event {seq}")
        self.game_id = game_id
        self.seq = seq


class GameClosedError(ConflictError):
    """The game is no longer live (over, stopped or abandoned), so it takes no more writes."""

    def __init__(self, game_id: int, status: str) -> None:
        super().__init__(f"game {game_id} is {status}, not live")
        self.game_id = game_id
        self.status = status


class InvitationClosedError(ConflictError):
    """The challenge or lobby is no longer open (started, withdrawn, expired, …)."""

    def __init__(self, invitation_id: int, status: str) -> None:
        super().__init__(f"invitation {invitation_id} is {status}, not open")
        self.invitation_id = invitation_id
        self.status = status


class LobbyFullError(ConflictError):
    """Every seat of the lobby is taken."""

    def __init__(self, invitation_id: int, capacity: int) -> None:
        super().__init__(f"lobby {invitation_id} is full ({capacity} players)")
        self.invitation_id = invitation_id
        self.capacity = capacity


class LessonCodeTakenError(ConflictError):
    """An open lesson has that join code already: draw another."""

    def __init__(self, code: str) -> None:
        super().__init__("an open lesson has that code already")
        self.code = code


class LessonClosedError(ConflictError):
    """The lesson has ended, so it takes no more changes."""

    def __init__(self, lesson_id: int) -> None:
        super().__init__(f"lesson {lesson_id} has ended")
        self.lesson_id = lesson_id


class RosterConflictError(ConflictError):
    """A class's roster has the name already (``what == "name"``), or another pupil has the
    card's code (``"card"``: draw another), or another class has the name (``"class"``)."""

    def __init__(self, what: str) -> None:
        super().__init__(f"the roster has that {what} already")
        self.what = what


class SchoolConflictError(ConflictError):
    """A school server already has a teacher of that name (``what == "name"``), or another
    teacher's account is that OpenID Connect subject (``"account"``)."""

    def __init__(self, what: str) -> None:
        super().__init__(f"another teacher has that {what} already")
        self.what = what
