"""Two sides pressing at the same moment, and one user double-clicking: every press
is answered, and what should happen once happens once."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest

from bot.custom_ids import Verb, build
from classroom.i18n import t
from engine.intervallkrig import BET
from tests.bot.e2e import (
    ANSWER_FIELD,
    Table,
    assert_all_answered,
    assert_quiet,
    assert_refused,
    best_answer,
    private_texts,
    ref_of,
    seed_deals,
)


async def both(table: Table, *presses: Any) -> list[Any]:
    """Wait until every press sent with wait=False is answered."""
    return [await table.driver.answered(p) for p in presses]


async def test_two_sides_flip_at_the_same_moment(
    table: Table, monkeypatch: pytest.MonkeyPatch, no_errors: Any
) -> None:
    seed_deals(monkeypatch, 3)
    gid = await table.challenge_game("alice", ["carol"], game="intervallkrig")
    before = await table.events(gid)
    a = await table.flip("alice", gid, wait=False)
    c = await table.flip("carol", gid, wait=False)
    await both(table, a, c)
    await table.settle()
    after = await table.events(gid)
    assert len(after) == len(before) + 1  # one flip
    applied = [p for p in (a, c) if p.response_type == 7]
    refused = [p for p in (a, c) if p.response_type != 7]
    assert len(applied) == 1 and len(refused) == 1
    lang = "nb" if refused[0] is a else "en"
    await assert_refused(table.fake, refused[0], "error.round_over", lang)
    assert_all_answered(table.fake)


async def test_double_click_flips_once(
    table: Table, monkeypatch: pytest.MonkeyPatch, no_errors: Any
) -> None:
    seed_deals(monkeypatch, 3)
    gid = await table.challenge_game("alice", ["carol"], game="intervallkrig")
    before = await table.events(gid)
    presses = [await table.flip("alice", gid, wait=False) for _ in range(3)]
    await both(table, *presses)
    await table.settle()
    assert len(await table.events(gid)) == len(before) + 1
    assert Counter(p.response_type for p in presses) == Counter({7: 1, 4: 2})
    for press in presses:
        if press.response_type == 4:
            await assert_refused(table.fake, press, "error.round_over", "nb")
    assert_all_answered(table.fake)


async def test_both_sides_answer_at_the_same_moment(
    table: Table, monkeypatch: pytest.MonkeyPatch, no_errors: Any
) -> None:
    """Different sides: both answers count, and the round is decided exactly once."""
    seed_deals(monkeypatch, 2)
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=3)
    state = table.state(gid)
    opened = {who: await table.open_answer(who, gid) for who in ("alice", "bob")}
    texts = {"alice": best_answer(state, 0), "bob": best_answer(state, 1)}
    before = await table.events(gid)
    sent = [
        await table.driver.submit_modal(who, opened[who], {ANSWER_FIELD: texts[who]}, wait=False)
        for who in ("alice", "bob")
    ]
    await both(table, *sent)
    await table.settle()
    after = await table.events(gid)
    assert len(after) == len(before) + 2
    decided = [e for _, _, events in after[len(before) :] for e in events]
    assert Counter(e["type"] for e in decided)["value"] == 2
    assert sum(e["type"] in ("round_won", "war") for e in decided) == 1
    await assert_quiet(table.fake, sent[0])
    await assert_quiet(table.fake, sent[1])
    assert_all_answered(table.fake)


async def test_teammates_answer_at_the_same_moment(
    table: Table, monkeypatch: pytest.MonkeyPatch, no_errors: Any
) -> None:
    """Two of a team answer together: the first counts, the other is told it is decided."""
    seed_deals(monkeypatch, 7)
    table.fake.world.add_user("dave", locale="no")
    gid = await table.challenge_game(
        "alice", ["bob", "carol", "dave"], game="regnekrig", level=1, teams=True
    )
    text = best_answer(table.state(gid), 0)
    opened = {who: await table.open_answer(who, gid) for who in ("alice", "carol")}
    before = await table.events(gid)
    sent = {
        who: await table.driver.submit_modal(who, opened[who], {ANSWER_FIELD: text}, wait=False)
        for who in ("alice", "carol")
    }
    await both(table, *sent.values())
    await table.settle()
    assert len(await table.events(gid)) == len(before) + 1
    await asyncio.sleep(0.3)
    replies = {who: private_texts(press) for who, press in sent.items()}
    langs = {"alice": "nb", "carol": "en"}
    counted = [w for w, r in replies.items() if r == []]  # quiet: the board's ✓ says it
    told = [w for w, r in replies.items() if r == [t("engine.already_decided", langs[w])]]
    assert len(counted) == 1 and len(told) == 1, replies
    assert_all_answered(table.fake)


async def test_both_sides_bet_at_the_same_moment(
    table: Table, monkeypatch: pytest.MonkeyPatch, no_errors: Any
) -> None:
    seed_deals(monkeypatch, 5)
    gid = await table.challenge_game("alice", ["bob"], game="satsing")
    assert table.state(gid).phase is BET
    before = await table.events(gid)
    a = await table.bet("alice", gid, 0, wait=False)
    b = await table.bet("bob", gid, 1, wait=False)
    await both(table, a, b)
    await table.settle()
    after = await table.events(gid)
    assert len(after) == len(before) + 2
    revealed = [e for _, _, events in after[len(before) :] for e in events]
    assert sorted(e["side"] for e in revealed if e["type"] == "bet") == [0, 1]
    assert_all_answered(table.fake)


async def test_lobby_host_double_clicks_start(table: Table, no_errors: Any) -> None:
    """Begin pressed twice at once starts one game, not two."""
    start = await table.driver.slash("alice", "mattekrig start", game="regnekrig", thread=False)
    lobby = start.original
    assert lobby is not None
    ref = next(int(c.split(":l")[1]) for c in lobby.custom_ids() if c.startswith("mk:join:"))
    join = await table.driver.click("bob", lobby, build(Verb.JOIN, ref), locale="sv-SE")
    assert join.answered
    presses = [
        await table.driver.click("alice", lobby, build(Verb.BEGIN, ref), wait=False)
        for _ in range(2)
    ]
    await both(table, *presses)
    await table.settle()
    assert len(table.bot.games.games) == 1
    stored = await table.bot.storage.load_invitation(ref)
    assert stored.status == "started" and stored.game_id in table.bot.games.games
    boards = [m for m in table.fake.messages_in() if any("answer" in c for c in m.custom_ids())]
    assert len(boards) == 1
    refused = [p for p in presses if p.original is not None and p.original.ephemeral]
    assert len(refused) == 1
    await assert_refused(table.fake, refused[0], "error.lobby_closed", "nb")
    assert_all_answered(table.fake)


@pytest.mark.parametrize("thread", [False, True])
async def test_last_accept_double_clicked_starts_one_game(
    table: Table, thread: bool, no_errors: Any
) -> None:
    _, message = await table.challenge("alice", ["bob"], game="regnekrig", thread=thread)
    ref = ref_of(message, Verb.ACCEPT)
    presses = [
        await table.driver.click("bob", message, build(Verb.ACCEPT, ref), wait=False)
        for _ in range(2)
    ]
    await both(table, *presses)
    await table.settle()
    assert len(table.bot.games.games) == 1
    game = next(iter(table.bot.games.games.values()))
    answer = build(Verb.ANSWER, game.id, game.state.window)
    boards = [m for m in table.fake.messages if not m.deleted and answer in m.custom_ids()]
    assert len(boards) == 1
    if thread:
        threads = [c for c in table.fake.world.channels.values() if c.is_thread]
        assert len(threads) == 1 and game.record.thread_id == threads[0].id
    assert all(p.answered for p in presses)


async def test_rematch_pressed_by_both_players(
    table: Table, monkeypatch: pytest.MonkeyPatch, no_errors: Any
) -> None:
    """After a stop, both press Rematch together: one challenge, which the second press
    accepts (a rematch is a challenge the others accept: nobody is drawn in) — one new game."""
    seed_deals(monkeypatch, 2)
    gid = await table.challenge_game("alice", ["bob"], game="regnekrig", level=1)
    await table.driver.slash("alice", "mattekrig stop")
    await table.settle()
    board = table.board(gid)
    presses = [
        await table.driver.click(who, board, build(Verb.REMATCH, gid), wait=False)
        for who in ("alice", "bob")
    ]
    await both(table, *presses)
    await table.settle()
    assert len(table.bot.games.games) == 1
    assert all(p.answered and not p.rejected for p in presses)
    assert_all_answered(table.fake)


async def test_scheduler_stops_when_woken_as_it_is_cancelled(table: Table) -> None:
    """A deadline change and a shutdown in the same moment: the scheduler still stops
    (asyncio.wait_for on Python 3.11 lost that cancel, and the bot never shut down)."""
    scheduler = table.bot.scheduler
    for _ in range(3):
        await asyncio.sleep(0.01)  # let the loop reach its wait
        task = scheduler._task
        assert task is not None
        table.bot.games.timers_changed()
        stopping = asyncio.ensure_future(scheduler.stop())
        done, _ = await asyncio.wait({stopping}, timeout=1.0)  # never cancels `stopping`
        if not done:
            task.cancel()  # clean up for the next test, then fail
            await stopping
        assert done and task.done(), "the scheduler did not stop"
        scheduler.start()
