"""The teacher's class presets and pupils' accommodations (`/mattekrig admin preset |
accommodation`), named presets ("brøk uke 12": saved, listed, deleted, picked by name for a
class session or a channel), and the start options a preset gives a pupil's `/mattekrig
start` (a running session's named preset, else the channel's, else the server's).

Every method that changes something takes ``manager`` (the caller's actual Manage Server
permission) and refuses with ``admin.not_allowed``, as `AdminService` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.services.base import StoredService
from classroom.errors import UserFacingError
from engine.computer import Strength
from engine.levels import AnswerForm
from engine.options import ANSWER_TIME, DECK, LEVEL, MODE, TIME_LIMIT, WAR_SIZE, Option
from engine.registry import GAMES
from storage.contract import TeachingStore
from storage.records import PRESET_NAME_MAX as PRESET_NAME_MAX
from storage.records import SERVER_WIDE, ClassPreset, NamedPreset

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


def preset_name(text: str) -> str:
    """A name the teacher typed for a preset, tidied (spaces), or a clear refusal."""
    name = " ".join(text.split())
    if not name or len(name) > PRESET_NAME_MAX:
        raise UserFacingError("preset.bad_name", count=PRESET_NAME_MAX)
    return name


class TeacherService(StoredService[TeachingStore]):
    async def set_preset(
        self,
        guild_id: int,
        channel_id: int | None,
        options: Mapping[str, Any],
        *,
        locked: bool,
        manager: bool,
        named: str | None = None,
    ) -> ClassPreset:
        """``channel_id`` None: the whole server's preset (a channel's own preset wins).
        ``named``: start from that named preset's options and lock (a copy: changing the
        named preset later leaves this one as it is); ``options`` given beside it win."""
        _require(manager)
        checked = check_preset_options(options)
        if named is not None:
            found = await self.named(guild_id, named)
            checked = {**found.options, **checked}
            locked = locked or found.locked
        preset = ClassPreset(guild_id, channel_id or SERVER_WIDE, checked, locked)
        return await self.storage.set_preset(preset, self.clock.now_ms())

    async def save_named(
        self,
        guild_id: int,
        name: str,
        options: Mapping[str, Any],
        *,
        locked: bool,
        manager: bool,
    ) -> NamedPreset:
        """Save the options under ``name`` (replacing a preset of that name). A named preset
        with no option at all would give pupils nothing: refused."""
        _require(manager)
        checked = check_preset_options(options)
        if not checked and not locked:
            raise UserFacingError("preset.save_empty")
        preset = NamedPreset(guild_id, preset_name(name), checked, locked)
        return await self.storage.save_named_preset(preset, self.clock.now_ms())

    async def delete_named(self, guild_id: int, name: str, *, manager: bool) -> NamedPreset:
        """The preset deleted (an unknown name: refused, naming it)."""
        _require(manager)
        found = await self.named(guild_id, name)
        await self.storage.delete_named_preset(guild_id, found.name)
        return found

    async def named(self, guild_id: int, name: str) -> NamedPreset:
        """The server's preset called ``name`` (whatever its capitals), or a refusal."""
        found = await self.storage.named_preset(guild_id, " ".join(name.split()))
        if found is None:
            raise UserFacingError("preset.unknown", name=name.strip()[:PRESET_NAME_MAX])
        return found

    async def named_presets(self, guild_id: int) -> list[NamedPreset]:
        return await self.storage.named_presets(guild_id)

    async def preset_names(self, guild_id: int, typed: str, *, limit: int = 25) -> list[str]:
        """The names an autocomplete offers: those containing what was typed, by name
        (Discord shows at most 25)."""
        wanted = " ".join(typed.split()).casefold()
        names = [p.name for p in await self.storage.named_presets(guild_id)]
        return [n for n in names if wanted in n.casefold()][:limit]

    async def clear_preset(self, guild_id: int, channel_id: int | None, *, manager: bool) -> bool:
        _require(manager)
        return await self.storage.clear_preset(guild_id, channel_id or SERVER_WIDE)

    async def preset_for(self, guild_id: int, channel_id: int) -> ClassPreset | None:
        """The preset a game started in this channel gets: the named preset of the class
        session running in the server, else the channel's, else the server's."""
        session = await self.storage.running_session(guild_id, self.clock.now_ms())
        if session is not None and session.preset is not None:
            kept = session.preset
            return ClassPreset(
                guild_id, SERVER_WIDE, dict(kept.options), kept.locked, name=kept.name
            )
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
