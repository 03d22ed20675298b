"""The storage contract: what the services may ask of a backend, area by area.

Why protocols: the services depend on these and on nothing backend-specific, so a second
backend (PostgreSQL) implements the same methods and passes the same contract
suite (tests/bot/storage) without a service changing. Everything in and out is plain
Python: ints (ids, epoch milliseconds from the caller's clock), strings, JSON-able values
and the frozen records of `storage.records`; refusals are the `storage.errors`
classes. Every method is one transaction: it happens whole or not at all, and a write has
been committed durably when its call returns.

Structural typing: `storage.sqlite.Storage` never names these classes; mypy checks it
fits them where the bot hands it to the services (bot/client.py) and in the contract suite.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, Unpack

from storage.contract_lessons import ClassStore, LessonStore, SchoolTeacherStore
from storage.records import (
    ActionCommit,
    Assignment,
    BoardPage,
    BoardQuery,
    ClassPreset,
    ClassSession,
    GameRecord,
    GameResult,
    GameStatus,
    GuildSettings,
    Invitation,
    InvitationStatus,
    NamedPreset,
    NewGame,
    PlayerGame,
    PracticeNote,
    RatingLine,
    RatingPlan,
    Season,
    SettingsChange,
    StoredGame,
    Timer,
)

# rate(result with its season set, {(scope, user_id): rating}, {frozenset({a, b}): rated games
# of that pair today}) -> the plan to store. Storage calls it inside `record_result`'s
# transaction, so two games ending at once cannot both rate from the same old rating.
Rater = Callable[
    [GameResult, Mapping[tuple[str, int], int], Mapping[frozenset[int], int]], RatingPlan
]


class GameEventStore(Protocol):
    """Games and their event logs (event sourcing: a game = config + seed + actions)."""

    async def start_game(self, new: NewGame, change: ActionCommit) -> GameRecord:
        """Create a game (a `NewGame`) and commit its first change in one transaction."""
        ...

    async def commit_action(self, game_id: int, change: ActionCommit) -> None:
        """One accepted press whole: events from the next seq on, deadlines, the end.
        EventConflictError (seq taken), GameClosedError (not live), NotFoundError,
        ValueError (a gap in seq)."""
        ...

    async def load_game(self, game_id: int) -> StoredGame:
        """The game, its players and every event in seq order; NotFoundError if unknown."""
        ...

    async def ended_since(self, at: int) -> list[int]:
        """Ids of the games that ended at or after ``at`` and have a board, oldest first."""
        ...

    async def load_live_games(self) -> list[StoredGame]:
        """Every live game with its players and events, oldest first (the restart)."""
        ...

    async def set_board_message(
        self, game_id: int, message_id: int, at: int, *, thread_id: int | None = None
    ) -> None:
        """Remember the board's message (and thread); ChannelBusyError if the thread has a
        live game already."""
        ...

    async def set_status(self, game_id: int, status: GameStatus, at: int) -> None:
        """End a live game (its timers go); GameClosedError if it had ended already."""
        ...

    async def set_shown_seqs(self, seqs: Mapping[int, int]) -> None:
        """Remember what the games' boards show (game id → seq of the next action when the
        board was last written), only ever forward; read back as `GameRecord.shown_seq`."""
        ...


class TimerStore(Protocol):
    """Deadlines that survive a restart, one per (game, kind)."""

    async def set_timer(self, game_id: int, kind: str, due_at: int, payload: Any = None) -> None:
        """Set or move; GameClosedError if the game is not live."""
        ...

    async def clear_timer(self, game_id: int, kind: str) -> bool:
        """Remove; False if there was none."""
        ...

    async def due_timers(self, now: int) -> list[Timer]:
        """Due deadlines of live games, earliest first (they stay until cleared)."""
        ...

    async def timers_for(self, game_id: int) -> list[Timer]: ...

    async def live_timers(self) -> list[Timer]:
        """Every live game's deadlines, by game id then earliest first."""
        ...

    async def next_timer_due(self) -> int | None: ...


