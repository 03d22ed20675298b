"""Rate limits as a bot observes them: the ``X-RateLimit-*`` headers of a bucket, 429 with
``retry_after`` once it is used up, the global 50 a second, and discord.py waiting and retrying.

Windows are measured on the fake's clock, which these tests stop and move by hand: a busy
machine then never lets a window pass unseen, and no test sleeps through one.
"""

from __future__ import annotations

import asyncio

import discord
import pytest

from .driver import Driver
from .limits import CHANNEL_EDITS_PER_5S, GLOBAL_REQUESTS_PER_SECOND
from .raw import RawApi
from .sample_bot import SampleBot
from .server import FakeDiscord

pytestmark = pytest.mark.discord_refuses  # a 429 is the point here, not a mistake

EDIT = "/channels/{channel_id}/messages/{message_id}"


async def test_off_unless_a_test_turns_them_on(fake_discord: FakeDiscord, bot: SampleBot) -> None:
    async with RawApi(fake_discord) as api:
        path = f"/channels/{fake_discord.channel.id}/messages"
        answers = [await api.call("POST", path, {"content": str(n)}) for n in range(8)]

    assert [a.status for a in answers] == [200] * 8
    assert not any("X-RateLimit-Limit" in a.headers for a in answers)


async def test_five_edits_per_channel_in_five_seconds(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    board = await fake_discord.post_message(content="brett")
    other_channel = fake_discord.world.add_channel("gang")
    elsewhere = await fake_discord.post_message(other_channel, content="annet brett")
    fake_discord.clock.freeze()
    fake_discord.rate_limits.enable()

    async with RawApi(fake_discord) as api:
        path = f"/channels/{fake_discord.channel.id}/messages/{board.id}"
        edits = [await api.call("PATCH", path, {"content": f"v{n}"}) for n in range(5)]
        refused = await api.call("PATCH", path, {"content": "v5"})
        other = f"/channels/{other_channel.id}/messages/{elsewhere.id}"
        other_edit = await api.call("PATCH", other, {"content": "v1"})
        fake_discord.clock.advance(5)
        later = await api.call("PATCH", path, {"content": "v6"})

    assert [e.headers["X-RateLimit-Remaining"] for e in edits] == ["4", "3", "2", "1", "0"]
    assert {e.headers["X-RateLimit-Limit"] for e in edits} == {str(CHANNEL_EDITS_PER_5S)}
    assert len({e.headers["X-RateLimit-Bucket"] for e in edits}) == 1
    assert 0 < float(edits[0].headers["X-RateLimit-Reset-After"]) <= 5
    assert refused.status == 429 and refused.headers["X-RateLimit-Scope"] == "user"
    assert 0 < refused.body["retry_after"] <= 5 and refused.body["global"] is False
    assert int(refused.headers["Retry-After"]) >= 1
    assert other_edit.status == 200  # another channel is another bucket
    assert later.status == 200 and later.headers["X-RateLimit-Remaining"] == "4"
    assert fake_discord.message(board.id).content == "v6"
    assert [h["content"] for h in fake_discord.message(board.id).history][-1] == "v4"


async def test_fifty_requests_a_second_in_all_but_not_for_interactions(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    fake_discord.clock.freeze()
    fake_discord.rate_limits.enable()
    async with RawApi(fake_discord) as api:
        path = f"/channels/{fake_discord.channel.id}"
        within = [await api.call("GET", path) for _ in range(GLOBAL_REQUESTS_PER_SECOND)]
        over = await api.call("GET", path)
        interaction = await driver.slash("alice", "mattekrig run", wait=False)
        answered = await api.call(
            "POST",
            f"/interactions/{interaction.id}/{interaction.token}/callback",
            {"type": 4, "data": {"content": "svar"}},
            bot_token=False,
        )

    assert {a.status for a in within} == {200}
    assert over.status == 429 and over.body["global"] is True
    assert over.headers["X-RateLimit-Global"] == "true"
    assert over.headers["X-RateLimit-Scope"] == "global"
    assert answered.status == 204


async def test_discord_py_waits_out_a_429_and_retries(
    fake_discord: FakeDiscord, bot: SampleBot
) -> None:
    """A restarted bot does not know its buckets: its first edit into a used-up window gets
    429, and discord.py sleeps ``retry_after`` and sends it again. The clock stands still and
    is moved by the test: to leave a tenth of a second of the window (so the test does not
    wait five), then past it while discord.py sleeps that tenth."""
    board = await fake_discord.post_message(content="brett")
    fake_discord.clock.freeze()
    fake_discord.rate_limits.enable()
    async with RawApi(fake_discord) as api:
        path = f"/channels/{fake_discord.channel.id}/messages/{board.id}"
        for n in range(CHANNEL_EDITS_PER_5S):
            assert (await api.call("PATCH", path, {"content": f"v{n}"})).status == 200
    fake_discord.clock.advance(4.9)

    channel = bot.get_channel(fake_discord.channel.id)
    assert isinstance(channel, discord.TextChannel)
    message = await channel.fetch_message(board.id)
    editing = asyncio.create_task(message.edit(content="etter pausen"))
    await fake_discord.wait_until(lambda: fake_discord.rate_limits.limited, what="a 429")
    fake_discord.clock.advance(0.1)
    edited = await editing

    edits = fake_discord.requests_to(EDIT, "PATCH")
    assert [r.status for r in edits[-2:]] == [429, 200]
    assert edited.content == "etter pausen"
    assert fake_discord.rate_limits.limited[-1][2] <= 0.1 + 1e-6
