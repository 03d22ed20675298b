"""The bot reads its settings from the environment and `.env` files, and says clearly what is
missing or malformed (one home for data, settings checked before login)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, environment, load_config, read_config
from tests.ops_support import shaped_token

TOKEN = shaped_token()


@pytest.fixture(autouse=True)
def private_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """platformdirs' folders under tmp_path, not the developer's own."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def test_missing_token_is_one_clear_sentence() -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is not set"):
        load_config({})


def test_backup_and_restore_need_no_token() -> None:
    assert load_config({}, need_token=False).token == ""


def test_defaults_and_token_hidden_from_repr(tmp_path: Path) -> None:
    """The default database is in the user's data folder, whatever folder the bot starts in."""
    config = load_config({"DISCORD_TOKEN": TOKEN})
    assert config.database_path == tmp_path / "data" / "mattekrig" / "mattekrig.db"
    assert config.database_is_default
    assert config.dev_guild_id is None
    assert (config.log_level, config.log_format) == ("INFO", "text")
    assert TOKEN not in repr(config)


def test_a_relative_database_path_is_made_absolute_from_the_working_folder(
    tmp_path: Path,
) -> None:
    config, problems = read_config(
        {"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": "db/m.db"}, cwd=tmp_path
    )
    assert problems == [] and config.database_path == tmp_path / "db" / "m.db"
    assert not config.database_is_default


def test_bad_guild_id_log_level_and_format_are_refused() -> None:
    with pytest.raises(ConfigError, match="DEV_GUILD_ID"):
        load_config({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "abc"})
    with pytest.raises(ConfigError, match="LOG_LEVEL"):
        load_config({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "LOUD"})
    with pytest.raises(ConfigError, match="LOG_FORMAT"):
        load_config({"DISCORD_TOKEN": TOKEN, "LOG_FORMAT": "xml"})


def test_every_problem_is_found_for_check() -> None:
    """`mattekrig check` shows them all; start-up stops at the first."""
    _, problems = read_config({"DEV_GUILD_ID": "x", "LOG_LEVEL": "LOUD", "LOG_FORMAT": "xml"})
    assert [p.split(" ", 1)[0] for p in problems] == [
        "DISCORD_TOKEN",
        "DEV_GUILD_ID",
        "LOG_LEVEL",
        "LOG_FORMAT",
    ]


def test_dotenv_is_read_from_the_working_folder_then_the_config_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """README: `.env` in the folder the bot starts in counts first, then
    `~/.config/mattekrig/.env`; the process environment beats both."""
    work = tmp_path / "work"
    work.mkdir()
    (work / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nLOG_LEVEL=debug\n")
    machine = tmp_path / "config" / "mattekrig"
    machine.mkdir(parents=True)
    (machine / ".env").write_text("LOG_LEVEL=error\nDEV_GUILD_ID=42\nLOG_FORMAT=text\n")
    for name in ("DISCORD_TOKEN", "LOG_LEVEL", "DEV_GUILD_ID", "DATABASE_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LOG_FORMAT", "json")
    monkeypatch.chdir(work)
    config = load_config()
    assert config.token == TOKEN and config.log_level == "DEBUG"
    assert config.dev_guild_id == 42 and config.log_format == "json"
    assert config.env_files == (work / ".env", machine / ".env")
    environ, _ = environment(work)
    assert environ["LOG_LEVEL"] == "debug"


def test_the_token_and_the_database_url_can_come_from_secret_files(tmp_path: Path) -> None:
    """Docker's and compose's secrets (/run/secrets/…): the token is then in neither the
    container's environment (`docker inspect`) nor a shell's history. A variable that is
    set wins over its file."""
    token_file, url_file = tmp_path / "discord_token", tmp_path / "database_url"
    token_file.write_text(f"{TOKEN}\n")
    url_file.write_text("postgresql://bot:pw@db:5432/mattekrig\n")
    config = load_config(
        {"DISCORD_TOKEN_FILE": str(token_file), "DATABASE_URL_FILE": str(url_file)}
    )
    assert config.token == TOKEN and config.database_url == "postgresql://bot:pw@db:5432/mattekrig"
    set_too = load_config({"DISCORD_TOKEN": TOKEN, "DISCORD_TOKEN_FILE": str(tmp_path / "none")})
    assert set_too.token == TOKEN


def test_a_secret_file_that_cannot_be_read_is_one_sentence(tmp_path: Path) -> None:
    missing = tmp_path / "discord_token"
    _, problems = read_config({"DISCORD_TOKEN_FILE": str(missing)})
    assert problems == [
        f"DISCORD_TOKEN_FILE names {missing}, which cannot be read (No such file or directory): "
        "the file must exist and be readable by the bot's user."
    ]
    missing.write_text("\n")
    _, problems = read_config({"DISCORD_TOKEN_FILE": str(missing)})
    assert problems == [
        f"DISCORD_TOKEN_FILE names {missing}, which is empty: put the DISCORD_TOKEN in it."
    ]


def test_commands_that_need_no_token_never_read_its_file(tmp_path: Path) -> None:
    """`backup` and `restore` beside a compose set-up whose token file this user cannot read."""
    config = load_config({"DISCORD_TOKEN_FILE": str(tmp_path / "none")}, need_token=False)
    assert config.token == ""
