"""Leaderboard speed over a million results: `python -m benchmarks.leaderboard`.

Why: a board (top 10, the caller's rank, the number of pages) must answer in ≤ 10 ms over
1,000,000 results, and recording a result must never hold up a board update.

What it does: fills a temporary SQLite file (the real schema, through `Storage.open`) with
`--results` player results (default 1,000,000: 500,000 two-player games) spread over 50
servers of very different sizes (a few big schools, many small classes; ~8,000 players),
three games, seven levels, two seasons and a year of weeks; builds the running totals and
ratings the way recording does; then times `Storage.board` — the call the leaderboard
service makes, i.e. the page, the count and the caller's rank together — for every sort ×
period, plus level-filtered and deep-page variants, on the biggest server. Each figure is
the median (and 95th percentile) of `--repeats` calls. It also prints SQLite's query plan
for each page query, and times recording one more game (the background write).

Never run by the tests. Options: `--results N`, `--repeats N` (default 200), `--keep PATH`
(keep the database), `--seed N`.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.services.ratings import plan
from classroom.periods import day_key, week_key
from storage import (
    ALL_GAMES,
    ALL_LEVELS,
    BOARD_SORTS,
    BoardQuery,
    GameResult,
    PlayerResult,
    Storage,
    season_scope,
    week_scope,
)
from storage.boards import _board_sql
from storage.records import PlayerOutcome

TARGET_MS = 10.0
GUILDS = 50
NOW = 1_767_225_600_000  # 2026-01-01
DAY = 86_400_000
SEASON_2_START = NOW - 120 * DAY
GAMES = (("regnekrig", 0.7), ("intervallkrig", 0.2), ("satsing", 0.1))


@dataclass(frozen=True, slots=True)
class Row:
    name: str
    median_ms: float
    p95_ms: float

    @property
    def verdict(self) -> str:
        return "ok" if self.median_ms <= TARGET_MS else "MISSED"


def fill(path: Path, results: int, seed: int) -> tuple[int, list[int]]:
    """Bulk-load results, players, totals and ratings; returns the biggest server and its
    players (most active first)."""
    rng = random.Random(seed)
    weights = [1 / (i + 1) ** 0.8 for i in range(GUILDS)]  # a few big schools, many classes
    total_weight = sum(weights)
    players_of = {
        g + 1: [(g + 1) * 100_000 + i for i in range(max(20, int(8_000 * w / total_weight)))]
        for g, w in enumerate(weights)
    }
    games = results // 2
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA journal_mode = WAL")
    result_rows, player_rows = [], []
    guild_ids = list(players_of)
    for game_id in range(1, games + 1):
        guild = rng.choices(guild_ids, weights)[0]
        roster = players_of[guild]
        a, b = rng.sample(roster[: max(2, int(len(roster) * rng.random()) + 1)], 2)  # skewed
        game = rng.choices([g for g, _ in GAMES], [w for _, w in GAMES])[0]
        level = rng.randint(1, 7) if game == "regnekrig" else 1
        ended = NOW - int(rng.random() ** 1.5 * 365 * DAY)
        season = 2 if ended >= SEASON_2_START else 1
        rated = int(rng.random() < 0.85)
        winner = rng.randint(0, 1)
        regn = game == "regnekrig" and rng.random() < 0.6
        result_rows.append(
            (
                game_id,
                guild,
                500,
                game,
                level,
                "heltall",
                "regn" if regn else "auto",
                2,
                0,
                0,
                winner,
                "all_cards",
                60,
                ended - 600_000,
                ended,
                600_000,
                season,
                day_key(ended),
                week_key(ended),
                rated,
                None if rated else "pair_cap",
                ended,
                None,
            )
        )
        for seat_no, user in enumerate((a, b)):
            answers = rng.randint(5, 30) if regn else 0
            correct = int(answers * rng.uniform(0.4, 1.0))
            player_rows.append(
                (
                    game_id,
                    seat_no,
                    seat_no,
                    None,
                    "user",
                    user,
                    None,
                    f"P{user}",
                    "win" if seat_no == winner else "loss",
                    52 if seat_no == winner else 0,
                    30,
                    2,
                    0,
                    answers,
                    correct,
                    correct // 2,
                    0,
                    answers * 4000,
                )
            )
        if len(player_rows) >= 200_000:
            _flush(conn, result_rows, player_rows)
    _flush(conn, result_rows, player_rows)
    conn.executemany(
        "INSERT INTO seasons (guild_id, season, started_at, ended_at) VALUES (?, ?, ?, ?)",
        [(g, 1, NOW - 400 * DAY, SEASON_2_START) for g in guild_ids]
        + [(g, 2, SEASON_2_START, None) for g in guild_ids],
    )
    _build_totals(conn)
    _build_ratings(conn, rng)
    conn.commit()
    conn.execute("ANALYZE")
    conn.close()
    biggest = guild_ids[0]
    return biggest, players_of[biggest]


def _flush(
    conn: sqlite3.Connection, results: list[tuple[Any, ...]], players: list[tuple[Any, ...]]
) -> None:
    conn.executemany(f"INSERT INTO results VALUES ({', '.join('?' * 23)})", results)
    conn.executemany(
        "INSERT INTO result_players (game_id, seat, side, team, kind, user_id, computer,"
        " display_name, outcome, cards_end, rounds_won, wars_won, exact_hits, answers, correct,"
        f" best, missed, answer_ms) VALUES ({', '.join('?' * 18)})",
        players,
    )
    results.clear()
    players.clear()


def _build_totals(conn: sqlite3.Connection) -> None:
    """The running totals `record_result` keeps, built in bulk with the same rules."""
    combos = (
        "SELECT 0 AS g, 0 AS l UNION ALL SELECT 0, 1 UNION ALL SELECT 1, 0 UNION ALL SELECT 1, 1"
    )
    for scope in ("'all'", "'s' || r.season", "'w' || r.week"):
        conn.execute(
            "INSERT INTO board_totals (guild_id, scope, game, level, user_id, games, wins, draws,"
            " answers, correct, last_at)"
            f" SELECT r.guild_id, {scope},"
            f" CASE WHEN x.g THEN r.game ELSE '{ALL_GAMES}' END,"
            f" CASE WHEN x.l THEN r.level ELSE {ALL_LEVELS} END, p.user_id,"
            " sum(r.rated), sum(r.rated AND p.outcome = 'win'),"
            " sum(r.rated AND p.outcome = 'draw'), sum(p.answers), sum(p.correct),"
            " max(r.ended_at)"
            f" FROM result_players AS p JOIN results AS r ON r.game_id = p.game_id"
            f" CROSS JOIN ({combos}) AS x"
            " WHERE p.user_id IS NOT NULL AND (r.rated = 1 OR p.answers > 0)"
            " GROUP BY 1, 2, 3, 4, 5"
        )


def _build_ratings(conn: sqlite3.Connection, rng: random.Random) -> None:
    rows = conn.execute(
        "SELECT guild_id, scope, game, user_id, games FROM board_totals"
        " WHERE (scope = 'all' OR scope LIKE 's%') AND game <> ? AND level = ? AND games > 0",
        (ALL_GAMES, ALL_LEVELS),
    ).fetchall()
    conn.executemany(
        "INSERT INTO ratings (guild_id, scope, game, user_id, rating, games, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(g, s, game, u, int(rng.gauss(1000, 120)), n, NOW) for g, s, game, u, n in rows],
    )


def variants(guild: int) -> list[tuple[str, BoardQuery]]:
    week, season = week_scope(week_key(NOW - DAY)), season_scope(2)
    out = []
    for period, scope, rating_scope in (
        ("week", week, season),
        ("season", season, season),
        ("all", "all", "all"),
    ):
        before = {"week": week_scope(week_key(NOW - 8 * DAY)), "season": season_scope(1)}
        for sort in BOARD_SORTS:
            if sort == "improved" and period not in before:
                continue  # "improved" compares a week or a season with the one before
            game = "regnekrig" if sort == "rating" else ALL_GAMES
            query = BoardQuery(
                guild,
                scope,
                game=game,
                sort=sort,
                rating_scope=rating_scope,
                active_only=sort == "rating" and period == "week",
                previous_scope=before.get(period) if sort == "improved" else None,
            )
            out.append((f"{sort:<8} {period:<6}", query))
    out.append(
        (
            "rating   season level 5",
            BoardQuery(
                guild, season, "regnekrig", 5, "rating", rating_scope=season, active_only=True
            ),
        )
    )
    out.append(("wins     all level 3", BoardQuery(guild, "all", "regnekrig", 3, "wins")))
    out.append(("wins     all page 20", BoardQuery(guild, "all", sort="wins", offset=200)))
    return out


async def measure(path: Path, guild: int, players: list[int], repeats: int) -> list[Row]:
    store = await Storage.open(path)
    rows = []
    try:
        rng = random.Random(1)
        for name, query in variants(guild):
            times = []
            for _ in range(repeats):
                viewer = rng.choice(players)
                start = time.perf_counter()
                await store.board(query, viewer)
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            rows.append(Row(name, statistics.median(times), times[int(len(times) * 0.95) - 1]))
        write = []
        for i in range(20):
            write.append(await _record_one(store, guild, players, 10_000_000 + i))
        rows.append(Row("record one game (write)", statistics.median(write), max(write)))
    finally:
        await store.close()
    return rows


async def _record_one(store: Storage, guild: int, players: list[int], game_id: int) -> float:
    a, b = players[0], players[1 + game_id % 10]
    outcomes: tuple[tuple[int, PlayerOutcome], ...] = ((a, "win"), (b, "loss"))
    seats = tuple(
        PlayerResult(seat=i, side=i, kind="user", display_name=f"P{u}", outcome=o, user_id=u)
        for i, (u, o) in enumerate(outcomes)
    )
    result = GameResult(
        game_id,
        guild,
        500,
        "regnekrig",
        1,
        "heltall",
        "regn",
        2,
        False,
        False,
        0,
        "all_cards",
        40,
        NOW - 1000,
        NOW,
        seats,
        day_key(NOW),
        week_key(NOW),
    )
    start = time.perf_counter()
    await store.record_result(result, at=NOW, rate=plan)
    return (time.perf_counter() - start) * 1000


def plans(path: Path, guild: int) -> list[tuple[str, list[str]]]:
    conn = sqlite3.connect(path)
    out = []
    try:
        for name, query in variants(guild):
            sql_from, where, params, ranking = _board_sql(query)
            # "improved" is read whole and ranked in Python: its plan is the one pass
            order = "" if ranking is None else f" ORDER BY {ranking.order} LIMIT 10"
            sql = f"SELECT 1 {sql_from} WHERE {where}{order}"
            steps = [r[3] for r in conn.execute(f"EXPLAIN QUERY PLAN {sql}", params)]
            out.append((name, steps))
    finally:
        conn.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    folder = tempfile.TemporaryDirectory()
    path = args.keep or Path(folder.name) / "board.db"
    asyncio.run(_create(path))
    start = time.perf_counter()
    guild, players = fill(path, args.results, args.seed)
    loaded = time.perf_counter() - start
    conn = sqlite3.connect(path)
    counts = {
        t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
        for t in ("results", "result_players", "board_totals", "ratings")
    }
    in_guild = conn.execute(
        "SELECT count(*) FROM result_players AS p JOIN results AS r ON r.game_id = p.game_id"
        " WHERE r.guild_id = ?",
        (guild,),
    ).fetchone()[0]
    conn.close()
    print(f"loaded in {loaded:.1f} s: {counts}")
    print(f"biggest server: {len(players)} players, {in_guild} of the results\n")
    rows = asyncio.run(measure(path, guild, players, args.repeats))
    print(f"{'variant':<26} {'median ms':>10} {'p95 ms':>8}  (target ≤ {TARGET_MS:g} ms)")
    for row in rows:
        print(f"{row.name:<26} {row.median_ms:>10.2f} {row.p95_ms:>8.2f}  {row.verdict}")
    print("\nquery plans (page query):")
    for name, steps in plans(path, guild):
        print(f"  {name}: " + " | ".join(steps))
    folder.cleanup()


async def _create(path: Path) -> None:
    store = await Storage.open(path)
    await store.close()


if __name__ == "__main__":
    main()
