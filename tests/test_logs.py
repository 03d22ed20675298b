"""Log lines: colour only on a terminal, `LOG_FORMAT=json` one object per line
with the press's ids, no voice warnings."""

from __future__ import annotations

import io
import json
import logging

import discord
import pytest

from bot.logs import Press, press, press_of, setup_logging


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def kept(root_logger_kept: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)


def test_colour_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    for stream, coloured in ((io.StringIO(), False), (Terminal(), True)):
        setup_logging("INFO", "text", stream)
        logging.getLogger("bot.test").warning("careful")
        assert ("\x1b[" in stream.getvalue()) is coloured
        assert "WARNING" in stream.getvalue() and "careful" in stream.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    stream = Terminal()
    setup_logging("INFO", "text", stream)
    logging.getLogger("bot.test").warning("careful")
    assert "\x1b[" not in stream.getvalue()


def test_a_second_set_up_does_not_double_the_lines() -> None:
    stream = io.StringIO()
    setup_logging("INFO", "text", stream)
    setup_logging("INFO", "text", stream)
    logging.getLogger("bot.test").info("once")
    assert stream.getvalue().count("once") == 1


def test_json_is_one_object_per_line_with_the_press_ids() -> None:
    stream = io.StringIO()
    setup_logging("DEBUG", "json", stream)
    log = logging.getLogger("bot.test")
    log.info("outside a press")
    token = press.set(Press(interaction_id=1311111111111111111, guild_id=42, game_id=7))
    try:
        try:
            raise ValueError("boom\nsecond line")
        except ValueError:
            log.exception("inside a press")
    finally:
        press.reset(token)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    outside, inside = (json.loads(line) for line in lines)
    assert outside["message"] == "outside a press" and "interaction_id" not in outside
    assert {k: inside[k] for k in ("level", "logger", "message")} == {
        "level": "ERROR",
        "logger": "bot.test",
        "message": "inside a press",
    }
    # snowflakes as strings: a JSON reader with 53-bit numbers would round them
    assert (inside["interaction_id"], inside["guild_id"], inside["game_id"]) == (
        "1311111111111111111",
        "42",
        "7",
    )
    assert "ValueError: boom" in inside["exception"]


def test_text_lines_name_the_press_too() -> None:
    stream = io.StringIO()
    setup_logging("INFO", "text", stream)
    token = press.set(Press(interaction_id=5, guild_id=None, game_id=9))
    try:
        logging.getLogger("bot.test").info("pressed")
    finally:
        press.reset(token)
    assert stream.getvalue().rstrip().endswith("pressed [interaction=5 game=9]")


def test_the_press_of_a_payload() -> None:
    button = {"id": "11", "guild_id": "22", "data": {"custom_id": "mk:flip:33:1"}}
    assert press_of(button) == Press(11, 22, 33)
    command = {"id": "11", "data": {"name": "mattekrig"}}
    assert press_of(command) == Press(11, None, None)
    assert press_of({"data": {}}) is None


def test_the_voice_warnings_are_switched_off() -> None:
    """discord.py warns at every start that PyNaCl and davey are missing; the bot never
    joins a voice channel."""
    setup_logging("INFO", "text", io.StringIO())
    assert not discord.VoiceClient.warn_nacl and not discord.VoiceClient.warn_dave
