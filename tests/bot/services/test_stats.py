"""`/mattekrig stats` and the teacher's controls (docs/commands.md): games, wins,
rating and trend, accuracy per operation and level, best streak, suggested next level;
admin refusals without Manage Server; the report's CSV content."""

from __future__ import annotations

import csv
import io
from dataclasses import replace

import pytest

from bot.render.report import mistake_name
from bot.services.admin import AdminService
from bot.services.ratings import plan
from bot.services.stats import StatsService, suggest_level, summarize
from classroom.errors import UserFacingError
from storage import GameResult, OperationTally, PlayerGame, Storage
from tests.bot.clock import FakeClock
from tests.bot.services.results_support import GUILD, admin_fixture, results_fixture  # noqa: F401
from tests.bot.storage.results_helpers import duel, seat

A, B, C = 201, 202, 203


@pytest.fixture
def stats(storage: Storage, clock: FakeClock) -> StatsService:
    return StatsService(storage, clock)


def _game(
    level: int,
    answers: int,
    correct: int | None = None,
    *,
    best: int | None = None,
    missed: int = 0,
    op: str = "add",
) -> PlayerGame:
    """A game of ``answers`` answers (``correct`` legal, ``best`` best moves) and misses."""
    correct = answers if correct is None else correct
    best = correct if best is None else best
    player = replace(
        seat(0, 0, A, "win", answers=answers, correct=correct),
        best=best,
        missed=missed,
        operations=(OperationTally(op, answers, correct, best, answers * 1000),),
    )
    return PlayerGame(replace(duel(1, A, B, level=level), players=(player,)), player)


@pytest.mark.parametrize(
    ("games", "expected"),
    [
        ([], (1, None, "start")),
        ([_game(1, 10, best=8)], (2, 1, "next")),
        ([_game(1, 10, best=7)], (1, 1, "stay")),
        # Started at level 3: its own record is enough to move up (nobody is trapped there).
        ([_game(3, 12, best=10)], (4, 3, "next")),
        ([_game(3, 9, best=9)], (3, 3, "stay")),  # too few rounds to judge
        # Legal every time but rarely the best (only a+b): down, never up.
        ([_game(5, 12, 12, best=3, op="target")], (4, 5, "previous")),
        # Started at level 3 and struggling: told to go down.
        ([_game(3, 6, best=2)], (2, 3, "previous")),
        ([_game(4, 2, best=2, missed=5)], (3, 4, "previous")),  # mostly missed
        ([_game(1, 8, best=0)], (1, 1, "stay")),  # nothing below level 1
        ([_game(7, 10, best=10)], (7, 7, "stay")),  # the top
        # Each level's own record: the current level's, not the one before.
        ([_game(4, 10, best=10), _game(5, 10, best=2)], (4, 5, "previous")),
        ([_game(5, 10, best=2), _game(4, 10, best=9)], (5, 4, "next")),
        # Over the last rounds asked only: an old bad game at the level is left behind.
        ([_game(2, 20, best=4), _game(2, 20, best=18)], (3, 2, "next")),
    ],
)
def test_suggested_level(games: list[PlayerGame], expected: tuple[int, int, str]) -> None:
    """The best-move rate and misses of the current level's own last rounds
    decide; a struggling pupil is told to go down from any level; nobody is trapped."""
    suggestion = suggest_level(games)
    assert (suggestion.level, suggestion.current, suggestion.rule) == expected


def percent(rate: float | None) -> int:
    """A rate as the whole percent a pupil reads; None (no round asked yet) has none."""
    assert rate is not None
    return round(rate * 100)


def test_bob_best_ten_of_eighteen_shows_fifty_six_percent() -> None:
    """Bob: 18 legal division answers, 10 of them best: 56 %, not the 100 % of legal answers.
    Erik: 12 rounds, 7 missed, 5 best: 42 %, with the 7 misses counted."""
    bob = summarize(GUILD, A, "Bob", [_game(3, 18, 18, best=10, op="divide")])
    assert bob.operations["divide"].best_rate == pytest.approx(10 / 18)
    assert percent(bob.operations["divide"].best_rate) == 56
    assert percent(bob.levels[3].best_rate) == 56
    erik = summarize(GUILD, A, "Erik", [_game(1, 5, 5, best=5, missed=7)])
    assert erik.missed == 7 and erik.operations["add"].missed == 7
    assert erik.answers.asked == 12 and percent(erik.answers.best_rate) == 42
    assert erik.levels[1].missed == 7


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
    await admin.update_settings(GUILD, manager=True, board="own_rank")
    with pytest.raises(UserFacingError) as refused:
        await stats.stats(GUILD, B, A)
    assert refused.value.key == "stats.private"
    assert (await stats.stats(GUILD, B, A, manager=True)).wins == 1
    assert (await stats.stats(GUILD, B)).losses == 1  # one's own stats are always there


