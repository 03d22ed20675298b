"""A press is answered at once with the new text over the picture the board already
carries (kept by id: nothing drawn or uploaded on the press); the new picture follows from the
game's refresh, one picture at a time per game, later changes folded into it, and a picture
only ever shown with the text of the state it shows (its alt text describing it)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import bot.boards
from bot import drawing
from bot.render.board import render_board
from bot.render.display_names import side_names
from bot.render.pictures import Picture, draw_table
from classroom.text.locale import as_lang
from engine.view import View, view
from tests.bot.e2e import Table, seed_deals
from tests.fakediscord.server import RecordedRequest
from tests.fakediscord.state import FakeInteraction

PICTURE = "table.png"
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
FAST = (0.05, 0.1)  # the board's retry back-off, shortened for tests


def picture_now(table: Table, gid: int) -> Picture:
    """The picture the board should show for the game as it is now."""
    game = table.game(gid)
    lang = game.settings.locale
    return draw_table(view(game.state, None), side_names(game, as_lang(lang), plain=True), lang)


def answer_of(table: Table, press: FakeInteraction) -> RecordedRequest:
    (answer,) = [
        r for r in table.fake.requests if r.interaction_id == press.id and r.route == CALLBACK
    ]
    return answer


def uploads_to(table: Table, message_id: int) -> list[RecordedRequest]:
    """Every request that put a new file on the message (posts, edits, press answers)."""
    board = table.fake.message(message_id)
    return [
        r
        for r in table.fake.requests
        if r.files
        and (str(message_id) in r.path or r.interaction_id in board_presses(table, board.id))
    ]


def board_presses(table: Table, message_id: int) -> set[int]:
    return {
        i.id
        for i in table.fake.interactions
        if i.message is not None and i.message.id == message_id
    }


async def picture_follows(table: Table, gid: int) -> None:
    want = picture_now(table, gid)

    def shown() -> bool:
        files = table.board(gid).attachments
        return len(files) == 1 and files[0].data == want.png

    await table.fake.wait_until(shown, timeout=5.0, what="the picture of the latest state")


async def test_a_press_answers_with_the_text_over_the_kept_picture_and_the_new_one_follows(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_deals(monkeypatch, 2)
    gid, start = await table.start_computer("alice", game="intervallkrig")
    assert answer_of(table, start).files == []  # the text first (the message itself may
    # already carry the picture that follows: it is the live message, not the answer)
    await picture_follows(table, gid)  # then the start's picture, edited in
    before = table.board(gid).attachments[0]

    press = await table.flip("alice", gid)

    assert press.answered and press.response_type == 7 and not press.rejected
    answer = answer_of(table, press)
    assert answer.files == []  # nothing drawn or uploaded on the press
    data = answer.json["data"]
    assert [int(a["id"]) for a in data["attachments"]] == [before.id]  # kept by its id
    assert data["embeds"][0]["image"]["url"] == f"attachment://{PICTURE}"
    board = table.board(gid)
    assert len(board.attachments) == 1  # exactly one file, the press or the picture after it
    description = board.embeds[0].get("description")
    assert description == table.bot.boards.render(table.game(gid)).embed.description

    await picture_follows(table, gid)
    after = table.board(gid).attachments
    want = picture_now(table, gid)
    assert [a.filename for a in after] == [PICTURE] and after[0].id != before.id
    assert after[0].description == want.alt  # the alt text describes this picture


async def test_many_presses_fold_into_one_picture_in_flight_and_the_last_state_wins(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board's first picture is held in the drawer while Alice presses again and
    again: each press is answered at once (the picture never holds the board), no second
    picture is drawn meanwhile, the held one — of a state long gone — is never shown over the
    newer text, and the one picture uploaded is of the final state."""
    seed_deals(monkeypatch, 3)
    release = asyncio.Event()
    drawing = {"now": 0, "most": 0}
    drawn: list[View] = []
    drawer = table.bot.boards.drawer
    draw = drawer.draw

    async def held_draw(seen: View, names: dict[int, str], lang: str) -> Picture | None:
        drawing["now"] += 1
        drawing["most"] = max(drawing["most"], drawing["now"])
        drawn.append(seen)
        try:
            await asyncio.wait_for(release.wait(), 10)
            return await draw(seen, names, lang)
        finally:
            drawing["now"] -= 1

    monkeypatch.setattr(drawer, "draw", held_draw)
    try:
        gid, _ = await table.start_computer("alice", game="intervallkrig")
        await table.fake.wait_until(lambda: bool(drawn), what="the first picture drawn")
        first = drawn[0]
        presses = []
        for _ in range(5):
            if table.state(gid).is_over:
                break
            presses.append(await table.flip("alice", gid))
        assert len(presses) >= 2
        for press in presses:  # answered while the picture was still being drawn
            assert press.answered and press.response_type == 7 and not press.rejected
            assert answer_of(table, press).files == []
        assert len(drawn) == 1  # no second picture while one is in flight
    finally:
        release.set()
    await picture_follows(table, gid)
    await table.settle()

    assert drawing["most"] == 1
    uploads = uploads_to(table, table.board(gid).id)
    assert len(uploads) == 1  # the held picture was dropped, the latest one drawn and sent
    assert view(table.state(gid), None) == drawn[-1] != first
    assert table.board(gid).attachments[0].description == picture_now(table, gid).alt


