"""The teacher's rows: the server's settings, class presets, named presets, class sessions
and assignments."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from storage.records.results import BoardSort, BoardVisibility

ANSWER_FORMS = ("number", "expression")  # RULES §2.2; engine.levels.AnswerForm's values


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """The teacher's settings; a server that never set them gets these defaults."""

    guild_id: int
    board: BoardVisibility = "visible"
    channels: tuple[int, ...] = ()  # channels games may be played in; empty = any
    language: str | None = None  # None: the server's own locale
    threads: bool = True
    pings: bool = True  # mention the player a game waits for
    answer_form: str = "number"  # RULES §2.2: a new game's answer form unless its starter picks
    updated_at: int | None = None
    public_board: BoardSort = "rating"  # the leaderboard members see by default and may share
    pictures: bool = True  # boards show the card table as a picture; off: text only


class SettingsChange(TypedDict, total=False):
    """The settings a teacher changes, by `GuildSettings`' names: one left out, or None, is
    kept, except ``language``, where None means "the server's own locale" (leave it out to
    keep the current one); ``channels=[]`` allows every channel."""

    board: str | None
    channels: Sequence[int] | None
    language: str | None
    threads: bool | None
    pings: bool | None
    answer_form: str | None
    public_board: str | None
    pictures: bool | None


# -- the teacher's class presets (storage/teachers.py)

SERVER_WIDE = 0  # the channel id of a preset that holds for every channel of the server


@dataclass(frozen=True, slots=True)
class ClassPreset:
    """What ``/mattekrig start`` gets when the pupil says nothing (or, locked, whatever they
    say): start options by name, as `settings_from_options` takes them."""

    guild_id: int
    channel_id: int  # SERVER_WIDE: the whole server
    options: Mapping[str, Any] = field(default_factory=dict)
    locked: bool = False
    updated_at: int | None = None
    name: str | None = None  # the named preset it is (a class session's), else None


PRESET_NAME_MAX = 50  # characters of a named preset's name (0010_named_presets.sql)


@dataclass(frozen=True, slots=True)
class NamedPreset:
    """A preset the teacher saved under a name ("brøk uke 12", migration 0010) to pick when a
    class session opens or a channel's preset is set: the options and lock of a
    `ClassPreset`, for no channel in particular."""

    guild_id: int
    name: str
    options: Mapping[str, Any] = field(default_factory=dict)
    locked: bool = False
    updated_at: int | None = None

    @property
    def key(self) -> str:
        """The name as storage finds it: one preset per name, whatever its capitals."""
        return preset_key(self.name)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "options": dict(self.options), "locked": self.locked}

    @classmethod
    def from_json(cls, guild_id: int, data: Mapping[str, Any]) -> NamedPreset:
        return cls(guild_id, str(data["name"]), dict(data["options"]), bool(data["locked"]))


def preset_key(name: str) -> str:
    """A preset's name, case-folded and with its spaces tidied (the lookup key)."""
    return " ".join(name.split()).casefold()


# The options a preset may hold, in the order a screen lists them.
PRESET_KEYS = (
    "game",
    "level",
    "deck",
    "mode",
    "answer_form",
    "answer_seconds",
    "war_size",
    "minutes",
    "computer",
)


@dataclass(frozen=True, slots=True)
class ClassSession:
    """A timed class round: games started in the server between ``started_at`` and
    ``ends_at`` end at ``ends_at`` (time up); the summary goes to ``channel_id`` in ``lang``.
    ``preset``: the named preset it was opened with (a copy), which every game started in
    it gets; None: each channel's preset, else the server's, as outside a session."""

    id: int
    guild_id: int
    channel_id: int
    lang: str
    started_at: int
    ends_at: int
    summarized_at: int | None = None
    preset: NamedPreset | None = None


@dataclass(frozen=True, slots=True)
class Assignment:
    """A teacher's goal: ``rounds`` answers at ``level`` of ``game`` with at least
    ``best_percent`` % best moves, played between ``created_at`` and ``due_at``."""

    id: int
    guild_id: int
    game: str
    level: int
    rounds: int
    best_percent: int
    created_at: int
    due_at: int
