"""GameService: every accepted action is stored before it is shown, refusals change nothing,
deadlines survive a restart."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.services.deadlines import GameDeadlines
from bot.services.games import GameService
from bot.services.live import GameUpdate, LiveGame
from classroom.errors import UserFacingError
from classroom.settings import settings_from_options
from engine.actions import FLIP_CHOICE
from engine.events import Answered, ValueShown
from engine.intervallkrig import BET, PASS_CHOICE
from engine.regnekrig import ANSWER, ANSWER_CHOICE, RANDOM_TARGET_CHOICE, TARGET_CHOICE, part_of
from engine.state import Phase, Step
from storage import ActionCommit, Player, Storage
from storage.errors import EventConflictError
from tests.bot.clock import FakeClock
from tests.bot.services.conftest import ALICE, BOB, EVE, two_players


async def start(
    games: GameService, game: str = "regnekrig", level: int = 1, **options: Any
) -> GameUpdate:
    """A two-player game; `options` are the slash command's other options, passed on as
    they are (their types are `settings_from_options`' own)."""
    settings = settings_from_options(game=game, level=level, **options)
    return await games.start(
        guild_id=1, channel_id=10, settings=settings, players=two_players(), seed=7
    )


def sum_of(game: LiveGame, side: int) -> str:
    a, b = game.state.up[side]
    return str(a.value + b.value)


async def test_an_answer_is_stored_before_it_is_shown(games: GameService, storage: Storage) -> None:
    update = await start(games)
    game = update.game
    assert game.state.phase is ANSWER
    window = game.state.window
    await games.choose(game.id, ALICE, window, ANSWER_CHOICE, text=sum_of(game, 0))
    stored = await storage.load_game(game.id)
    assert [e.action["type"] for e in stored.events] == ["deal", "answer"]
    assert stored.events[1].user_id == ALICE


async def test_refusals_change_nothing(games: GameService, storage: Storage) -> None:
    """Non-participants, stale buttons, double answers and unreadable answers are refused
    with a catalogue key; the game and its stored events are unchanged."""
    game = (await start(games)).game
    window = game.state.window
    before = game.state
    cases = [
        (EVE, window, "1", "error.not_a_player"),
        (ALICE, window - 1, "1", "error.round_over"),
        (ALICE, window, "3 + % 4", "answer.rejected.unknown_symbol"),
    ]
    for user, win, text, key in cases:
        with pytest.raises(UserFacingError) as refused:
            await games.choose(game.id, user, win, ANSWER_CHOICE, text=text)
        assert refused.value.key == key
        assert game.state == before
    await games.choose(game.id, ALICE, window, ANSWER_CHOICE, text="1")
    with pytest.raises(UserFacingError) as refused:
        await games.choose(game.id, ALICE, window, ANSWER_CHOICE, text="1")
    assert refused.value.key == "engine.already_decided"
    assert len((await storage.load_game(game.id)).events) == 2


async def test_one_live_game_per_channel(games: GameService) -> None:
    await start(games)
    with pytest.raises(UserFacingError) as refused:
        await start(games)
    assert refused.value.key == "error.channel_busy"


async def test_restart_restores_the_game_exactly(
    games: GameService, storage: Storage, clock: FakeClock, tmp_path: Path
) -> None:
    game = (await start(games, level=5)).game
    await games.choose(game.id, ALICE, game.state.window, TARGET_CHOICE, 7)
    await games.choose(game.id, BOB, game.state.window, ANSWER_CHOICE, text="0")
    before = game.state
    restarted = GameService(storage, clock)
    [restored] = await restarted.restore_all()
    assert restored.state == before
    assert restored.answer_due_ms == game.answer_due_ms


async def test_a_game_stored_with_the_old_random_target_loads_and_replays_exactly(
    games: GameService, storage: Storage, clock: FakeClock, tmp_path: Path
) -> None:
    """RULES §1.6 and §2.5: a bot older than `random_target` stored the Random button as the
    naming side's `timeout`. Such a game still loads after a restart and replays to the very
    same state, event for event, as the one stored today; and the stored rows are not
    rewritten."""
    game = (await start(games, level=5)).game
    namer = part_of(game.state).namer
    await games.choose(game.id, (ALICE, BOB)[namer], game.state.window, RANDOM_TARGET_CHOICE)
    await games.choose(game.id, ALICE, game.state.window, ANSWER_CHOICE, text="0")
    today = game.state
    stored = await storage.load_game(game.id)
    [drawn] = [e for e in stored.events if e.action["type"] == "random_target"]
    assert drawn.action == {"type": "random_target", "side": namer}
    old = json.dumps({"type": "timeout", "side": namer})  # what the older bot wrote
    with sqlite3.connect(tmp_path / "mattekrig.db") as db:
        db.execute(
            "UPDATE game_events SET action = ? WHERE game_id = ? AND seq = ?",
            (old, game.id, drawn.seq),
        )
    older = await storage.load_game(game.id)
    assert [e.action for e in older.events if e.seq == drawn.seq] == [json.loads(old)]
    assert [e.events for e in older.events] == [e.events for e in stored.events]
    [restored] = await GameService(storage, clock).restore_all()
    assert restored.state == today
    assert [e.action for e in (await storage.load_game(game.id)).events] == [
        e.action for e in older.events
    ]


async def test_answer_time_runs_out(
    games: GameService, deadlines: GameDeadlines, clock: FakeClock
) -> None:
    """RULES §2.2: no answer before the answer time runs out counts as no value."""
    game = (await start(games, answer_seconds=30)).game
    window = game.state.window
    await games.choose(game.id, ALICE, window, ANSWER_CHOICE, text=sum_of(game, 0))
    clock.advance(29)
    assert await deadlines.fire_due() == []
    clock.advance(2)
    [update] = await deadlines.fire_due()
    shown = [e for e in update.events if isinstance(e, ValueShown)]
    assert {e.side: e.reason for e in shown} == {0: None, 1: "timeout"}
    assert game.state.window > window


async def test_two_passes_at_once_fire_a_deadline_once(
    games: GameService, deadlines: GameDeadlines, clock: FakeClock
) -> None:
    """RULES §2.2: a side that lets the answer time run out has no value, once. Two scheduler
    passes that read the same due deadline (the loop's first pass at start-up and a second
    one) fire it once, and the second does not clear the next window's deadline."""
    game = (await start(games, answer_seconds=30)).game
    window = game.state.window
    clock.advance(31)
    first, second = await asyncio.gather(deadlines.fire_due(), deadlines.fire_due())
    assert len(first) + len(second) == 1
    assert game.state.window > window
    assert game.answer_due_ms == clock.now_ms() + 30_000  # the new window's answer time
    clock.advance(31)
    [update] = await deadlines.fire_due()
    assert {e.type for e in update.events} >= {"value"}


async def test_a_window_opened_in_the_same_moment_as_the_last_has_its_own_answer_time(
    games: GameService, deadlines: GameDeadlines, clock: FakeClock
) -> None:
    """RULES §2.2: each round's answer time runs out for that round. Both sides answer in the
    very moment the round opened, so the next round opens in the same millisecond with the same
    due time: its timer must still be the new round's, or it fires for a round that is over and
    nobody's time ever runs out."""
    game = (await start(games, answer_seconds=30)).game
    first = game.state.window
    await games.choose(game.id, ALICE, first, ANSWER_CHOICE, text=sum_of(game, 0))
    await games.choose(game.id, BOB, first, ANSWER_CHOICE, text=sum_of(game, 1))
    second = game.state.window
    assert second > first and game.state.phase is ANSWER
    clock.advance(31)
    [update] = await deadlines.fire_due()
    shown = [e for e in update.events if isinstance(e, ValueShown)]
    assert {e.side: e.reason for e in shown} == {0: "timeout", 1: "timeout"}
    assert game.state.window > second


async def test_time_limit_and_idle_expiry(
    games: GameService, deadlines: GameDeadlines, clock: FakeClock
) -> None:
    game = (await start(games, minutes=1, answer_seconds=0)).game
    clock.advance(61)
    [update] = await deadlines.fire_due()
    assert game.state.time_up and any(e.type == "time_up" for e in update.events)
    clock.advance(11 * 60)
    [update] = await deadlines.fire_due()
    assert update.cause == "abandon" and game.ended == "abandoned"
    with pytest.raises(UserFacingError) as refused:
        await games.choose(game.id, ALICE, game.state.window, ANSWER_CHOICE, text="1")
    assert refused.value.key == "error.game_over"


async def test_the_computer_answers_at_once(games: GameService) -> None:
    settings = settings_from_options(game="regnekrig", level=7, computer="hard")
    players = [
        Player(seat=0, side=0, display_name="Alice", user_id=ALICE),
        Player(seat=1, side=1, display_name="Computer", computer="hard"),
    ]
    game = (
        await games.start(guild_id=1, channel_id=10, settings=settings, players=players, seed=3)
    ).game
    assert game.state.pending == (0,)  # Alice names the first target
    update = await games.choose(game.id, ALICE, game.state.window, TARGET_CHOICE, 5)
    assert game.state.pending == (0,)  # the computer has answered already
    assert any(isinstance(e, Answered) and e.side == 1 for e in update.events)


async def test_stop_by_a_player_and_end_by_a_manager(games: GameService) -> None:
    """RULES §1.5: only a player can give a game up; before the first round is finished the
    stop cancels it. A server manager's end (`/mattekrig admin end`) has no result."""
    game = (await start(games)).game
    with pytest.raises(UserFacingError) as refused:
        await games.stop(game.id, EVE)
    assert refused.value.key == "error.stop_not_allowed"
    update = await games.end(game.id, EVE)
    assert update.game.ended == "ended"
    assert games.in_channel(10) is None


async def test_autoplay_flips_rounds_at_a_pace(
    games: GameService, deadlines: GameDeadlines, clock: FakeClock
) -> None:
    game = (await start(games, game="intervallkrig")).game
    assert game.state.phase is Phase.FLIP
    await games.toggle_autoplay(game.id, ALICE, game.state.window)
    rounds = game.state.round
    clock.advance(3.1)
    await deadlines.fire_due()
    assert game.state.round > rounds or game.state.step != Step.ROUND
    await games.toggle_autoplay(game.id, BOB, None)
    assert not game.autoplay


async def test_hint_only_while_betting(games: GameService) -> None:
    """RULES §3.3: the bot shows a side its chance before and after a swap."""
    game = (await start(games, game="satsing")).game
    assert game.state.phase is BET  # a satsing round opens its betting window at once
    chances = await games.hint(game.id, ALICE, game.state.window)
    assert 0 <= chances.now <= 1 and len(chances.swap) == 2
    await games.choose(game.id, ALICE, game.state.window, PASS_CHOICE)
    await games.choose(game.id, BOB, game.state.window, PASS_CHOICE)
    if game.state.phase is not BET:
        with pytest.raises(UserFacingError) as refused:
            await games.hint(game.id, ALICE, game.state.window)
        assert refused.value.key == "error.no_hint"


async def test_a_finished_game_has_its_result_recorded_in_the_background(
    storage: Storage, clock: FakeClock
) -> None:
    """Writing a game's results never delays the board update."""
    from bot.services.results import ResultsService

    results = ResultsService(storage, clock)
    games = GameService(storage, clock, on_finished=results.schedule)
    game = (await start(games, mode="auto")).game
    while not game.is_finished:
        await games.choose(game.id, ALICE, None, FLIP_CHOICE)
    await results.drain()
    recorded = await storage.load_result(game.id)
    assert recorded is not None  # recorded; an auto-mode game moves no rating (luck)
    assert not recorded.rated and recorded.unrated == "luck"


async def test_a_timer_that_fails_is_dropped_not_retried_forever(
    games: GameService,
    deadlines: GameDeadlines,
    storage: Storage,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A deadline whose handling fails is logged and cleared, so the scheduler's next pass does
    not fail on it again."""
    game = (await start(games, answer_seconds=0)).game
    await storage.set_timer(game.id, "answer", clock.now_ms(), {"window": game.state.window})

    async def broken(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(deadlines, "_fire", broken)
    assert await deadlines.fire_due() == []
    assert "answer" not in {t.kind for t in await storage.timers_for(game.id)}
    assert "dropping it" in caplog.text


async def test_the_board_is_rendered_while_the_press_is_being_committed(
    storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every accepted action is committed before anyone sees its result; the work of
    showing it need not wait: `while_committing` gets the game with its new state while the
    write is still under way, and the press returns only after the write."""
    gate = asyncio.Event()
    committed: list[int] = []
    commit = storage.commit_action

    async def held(game_id: int, change: ActionCommit) -> None:
        await gate.wait()
        await commit(game_id, change)
        committed.append(game_id)

    seen: list[tuple[object, list[int]]] = []
    games = GameService(
        storage, clock, while_committing=lambda g: seen.append((g.state, list(committed)))
    )
    game = (await start(games)).game
    monkeypatch.setattr(storage, "commit_action", held)
    press = asyncio.create_task(
        games.choose(game.id, ALICE, game.state.window, ANSWER_CHOICE, text=sum_of(game, 0))
    )
    while not seen:
        await asyncio.sleep(0)
    assert seen == [(game.state, [])]  # the new state, the write not done
    assert game.state.phase is ANSWER and not press.done()
    gate.set()
    await press
    assert committed == [game.id] and len(seen) == 1
    assert [e.action["type"] for e in (await storage.load_game(game.id)).events][-1] == "answer"


async def test_what_was_rendered_during_a_failed_commit_is_never_the_game(
    storage: Storage, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that fails puts the game back as it was: the state handed over during the
    commit is gone, and the press is refused with a clear message."""
    seen: list[object] = []
    games = GameService(storage, clock, while_committing=lambda g: seen.append(g.state))
    game = (await start(games)).game
    before = game.state

    async def refused(game_id: int, change: ActionCommit) -> None:
        raise EventConflictError(game_id, change.events[0].seq)  # the other press won

    monkeypatch.setattr(storage, "commit_action", refused)
    with pytest.raises(UserFacingError) as answer:
        await games.choose(game.id, ALICE, game.state.window, ANSWER_CHOICE, text=sum_of(game, 0))
    assert answer.value.key == "error.conflict"
    assert len(seen) == 1 and seen[0] is not before
    assert game.state is before
