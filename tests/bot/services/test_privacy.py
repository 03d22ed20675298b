"""my-data and forget-me (PRIVACY.md): the export holds every table's rows for the user;
forgetting removes every row and value that names them (checked by scanning every column of
every table, JSON text included) and leaves the other players' results intact; retention's
purge keeps its promises."""

from __future__ import annotations

import json
import sqlite3

import pytest

from bot.services.games import GameService
from bot.services.privacy import WITHHELD, PrivacyService, Retention
from bot.services.results import ResultsService
from classroom.errors import UserFacingError
from classroom.periods import DAY_MS
from engine.actions import FLIP_CHOICE
from storage import EXPORTED_TABLES, USER_COLUMNS, Player, Storage
from tests.bot.clock import FakeClock
from tests.bot.db_scan import scan as _scan
from tests.bot.services.conftest import ALICE
from tests.bot.services.privacy_support import NAME, ZELDA, a_full_history
from tests.bot.services.results_support import (  # noqa: F401 - fixtures
    GUILD,
    auto_game,
    boards_fixture,
    finish_a_round,
    people,
    privacy_fixture,
    regn_game,
    results_fixture,
    start,
)

# Zelda in every table (privacy_support), as a fixture over the services' fixtures
history = pytest.fixture(a_full_history, name="history")


async def test_my_data_holds_every_tables_rows_for_the_user(
    storage: Storage, privacy: PrivacyService, history: dict[str, int]
) -> None:
    data = await privacy.export(ZELDA)
    tables = data["tables"]
    assert tuple(tables) == EXPORTED_TABLES
    for table in EXPORTED_TABLES:
        assert tables[table], f"the export has no {table} rows"
    conn = sqlite3.connect(storage.path)
    try:
        for table, columns in USER_COLUMNS.items():
            for column in columns:
                [(count,)] = conn.execute(
                    f"SELECT count(*) FROM {table} WHERE {column} = ?", (ZELDA,)
                )
                exported = [r for r in tables[table] if r.get(column) == ZELDA]
                assert len(exported) == count > 0, (table, column)
    finally:
        conn.close()
    assert {g["id"] for g in tables["games"]} == {history["played"], history["answered"]}
    assert {r["game_id"] for r in tables["results"]} == {history["played"], history["answered"]}
    assert any(e["action"]["type"] == "answer" for e in tables["game_events"])
    assert {o["op"] for o in tables["result_operations"]} == {"add"}
    name, body = await privacy.export_file(ZELDA)
    assert name.endswith(".json") and json.loads(body)["user_id"] == str(ZELDA)
    assert NAME in body.decode("utf-8")


async def test_forget_me_leaves_no_trace_and_keeps_the_others_results(
    storage: Storage, privacy: PrivacyService, history: dict[str, int]
) -> None:
    assert _scan(storage.path, ZELDA, NAME)  # she is everywhere before
    alice_before = await storage.player_games(GUILD, ALICE)
    alice_ratings = await storage.rating_lines(GUILD, ALICE)
    counts = await privacy.forget(ZELDA)
    assert counts["result_players"] == 2 and counts["games"] == 2
    assert _scan(storage.path, ZELDA, NAME) == []
    assert await privacy.export(ZELDA) == {**(await privacy.export(ZELDA))}
    assert all(not rows for rows in (await privacy.export(ZELDA))["tables"].values())
    alice_after = await storage.player_games(GUILD, ALICE)
    assert [g.player for g in alice_after] == [g.player for g in alice_before]
    assert await storage.rating_lines(GUILD, ALICE) == alice_ratings
    played = await storage.load_result(history["played"])
    assert played is not None
    anonymous = next(p for p in played.players if p.side == 0)
    assert (anonymous.kind, anonymous.user_id, anonymous.display_name) == ("anonymous", None, None)
    assert anonymous.outcome in ("win", "loss")  # the game's facts stay for Alice
    lobby = await storage.load_invitation(history["lobby"])
    assert lobby.user_ids() == (ALICE,) and set(lobby.options["names"]) == {str(ALICE)}
    assert await storage.load_game(history["others"])  # a game without her is kept