async def test_admin_commands_are_refused_without_manage_server(admin: AdminService) -> None:
    """Admin commands need Manage Server (the service half; the Discord half also sets
    default_member_permissions)."""
    calls = [
        admin.new_season(GUILD, manager=False),
        admin.void(GUILD, 1, manager=False),
        admin.report_csv(GUILD, manager=False, mistake_name=str),
        admin.update_settings(GUILD, manager=False, board="hidden"),
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
    with pytest.raises(UserFacingError):
        await admin.update_settings(GUILD, manager=True, language="de")
    with pytest.raises(UserFacingError):
        await admin.update_settings(GUILD, manager=True, board="secret")
    await _record(storage, duel(1, A, B))
    voided = await admin.void(GUILD, 1, manager=True)
    assert voided.game_id == 1
    with pytest.raises(UserFacingError) as refused:
        await admin.void(GUILD, 1, manager=True)
    assert refused.value.key == "admin.void.unknown_game"


async def test_report_csv(storage: Storage, admin: AdminService) -> None:
    """Per pupil: games, answers, misses, best moves of the rounds asked overall, per operation
    and per level (each level with its misses), suggested level. Bob: 15 division
    answers, all legal, 10 best, and 3 rounds missed: 10 of 18 rounds, 56 %, misses shown."""
    await _record(
        storage,
        _with_ops(duel(1, A, B, at=1000, day=1), A, OperationTally("add", 10, 9, 9, 1)),
    )
    second = _with_ops(
        duel(2, B, C, at=2000, day=2, level=5), B, OperationTally("target", 4, 4, 1, 1)
    )
    players = tuple(  # the name at the latest game is the one shown
        replace(p, display_name="=Åse") if p.user_id == B else p for p in second.players
    )
    await _record(storage, replace(second, players=players))
    bob = 204
    third = _with_ops(
        duel(3, bob, C, at=3000, day=3, level=3),
        bob,
        OperationTally("divide", 15, 15, 10, 1, mistakes=(("sign_slip", 3),), times=(6000,) * 15),
    )
    third = replace(
        third,
        players=tuple(replace(p, missed=3) if p.user_id == bob else p for p in third.players),
    )
    await _record(storage, third)
    for _ in range(2):  # two fractions not simplified, typed again (RULES §2.6)
        await storage.add_practice_note(3, GUILD, bob, "not_simplified")
    text = await admin.report_csv(
        GUILD, manager=True, mistake_name=lambda code: mistake_name(code, "nb"), lang="nb"
    )
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    header = rows[0]
    assert header[:6] == ["Elev", "Spill", "Seire", "Svar", "Ikke svart i tide", "Beste trekk (%)"]
    assert "Beste trekk + (%)" in header and "Beste trekk nivå 7 (%)" in header
    assert "Beste trekk : (%)" in header  # school notation: division is ':' in nb
    assert "Ikke svart i tide nivå 3" in header
    assert header[-2:] == ["Foreslått nivå", "Øvingsnotater"]
    by_name = {r[0]: dict(zip(header, r, strict=True)) for r in rows[1:]}
    assert set(by_name) == {f"user{A}", "'=Åse", f"user{C}", f"user{bob}"}  # no formula run
    ada = by_name[f"user{A}"]
    assert (ada["Spill"], ada["Seire"], ada["Svar"], ada["Ikke svart i tide"]) == (
        "1",
        "1",
        "10",
        "0",
    )
    assert ada["Beste trekk + (%)"] == "90" and ada["Beste trekk nivå 1 (%)"] == "90"
    assert ada["Beste trekk målverdi (%)"] == "" and ada["Foreslått nivå"] == "2"
    ase = by_name["'=Åse"]
    assert (ase["Spill"], ase["Seire"]) == ("2", "1")
    # All four answers legal, one best: 25 %, not the 100 % "legal" would say.
    assert ase["Beste trekk målverdi (%)"] == "25" and ase["Beste trekk nivå 5 (%)"] == "25"
    bobs = by_name[f"user{bob}"]
    assert bobs["Beste trekk : (%)"] == "56" and bobs["Beste trekk nivå 3 (%)"] == "56"
    assert bobs["Ikke svart i tide"] == "3" and bobs["Ikke svart i tide nivå 3"] == "3"
    assert bobs["Beste trekk (%)"] == "56" and bobs["Foreslått nivå"] == "3"
    # RULES §2.6: a mistake is named by its kind in the reader's language, never by its code
    assert bobs["Median svartid (s)"] == "6" and bobs["Vanligste feil"] == "fortegnsfeil"
    assert ada["Median svartid (s)"] == "" and ada["Vanligste feil"] == ""
    # practice notes in the lesson summary's words, never a mistake
    assert bobs["Øvingsnotater"] == "ikke forkortet (2)" and ada["Øvingsnotater"] == ""
    english = await admin.report_csv(
        GUILD, manager=True, mistake_name=lambda code: mistake_name(code, "en")
    )
    assert english.splitlines()[0].startswith("\ufeffPupil,Games,Wins")
    assert ",sign slip," in english


def test_median_time_and_the_commonest_mistake_per_level_and_operation() -> None:
    """The median time to answer and the mistake kinds, per operation and
    per level, from the stored tallies; the stats screen shows them."""
    from bot.render.stats import render_stats
    from classroom.i18n import t

    game = _game(3, 5, 3, best=2, op="divide")
    ops = (
        OperationTally(
            "divide", 5, 3, 2, 0, mistakes=(("sign_slip", 2),), times=(3000, 4000, 9000, 4000, 5000)
        ),
    )
    player = replace(game.player, operations=ops)
    stats = summarize(
        GUILD, A, "Bob", [PlayerGame(replace(game.result, players=(player,)), player)]
    )
    assert stats.levels[3].median_ms == 4000 and stats.operations["divide"].median_ms == 4000
    assert stats.levels[3].mistakes == (("sign_slip", 2),)
    text = "\n".join(str(f.value) for f in render_stats(stats, "nb").fields)
    assert t("stats.tally.median", "nb", seconds="4") in text
    assert t("stats.tally.mistake", "nb", kind=t("mistake.sign_slip", "nb"), count=2) in text
