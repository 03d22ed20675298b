"""Results are written for every way a game ends (RULES §1.5: all_cards,
time_up, max_rounds, stalemate, stopped, abandoned, a computer game), once, in the
background; answers are counted per player and per operation with their answer times."""

from __future__ import annotations

import asyncio
from fractions import Fraction
from math import isqrt
from typing import Any

from bot.services.deadlines import GameDeadlines
from bot.services.games import GameService
from bot.services.results import ResultsService, compute_result
from classroom.settings import GameSettings, settings_from_options
from engine.actions import FLIP_CHOICE, Flip, Timeout
from engine.config import GameConfig, Mode
from engine.events import (
    Answered,
    BonusPaid,
    CardsLaid,
    Dealt,
    Event,
    GameOver,
    RoundStarted,
    RoundWon,
    ValueShown,
    WarDeclared,
)
from engine.game import apply, awaited, new_game
from engine.judge import judge
from engine.registry import action_to_json
from engine.regnekrig import ANSWER_CHOICE, TARGET_CHOICE, Answer, NameTarget
from engine.state import Termination
from storage import (
    ActionCommit,
    GameResult,
    GameStatus,
    NewEvent,
    NewGame,
    Player,
    Storage,
    StoredEvent,
    StoredGame,
)
from tests.bot.clock import FakeClock
from tests.bot.services.conftest import ALICE, BOB, CARL, DINA
from tests.bot.services.results_support import (  # noqa: F401 - fixtures
    GUILD,
    auto_game,
    finish_a_round,
    people,
    results_fixture,
    start,
)
from tests.bot.storage.helpers import append


async def _recorded(results: ResultsService, game_id: int) -> GameResult:
    result = await results.record(game_id)
    assert result is not None
    assert await results.storage.load_result(game_id) == result
    return result


def _check_two_player_result(result: GameResult, reason: str) -> None:
    assert result.reason == reason
    assert result.guild_id == GUILD and result.sides == 2 and len(result.players) == 2
    assert result.ended_at >= result.started_at
    assert result.day > 20250000 and result.week > 202500 and result.season == 1


async def test_all_cards(games: GameService, clock: FakeClock, results: ResultsService) -> None:
    game_id = await auto_game(games, clock, people(ALICE, BOB), seed=1)
    result = await _recorded(results, game_id)
    _check_two_player_result(result, "all_cards")
    winner = result.winner
    assert winner is not None
    by_side = {p.side: p for p in result.players}
    assert by_side[winner].outcome == "win" and by_side[1 - winner].outcome == "loss"
    assert by_side[winner].cards_end == 52 and by_side[1 - winner].cards_end == 0
    assert not result.rated and result.unrated == "luck"  # auto mode is luck: no rating
    assert result.rounds == sum(p.rounds_won for p in result.players)  # no stalemate here
    assert result.duration_ms == result.ended_at - result.started_at > 0
    assert all(p.answers == 0 for p in result.players)  # auto mode: the engine answered


async def test_time_up(
    games: GameService, deadlines: GameDeadlines, clock: FakeClock, results: ResultsService
) -> None:
    game_id = await start(games, people(ALICE, BOB), minutes=1)
    clock.advance(61)
    await deadlines.fire_due()
    await games.choose(game_id, ALICE, None, FLIP_CHOICE)  # the round in progress is finished first
    result = await _recorded(results, game_id)
    _check_two_player_result(result, "time_up")
    counts = {p.side: p.cards_end for p in result.players}
    assert counts[0] is not None and counts[1] is not None
    if result.winner is None:
        assert counts[0] == counts[1] and {p.outcome for p in result.players} == {"draw"}
    else:
        assert counts[result.winner] == max(counts.values())  # type: ignore[type-var]
    assert not result.rated and result.unrated == "luck"  # auto mode is luck: no rating


