"""Results and ratings: a finished game's result, its rating changes and its board totals,
stored together.

Why running totals (``board_totals``) instead of aggregating ``result_players`` per request:
a board over a million results must answer in milliseconds, and a server can hold tens of
thousands of results. Every recorded result adds its numbers to a handful of
(scope, game, level) rows per player, in the same transaction as the result itself; a void
subtracts them again. A board is then one index range scan, however many results exist.

Storage decides nothing about ratings: `record_result` reads the current ratings and the
pair counts, hands them to the caller's ``rate`` function (the Elo rules live in
``bot.services.ratings``) and writes what it returns, all in one transaction, so two games
ending at once cannot both read the same old rating.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from itertools import product
from typing import Any

from storage.contract import Rater
from storage.records import (
    ALL_GAMES,
    ALL_LEVELS,
    ALL_TIME,
    GameResult,
    OperationTally,
    PlayerGame,
    season_scope,
    week_scope,
)
from storage.result_rows import (
    PLAYER_FIELDS,
    RESULT_FIELDS,
    insert_result,
    player_of,
    players_of,
    result_of,
    tally_of,
)
from storage.seasons import running_season
from storage.sql import Transactions, all_rows, one


class ResultStorage(Transactions):
    """Results, ratings and each player's history of results."""

    async def record_result(self, result: GameResult, *, at: int, rate: Rater) -> GameResult | None:
        """Store a finished game's result, its rating changes and its board totals together.

        Idempotent: returns None (and changes nothing) when the game already has a result,
        even a voided one. The result goes into the server's current season (season 1 is
        started by the first result). Returns the result as stored (season and rating set).
        """

        def _tx(conn: sqlite3.Connection) -> GameResult | None:
            stored = result
            if one(conn, "SELECT 1 FROM results WHERE game_id = ?", (stored.game_id,)):
                return None
            season = running_season(conn, stored.guild_id, at, create=True)
            assert season is not None
            scopes = (ALL_TIME, season_scope(season.season))
            stored = replace(stored, season=season.season, recorded_at=at)
            users = stored.user_ids()
            ratings = _ratings_of(conn, stored.guild_id, stored.game, scopes, users)
            pairs = _pair_counts(conn, stored)
            plan = rate(stored, ratings, pairs)
            stored = replace(stored, rated=plan.rated, unrated=plan.unrated)
            insert_result(conn, stored)
            for change in plan.changes:
                conn.execute(
                    "INSERT INTO ratings (guild_id, scope, game, user_id, rating, games,"
                    " updated_at) VALUES (?, ?, ?, ?, ?, 1, ?)"
                    " ON CONFLICT (guild_id, scope, game, user_id) DO UPDATE SET"
                    " rating = excluded.rating, games = ratings.games + 1,"
                    " updated_at = excluded.updated_at",
                    (stored.guild_id, change.scope, stored.game, change.user_id, change.after, at),
                )
                conn.execute(
                    "INSERT INTO rating_changes (game_id, user_id, scope, guild_id, game, before,"
                    " delta, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        stored.game_id,
                        change.user_id,
                        change.scope,
                        stored.guild_id,
                        stored.game,
                        change.before,
                        change.delta,
                        stored.ended_at,
                    ),
                )
            _add_totals(conn, stored, +1)
            named = [p for p in stored.players if p.user_id is not None and p.display_name]
            conn.executemany(
                "INSERT INTO player_names (guild_id, user_id, display_name, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
                " display_name = excluded.display_name, updated_at = excluded.updated_at"
                " WHERE excluded.updated_at >= player_names.updated_at",
                [(stored.guild_id, p.user_id, p.display_name, stored.ended_at) for p in named],
            )
            conn.executemany(
                "DELETE FROM departed_members WHERE guild_id = ? AND user_id = ?",
                [(stored.guild_id, u) for u in users],
            )
            return stored

        return await self._write(_tx)

    async def load_result(self, game_id: int) -> GameResult | None:
        """The stored result with every seat (a voided one too, with its `voided_at`)."""

        def _tx(conn: sqlite3.Connection) -> GameResult | None:
            row = one(
                conn, f"SELECT {RESULT_FIELDS} FROM results AS r WHERE r.game_id = ?", (game_id,)
            )
            if row is None:
                return None
            players = players_of(conn, [game_id])
            return result_of(row, players[game_id])

        return await self._read(_tx)

    async def void_result(self, guild_id: int, game_id: int, at: int) -> GameResult | None:
        """Remove a result from the boards and subtract exactly the rating change it made.

        The results row stays, marked voided, so recording the game again is still a no-op;
        its rating changes are deleted. Its players and operations stay: they are every
        pupil's practice (answers, best moves, mistakes, assignment progress), which a void
        does not take back. Returns the result as it was, or None when the server has no
        such (unvoided) result.
        """

        def _tx(conn: sqlite3.Connection) -> GameResult | None:
            row = one(
                conn,
                f"SELECT {RESULT_FIELDS} FROM results AS r"
                " WHERE r.game_id = ? AND r.guild_id = ? AND r.voided_at IS NULL",
                (game_id, guild_id),
            )
            if row is None:
                return None
            result = result_of(row, (players_of(conn, [game_id]))[game_id])
            remove_result(conn, result, reverse_ratings=True, keep_players=True)
            conn.execute(
                "UPDATE results SET voided_at = ?, rated = 0, unrated = 'voided' WHERE game_id = ?",
                (at, game_id),
            )
            return result

        return await self._write(_tx)

    async def unrecorded_games(self, limit: int = 100) -> list[int]:
        """Games ended by the rules in a server with no result yet (a crash between the end
        and the record). Stopped and abandoned games have no result (RULES §1.5)."""

        def _tx(conn: sqlite3.Connection) -> list[int]:
            rows = all_rows(
                conn,
                "SELECT g.id FROM games AS g WHERE g.status = 'over' AND g.guild_id IS NOT NULL"
                " AND NOT EXISTS (SELECT 1 FROM results AS r WHERE r.game_id = g.id)"
                " ORDER BY g.id LIMIT ?",
                (limit,),
            )
            return [r[0] for r in rows]

        return await self._read(_tx)

    async def player_games(self, guild_id: int, user_id: int) -> list[PlayerGame]:
        """Every result of the player in this server, oldest first. A voided one is there too
        (its `voided_at` set): it no longer counts as a result, but its answers are practice."""
        return await self._player_games(
            "p.user_id = :user AND r.guild_id = :guild", {"user": user_id, "guild": guild_id}
        )

    async def guild_player_games(self, guild_id: int) -> list[PlayerGame]:
        """Every player's results in this server (computer seats left out), in order; voided
        ones included, as in `player_games`."""
        return await self._player_games(
            "r.guild_id = :guild AND p.user_id IS NOT NULL", {"guild": guild_id}
        )

    async def _player_games(self, where: str, params: dict[str, Any]) -> list[PlayerGame]:
        def _tx(conn: sqlite3.Connection) -> list[PlayerGame]:
            rows = all_rows(
                conn,
                f"SELECT {RESULT_FIELDS}, {PLAYER_FIELDS} FROM result_players AS p"
                " JOIN results AS r ON r.game_id = p.game_id"
                f" WHERE {where} ORDER BY r.ended_at, r.game_id, p.seat",
                params,
            )
            ops = all_rows(
                conn,
                "SELECT o.* FROM result_operations AS o"
                " JOIN result_players AS p ON p.game_id = o.game_id AND p.seat = o.seat"
                f" JOIN results AS r ON r.game_id = p.game_id WHERE {where}",
                params,
            )
            by_seat: defaultdict[tuple[int, int], list[OperationTally]] = defaultdict(list)
            for o in ops:
                by_seat[(o["game_id"], o["seat"])].append(tally_of(o))
            games = []
            for row in rows:
                player = player_of(row, "p_", by_seat[(row["p_game_id"], row["p_seat"])])
                games.append(PlayerGame(result_of(row, (player,), prefix="r_"), player))
            return games

        return await self._read(_tx)


