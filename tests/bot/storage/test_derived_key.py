"""A key every process on one database shares (storage/privacy.py `derived_key`), on every
backend: the same for every connection to the database, another for another purpose, made
from the database's random key and telling nothing of it."""

from __future__ import annotations

from storage import Storage


async def test_a_derived_key_is_the_databases_own(store: Storage) -> None:
    key = await store.derived_key("front page marks")
    assert len(key) == 32 and key == await store.derived_key("front page marks")
    assert key != await store.derived_key("another purpose")
    privacy_key, _ = await store.forgotten_entries()
    assert key != privacy_key