async def test_max_rounds(games: GameService, clock: FakeClock, results: ResultsService) -> None:
    engine = GameConfig("regnekrig", level=2, mode=Mode.AUTO, max_rounds=3)
    game_id = await start(games, people(ALICE, BOB), settings=GameSettings(engine=engine))
    from tests.bot.services.results_support import play_out

    await play_out(games, clock, game_id, ALICE)
    result = await _recorded(results, game_id)
    _check_two_player_result(result, "max_rounds")
    assert result.rounds == 3 and result.level == 2 and result.unrated == "luck"


async def test_stalemate(storage: Storage, clock: FakeClock, results: ResultsService) -> None:
    """RULES §2.4: no side of a war can turn two (stacked piles, as in the golden scenario)."""
    config = GameConfig("regnekrig", level=1, mode=Mode.AUTO)
    settings = GameSettings(engine=config)
    state, events = new_game(config, 0, piles=[[3, 4, 1], [5, 2, 1]])
    now = clock.now_ms()
    deal = ActionCommit(now, [NewEvent(0, {"type": "deal"}, [e.to_json() for e in events])])
    players = tuple(people(ALICE, BOB))
    new = NewGame(GUILD, 10, "regnekrig", settings.to_json(), 0, players)
    game_id = (await storage.start_game(new, deal)).id
    seq = 1
    while not state.is_over:
        state, events = apply(state, Flip(0))
        await append(
            storage,
            game_id,
            seq,
            action_to_json(Flip(0)),
            [e.to_json() for e in events],
            now + seq * 1000,
            user_id=ALICE,
            status="over" if state.is_over else None,
        )
        seq += 1
    result = await _recorded(results, game_id)
    _check_two_player_result(result, "stalemate")
    assert result.winner is None and {p.outcome for p in result.players} == {"draw"}
    assert all(p.cards_end is None for p in result.players)  # stacked piles: no replay
    assert not result.rated and result.unrated == "luck"  # auto mode is luck: no rating


async def test_a_stop_is_a_forfeit_that_counts(
    games: GameService, clock: FakeClock, results: ResultsService
) -> None:
    """RULES §1.5: "a side that stops a game gives it up: the game ends at once, reason
    `forfeit`; with two sides the other side wins" — and it counts like any other ending."""
    game_id = await start(games, people(ALICE, BOB), mode="regn")
    await finish_a_round(games, clock, game_id)
    clock.advance(30)
    await games.stop(game_id, BOB)
    result = await _recorded(results, game_id)
    _check_two_player_result(result, "forfeit")
    assert result.winner == 0
    assert [p.outcome for p in result.players] == ["win", "loss"]
    assert result.rated and result.unrated is None


async def test_a_stop_before_the_first_round_is_finished_cancels(
    games: GameService, clock: FakeClock, results: ResultsService, storage: Storage
) -> None:
    """RULES §1.5: "A stop before the first round is finished cancels the game: it counts for
    nobody" — no result at all."""
    game_id = await start(games, people(ALICE, BOB), mode="regn")
    update = await games.stop(game_id, BOB)
    assert update.game.ended == "stopped"
    assert await results.record(game_id) is None
    assert await storage.load_result(game_id) is None
    assert await results.record_pending() == []


async def test_abandoned_is_no_result(
    games: GameService,
    deadlines: GameDeadlines,
    clock: FakeClock,
    results: ResultsService,
    storage: Storage,
) -> None:
    """The idle end (nobody touched the game for ten minutes) counts for nobody."""
    game_id = await start(games, people(ALICE, BOB), mode="regn", answer_seconds=0)
    clock.advance(11 * 60)
    [update] = await deadlines.fire_due()
    assert update.cause == "abandon"
    assert await results.record(game_id) is None
    assert await storage.load_result(game_id) is None


