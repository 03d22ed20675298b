"""Challenges and lobbies through Discord, their expiry, idle games, the challenge
cooldown, games in threads, and who gets pinged."""

from __future__ import annotations

from typing import Any

import pytest

from bot.custom_ids import Verb, build
from bot.services.invitations import CHALLENGE_MS, COOLDOWN_MS, LOBBY_MS
from classroom.i18n import t
from classroom.settings import IDLE_MINUTES
from tests.bot.e2e import (
    Table,
    assert_all_answered,
    assert_refused,
    best_answer,
    final_controls,
    ref_of,
    seed_deals,
)
from tests.fakediscord.state import PUBLIC_THREAD


async def run_timers(table: Table, seconds: float) -> None:
    table.clock.advance(seconds)
    await table.bot.scheduler.run_due()
    await table.settle()


def description(message: Any) -> str:
    return str(message.embeds[0].get("description", "")) if message.embeds else ""


async def test_challenge_pings_only_the_challenged(table: Table, no_errors: Any) -> None:
    start, message = await table.challenge("alice", ["bob"], game="regnekrig", level=2)
    assert not message.ephemeral
    bob = table.user("bob")
    assert bob.mention in message.content
    callback = next(r for r in table.fake.requests if r.interaction_id == start.id)
    mentions = callback.json["data"]["allowed_mentions"]
    assert [str(u) for u in mentions.get("users", [])] == [str(bob.id)]
    assert not mentions.get("parse")
    ref = ref_of(message, Verb.ACCEPT)
    assert message.custom_ids() == [
        build(Verb.ACCEPT, ref),
        build(Verb.DECLINE, ref),
        build(Verb.WITHDRAW, ref),
    ]
    # Boards and every other message the bot posts ping nobody.
    accept = await table.driver.click("bob", message, build(Verb.ACCEPT, ref), locale="sv-SE")
    assert accept.answered and accept.response_type == 7
    await table.settle()
    posts = table.fake.requests_to("/channels/{channel_id}/messages", "POST")
    assert posts and all(r.json["allowed_mentions"] == {"parse": []} for r in posts)
    assert t("invite.closed.started", "nb") in description(table.fake.message(message.id))
    assert table.fake.message(message.id).custom_ids() == []
    assert_all_answered(table.fake)


async def test_challenge_refusals(table: Table, no_errors: Any) -> None:
    _, message = await table.challenge("alice", ["bob"], game="regnekrig")
    ref = ref_of(message, Verb.ACCEPT)
    carol = await table.driver.click("carol", message, build(Verb.ACCEPT, ref))
    await assert_refused(table.fake, carol, "error.not_invited", "en")
    bob = await table.driver.click("bob", message, build(Verb.WITHDRAW, ref))
    await assert_refused(table.fake, bob, "error.not_host", "sv")
    table.clock.advance(COOLDOWN_MS / 1000)
    again = await table.driver.slash(
        "alice", "mattekrig start", game="regnekrig", opponent=table.user("carol"), thread=False
    )
    await assert_refused(table.fake, again, "error.open_challenge", "nb")
    myself = await table.driver.slash(
        "carol", "mattekrig start", game="regnekrig", opponent=table.user("carol"), thread=False
    )
    await assert_refused(table.fake, myself, "error.challenge_self", "en")
    bot = await table.driver.slash(
        "carol", "mattekrig start", game="regnekrig", opponent=table.fake.bot_user, thread=False
    )
    await assert_refused(table.fake, bot, "error.challenge_bot", "en")
    stored = await table.bot.storage.load_invitation(ref)
    assert stored.status == "open" and stored.all_accepted is False
    decline = await table.driver.click("bob", message, build(Verb.DECLINE, ref))
    assert decline.answered and decline.response_type == 7
    assert (await table.bot.storage.load_invitation(ref)).status == "declined"
    assert table.fake.message(message.id).custom_ids() == []
    assert table.bot.games.games == {}
    assert_all_answered(table.fake)


