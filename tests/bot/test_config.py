"""The bot reads its settings from the environment only, and says clearly what is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_config


def test_missing_token_is_one_clear_sentence() -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is not set"):
        load_config({})


def test_defaults_and_token_hidden_from_repr() -> None:
    config = load_config({"DISCORD_TOKEN": "secret-token"})
    assert config.database_path == Path("data/mattekrig.db")
    assert config.dev_guild_id is None
    assert config.log_level == "INFO"
    assert "secret-token" not in repr(config)


def test_bad_guild_id_and_log_level_are_refused() -> None:
    with pytest.raises(ConfigError, match="DEV_GUILD_ID"):
        load_config({"DISCORD_TOKEN": "t", "DEV_GUILD_ID": "abc"})
    with pytest.raises(ConfigError, match="LOG_LEVEL"):
        load_config({"DISCORD_TOKEN": "t", "LOG_LEVEL": "LOUD"})


def test_dotenv_is_read_from_the_folder_the_bot_starts_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """README: `.env` in the repository is read even when the bot is installed with `pip
    install .` (its modules then live in site-packages, not beside `.env`)."""
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-dotenv\nLOG_LEVEL=debug\n")
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "LOG_LEVEL"):  # recorded first, so teardown removes what
        monkeypatch.setenv(name, "")  # load_dotenv puts into the environment
        monkeypatch.delenv(name)
    config = load_config()
    assert config.token == "from-dotenv" and config.log_level == "DEBUG"