def _ratings_of(
    conn: sqlite3.Connection,
    guild_id: int,
    game: str,
    scopes: Sequence[str],
    users: Sequence[int],
) -> dict[tuple[str, int], int]:
    if not users:
        return {}
    rows = all_rows(
        conn,
        "SELECT scope, user_id, rating FROM ratings WHERE guild_id = ? AND game = ?"
        f" AND scope IN ({', '.join('?' * len(scopes))})"
        f" AND user_id IN ({', '.join('?' * len(users))})",
        (guild_id, game, *scopes, *users),
    )
    return {(r["scope"], r["user_id"]): r["rating"] for r in rows}


def _pair_counts(conn: sqlite3.Connection, result: GameResult) -> dict[frozenset[int], int]:
    """Rated games already played today in this server and game by each pair of users on
    opposite sides of ``result``."""
    counts: dict[frozenset[int], int] = {}
    humans = [p for p in result.players if p.user_id is not None]
    for a, b in product(humans, humans):
        if a.side >= b.side or a.user_id is None or b.user_id is None:
            continue
        pair = frozenset((a.user_id, b.user_id))
        if pair in counts:
            continue
        row = one(
            conn,
            "SELECT count(*) FROM results AS r"
            " JOIN result_players AS a ON a.game_id = r.game_id AND a.user_id = ?"
            " JOIN result_players AS b ON b.game_id = r.game_id AND b.user_id = ?"
            " WHERE r.guild_id = ? AND r.game = ? AND r.day = ? AND r.rated = 1"
            " AND a.side <> b.side",
            (a.user_id, b.user_id, result.guild_id, result.game, result.day),
        )
        counts[pair] = int(row[0]) if row else 0
    return counts


