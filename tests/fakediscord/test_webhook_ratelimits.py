"""Rate limits of an interaction's webhook, as a bot observes them: its followups, edits and
deletes each count in a bucket of their own for every interaction token (5 in 2 s), with the
``X-RateLimit-*`` headers, 429 with ``retry_after`` and ``global: false`` once one is used up,
and none of it bound to the bot's global 50 a second (Discord's rate-limits page: top-level
resources are 'webhooks (webhook_id or webhook_id + webhook_token)'; 'Interaction endpoints
are not bound to the bot's Global Rate Limit').

The fake's clock stands still and is moved by hand, so a busy machine never lets a window
pass unseen and no test sleeps through one.
"""

from __future__ import annotations

import asyncio

import discord

from .driver import Driver
from .limits import (
    GLOBAL_REQUESTS_PER_SECOND,
    INTERACTION_WEBHOOK_REQUESTS,
    INTERACTION_WEBHOOK_WINDOW,
)
from .raw import Answer, RawApi
from .sample_bot import SampleBot
from .server import FakeDiscord
from .state import FakeInteraction

FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"
DEFERRED = {"type": 5}


async def _answered(api: RawApi, interaction: FakeInteraction) -> None:
    """Answer ``interaction`` as a bot would first (followups need the answer)."""
    path = f"/interactions/{interaction.id}/{interaction.token}/callback"
    assert (await api.call("POST", path, DEFERRED, bot_token=False)).status == 204


def _webhook(fake: FakeDiscord, interaction: FakeInteraction) -> str:
    return f"/webhooks/{fake.world.application_id}/{interaction.token}"


async def _followup(api: RawApi, fake: FakeDiscord, interaction: FakeInteraction, n: int) -> Answer:
    path = f"{_webhook(fake, interaction)}?wait=true"
    return await api.call("POST", path, {"content": f"svar {n}"}, bot_token=False)