async def test_challenge_expires(table: Table, no_errors: Any) -> None:
    _, message = await table.challenge("alice", ["bob", "carol"], game="intervallkrig")
    ref = ref_of(message, Verb.ACCEPT)
    await table.driver.click("bob", message, build(Verb.ACCEPT, ref))
    snapshot = table.fake.message(message.id).components
    await run_timers(table, CHALLENGE_MS / 1000 - 1)
    assert (await table.bot.storage.load_invitation(ref)).status == "open"
    await run_timers(table, 1)
    assert (await table.bot.storage.load_invitation(ref)).status == "expired"
    expired = table.fake.message(message.id)
    assert t("invite.closed.expired", "nb") in description(expired)
    assert expired.custom_ids() == []
    # Carol's client still shows the buttons: her late accept is refused, nothing starts.
    stale = await table.fake.post_message(components=snapshot)
    late = await table.driver.click("carol", stale, build(Verb.ACCEPT, ref))
    await assert_refused(table.fake, late, "error.invitation_closed", "en")
    assert table.bot.games.games == {}
    assert_all_answered(table.fake)


async def test_lobby_join_leave_start_and_refusals(table: Table, no_errors: Any) -> None:
    start = await table.driver.slash("alice", "mattekrig start", game="satsing", thread=False)
    lobby = start.original
    assert lobby is not None and not lobby.ephemeral
    ref = ref_of(lobby, Verb.JOIN)
    alone = await table.driver.click("alice", lobby, build(Verb.BEGIN, ref))
    await assert_refused(table.fake, alone, "error.lobby_size", "nb")
    for who in ("bob", "carol"):
        joined = await table.driver.click(who, lobby, build(Verb.JOIN, ref))
        assert joined.answered and joined.response_type == 7
    left = await table.driver.click("carol", lobby, build(Verb.LEAVE, ref))
    assert left.answered
    invitation = await table.bot.storage.load_invitation(ref)
    assert invitation.user_ids("joined") == (table.user("alice").id, table.user("bob").id)
    not_host = await table.driver.click("bob", lobby, build(Verb.BEGIN, ref))
    await assert_refused(table.fake, not_host, "error.not_host", "sv")
    cancel = await table.driver.click("bob", lobby, build(Verb.CANCEL, ref))
    await assert_refused(table.fake, cancel, "error.not_host", "sv")
    begin = await table.driver.click("alice", lobby, build(Verb.BEGIN, ref))
    assert begin.answered and not begin.rejected
    await table.settle()
    assert len(table.bot.games.games) == 1
    game = next(iter(table.bot.games.games.values()))
    assert [p.display_name for p in game.players] == ["Alice", "Bob"]
    assert t("invite.lobby_closed.started", "nb") in description(table.fake.message(lobby.id))
    assert_all_answered(table.fake)


async def test_teams_lobby_host_picks_a_team_mate(table: Table, no_errors: Any) -> None:
    """Four players pick teams (the host chooses a team-mate) in a 2 v 2 lobby."""
    table.fake.world.add_user("dave", locale="no")
    start = await table.driver.slash(
        "alice", "mattekrig start", game="regnekrig", teams=True, thread=False
    )
    lobby = start.original
    assert lobby is not None
    ref = ref_of(lobby, Verb.JOIN)
    for who in ("bob", "carol", "dave"):
        await table.driver.click(who, lobby, build(Verb.JOIN, ref))
    lobby = table.fake.message(lobby.id)
    dave = str(table.user("dave").id)
    not_host = await table.driver.select("bob", lobby, build(Verb.TEAMS, ref), [dave])
    await assert_refused(table.fake, not_host, "error.not_host", "sv")
    picked = await table.driver.select("alice", lobby, build(Verb.TEAMS, ref), [dave])
    assert picked.answered and picked.response_type == 7
    begin = await table.driver.click("alice", table.fake.message(lobby.id), build(Verb.BEGIN, ref))
    assert begin.answered and not begin.rejected
    await table.settle()
    game = next(iter(table.bot.games.games.values()))
    sides = {p.display_name: p.side for p in game.players}
    assert sides["Alice"] == sides["Dave"] != sides["Bob"] == sides["Carol"]
    assert_all_answered(table.fake)


async def test_lobby_fills_up_and_expires(table: Table, no_errors: Any) -> None:
    table.fake.world.add_user("dave", locale="no")
    table.fake.world.add_user("erik", locale="sv-SE")
    start = await table.driver.slash("alice", "mattekrig start", game="regnekrig", thread=False)
    lobby = start.original
    assert lobby is not None
    ref = ref_of(lobby, Verb.JOIN)
    for who in ("bob", "carol", "dave"):
        await table.driver.click(who, lobby, build(Verb.JOIN, ref))
    full = await table.driver.click("erik", lobby, build(Verb.JOIN, ref))
    await assert_refused(table.fake, full, "error.lobby_full", "sv")
    await run_timers(table, LOBBY_MS / 1000)
    assert (await table.bot.storage.load_invitation(ref)).status == "expired"
    closed = table.fake.message(lobby.id)
    assert t("invite.lobby_closed.expired", "nb") in description(closed)
    assert closed.custom_ids() == []
    assert table.bot.games.games == {}
    assert_all_answered(table.fake)