async def test_a_failed_picture_edit_is_retried_and_the_picture_follows(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The press's own answer goes through; the picture edit after it is refused (503) and
    tried again with back-off until the board carries the latest state's picture."""
    seed_deals(monkeypatch, 4)
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    await picture_follows(table, gid)
    table.bot.boards.retry_delays_s = FAST
    table.fake.faults.unavailable(EDIT, times=3)

    press = await table.flip("alice", gid)

    assert press.answered and press.response_type == 7 and not press.rejected
    await picture_follows(table, gid)
    await table.settle()
    assert not table.bot.boards.retrying(gid)
    refused = [r for r in table.fake.requests if r.status == 503]
    assert len(refused) == 3 and all(r.files == [PICTURE] for r in refused)


async def test_a_press_on_a_board_held_up_by_a_picture_edit_is_acknowledged_and_shown_after(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A picture edit that Discord holds up (here: the board's write held by the test) must
    not make a press wait past Discord's 3 s: the press is acknowledged at once (a deferred
    update) and the refresh shows its result when the board is free again."""
    seed_deals(monkeypatch, 5)
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    await picture_follows(table, gid)
    boards = table.bot.boards
    boards.press_waits_s = 0.05
    board_write = boards._board(gid).lock  # as a write under way holds it
    await board_write.acquire()
    try:
        press = await table.flip("alice", gid)
        assert press.answered and press.response_type == 6 and not press.rejected
    finally:
        board_write.release()
    await picture_follows(table, gid)
    description = table.board(gid).embeds[0].get("description")
    assert description == boards.render(table.game(gid)).embed.description


async def test_the_text_of_a_state_is_rendered_once_for_the_press_and_its_picture(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The press's answer and the picture edit after it show the same state: its text is
    rendered once and both carry it."""
    seed_deals(monkeypatch, 6)
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    await picture_follows(table, gid)
    await table.settle()
    rendered: list[int] = []

    def counted(*args: Any) -> Any:
        rendered.append(gid)
        return render_board(*args)

    monkeypatch.setattr(bot.boards, "render_board", counted)
    press = await table.flip("alice", gid)
    await picture_follows(table, gid)
    await table.settle()

    assert len(rendered) == 1
    picture_edit = [r for r in uploads_to(table, table.board(gid).id) if r.route != CALLBACK][-1]
    answer = answer_of(table, press).json["data"]
    assert picture_edit.json["embeds"][0]["description"] == answer["embeds"][0]["description"]


async def test_a_board_rendered_before_its_deadline_is_rendered_again_after_it(
    table: Table, no_errors: Any
) -> None:
    """The board counts down to a deadline only while it is ahead (a timed game's end,
    RULES §1.5); a text rendered before it passed is not shown again after it."""
    gid, _ = await table.start_computer(
        "carol", game="regnekrig", level=3, computer="easy", minutes=1, locale="en-US"
    )
    await table.settle()
    boards, game = table.bot.boards, table.game(gid)
    before = boards.render(game)
    assert boards.render(game) is before  # nothing changed: the same text, not rendered again
    assert "<t:" in (before.embed.description or "")
    table.clock.advance(60)  # its timer not yet fired
    after = boards.render(game)
    assert after is not before and "<t:" not in (after.embed.description or "")


async def test_pictures_are_drawn_below_the_bot_s_priority(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pictures are drawn in a process of their own at the lowest priority (niceness 19): the
    cores go to the bot answering presses first, and the bot's own priority is unchanged."""
    import os

    if not hasattr(os, "getpriority"):
        pytest.skip("this system has no process priorities")
    seed_deals(monkeypatch, 2)
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    await picture_follows(table, gid)
    worker = table.bot.boards.drawer.worker_pid()
    assert worker is not None and worker != os.getpid()
    assert os.getpriority(os.PRIO_PROCESS, worker) == drawing.NICENESS == 19
    assert os.getpriority(os.PRIO_PROCESS, 0) < drawing.NICENESS


async def test_a_refresh_after_the_stop_began_leaves_the_board_as_it_is(
    table: Table, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the bot is stopping its drawing threads are gone: a refresh then draws nothing
    and edits nothing (an edit without the picture would take the board's away); the next
    start redraws every board."""
    seed_deals(monkeypatch, 7)
    gid, _ = await table.start_computer("alice", game="intervallkrig")
    await picture_follows(table, gid)
    await table.settle()
    boards = table.bot.boards
    requests = len(table.fake.requests)
    await boards.close()

    await boards.refresh(table.game(gid))

    assert len(table.fake.requests) == requests
    assert [a.filename for a in table.board(gid).attachments] == [PICTURE]