async def test_forget_me_waits_for_a_live_game(
    games: GameService, privacy: PrivacyService, clock: FakeClock
) -> None:
    game_id = await start(
        games,
        [
            Player(seat=0, side=0, display_name=NAME, user_id=ZELDA),
            Player(seat=1, side=1, display_name="A", user_id=ALICE),
        ],
        mode="regn",
    )
    with pytest.raises(UserFacingError) as refused:
        await privacy.forget(ZELDA)
    assert refused.value.key == "privacy.forget.live_game"
    await games.stop(game_id, ZELDA)
    await privacy.forget(ZELDA)  # records the stopped game first, then forgets


async def test_retention_purges_move_logs_then_results(
    storage: Storage, privacy: PrivacyService, clock: FakeClock, history: dict[str, int]
) -> None:
    await storage.expire_invitations(clock.now_ms() + 11 * 60_000)  # both expire
    clock.advance(31 * DAY_MS / 1000)
    counts = await privacy.purge_old()
    assert counts["games"] == 3 and counts["results"] == 0 and counts["invitations"] == 2
    assert counts["board_totals"] > 0  # last month's weekly totals
    assert await storage.load_result(history["played"]) is not None
    assert await storage.player_games(GUILD, ALICE)
    clock.advance(730 * DAY_MS / 1000)
    counts = await privacy.purge_old()
    assert counts["results"] == 3
    assert await storage.player_games(GUILD, ALICE) == []
    from storage import BoardQuery

    assert (await storage.board(BoardQuery(GUILD, "all", sort="wins"))).total == 0
    assert await storage.rating_lines(GUILD, ALICE)  # ratings stay


async def test_forget_guild(
    storage: Storage, privacy: PrivacyService, history: dict[str, int]
) -> None:
    await privacy.forget_guild(GUILD)
    assert _scan(storage.path, ZELDA, NAME, "Alice") == []


async def test_retention_follows_the_operators_days(
    storage: Storage, clock: FakeClock, results: ResultsService, history: dict[str, int]
) -> None:
    """GAME_LOG_DAYS and RESULT_DAYS (PRIVACY.md, "How long"): a school that keeps move logs a
    week and results 60 days has them deleted then, not at the defaults."""
    privacy = PrivacyService(storage, clock, results, Retention(game_log_days=7, result_days=60))
    clock.advance(6 * DAY_MS / 1000)
    assert (await privacy.purge_old())["games"] == 0
    clock.advance(2 * DAY_MS / 1000)
    assert (await privacy.purge_old())["games"] == 3
    assert (await privacy.purge_old())["results"] == 0
    clock.advance(53 * DAY_MS / 1000)
    assert (await privacy.purge_old())["results"] == 3
    assert await storage.load_result(history["played"]) is None


async def test_my_data_leaves_out_a_live_games_seed_and_card_orders(
    games: GameService, privacy: PrivacyService, clock: FakeClock, storage: Storage
) -> None:
    """No client receives what its side may not see: a live game's seed (and the card orders chance
    gave), fed to `python -m engine.replay`, would print every card still to come for both sides. A
    live game's export leaves them out; a finished game's record stays whole (RULES §1.6: it replays
    from its seed)."""
    zelda = Player(seat=0, side=0, display_name=NAME, user_id=ZELDA)
    alice = Player(seat=1, side=1, display_name="Alice", user_id=ALICE)
    live = await start(games, [zelda, alice], seed=9)
    game = games.live(live)
    while not any(
        e["type"] == "reshuffle" for s in (await storage.load_game(live)).events for e in s.events
    ):  # until a pile has been shuffled: a chance outcome
        clock.advance(1)
        await games.choose(live, ZELDA, None, FLIP_CHOICE)
    assert not game.is_finished
    finished = await auto_game(games, clock, [zelda, alice], seed=4, channel_id=12)

    tables = (await privacy.export(ZELDA))["tables"]
    by_id = {row["id"]: row for row in tables["games"]}
    assert by_id[live]["seed"] == WITHHELD and by_id[finished]["seed"] == 4
    shown = [e for row in tables["game_events"] if row["game_id"] == live for e in row["events"]]
    chance = [e for e in shown if e["type"] in ("dealt", "reshuffle", "endgame_shuffle")]
    assert chance and all(WITHHELD in (e.get("order"), e.get("piles")) for e in chance), chance
    kept = [e for row in tables["game_events"] if row["game_id"] == finished for e in row["events"]]
    assert any(isinstance(e.get("order"), list) for e in kept if e["type"] == "reshuffle")