async def test_idle_game_is_abandoned(
    table: Table, monkeypatch: pytest.MonkeyPatch, no_errors: Any
) -> None:
    """Nobody plays for ten minutes (no answer time set): the game ends as abandoned, the
    board says why and offers a rematch, and the channel is free again."""
    seed_deals(monkeypatch, 2)
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", answer_seconds=0)
    await table.answer("alice", gid, best_answer(table.state(gid), 0))
    opened = await table.open_answer("bob", gid)
    await run_timers(table, IDLE_MINUTES * 60 - 1)
    assert (await table.stored(gid)).status == "live"
    await run_timers(table, 1)
    assert (await table.stored(gid)).status == "abandoned"
    board = table.board(gid)
    assert t("over.reason.abandoned", "nb", count=IDLE_MINUTES) in description(board)
    assert board.custom_ids() == final_controls(table, gid)
    assert table.bot.games.in_channel(table.fake.channel.id) is None
    late = await table.driver.submit_modal("bob", opened, {"answer_text": "1"})
    await assert_refused(table.fake, late, "error.game_over", "sv")
    assert_all_answered(table.fake)


async def test_challenge_cooldown(table: Table, no_errors: Any) -> None:
    """A pupil can challenge again only after a short pause (no pestering)."""
    _, message = await table.challenge("alice", ["bob"], game="regnekrig")
    ref = ref_of(message, Verb.ACCEPT)
    await table.driver.click("alice", message, build(Verb.WITHDRAW, ref))
    table.clock.advance(5)
    seconds = (COOLDOWN_MS - 5_000) // 1000
    again = await table.driver.slash(
        "alice", "mattekrig start", game="regnekrig", opponent=table.user("carol"), thread=False
    )
    await assert_refused(table.fake, again, "error.cooldown", "nb", count=seconds)
    assert len(await table.bot.storage.open_invitations()) == 0
    table.clock.advance(seconds)
    _, message = await table.challenge("alice", ["carol"], game="regnekrig")
    assert (await table.bot.storage.load_invitation(ref_of(message, Verb.ACCEPT))).status == "open"
    assert_all_answered(table.fake)


async def test_accepted_challenge_plays_in_a_thread(
    table: Table, monkeypatch: pytest.MonkeyPatch, no_errors: Any
) -> None:
    """`thread:true`: the accepted challenge opens a public thread on the challenge message and
    the board lives there; its buttons work."""
    seed_deals(monkeypatch, 2)
    _, message = await table.challenge("alice", ["bob"], game="regnekrig", thread=True)
    before = set(table.bot.games.games)
    ref = ref_of(message, Verb.ACCEPT)
    await table.driver.click("bob", message, build(Verb.ACCEPT, ref))
    gid = await table.new_game(before)
    game = table.game(gid)
    thread = table.fake.world.channels[game.record.thread_id]  # type: ignore[index]
    assert thread.type == PUBLIC_THREAD and thread.parent_id == table.fake.channel.id
    assert t("game.regnekrig.name", "nb") in thread.name
    assert table.board(gid).channel_id == thread.id
    await table.answer("alice", gid, best_answer(table.state(gid), 0))
    assert 0 not in table.state(gid).pending
    stop = await table.driver.slash("bob", "mattekrig stop", channel=thread)
    assert stop.answered and (await table.stored(gid)).status == "stopped"
    assert_all_answered(table.fake)


async def test_computer_game_in_a_thread(table: Table, no_errors: Any) -> None:
    gid, start = await table.start_computer(
        "carol", game="intervallkrig", computer="hard", thread=True
    )
    carol = table.user("carol")
    assert start.original is not None
    # A public message of the game: the server's language.
    assert start.original.content == t("reply.game_in_thread", "nb", player=carol.mention)
    game = table.game(gid)
    assert game.record.thread_id is not None
    assert table.board(gid).channel_id == game.record.thread_id
    flip = await table.flip("carol", gid)
    assert flip.answered and flip.response_type == 7
    assert_all_answered(table.fake)