async def test_each_interaction_token_has_its_own_followup_bucket(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    first = await driver.slash("alice", "mattekrig run", wait=False)
    second = await driver.slash("bob", "mattekrig run", wait=False)
    fake_discord.clock.freeze()
    fake_discord.rate_limits.enable()

    async with RawApi(fake_discord) as api:
        await _answered(api, first)
        await _answered(api, second)
        sent = [
            await _followup(api, fake_discord, first, n)
            for n in range(INTERACTION_WEBHOOK_REQUESTS)
        ]
        refused = await _followup(api, fake_discord, first, 5)
        other = await _followup(api, fake_discord, second, 0)
        fake_discord.clock.advance(INTERACTION_WEBHOOK_WINDOW)
        later = await _followup(api, fake_discord, first, 6)

    assert [a.status for a in sent] == [200] * INTERACTION_WEBHOOK_REQUESTS
    assert [a.headers["X-RateLimit-Remaining"] for a in sent] == ["4", "3", "2", "1", "0"]
    assert {a.headers["X-RateLimit-Limit"] for a in sent} == {str(INTERACTION_WEBHOOK_REQUESTS)}
    (bucket,) = {a.headers["X-RateLimit-Bucket"] for a in sent}
    assert float(sent[0].headers["X-RateLimit-Reset-After"]) == INTERACTION_WEBHOOK_WINDOW
    # The sixth: 429, the bucket's own (not the global) limit, and nothing sent.
    assert refused.status == 429 and refused.body["global"] is False
    assert refused.body["retry_after"] == INTERACTION_WEBHOOK_WINDOW
    assert refused.headers["X-RateLimit-Scope"] == "user"
    assert refused.headers["X-RateLimit-Bucket"] == bucket
    assert refused.headers["X-RateLimit-Remaining"] == "0"
    assert "X-RateLimit-Global" not in refused.headers
    assert int(refused.headers["Retry-After"]) >= 1 and "Via" in refused.headers
    # Another interaction's token: its own window of the same bucket (the hash leaves the
    # top-level resource out).
    assert other.status == 200 and other.headers["X-RateLimit-Remaining"] == "4"
    assert other.headers["X-RateLimit-Bucket"] == bucket
    # The window over, the first token may send again.
    assert later.status == 200 and later.headers["X-RateLimit-Remaining"] == "4"
    assert [m.content for m in first.followups] == [f"svar {n}" for n in (0, 1, 2, 3, 4, 6)]
    assert [m.content for m in second.followups] == ["svar 0"]


async def test_edits_of_the_original_and_of_followups_share_one_bucket(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    """``@original`` is one more message id on the route that edits an interaction's
    messages, so its edits and a followup's count together; deleting and sending are
    other routes with buckets of their own."""
    interaction = await driver.slash("alice", "mattekrig run", wait=False)
    fake_discord.clock.freeze()
    fake_discord.rate_limits.enable()

    async with RawApi(fake_discord) as api:
        await _answered(api, interaction)
        note = await _followup(api, fake_discord, interaction, 0)
        messages = f"{_webhook(fake_discord, interaction)}/messages"
        original = f"{messages}/@original"
        followup = f"{messages}/{note.body['id']}"
        edits = [
            await api.call("PATCH", path, {"content": f"v{n}"}, bot_token=False)
            for n, path in enumerate([original, followup, original, followup, original])
        ]
        refused = await api.call("PATCH", followup, {"content": "v5"}, bot_token=False)
        deleted = await api.call("DELETE", followup, bot_token=False)

    assert [e.status for e in edits] == [200] * 5
    assert [e.headers["X-RateLimit-Remaining"] for e in edits] == ["4", "3", "2", "1", "0"]
    assert len({e.headers["X-RateLimit-Bucket"] for e in edits}) == 1
    assert refused.status == 429 and refused.body["global"] is False
    assert refused.headers["X-RateLimit-Bucket"] == edits[0].headers["X-RateLimit-Bucket"]
    assert note.headers["X-RateLimit-Bucket"] != edits[0].headers["X-RateLimit-Bucket"]
    assert deleted.status == 204 and deleted.headers["X-RateLimit-Remaining"] == "4"
    assert interaction.original is not None and interaction.original.content == "v4"


async def test_followups_are_not_bound_to_the_global_limit(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    interaction = await driver.slash("alice", "mattekrig run", wait=False)
    fake_discord.clock.freeze()
    fake_discord.rate_limits.enable()
    async with RawApi(fake_discord) as api:
        await _answered(api, interaction)
        channel = f"/channels/{fake_discord.channel.id}"
        for _ in range(GLOBAL_REQUESTS_PER_SECOND):
            assert (await api.call("GET", channel)).status == 200
        over = await api.call("GET", channel)
        followup = await _followup(api, fake_discord, interaction, 0)

    assert over.status == 429 and over.body["global"] is True
    assert followup.status == 200 and followup.headers["X-RateLimit-Remaining"] == "4"


async def test_discord_py_waits_out_a_followup_429_and_loses_nothing(
    fake_discord: FakeDiscord, driver: Driver, bot: SampleBot
) -> None:
    """A bot answers a press with six followups in a row. discord.py reads the headers: after
    the fifth (``X-RateLimit-Remaining: 0``) it waits ``Reset-After`` before the sixth. The
    test moves the fake's clock only to leave a tenth of the window before the burst (so
    nobody waits two seconds) and then not at all, so the sixth arrives while the window is
    still open, as a request a moment early does: it gets 429, and discord.py waits the
    ``retry_after`` it is told while the clock is moved past the window, and sends it again.
    Every followup arrives once, in order."""
    go = asyncio.Event()

    async def burst(interaction: discord.Interaction) -> list[str]:
        await interaction.response.defer(thinking=True)
        sent = [await interaction.followup.send("0", wait=True)]
        await go.wait()
        for n in range(1, 6):
            sent.append(await interaction.followup.send(str(n), wait=True))
        return [message.content for message in sent]

    fake_discord.clock.freeze()
    fake_discord.rate_limits.enable()
    bot.action = burst
    interaction = await driver.slash("alice", "mattekrig run", wait=False)
    await fake_discord.wait_until(lambda: interaction.followups, what="the first followup")
    fake_discord.clock.advance(INTERACTION_WEBHOOK_WINDOW - 0.1)
    go.set()
    await fake_discord.wait_until(lambda: fake_discord.rate_limits.limited, what="a 429")
    fake_discord.clock.advance(0.1)
    await fake_discord.wait_until(lambda: bot.results or bot.errors, what="the burst's end")

    assert not bot.errors
    assert bot.results == [["0", "1", "2", "3", "4", "5"]]
    assert [m.content for m in interaction.followups] == ["0", "1", "2", "3", "4", "5"]
    posts = fake_discord.requests_to(FOLLOWUP, "POST")
    assert [p.status for p in posts[:5]] == [200] * 5
    assert posts[4].limit_headers["X-RateLimit-Remaining"] == "0"
    limited = [p for p in posts if p.status == 429]
    assert limited and posts[-1].status == 200 and len(posts) == 6 + len(limited)
    for answer in limited:  # the sixth, refused while the first window was open
        assert answer.json.get("content") == "5"
        headers = answer.limit_headers
        assert headers["X-RateLimit-Bucket"] == posts[0].limit_headers["X-RateLimit-Bucket"]
        assert headers["X-RateLimit-Remaining"] == "0" and headers["X-RateLimit-Scope"] == "user"
        assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 0.1 + 1e-6
    assert all(retry <= 0.1 + 1e-6 for _, _, retry in fake_discord.rate_limits.limited)
    # Sent again only once the window was over, and counted in the next one.
    assert posts[-1].json.get("content") == "5"
    assert posts[-1].at >= posts[0].at + INTERACTION_WEBHOOK_WINDOW
    assert posts[-1].limit_headers["X-RateLimit-Remaining"] == "4"