class InvitationStore(Protocol):
    """Challenges and lobbies before their game; closing is compare-and-set."""

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
    ) -> int: ...

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
    ) -> int: ...

    async def load_invitation(self, invitation_id: int) -> Invitation: ...

    async def set_invitation_message(
        self, invitation_id: int, message_id: int, at: int
    ) -> None: ...

    async def update_invitation_options(
        self, invitation_id: int, options: Any, at: int
    ) -> Invitation: ...

    async def answer_challenge(
        self, invitation_id: int, user_id: int, *, accept: bool, at: int
    ) -> Invitation: ...

    async def join_lobby(
        self, invitation_id: int, user_id: int, at: int, *, capacity: int | None = None
    ) -> Invitation:
        """LobbyFullError when ``capacity`` have joined (check and insert are one step)."""
        ...

    async def leave_lobby(self, invitation_id: int, user_id: int, at: int) -> Invitation: ...

    async def close_invitation(
        self,
        invitation_id: int,
        status: InvitationStatus,
        at: int,
        *,
        game_id: int | None = None,
    ) -> Invitation:
        """InvitationClosedError unless still open: of two racing closes one wins."""
        ...

    async def expire_invitations(self, now: int) -> list[Invitation]: ...

    async def open_invitations(self) -> list[Invitation]: ...

    async def last_challenge_at(self, host_id: int) -> int | None: ...

    async def open_invitations_for_user(self, user_id: int) -> list[Invitation]: ...


class ResultStore(Protocol):
    """Results, ratings, seasons, boards and player names."""

    async def record_result(self, result: GameResult, *, at: int, rate: Rater) -> GameResult | None:
        """Idempotent: None when the game has a result already."""
        ...

    async def load_result(self, game_id: int) -> GameResult | None: ...

    async def void_result(self, guild_id: int, game_id: int, at: int) -> GameResult | None: ...

    async def unrecorded_games(self, limit: int = 100) -> list[int]: ...

    async def current_season(self, guild_id: int) -> Season | None: ...

    async def seasons(self, guild_id: int) -> list[Season]: ...

    async def new_season(self, guild_id: int, at: int) -> tuple[Season | None, Season]: ...

    async def board(self, query: BoardQuery, viewer_id: int | None = None) -> BoardPage: ...

    async def rating_lines(
        self, guild_id: int, user_id: int, *, trend: int = 10
    ) -> list[RatingLine]: ...

    async def player_games(self, guild_id: int, user_id: int) -> list[PlayerGame]: ...

    async def guild_player_games(self, guild_id: int) -> list[PlayerGame]: ...

    async def player_names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]: ...

    async def mark_departed(self, guild_id: int, user_ids: Iterable[int], at: int) -> None: ...

    async def mark_present(self, guild_id: int, user_ids: Iterable[int]) -> None: ...

    async def departed(self, guild_id: int) -> set[int]: ...


class SettingsStore(Protocol):
    """The teacher's settings per server."""

    async def guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def update_guild_settings(
        self, guild_id: int, at: int, **change: Unpack[SettingsChange]
    ) -> GuildSettings:
        """Only the settings given change (`SettingsChange`); ``answer_form`` is one of
        `ANSWER_FORMS`, new games' default (RULES §2.2); ``pictures`` False makes every board
        of the server text only."""
        ...


class TeacherStore(Protocol):
    """The teacher's class presets, pupils' accommodations, class sessions and assignments."""

    async def set_preset(self, preset: ClassPreset, at: int) -> ClassPreset: ...

    async def clear_preset(self, guild_id: int, channel_id: int) -> bool: ...

    async def preset_for(self, guild_id: int, channel_id: int) -> ClassPreset | None:
        """The channel's own preset, else the server's (`SERVER_WIDE`), else None."""
        ...

    async def presets(self, guild_id: int) -> list[ClassPreset]: ...

    async def set_accommodation(
        self, guild_id: int, user_id: int, answer_percent: int | None, at: int
    ) -> None:
        """None removes it."""
        ...

    async def accommodations(
        self, guild_id: int, user_ids: Iterable[int] | None = None
    ) -> dict[int, int]: ...

    async def start_session(
        self,
        guild_id: int,
        channel_id: int,
        lang: str,
        started_at: int,
        ends_at: int,
        preset: NamedPreset | None = None,
    ) -> ClassSession | None:
        """None while another session of the server is running. ``preset``: kept with the
        session (a copy), for every game started in it."""
        ...

    async def running_session(self, guild_id: int, at: int) -> ClassSession | None: ...

    async def session(self, session_id: int) -> ClassSession | None: ...

    async def last_session(self, guild_id: int) -> ClassSession | None: ...

    async def ended_sessions(self, at: int) -> list[ClassSession]: ...

    async def next_session_end(self) -> int | None: ...

    async def mark_summarized(self, session_id: int, at: int) -> bool:
        """True for the one caller that marks it."""
        ...

    async def add_assignment(
        self,
        guild_id: int,
        game: str,
        level: int,
        rounds: int,
        best_percent: int,
        created_at: int,
        due_at: int,
    ) -> Assignment: ...

    async def assignments(self, guild_id: int, *, due_after: int = 0) -> list[Assignment]: ...


