"""Boards follow the log. After a restart every board shows its game's true state
(the log may be ahead of Discord when the process died between a commit and its edit); a
committed press is answered "it counted" whatever Discord says to the edit, and the board is
made true through the channel; games and invitations deleted by forget-me answer "no longer
available"."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot.custom_ids import Verb, build
from bot.services.invitations import COOLDOWN_MS
from bot.services.live import LiveGame
from classroom.i18n import t
from engine.actions import FLIP_CHOICE
from tests.bot.e2e import Table, assert_refused, private_reply, ref_of, seed_deals

CALLBACK = "POST /interactions/{webhook_id}/{webhook_token}/callback"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
FAST = (0.05, 0.1)  # the board's retry back-off, shortened for tests


def shown_ids(table: Table, message_id: int) -> list[str]:
    return table.fake.message(message_id).custom_ids()


def is_true(table: Table, game: LiveGame) -> bool:
    """The board message shows what rendering the game now gives (text and buttons)."""
    if game.record.message_id is None:
        return False
    message = table.fake.world.messages.get(game.record.message_id)
    if message is None or message.deleted or not message.embeds:
        return False
    panel = table.bot.boards.render(game)
    wanted = [c.custom_id for c in panel.view.children if hasattr(c, "custom_id")]
    return (
        message.embeds[0].get("description") == panel.embed.description
        and message.custom_ids() == wanted
    )


async def assert_becomes_true(table: Table, gid: int) -> LiveGame:
    game = await table.bot.games.for_board(gid)
    await table.fake.wait_until(lambda: is_true(table, game), timeout=5.0, what="a true board")
    return game


async def restart(table: Table) -> None:
    await table.harness.restart()
    table.bot.boards.retry_delays_s = FAST


async def test_boards_behind_their_games_are_redrawn_after_a_restart(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies after committing (here: the service commits, nobody edits): the
    restored games are ahead of their boards. After the restart every board is redrawn from
    its game (a Flip with the right round, the ended one with Rematch), so no press answers
    "That round is over" and nothing is stuck."""
    seed_deals(monkeypatch, 3)
    flipped, _ = await table.start_computer("alice", game="intervallkrig")
    stopped, _ = await table.start_computer(
        "carol", game="intervallkrig", channel=table.fake.world.add_channel("matte-3")
    )
    alice, carol = table.user("alice"), table.user("carol")
    await table.settle()  # each start's picture follows in the background: let it land first
    old_board = shown_ids(table, table.board(flipped).id)
    for _ in range(3):  # committed, never shown
        await table.bot.games.choose(flipped, alice.id, table.state(flipped).window, FLIP_CHOICE)
    await table.bot.games.stop(stopped, carol.id)
    assert shown_ids(table, table.board(flipped).id) == old_board  # the board is behind

    await restart(table)
    game = await assert_becomes_true(table, flipped)
    ended = await assert_becomes_true(table, stopped)
    assert shown_ids(table, ended.record.message_id or 0) == [build(Verb.REMATCH, stopped)]
    press = await table.flip("alice", flipped)  # the redrawn board's button works
    assert press.answered and press.response_type == 7
    assert table.state(flipped).seq > game.state.seq - 1


