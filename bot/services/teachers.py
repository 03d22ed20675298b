"""The teacher's class presets and pupils' accommodations (`/mattekrig admin preset |
accommodation`), and the start options a preset gives a pupil's `/mattekrig start`.

Every method that changes something takes ``manager`` (the caller's actual Manage Server
permission) and refuses with ``admin.not_allowed``, as `AdminService` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.services.clock import Clock
from bot.services.errors import UserFacingError
from bot.storage.contract import TeacherStore
from bot.storage.records import SERVER_WIDE, ClassPreset
from engine.computer import Strength
from engine.expressions import AnswerForm
from engine.registry import (
    ANSWER_TIME,
    DECK,
    GAMES,
    LEVEL,
    MODE,
    TIME_LIMIT,
    WAR_SIZE,
    Option,
)

_OPTIONS: dict[str, Option] = {
    "level": LEVEL,
    "deck": DECK,
    "mode": MODE,
    "answer_seconds": ANSWER_TIME,
    "war_size": WAR_SIZE,
    "minutes": TIME_LIMIT,
}
_CHOICES: dict[str, tuple[str, ...]] = {
    "game": tuple(GAMES),
    "answer_form": tuple(f.value for f in AnswerForm),
    "computer": tuple(s.value for s in Strength),
}
# An accommodation: the pupil's answer time as a percentage of the table's; 0: no timer.
ACCOMMODATIONS: dict[str, int | None] = {
    "x1_5": 150,
    "x2": 200,
    "x3": 300,
    "no_timer": 0,
    "none": None,  # the table's time again
}


def check_preset_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options, each one checked against the game registry's allowed values."""
    out: dict[str, Any] = {}
    for key, value in options.items():
        if value is None:
            continue
        option = _OPTIONS.get(key)
        allowed = option.allows(value) if option is not None else value in _CHOICES.get(key, ())
        if not allowed:
            raise UserFacingError("error.bad_option", option=key)
        out[key] = value
    return out


def start_options(preset: ClassPreset | None, given: Mapping[str, Any]) -> dict[str, Any]:
    """What a pupil's `/mattekrig start` plays with: the registry's defaults, the teacher's
    preset over them, and the pupil's own choices (``given``: the options they typed) over
    that, unless the preset is locked (then the pupil chooses only opponents, and an option
    they typed is refused so they know why it did not count). ``preset`` in the result: the
    board says "the teacher's setup"."""
    chosen = {k: v for k, v in given.items() if v is not None}
    if preset is None:
        return {"game": "regnekrig", **chosen, "preset": False}
    if preset.locked and chosen:
        raise UserFacingError("preset.locked", option=sorted(chosen)[0])
    merged = {"game": "regnekrig", **dict(preset.options), **chosen}
    return {**merged, "preset": True}


class TeacherService:
    def __init__(self, storage: TeacherStore, clock: Clock) -> None:
        self.storage = storage
        self.clock = clock

    async def set_preset(
        self,
        guild_id: int,
        channel_id: int | None,
        options: Mapping[str, Any],
        *,
        locked: bool,
        manager: bool,
    ) -> ClassPreset:
        """``channel_id`` None: the whole server's preset (a channel's own preset wins)."""
        _require(manager)
        checked = check_preset_options(options)
        preset = ClassPreset(guild_id, channel_id or SERVER_WIDE, checked, locked)
        return await self.storage.set_preset(preset, self.clock.now_ms())

    async def clear_preset(self, guild_id: int, channel_id: int | None, *, manager: bool) -> bool:
        _require(manager)
        return await self.storage.clear_preset(guild_id, channel_id or SERVER_WIDE)

    async def preset_for(self, guild_id: int, channel_id: int) -> ClassPreset | None:
        """The preset a game started in this channel gets (the channel's, else the server's)."""
        return await self.storage.preset_for(guild_id, channel_id)

    async def presets(self, guild_id: int, *, manager: bool) -> list[ClassPreset]:
        _require(manager)
        return await self.storage.presets(guild_id)

    async def set_accommodation(
        self, guild_id: int, user_id: int, kind: str, *, manager: bool
    ) -> int | None:
        """A pupil's answer time from now on (games already running keep theirs). Returns
        the percentage stored (None: removed)."""
        _require(manager)
        if kind not in ACCOMMODATIONS:
            raise UserFacingError("error.bad_option", option="answer_time")
        percent = ACCOMMODATIONS[kind]
        await self.storage.set_accommodation(guild_id, user_id, percent, self.clock.now_ms())
        return percent

    async def accommodations(self, guild_id: int, *, manager: bool) -> dict[int, int]:
        """Every accommodation of the server: for the teacher's eyes only."""
        _require(manager)
        return await self.storage.accommodations(guild_id)


def _require(manager: bool) -> None:
    if not manager:
        raise UserFacingError("admin.not_allowed")