async def test_missed_decisions_abandon_the_game_with_no_result(
    games: GameService,
    deadlines: GameDeadlines,
    clock: FakeClock,
    results: ResultsService,
    storage: Storage,
) -> None:
    """RULES §1.5: "the bot ends a game as `abandoned` (no winner, counted for nobody) when
    every human side has let its last three decisions run out of time" — not a draw."""
    game_id = await start(games, people(ALICE, BOB), mode="regn", answer_seconds=30)
    game = games.live(game_id)
    for _ in range(10):
        if game.is_finished:
            break
        clock.advance(31)
        await deadlines.fire_due()
        if not game.is_finished and not awaited(game.state):
            await games.choose(
                game_id, ALICE, None, FLIP_CHOICE
            )  # the war's flip: pressing Flip is no answer
    assert game.state.outcome is not None
    assert game.state.outcome.reason is Termination.ABANDONED
    assert (await storage.load_game(game_id)).status == "abandoned"
    assert await results.record(game_id) is None and await results.record_pending() == []


async def test_a_side_that_misses_while_the_other_plays_forfeits(
    games: GameService, deadlines: GameDeadlines, clock: FakeClock, results: ResultsService
) -> None:
    """RULES §1.5: "a side that lets three in a row run out while another side keeps playing
    forfeits" — a loss for it, a win for the side that played."""
    game_id = await start(games, people(ALICE, BOB), mode="regn", answer_seconds=30)
    game = games.live(game_id)
    for _ in range(20):
        if game.is_finished:
            break
        if awaited(game.state) and 0 in game.state.pending:
            a, b = game.state.up[0]
            await games.choose(
                game_id, ALICE, game.state.window, ANSWER_CHOICE, text=str(a.value + b.value)
            )
        elif not awaited(game.state):
            await games.choose(game_id, ALICE, None, FLIP_CHOICE)
            continue
        clock.advance(31)
        await deadlines.fire_due()  # Bob lets it run out
    assert game.state.outcome is not None
    assert (game.state.outcome.reason, game.state.outcome.side) == (Termination.FORFEIT, 1)
    result = await _recorded(results, game_id)
    assert result.reason == "forfeit" and result.winner == 0
    assert [p.outcome for p in result.players] == ["win", "loss"]


async def test_a_computer_game_is_recorded_but_never_rated(
    games: GameService, clock: FakeClock, results: ResultsService
) -> None:
    players = [
        Player(seat=0, side=0, display_name="Alice", user_id=ALICE),
        Player(seat=1, side=1, display_name="Datamaskin", computer="easy"),
    ]
    game_id = await auto_game(games, clock, players, computer="easy")
    result = await _recorded(results, game_id)
    assert result.computer and not result.rated and result.unrated == "computer"
    cpu = result.players[1]
    assert (cpu.kind, cpu.user_id, cpu.computer) == ("computer", None, "easy")
    assert await results.storage.rating_lines(GUILD, ALICE) == []


async def test_teams_are_recorded_per_member(
    games: GameService, clock: FakeClock, results: ResultsService
) -> None:
    players = people(ALICE, BOB, CARL, DINA, teams=True)
    game_id = await auto_game(games, clock, players, teams=True, sides=2)
    result = await _recorded(results, game_id)
    assert result.teams and len(result.players) == 4
    assert [p.team for p in result.players] == [0, 1, 0, 1]
    same_side = [p for p in result.players if p.side == 0]
    assert same_side[0].outcome == same_side[1].outcome
    assert same_side[0].rounds_won == same_side[1].rounds_won
    assert not result.rated and result.unrated == "luck"  # auto mode is luck: no rating