async def test_a_live_game_without_a_board_gets_one_and_its_channel_stays_playable(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed while its board was being posted: the game is live with no message. After the
    restart its board is posted, so the channel is not blocked and the game goes on."""
    seed_deals(monkeypatch, 4)
    alice = table.user("alice")
    update = await table.bot.invitations.versus_computer(
        guild_id=table.fake.guild.id,
        channel_id=table.fake.channel.id,
        host_id=alice.id,
        host_name="alice",
        computer_name="computer",
        options={"game": "intervallkrig", "computer": "easy", "locale": "nb", "thread": False},
    )
    gid = update.game.id
    assert update.game.record.message_id is None  # the post never happened

    await restart(table)
    game = await assert_becomes_true(table, gid)
    assert game.record.message_id is not None
    press = await table.flip("alice", gid)
    assert press.answered and press.response_type == 7


async def test_a_committed_press_counts_when_discord_rate_limits_its_answer(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board edit through the press is refused with 429 until discord.py gives up: the
    flip is in the log, so the presser is told it counted (never "try again"), and the board
    is made true through the channel."""
    seed_deals(monkeypatch, 5)
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    table.bot.boards.retry_delays_s = FAST
    seq = table.state(gid).seq
    table.fake.faults.rate_limit(CALLBACK, retry_after=0.01, times=5)
    press = await table.flip("alice", gid)
    assert table.state(gid).seq > seq  # committed
    assert await private_reply(table.fake, press) == t("reply.counted", "nb")
    await assert_becomes_true(table, gid)


async def test_a_failed_channel_edit_is_retried_until_the_board_is_true(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """503 on the channel edits (a press on an old message, so the board is edited through
    the channel): the presser is answered, and the edit is retried with back-off, folded with
    the later changes, until the board shows the latest state."""
    seed_deals(monkeypatch, 6)
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    table.bot.boards.retry_delays_s = FAST
    board = table.board(gid)
    table.fake.faults.unavailable(EDIT, times=3)
    await table.bot.boards.refresh(table.game(gid))  # first attempt: 503
    assert table.bot.boards.retrying(gid)  # the first attempt failed: a retry waits
    for _ in range(2):  # changes meanwhile: folded into the pending retry
        await table.bot.games.choose(
            gid, table.user("alice").id, table.state(gid).window, FLIP_CHOICE
        )
        await table.bot.boards.refresh(table.game(gid))
    await assert_becomes_true(table, gid)
    assert table.board(gid).id == board.id
    edits = [r for r in table.fake.requests if r.method == "PATCH" and str(board.id) in r.path]
    assert len(edits) <= 5, len(edits)  # 3 refused, then one true edit (not one per change)


@pytest.mark.parametrize(("who", "locale", "lang"), [("bob", "nb", "nb"), ("bob", "sv-SE", "sv")])
async def test_presses_after_forget_me_say_the_game_is_gone(
    table: Table, no_errors: Any, who: str, locale: str, lang: str
) -> None:
    """After forget-me (PRIVACY.md) the pupil's finished games and hosted invitations are
    deleted: a classmate pressing Rematch or Accept on them is told, in their language, that
    the game is no longer available, and nothing is logged as an error."""
    gid = await table.challenge_game("alice", ["bob"], game="intervallkrig")
    board = table.board(gid)
    await table.driver.slash("alice", "mattekrig stop")
    await table.settle()
    table.clock.advance(COOLDOWN_MS / 1000)
    _, invitation = await table.challenge(
        "alice", ["bob"], game="regnekrig", channel=table.fake.world.add_channel("matte-4")
    )
    await table.bot.privacy.forget(table.user("alice").id)

    rematch = await table.driver.click(who, board, build(Verb.REMATCH, gid), locale=locale)
    await assert_refused(table.fake, rematch, "error.no_longer_available", lang)
    accept = await table.driver.click(
        who, invitation, build(Verb.ACCEPT, ref_of(invitation, Verb.ACCEPT)), locale=locale
    )
    await assert_refused(table.fake, accept, "error.no_longer_available", lang)


async def test_forget_me_refusal_in_english(table: Table, no_errors: Any) -> None:
    """The same sentence in English (carol's Discord is en-US)."""
    gid = await table.challenge_game("alice", ["carol"], game="intervallkrig")
    board = table.board(gid)
    await table.driver.slash("alice", "mattekrig stop")
    await table.settle()
    await table.bot.privacy.forget(table.user("alice").id)
    rematch = await table.driver.click("carol", board, build(Verb.REMATCH, gid))
    await assert_refused(table.fake, rematch, "error.no_longer_available", "en")


async def test_a_database_that_fails_while_running_is_reported_once_and_never_done(
    table: Table, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database stops taking work while the bot runs (here: closed under it, as a
    vanished volume would be). The scheduler's failing passes are reported once, not every
    few seconds, and a press gets the apology, never a false "done"."""
    caplog.set_level(logging.INFO)
    seed_deals(monkeypatch, 8)
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    scheduler = table.bot.scheduler
    scheduler._retry_s = 0.01
    await table.bot.storage.close()
    for _ in range(6):
        scheduler._changed.set()
        await asyncio.sleep(0.05)
    failures = [r for r in caplog.records if "scheduler pass failed" in r.getMessage()]
    assert len(failures) == 1, [r.getMessage() for r in failures]
    seq = table.state(gid).seq
    press = await table.flip("alice", gid)
    assert await private_reply(table.fake, press) == t("error.generic", "nb")
    assert table.state(gid).seq == seq
