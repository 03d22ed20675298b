"""Nothing is lost: the bot process is killed with SIGKILL in the middle of a batch of 50
concurrent presses. After a restart, every press that was answered is in the game's log,
and no press is in it twice.

DESIGN.md "Nothing is lost: every accepted action is committed before anyone sees its
result." Group commit must keep that: a press is answered only after the transaction that
holds it has been committed (WAL, synchronous=FULL), however many presses share it.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

from tests.bot.test_crash import game_with_a_flip, stale_boards
from tests.fakediscord.driver import Driver
from tests.fakediscord.process import BotProcess, start_against_computer
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import FakeChannel, FakeInteraction, FakeMessage, FakeUser

GAMES = 50
UPDATE_MESSAGE = 7
CALLBACK = "POST /interactions/{webhook_id}/{webhook_token}/callback"


def _flip_of(board: FakeMessage) -> str:
    return next(c for c in board.custom_ids() if c.startswith("mk:flip:"))


def _pupils_at_boards(fake: FakeDiscord, count: int) -> list[tuple[FakeUser, FakeChannel]]:
    """``count`` pupils, each with a channel of their own for their game's board."""
    return [
        (fake.world.add_user(f"pupil{i}", locale="no"), fake.world.add_channel(f"bord-{i}"))
        for i in range(count)
    ]


def _presses_by(database: Path) -> dict[int, list[int]]:
    """user id → the seqs of the actions that user made (the deal and the computer's have
    no user)."""
    found: dict[int, list[int]] = {}
    with contextlib.closing(sqlite3.connect(database)) as db:
        for user_id, seq in db.execute(
            "SELECT user_id, seq FROM game_events WHERE user_id IS NOT NULL ORDER BY seq"
        ):
            found.setdefault(user_id, []).append(seq)
    return found


async def test_sigkill_mid_batch_loses_no_answered_press_and_doubles_none(
    fake_discord: FakeDiscord, driver: Driver, tmp_path: Path
) -> None:
    fake = fake_discord
    database = tmp_path / "kill.sqlite3"
    seats = _pupils_at_boards(fake, GAMES)
    bot = BotProcess(fake, "real", database)
    await bot.start()
    try:
        boards: list[tuple[FakeUser, FakeMessage]] = []
        for user, channel in seats:
            start = await start_against_computer(driver, user, channel)
            assert start.answered and start.original is not None, bot.output
            boards.append((user, start.original))
        await asyncio.sleep(0.2)  # the boards' ids are stored just after the answers
        presses: list[tuple[FakeUser, FakeInteraction]] = []
        for user, board in boards:
            press = await driver.click(user, board, _flip_of(board), wait=False)
            presses.append((user, press))
        # Kill once a fifth of the presses are answered: the rest are still in flight.
        await fake.wait_until(
            lambda: sum(p.answered for _, p in presses) >= GAMES // 5,
            timeout=10,
            what="the first answers",
        )
    finally:
        await bot.kill()

    answered = {u.id for u, p in presses if p.answered and p.response_type == UPDATE_MESSAGE}
    assert answered  # the test proves nothing if no press got through before the kill
    print(f"answered before the kill: {len(answered)} of {GAMES}")
    async with BotProcess(fake, "real", database):  # the restarted bot restores the games
        stored = _presses_by(database)
        for user, _ in boards:
            seqs = stored.get(user.id, [])
            assert len(seqs) <= 1, f"a press stored twice: {user.username} {seqs}"
            if user.id in answered:
                assert len(seqs) == 1, f"{user.username}'s answered press was lost"
        # and the restored games take the next press
        user, board = boards[0]
        current = fake.message(board.id)
        again = await driver.click(user, current, _flip_of(current))
        assert again.answered and again.response_type == UPDATE_MESSAGE


BEHIND_GAMES = 30
UNSHOWN = 4  # presses committed whose answers never reach Discord before the kill


async def test_after_a_sigkill_every_board_is_true_before_the_first_press(
    fake_discord: FakeDiscord, driver: Driver, tmp_path: Path
) -> None:
    """A kill can come between a press's commit and its answer (the board edit): the log is
    then ahead of the board. The restarted bot redraws such a board before it takes a press
    again, so nobody presses a board that is behind and is refused: when the bot says it is
    ready, every board offers its game's current round."""
    fake = fake_discord
    database = tmp_path / "behind.sqlite3"
    seats = _pupils_at_boards(fake, BEHIND_GAMES)
    bot = BotProcess(fake, "real", database)
    await bot.start()
    held = None
    try:
        boards = []
        for user, channel in seats:
            board, _ = await game_with_a_flip(driver, database, user, channel)
            boards.append((user, board))
        # The first answers are held on their way to Discord: committed, never shown.
        held = fake.faults.stall(CALLBACK, times=UNSHOWN)
        presses = [
            await driver.click(user, board, _flip_of(board), wait=False) for user, board in boards
        ]
        await fake.wait_until(
            lambda: (
                held.caught == UNSHOWN
                and sum(p.answered for p in presses) == BEHIND_GAMES - UNSHOWN
            ),
            timeout=10,
            what="every answer sent or held",
        )
        behind = stale_boards(fake, database)
        assert len(behind) == UNSHOWN  # the log is ahead of these boards
    finally:
        await bot.kill()
        if held is not None:
            held.stalled.set()  # type: ignore[union-attr]

    async with BotProcess(fake, "real", database):
        assert stale_boards(fake, database) == []  # ready, and no board behind its game
        user, board = boards[0]
        current = fake.message(board.id)
        again = await driver.click(user, current, _flip_of(current))
        assert again.answered and again.response_type == UPDATE_MESSAGE


AHEAD_GAMES = 30


async def test_after_a_kill_and_a_lost_wal_every_board_is_redrawn_before_the_first_press(
    fake_discord: FakeDiscord, driver: Driver, tmp_path: Path
) -> None:
    """The bot is killed, then its database's -wal file is deleted (by hand, or a tool that
    copies the main file only): the presses only the WAL held are lost, and every board shows
    a round its game no longer has. The restarted bot sees the lost WAL (its lock file still
    names the killed process, and no -wal is there) and draws every board again from the
    database before it takes a press: when it says it is ready, no board is ahead of its
    game, and a press on one is taken."""
    fake = fake_discord
    database = tmp_path / "lost.sqlite3"
    seats = _pupils_at_boards(fake, AHEAD_GAMES)
    bot = BotProcess(fake, "real", database)
    await bot.start()
    try:
        boards = []
        for user, channel in seats:
            board, _ = await game_with_a_flip(driver, database, user, channel)
            boards.append((user, board))
        with contextlib.closing(sqlite3.connect(database)) as db:  # the games are in the file
            db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        for user, board in boards:  # ... and these presses only in the WAL
            current = fake.message(board.id)
            press = await driver.click(user, current, _flip_of(current))
            assert press.answered and press.response_type == UPDATE_MESSAGE
    finally:
        await bot.kill()
    database.with_name(database.name + "-wal").unlink()
    database.with_name(database.name + "-shm").unlink(missing_ok=True)
    assert len(stale_boards(fake, database)) == AHEAD_GAMES  # every board is ahead

    async with BotProcess(fake, "real", database):
        assert stale_boards(fake, database) == []
        user, board = boards[0]
        current = fake.message(board.id)
        again = await driver.click(user, current, _flip_of(current))
        assert again.answered and again.response_type == UPDATE_MESSAGE
