"""The bot against a fake Discord as strict as Discord: what happens when Discord refuses a
board, and a game that outlives the 15 minutes an interaction token lives."""

from __future__ import annotations

from typing import Any

import pytest

from bot.render import buttons
from classroom.i18n import t
from tests.bot.e2e import Table, best_answer, private_reply, seed_deals


@pytest.mark.discord_refuses
async def test_a_board_discord_refuses_is_refused_and_the_pupil_still_answered(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A broken render (a button label one character over Discord's 80) is refused as
    Discord refuses it, 400 50035 naming the label; the press still counts and the pupil is
    told so privately, in time, instead of being left with "This interaction failed". The bot
    keeps asking; once the render is mended, the next state's board goes through (a state's
    text is rendered once: here the game stopped by its player) and the asking stops."""
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    await table.settle()
    table.bot.boards.retry_delays_s = (0.05,)
    flips = len(await table.events(gid))
    draw = buttons._button

    def too_long(label: str, custom_id: str, **options: Any) -> Any:
        return draw("x" * 81, custom_id, **options)

    monkeypatch.setattr(buttons, "_button", too_long)
    press = await table.flip("alice", gid)

    assert await private_reply(table.fake, press) == t("reply.counted", "nb")
    assert press.answered and press.answer_latency is not None and press.answer_latency < 3.0
    refused = table.fake.refusals()
    assert refused and {(r.status, r.error_code) for r in refused} == {(400, 50035)}
    errors = refused[0].error
    assert errors is not None
    label = errors["errors"]["data"]["components"]["0"]["components"]["0"]["label"]
    assert label["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert len(await table.events(gid)) > flips  # the flip counted

    monkeypatch.setattr(buttons, "_button", draw)
    stop = await table.driver.slash("alice", "mattekrig stop")
    assert stop.answered and not stop.rejected
    await table.settle()
    board = table.board(gid)
    assert board.buttons() and all(len(b.get("label", "")) <= 80 for b in board.buttons())
    assert table.fake.requests[-1].status == 200


async def test_a_twenty_minute_game_is_still_shown_after_every_token_expired(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord's interaction tokens live 15 minutes, on the fake's clock here. In a game of
    `minutes:20` the board goes on being edited after that, through the channel (a press
    then is a new interaction with a new token), until the time runs out (RULES §1.5)."""
    seed_deals(monkeypatch, 4)
    gid, start = await table.start_computer(
        "carol", game="regnekrig", level=3, computer="easy", minutes=20, locale="en-US"
    )
    await table.answer("carol", gid, best_answer(table.state(gid), 0), locale="en-US")
    await table.settle()

    for _ in range(2):  # at 8 and 16 minutes (a game untouched for 10 would be abandoned)
        table.fake.clock.advance(8 * 60)
        table.clock.advance(8 * 60)
        await table.bot.scheduler.run_due()
        await table.settle()
        versions = len(table.board(gid).history)
        answer = best_answer(table.state(gid), 0)
        opened, sent = await table.answer("carol", gid, answer, locale="en-US")
        await table.settle()
        assert sent is not None and sent.answered and not sent.rejected, (opened, sent)
        assert len(table.board(gid).history) > versions  # the board moved on
    assert table.fake.clock.now() - start.created_at > 15 * 60  # the start's token is dead

    table.fake.clock.advance(5 * 60)
    table.clock.advance(5 * 60)
    await table.bot.scheduler.run_due()
    await table.settle()
    assert table.fake.clock.now() - start.created_at > 20 * 60
    assert table.state(gid).time_up
    assert t("board.time_up", "nb") in table.board(gid).embeds[0]["description"]
    assert not [r for r in table.fake.requests if r.status == 401]  # no expired token used