def _total_rows(result: GameResult, sign: int) -> list[tuple[Any, ...]]:
    """What the result adds to (sign +1) or takes from (-1) the board totals: rated games count
    as games, wins and draws (the competition), and so do games between classmates that luck
    decides (unrated "luck": they count, they only move no rating); answers count from every
    game (practice)."""
    scopes = (ALL_TIME, season_scope(result.season), week_scope(result.week))
    keys = list(product(scopes, (result.game, ALL_GAMES), (result.level, ALL_LEVELS)))
    rows = []
    for p in result.players:
        if p.user_id is None:
            continue
        counted = result.rated or result.unrated == "luck"
        games = 1 if counted else 0
        wins = 1 if counted and p.outcome == "win" else 0
        draws = 1 if counted and p.outcome == "draw" else 0
        if not games and not p.answers:
            continue
        for scope, game, level in keys:
            rows.append(
                (
                    result.guild_id,
                    scope,
                    game,
                    level,
                    p.user_id,
                    sign * games,
                    sign * wins,
                    sign * draws,
                    sign * p.answers,
                    sign * p.correct,
                    result.ended_at,
                )
            )
    return rows


def _add_totals(conn: sqlite3.Connection, result: GameResult, sign: int) -> None:
    rows = _total_rows(result, sign)
    conn.executemany(
        "INSERT INTO board_totals (guild_id, scope, game, level, user_id, games, wins, draws,"
        " answers, correct, last_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, scope, game, level, user_id) DO UPDATE SET"
        " games = board_totals.games + excluded.games,"
        " wins = board_totals.wins + excluded.wins,"
        " draws = board_totals.draws + excluded.draws,"
        " answers = board_totals.answers + excluded.answers,"
        " correct = board_totals.correct + excluded.correct,"
        " last_at = greatest(board_totals.last_at, excluded.last_at)",
        rows,
    )
    if sign < 0:
        conn.executemany(
            "DELETE FROM board_totals WHERE guild_id = ? AND scope = ? AND game = ?"
            " AND level = ? AND user_id = ? AND games <= 0 AND answers <= 0",
            [row[:5] for row in rows],
        )


def remove_result(
    conn: sqlite3.Connection,
    result: GameResult,
    *,
    reverse_ratings: bool,
    keep_players: bool = False,
) -> None:
    """Take a result off the boards (and, for a void, out of the ratings): the shared half of
    `void_result` and retention's purge. A void keeps the players' rows (`keep_players`)."""
    if reverse_ratings:
        changes = all_rows(
            conn,
            "SELECT user_id, scope, delta FROM rating_changes WHERE game_id = ?",
            (result.game_id,),
        )
        for c in changes:
            conn.execute(
                "UPDATE ratings SET rating = rating - ?, games = games - 1"
                " WHERE guild_id = ? AND scope = ? AND game = ? AND user_id = ?",
                (c["delta"], result.guild_id, c["scope"], result.game, c["user_id"]),
            )
        conn.execute(
            "DELETE FROM ratings WHERE guild_id = ? AND game = ? AND games <= 0",
            (result.guild_id, result.game),
        )
    _add_totals(conn, result, -1)
    conn.execute("DELETE FROM rating_changes WHERE game_id = ?", (result.game_id,))
    if not keep_players:
        conn.execute("DELETE FROM result_players WHERE game_id = ?", (result.game_id,))
