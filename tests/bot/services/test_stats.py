"""`/mattekrig stats` (issue point 4) and the teacher's controls (point 6): games, wins,
rating and trend, accuracy per operation and level, best streak, suggested next level;
admin refusals without Manage Server; the report's CSV content."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

import pytest

from bot.services.admin import AdminService
from bot.services.clock import FakeClock
from bot.services.errors import UserFacingError
from bot.services.ratings import plan
from bot.services.stats import StatsService, suggest_level
from bot.storage import GameResult, OperationTally, PlayerGame, Storage
from tests.bot.services.results_support import GUILD, admin_fixture, results_fixture  # noqa: F401
from tests.bot.storage.results_helpers import duel, seat

A, B, C = 201, 202, 203


@pytest.fixture
def stats(storage: Storage, clock: FakeClock) -> StatsService:
    return StatsService(storage, clock)


def _game(
    level: int, answers: int, correct: int, *, missed: int = 0, op: str = "add"
) -> PlayerGame:
    player = replace(
        seat(0, 0, A, "win", answers=answers, correct=correct),
        missed=missed,
        operations=(OperationTally(op, answers, correct, correct, answers * 1000),),
    )
    return PlayerGame(replace(duel(1, A, B, level=level), players=(player,)), player)


@pytest.mark.parametrize(
    ("games", "expected"),
    [
        ([], (1, None, "start")),
        ([_game(1, 10, 8)], (2, 1, "next")),  # level 1 counts alone
        ([_game(1, 10, 7)], (1, 1, "stay")),
        ([_game(2, 10, 9), _game(3, 12, 10)], (4, 3, "next")),  # two levels at ≥ 80 %
        ([_game(3, 12, 10)], (3, 3, "stay")),  # the level below is not mastered
        ([_game(3, 9, 9)], (3, 3, "stay")),  # too few answers to judge
        ([_game(4, 5, 4), _game(4, 4, 1), _game(4, 2, 1, missed=3)], (3, 4, "previous")),
        ([_game(4, 4, 1), _game(4, 4, 3)], (4, 4, "stay")),  # not repeated
        ([_game(1, 2, 0), _game(1, 2, 0)], (1, 1, "stay")),  # nothing below level 1
        ([_game(6, 10, 10), _game(7, 10, 10)], (7, 7, "stay")),  # the top
    ],
)
def test_suggested_level(games: list[PlayerGame], expected: tuple) -> None:
    """Point 4: two levels' accuracy ≥ 80 % → the next; repeated misses → the previous."""
    suggestion = suggest_level(games)
    assert (suggestion.level, suggestion.current, suggestion.rule) == expected


async def _record(storage: Storage, result: GameResult) -> None:
    assert await storage.record_result(result, at=result.ended_at, rate=plan) is not None


def _with_ops(result: GameResult, user: int, *ops: OperationTally) -> GameResult:
    players = tuple(
        replace(
            p,
            operations=ops,
            # square and root answers are also target answers: count each answer once
            answers=sum(o.answers for o in ops if o.op not in ("square", "root")),
            correct=sum(o.correct for o in ops if o.op not in ("square", "root")),
            best=sum(o.best for o in ops if o.op not in ("square", "root")),
        )
        if p.user_id == user
        else p
        for p in result.players
    )
    return replace(result, players=players)


async def test_stats_of_a_player(storage: Storage, stats: StatsService) -> None:
    await _record(
        storage, _with_ops(duel(1, A, B, at=1000, day=1), A, OperationTally("add", 4, 4, 3, 8000))
    )
    await _record(storage, duel(2, A, C, at=2000, day=2))
    await _record(storage, duel(3, B, A, at=3000, day=3))
    await _record(
        storage,
        _with_ops(
            duel(4, A, B, at=4000, day=4, level=6),
            A,
            OperationTally("square", 2, 1, 1, 3000),
            OperationTally("target", 5, 4, 2, 9000),
        ),
    )
    await _record(storage, duel(5, A, B, at=5000, day=5))
    await _record(storage, replace(duel(6, B, A, at=6000, day=6), reason="stopped"))
    mine = await stats.stats(GUILD, A)
    assert (mine.games, mine.finished, mine.wins, mine.losses, mine.draws) == (6, 5, 4, 1, 0)
    assert mine.rated_games == 5 and mine.win_rate == 0.8
    assert (mine.best_streak, mine.current_streak) == (2, 2)  # the stopped game does not count
    assert mine.operations["add"].accuracy == 1.0
    assert mine.operations["target"].answers == 5 and mine.operations["square"].correct == 1
    assert list(mine.operations) == ["add", "target", "square"]
    assert mine.levels[1].answers == 4 and mine.levels[6].answers == 5
    assert mine.answers.answers == 9 and mine.answers.correct == 8
    all_time = next(x for x in mine.ratings if x.scope == "all")
    assert all_time.games == 5 and len(all_time.trend) == 5
    assert all_time.rating == 1000 + sum(all_time.trend)
    assert mine.display_name == f"user{A}"
    assert mine.suggestion.current == 6


