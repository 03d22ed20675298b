"""PRIVACY.md, "Logs": nothing secret in any log line at any level. A whole game is played at
DEBUG (discord.py logs every gateway event and HTTP request whole there) with both log
formats, and the log is searched for the bot's token, every interaction token, every pupil's
name and everything a pupil typed; the ids an operator needs are still there."""

from __future__ import annotations

import io
import json
import logging
import random
import re
from collections.abc import Iterator

import pytest

from bot.logs import setup_logging
from engine.regnekrig import ANSWER, TARGET, part_of
from engine.state import Phase
from tests.bot.e2e import Table, best_answer, seed_deals, weak_answer

# what a pupil might type that is not an answer at all (refused, and never logged)
NONSENSE = "quokka plus zebra"


@pytest.fixture
def debug_log(table: Table, root_logger_kept: None) -> Iterator[list[io.StringIO]]:
    """The bot's log at DEBUG, as `mattekrig run` installs it (text and JSON at once)."""
    streams = [io.StringIO(), io.StringIO()]
    text = setup_logging("DEBUG", "text", streams[0], secrets=(table.fake.token,))
    root = logging.getLogger()
    json_handler = setup_logging("DEBUG", "json", streams[1], secrets=(table.fake.token,))
    root.addHandler(text)  # the second call replaced the first handler: keep both
    yield streams
    root.removeHandler(text)
    root.removeHandler(json_handler)


def _words(name: str, log: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", log) is not None


async def test_a_game_at_debug_logs_no_secret(
    table: Table, debug_log: list[io.StringIO], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_deals(monkeypatch, 2)
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=5)
    typed: list[str] = []
    rng = random.Random(5)
    refused = None
    for _ in range(400):
        state = table.state(gid)
        if state.is_over:
            break
        if state.phase is Phase.FLIP:
            await table.flip("alice", gid)
        elif state.phase is TARGET:
            namer = table.players_of(gid, part_of(state).namer)[0]
            await table.target(namer, gid, rng.randint(-15, 15))
        elif state.phase is ANSWER:
            if refused is None:  # before the first real answer: refused, changes nothing
                _, refused = await table.answer("alice", gid, NONSENSE)
                assert refused is not None and refused.answered
            for side in table.human_pending(gid):
                who = table.players_of(gid, side)[0]
                state = table.state(gid)
                text = best_answer(state, side) if side == 0 else weak_answer(state, side, rng)
                typed.append(text)
                await table.answer(who, gid, text)
    assert table.state(gid).is_over and refused is not None
    await table.settle()

    text_log, json_log = (stream.getvalue() for stream in debug_log)
    for log in (text_log, json_log):
        assert "WebSocket Event" in log and "has returned" in log  # discord.py's DEBUG lines
        assert table.fake.token not in log
        tokens = [i.token for i in table.fake.world.interactions.values()]
        assert len(tokens) > 20
        assert not [token for token in tokens if token in log]
        for user in ("alice", "bob"):
            person = table.user(user)
            for name in (person.username, person.global_name or person.username):
                assert not _words(name, log), name
        assert NONSENSE not in log
        spoken = [answer for answer in set(typed) if len(answer) > 2 and answer in log]
        assert not spoken, spoken

    # the operator still finds every press by its ids, in every line of it
    lines = [json.loads(line) for line in json_log.splitlines()]
    pressed = {str(i.id) for i in table.fake.world.interactions.values()}
    seen = {line["interaction_id"] for line in lines if "interaction_id" in line}
    assert pressed <= seen
    assert any(line.get("game_id") == str(gid) for line in lines)
    assert any(str(table.fake.guild.id) in line["message"] for line in lines)


def test_a_traceback_keeps_no_token(
    root_logger_kept: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception's text is scrubbed too: here a bot token and an interaction URL."""
    stream = io.StringIO()
    token = "MTIzNDU2Nzg5MDEyMzQ1Njc4.AbCdEf." + "s" * 27
    setup_logging("DEBUG", "text", stream, secrets=(token,))
    try:
        raise RuntimeError(f"POST /interactions/123/aW50ZXJhY3Rpb24-secret/callback with {token}")
    except RuntimeError:
        logging.getLogger("discord.http").exception("failed: %s", {"token": "abc", "id": "7"})
    log = stream.getvalue()
    assert "aW50ZXJhY3Rpb24-secret" not in log and token not in log and "abc" not in log
    assert "/interactions/123/<hidden>/callback" in log and "'id': '7'" in log
