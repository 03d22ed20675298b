"""The scale settings: DATABASE_URL picks PostgreSQL, SHARD_COUNT and SHARD_IDS
this process's shards; each bad value is one sentence, and a password never shows."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from bot.config import Config, ConfigError, load_config
from bot.ops.check import offline
from bot.shards import Shards, shard_of
from storage.migrate import latest_version, load_migrations
from tests.ops_support import shaped_token
from tests.postgres import fresh_schema_url


def _load(**settings: str) -> Config:
    return load_config({"DISCORD_TOKEN": shaped_token(), **settings})


def test_without_database_url_sqlite_at_database_path() -> None:
    config = _load(DATABASE_PATH="/srv/mattekrig.db")
    assert config.database_url is None
    assert config.database_label == "/srv/mattekrig.db"


def test_database_url_selects_postgresql_and_hides_its_password() -> None:
    config = _load(DATABASE_URL="postgresql://bot:secret@db:5432/mattekrig")
    assert config.database_url == "postgresql://bot:secret@db:5432/mattekrig"
    assert config.database_label == "postgresql://db:5432/mattekrig"
    assert "secret" not in repr(config)


def test_a_database_url_that_is_not_postgresql_is_one_sentence() -> None:
    with pytest.raises(ConfigError, match="DATABASE_URL must be a PostgreSQL URL") as refused:
        _load(DATABASE_URL="mysql://bot:secret@db/mattekrig")
    assert "secret" not in str(refused.value)


def test_shards_from_the_environment() -> None:
    assert (_load().shard_count, _load().shard_ids) == (None, None)
    config = _load(SHARD_COUNT="2", SHARD_IDS="1")
    assert (config.shard_count, config.shard_ids) == (2, (1,))
    every = _load(SHARD_COUNT="3")
    assert every.shard_ids == (0, 1, 2)
    assert _load(SHARD_COUNT="4", SHARD_IDS=" 3, 1 ").shard_ids == (1, 3)


@pytest.mark.parametrize(
    ("settings", "sentence"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number from 1"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number from 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS must be shard numbers 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0;1"}, "SHARD_IDS must be shard numbers 0 to 1"),
    ],
)
def test_bad_shard_settings_are_one_sentence(settings: dict[str, str], sentence: str) -> None:
    with pytest.raises(ConfigError, match=sentence):
        _load(**settings)


def test_a_guild_is_on_discords_shard() -> None:
    """Discord: shard_id = (guild_id >> 22) % num_shards; direct messages on shard 0."""
    guild = 1130000000000000000
    assert shard_of(guild, 2) == (guild >> 22) % 2
    assert shard_of(None, 5) == 0
    assert Shards(2, (1,)).owns(guild) == (((guild >> 22) % 2) == 1)
    assert Shards(2, (0, 1)).owns(guild)


def test_check_names_the_shards_and_a_postgresql_server_that_is_down(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("DISCORD_TOKEN", shaped_token())
    monkeypatch.setenv("DATABASE_URL", f"postgresql://bot:secret@127.0.0.1:{port}/x")
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("SHARD_IDS", "1")
    _, found = offline(work)
    text = found.text()
    assert f"PostgreSQL postgresql://127.0.0.1:{port}/x" in text
    assert "1 of 2 (SHARD_IDS of SHARD_COUNT)" in text
    assert any(p.startswith("cannot connect to postgresql://127.0.0.1") for p in found.problems)
    assert "secret" not in text


def test_check_gives_the_postgresql_schema_version(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", shaped_token())
    monkeypatch.setenv("DATABASE_URL", fresh_schema_url())
    _, found = offline(work)
    assert f"schema version {latest_version(load_migrations())}" in found.text(), found.text()
    assert found.problems == []