class PresetStore(Protocol):
    """The teacher's named presets ("brøk uke 12", migration 0010). A name is found
    whatever its capitals (`storage.records.preset_key`)."""

    async def save_named_preset(self, preset: NamedPreset, at: int) -> NamedPreset:
        """Replaces the server's preset of the same name."""
        ...

    async def named_preset(self, guild_id: int, name: str) -> NamedPreset | None: ...

    async def named_presets(self, guild_id: int) -> list[NamedPreset]:
        """By name."""
        ...

    async def delete_named_preset(self, guild_id: int, name: str) -> bool: ...


class TeachingStore(TeacherStore, PresetStore, Protocol):
    """What the teacher's service needs: presets of both kinds, accommodations, sessions."""


class KeyStore(Protocol):
    """Keys every process on one database shares."""

    async def derived_key(self, purpose: str) -> bytes:
        """This database's key for ``purpose`` (derived from its random privacy key)."""
        ...


class PrivacyStore(KeyStore, Protocol):
    """Export, forget-me and retention (PRIVACY.md)."""

    async def export_user(self, user_id: int) -> dict[str, list[dict[str, Any]]]: ...

    async def live_games_of(self, user_id: int) -> list[int]: ...

    async def live_games_in(self, guild_id: int) -> list[int]: ...

    async def forget_user(
        self, user_id: int, at: int, guild_id: int | None = None
    ) -> dict[str, int]:
        """UserInLiveGameError while they are in a live game (in that server)."""
        ...

    async def forget_guild(self, guild_id: int, at: int) -> dict[str, int]: ...

    async def guild_left(self, guild_id: int, at: int) -> None: ...

    async def guild_back(self, guild_id: int) -> bool: ...

    async def departed_guilds(self) -> dict[int, int]: ...

    async def known_guilds(self) -> set[int]: ...

    async def forgotten_entries(self) -> tuple[bytes, list[tuple[str, str, int]]]: ...

    async def reapply_forgotten(
        self, key: bytes, entries: Iterable[tuple[str, str, int]], at: int
    ) -> dict[str, int]: ...

    async def purge_old(
        self,
        *,
        games_before: int,
        invitations_before: int,
        results_before: int,
        weeks_before: int,
    ) -> dict[str, int]: ...


class PracticeNoteStore(Protocol):
    """Practice notes on Discord (RULES §2.6): refused, typed again, never a mistake."""

    async def add_practice_note(self, game_id: int, guild_id: int, user_id: int, code: str) -> None:
        """One more ``not_exact`` or ``not_simplified`` for the pupil in the game."""
        ...

    async def practice_notes(
        self, guild_id: int, user_id: int | None = None
    ) -> list[PracticeNote]: ...


class GameStore(GameEventStore, TimerStore, PracticeNoteStore, Protocol):
    """What the game service needs: games, their events and their deadlines, and the two
    facts of the teacher's that set a game's deadlines (a running class session ends it, an
    accommodation lengthens a pupil's answer time)."""

    async def running_session(self, guild_id: int, at: int) -> ClassSession | None: ...

    async def accommodations(
        self, guild_id: int, user_ids: Iterable[int] | None = None
    ) -> dict[int, int]: ...


class Store(
    GameEventStore,
    TimerStore,
    InvitationStore,
    ResultStore,
    SettingsStore,
    PrivacyStore,
    TeacherStore,
    PresetStore,
    LessonStore,
    ClassStore,
    PracticeNoteStore,
    SchoolTeacherStore,
    Protocol,
):
    """A whole backend, as the bot opens it."""

    schema_version: int

    async def close(self) -> None: ...


__all__ = [
    "ClassStore",
    "GameEventStore",
    "GameStore",
    "InvitationStore",
    "KeyStore",
    "LessonStore",
    "PracticeNoteStore",
    "PresetStore",
    "PrivacyStore",
    "Rater",
    "ResultStore",
    "SchoolTeacherStore",
    "SettingsStore",
    "Store",
    "TeacherStore",
    "TeachingStore",
    "TimerStore",
]
