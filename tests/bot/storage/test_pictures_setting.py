"""The server setting that turns board pictures off (migration 0009), stored and read
through the settings contract on every backend: on until a manager turns it off, kept while
other settings change, and still off after the storage is opened again."""

from __future__ import annotations

from storage import Storage

from .conftest import Backend, need_durable
from .helpers import T0

GUILD = 1


async def test_pictures_are_on_until_a_manager_turns_them_off(store: Storage) -> None:
    assert (await store.guild_settings(GUILD)).pictures is True  # never set: the default
    off = await store.update_guild_settings(GUILD, T0, pictures=False)
    assert off.pictures is False and (await store.guild_settings(GUILD)).pictures is False
    kept = await store.update_guild_settings(GUILD, T0 + 1, threads=False, pings=False)
    assert kept.pictures is False  # other settings change, this one stays
    assert (await store.guild_settings(2)).pictures is True  # another server keeps its own
    on = await store.update_guild_settings(GUILD, T0 + 2, pictures=True)
    assert on.pictures is True and not on.threads and not on.pings


async def test_pictures_off_survives_a_restart(backend: Backend) -> None:
    need_durable(backend)
    async with await backend.open() as store:
        await store.update_guild_settings(GUILD, T0, pictures=False)
    async with await backend.open() as store:  # a fresh process: read from the database
        assert (await store.guild_settings(GUILD)).pictures is False
