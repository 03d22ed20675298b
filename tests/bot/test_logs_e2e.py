"""Every log line of a press names its interaction, server and game, down in the
services, and the bot says it is ready with its name, servers and invite link."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import pytest

from bot.invite import invite_url
from bot.logs import JsonFormatter, PressFilter
from tests.bot.e2e import Table


@pytest.fixture
def json_lines() -> Any:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(PressFilter())
    logger = logging.getLogger("bot")
    level = logger.level
    logger.setLevel(logging.INFO)
    logger.addHandler(handler)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    logger.removeHandler(handler)
    logger.setLevel(level)


async def test_a_press_logs_its_ids_in_every_line(
    table: Table, json_lines: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, _ = await table.start_computer("alice", game="intervallkrig", thread=True)
    games = table.bot.games
    choose = games.choose

    async def flip_and_log(*args: Any, **kwargs: Any) -> Any:
        logging.getLogger("bot.services.games").info("flipping")  # deep inside the press
        return await choose(*args, **kwargs)

    monkeypatch.setattr(games, "choose", flip_and_log)
    press = await table.flip("alice", gid)
    assert press.answered
    line = next(line for line in json_lines() if line["message"] == "flipping")
    assert line["interaction_id"] == str(press.id)
    assert line["guild_id"] == str(table.fake.guild.id)
    assert line["game_id"] == str(gid)


async def test_the_ready_line_names_the_bot_its_servers_and_the_invite(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "bot.client")
    await table.harness.restart()
    await table.fake.wait_until(
        lambda: any(r.getMessage().startswith("ready as") for r in caplog.records),
        what="the ready line",
    )
    ready = next(r.getMessage() for r in caplog.records if r.getMessage().startswith("ready"))
    fake = table.fake
    assert ready == (
        f"ready as {table.bot.user} (id {fake.bot_user.id}) in 1 server(s); "
        f"invite link: {invite_url(fake.application_id)}"
    )