async def test_answers_per_player_with_times_and_misses(
    games: GameService, deadlines: GameDeadlines, clock: FakeClock, results: ResultsService
) -> None:
    """Answer time runs from the cards being turned, not from the other side's answer; a
    timeout is a miss, not an answer."""
    game_id = await start(games, people(ALICE, BOB), mode="regn", answer_seconds=30)
    game = games.live(game_id)

    def total(side: int) -> str:
        a, b = game.state.up[side]
        return str(a.value + b.value)

    clock.advance(4)
    await games.choose(game_id, ALICE, game.state.window, ANSWER_CHOICE, text=total(0))
    clock.advance(2)
    await games.choose(
        game_id, BOB, game.state.window, ANSWER_CHOICE, text="999"
    )  # wrong: no value
    clock.advance(3)
    await games.choose(game_id, BOB, game.state.window, ANSWER_CHOICE, text=total(1))
    clock.advance(31)
    await deadlines.fire_due()  # Alice times out
    await games.stop(game_id, ALICE)
    result = await _recorded(results, game_id)
    alice, bob = result.players
    assert (alice.answers, alice.correct, alice.best, alice.missed) == (1, 1, 1, 1)
    assert alice.answer_ms == 4000 and alice.mean_answer_ms == 4000
    assert (bob.answers, bob.correct, bob.best, bob.missed) == (2, 1, 1, 0)
    assert bob.answer_ms == 6000 + 3000
    assert [(o.op, o.answers, o.correct) for o in bob.operations] == [("add", 2, 1)]
    assert alice.rounds_won + bob.rounds_won >= 1


async def test_squares_and_roots_count_under_their_operations(
    games: GameService, clock: FakeClock, results: ResultsService
) -> None:
    """Levels 5–7 count under "target", plus "square" / "root" when the expression used one."""
    game_id = await start(games, people(ALICE, BOB), mode="regn", level=7, answer_seconds=0)
    game = games.live(game_id)
    await games.choose(game_id, ALICE, game.state.window, TARGET_CHOICE, 5)
    (a0, b0), (a1, b1) = ((c.value for c in game.state.up[s]) for s in (0, 1))
    square = f"({a0})^2 + ({b0}) = {a0 * a0 + b0}"  # RULES §2.2: with its value
    root = f"sqrt({a1}) + ({b1}) = {isqrt(max(a1, 0)) + b1}"
    root_ok = judge(root, (a1, b1), 7).accepted
    await games.choose(game_id, ALICE, game.state.window, ANSWER_CHOICE, text=square)
    await games.choose(game_id, BOB, game.state.window, ANSWER_CHOICE, text=root)
    await games.stop(game_id, ALICE)
    result = await _recorded(results, game_id)
    alice, bob = result.players
    assert {o.op: (o.answers, o.correct) for o in alice.operations} == {
        "target": (1, 1),
        "square": (1, 1),
    }
    assert {o.op: (o.answers, o.correct) for o in bob.operations} == {
        "target": (1, int(root_ok)),
        "root": (1, int(root_ok)),
    }


def _stored(
    events: list[tuple[dict[str, Any], list[dict[str, Any]], int, int | None]], status: GameStatus
) -> StoredGame:
    settings = settings_from_options(game="regnekrig", level=5, mode="regn")
    return StoredGame(
        id=7,
        guild_id=GUILD,
        channel_id=10,
        thread_id=None,
        message_id=None,
        game="regnekrig",
        config=settings.to_json(),
        seed=0,
        status=status,
        created_at=0,
        updated_at=events[-1][2],
        players=tuple(people(ALICE, BOB)),
        events=tuple(
            StoredEvent(seq=i, action=a, events=e, created_at=t, user_id=u)
            for i, (a, e, t, u) in enumerate(events)
        ),
    )


def _value(
    seq: int, side: int, value: str | None, best_value: str, reason: str | None = None
) -> ValueShown:
    return ValueShown(
        seq=seq, side=side, value=value, expr="x", best="y", best_value=best_value, reason=reason
    )


def _laid(seq: int) -> list[CardsLaid]:
    return [
        CardsLaid(seq=seq, side=0, up=(1,), down=0),
        CardsLaid(seq=seq + 1, side=1, up=(2,), down=0),
    ]


def _step(
    action: dict[str, Any], events: list[Event], at: int, user: int | None
) -> tuple[dict[str, Any], list[dict[str, Any]], int, int | None]:
    return action, [e.to_json() for e in events], at, user


