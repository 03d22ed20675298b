"""The teacher's settings as the contract promises them: defaults until set, every change
read back at once (storage may keep them in memory, never stale), gone with the server."""

from __future__ import annotations

import asyncio

import pytest

from engine.levels import AnswerForm
from storage import ANSWER_FORMS, GuildSettings, Storage

from .conftest import Backend, need_durable
from .helpers import T0


async def test_a_change_is_read_back_at_once(store: Storage) -> None:
    assert await store.guild_settings(7) == GuildSettings(7)
    changed = await store.update_guild_settings(7, T0, board="hidden", channels=[3, 3, 4])
    assert changed == GuildSettings(7, board="hidden", channels=(3, 4), updated_at=T0)
    assert await store.guild_settings(7) == changed
    again = await store.update_guild_settings(7, T0 + 1, language="sv", threads=False)
    assert await store.guild_settings(7) == again
    assert (again.board, again.channels, again.language, again.threads) == (
        "hidden",
        (3, 4),
        "sv",
        False,
    )
    assert await store.guild_settings(8) == GuildSettings(8)  # another server: untouched


async def test_a_read_racing_a_change_never_leaves_the_old_settings(store: Storage) -> None:
    for i in range(20):
        _, changed = await asyncio.gather(
            store.guild_settings(7), store.update_guild_settings(7, T0 + i, threads=i % 2 == 0)
        )
        assert await store.guild_settings(7) == changed


async def test_forgetting_the_server_forgets_its_settings(store: Storage) -> None:
    await store.update_guild_settings(7, T0, board="own_rank")
    await store.guild_settings(7)
    await store.forget_guild(7, 0)
    assert await store.guild_settings(7) == GuildSettings(7)


async def test_settings_survive_a_restart(backend: Backend) -> None:
    need_durable(backend)
    async with await backend.open() as store:
        changed = await store.update_guild_settings(7, T0, language="en")
    async with await backend.open() as store:
        assert await store.guild_settings(7) == changed


async def test_the_servers_answer_form_is_kept(store: Storage) -> None:
    """RULES §2.2: new games' answer form, `number` until a teacher
    changes it; only the two forms are stored, and the engine knows both."""
    assert tuple(f.value for f in AnswerForm) == ANSWER_FORMS
    assert (await store.guild_settings(7)).answer_form == "number"
    changed = await store.update_guild_settings(7, T0, answer_form="expression")
    assert changed.answer_form == "expression" and changed.board == "visible"
    kept = await store.update_guild_settings(7, T0 + 1, threads=False)
    assert kept.answer_form == "expression"
    assert await store.guild_settings(7) == kept
    with pytest.raises(ValueError):
        await store.update_guild_settings(7, T0 + 2, answer_form="guess")
    assert (await store.guild_settings(7)).answer_form == "expression"