async def test_other_members_stats_follow_the_board_setting(
    storage: Storage, stats: StatsService, admin: AdminService
) -> None:
    await _record(storage, duel(1, A, B))
    assert (await stats.stats(GUILD, B, A)).wins == 1
    await admin.update_settings(GUILD, manager=True, leaderboard="own_rank")
    with pytest.raises(UserFacingError) as refused:
        await stats.stats(GUILD, B, A)
    assert refused.value.key == "stats.private"
    assert (await stats.stats(GUILD, B, A, manager=True)).wins == 1
    assert (await stats.stats(GUILD, B)).losses == 1  # one's own stats are always there


async def test_admin_commands_are_refused_without_manage_server(admin: AdminService) -> None:
    """Point 6 (the service half; the Discord half also sets default_member_permissions)."""
    calls = [
        admin.new_season(GUILD, manager=False),
        admin.void(GUILD, 1, manager=False),
        admin.report_csv(GUILD, manager=False),
        admin.update_settings(GUILD, manager=False, leaderboard="hidden"),
    ]
    for call in calls:
        with pytest.raises(UserFacingError) as refused:
            await call
        assert refused.value.key == "admin.not_allowed"
    assert (await admin.settings(GUILD)).board == "visible"


async def test_admin_settings_and_void(storage: Storage, admin: AdminService) -> None:
    settings = await admin.update_settings(
        GUILD, manager=True, channels=[10, 11], language="nb", threads=False
    )
    assert (settings.channels, settings.language, settings.threads) == ((10, 11), "nb", False)
    assert await admin.channel_allowed(GUILD, 10) and not await admin.channel_allowed(GUILD, 12)
    with pytest.raises(UserFacingError):
        await admin.update_settings(GUILD, manager=True, language="de")
    with pytest.raises(UserFacingError):
        await admin.update_settings(GUILD, manager=True, leaderboard="secret")
    await _record(storage, duel(1, A, B))
    voided = await admin.void(GUILD, 1, manager=True)
    assert voided.game_id == 1
    with pytest.raises(UserFacingError) as refused:
        await admin.void(GUILD, 1, manager=True)
    assert refused.value.key == "admin.void.unknown_game"


async def test_report_csv(storage: Storage, admin: AdminService) -> None:
    """Per pupil: games, accuracy per operation and level, suggested level."""
    await _record(
        storage,
        _with_ops(duel(1, A, B, at=1000, day=1), A, OperationTally("add", 10, 9, 9, 1)),
    )
    second = _with_ops(
        duel(2, B, C, at=2000, day=2, level=5), B, OperationTally("target", 4, 1, 1, 1)
    )
    players = tuple(  # the name at the latest game is the one shown
        replace(p, display_name="=Åse") if p.user_id == B else p for p in second.players
    )
    await _record(storage, replace(second, players=players))
    text = await admin.report_csv(GUILD, manager=True, lang="nb")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    header = rows[0]
    assert header[:5] == ["Elev", "Spill", "Seire", "Svar", "Treffsikkerhet (%)"]
    assert "Treffsikkerhet + (%)" in header and "Treffsikkerhet nivå 7 (%)" in header
    assert header[-1] == "Foreslått nivå"
    by_name = {r[0]: dict(zip(header, r, strict=True)) for r in rows[1:]}
    assert set(by_name) == {f"user{A}", "'=Åse", f"user{C}"}  # a formula is not run
    ada = by_name[f"user{A}"]
    assert (ada["Spill"], ada["Seire"], ada["Svar"]) == ("1", "1", "10")
    assert ada["Treffsikkerhet + (%)"] == "90" and ada["Treffsikkerhet nivå 1 (%)"] == "90"
    assert ada["Treffsikkerhet mål (%)"] == "" and ada["Foreslått nivå"] == "2"
    ase = by_name["'=Åse"]
    assert (ase["Spill"], ase["Seire"]) == ("2", "1")
    assert ase["Treffsikkerhet mål (%)"] == "25" and ase["Treffsikkerhet nivå 5 (%)"] == "25"
    english = await admin.report_csv(GUILD, manager=True)
    assert english.splitlines()[0].startswith("\ufeffPupil,Games,Wins")