def test_best_answers_exact_hits_and_wars_from_the_events() -> None:
    """Pure: best = as close to the target as the best value; exact hits; wars won."""
    events = [
        _step(
            {"type": "deal"},
            [Dealt(seq=0, piles=((1,), (2,)), set_aside=(), stacked=True)],
            0,
            None,
        ),
        _step(
            action_to_json(NameTarget(0, 7)),
            [RoundStarted(seq=1, round=1, target=7, named_by=0), *_laid(2)],
            1000,
            ALICE,
        ),
        _step(action_to_json(Answer(0, "a")), [Answered(seq=4, side=0)], 3000, ALICE),
        _step(
            action_to_json(Answer(1, "b")),
            [
                Answered(seq=5, side=1),
                _value(6, 0, "6", "8"),  # distance 1 = best's distance: best
                _value(7, 1, "8", "7"),  # accepted, not best
                WarDeclared(seq=8, sides=(0, 1)),
                *_laid(9),
            ],
            8000,
            BOB,
        ),
        _step(action_to_json(Answer(0, "c")), [Answered(seq=11, side=0)], 9000, ALICE),
        _step(
            action_to_json(Timeout(1)),
            [
                Answered(seq=12, side=1),
                _value(13, 0, "7", "7"),  # exact hit
                _value(14, 1, None, "7", "timeout"),
                BonusPaid(seq=15, from_=1, to=0, cards=3),
                RoundWon(seq=16, side=0, cards=14),
                GameOver(seq=17, winner=0, reason="time_up"),
            ],
            40_000,
            None,
        ),
    ]
    result = compute_result(_stored(events, "over"))
    alice, bob = result.players
    assert (result.reason, result.winner, result.rounds) == ("time_up", 0, 1)
    assert (alice.answers, alice.correct, alice.best, alice.exact_hits) == (2, 2, 2, 1)
    assert alice.answer_ms == 2000 + 1000  # from the cards turned at 1000 and 8000
    assert (alice.rounds_won, alice.wars_won, alice.outcome) == (1, 1, "win")
    assert (bob.answers, bob.correct, bob.best, bob.missed) == (1, 1, 0, 1)
    assert bob.answer_ms == 7000 and bob.outcome == "loss"
    assert [o.op for o in alice.operations] == ["target"]
    assert Fraction(alice.answer_ms, alice.answers) == 1500


async def test_recording_is_idempotent_and_runs_in_the_background(
    games: GameService, clock: FakeClock, results: ResultsService, storage: Storage
) -> None:
    """The record is scheduled after the board update and never raises into it."""
    game_id = await start(games, people(ALICE, BOB), mode="regn")
    assert await results.record(game_id) is None  # live: nothing to record
    await finish_a_round(games, clock, game_id)
    update = await games.stop(game_id, ALICE)
    await results.on_update(update)
    results.schedule(game_id)  # a second schedule for the same game is harmless
    await results.drain()
    assert (await storage.load_result(game_id)) is not None
    assert await results.record(game_id) is None
    assert results.schedule(10_000) is not None  # an unknown game is logged, not raised
    await results.drain()


async def test_record_pending_catches_up_after_a_crash(
    games: GameService, clock: FakeClock, results: ResultsService
) -> None:
    first = await start(games, people(ALICE, BOB), mode="regn")
    await finish_a_round(games, clock, first)
    await games.stop(first, ALICE)
    second = await start(games, people(ALICE, BOB), mode="regn", channel_id=11)
    await finish_a_round(games, clock, second)
    await games.stop(second, ALICE)
    recorded = await results.record_pending()
    assert [r.game_id for r in recorded] == [first, second]
    assert await results.record_pending() == []


async def test_board_updates_are_not_blocked_by_a_slow_record(
    games: GameService, clock: FakeClock, results: ResultsService
) -> None:
    """The replay runs in a worker thread: the event loop keeps serving other games."""
    game_id = await auto_game(games, clock, people(ALICE, BOB), seed=2)
    other = await start(games, people(CARL, DINA), mode="regn", channel_id=11)
    task = results.schedule(game_id)
    await asyncio.sleep(0)
    await games.stop(other, CARL)  # served while the record runs
    assert await task is not None
