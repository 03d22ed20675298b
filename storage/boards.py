"""Boards: one page of a ranking, with competition ranks, from the running totals; the
players' ratings and names; members who left (kept off the boards)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from storage.records import (
    ALL_GAMES,
    ALL_TIME,
    BoardPage,
    BoardQuery,
    BoardRow,
    RatingLine,
)
from storage.sql import Transactions, all_rows, one

# Per sort: which rows are ranked, their order, and "strictly better than the viewer" (ties
# share a rank). Totals sorts read board_totals AS t; the rating sort reads ratings AS r.
_TOTALS_SORTS = {
    "wins": (
        "t.games > 0",
        "t.wins DESC, t.games ASC, t.user_id",
        "(t.wins > :k1 OR (t.wins = :k1 AND t.games < :k2))",
        ("wins", "games"),
    ),
    "win_rate": (
        "t.win_rate IS NOT NULL",
        "t.win_rate DESC, t.games DESC, t.user_id",
        "(t.win_rate > :k1 OR (t.win_rate = :k1 AND t.games > :k2))",
        ("win_rate", "games"),
    ),
    "accuracy": (
        "t.accuracy IS NOT NULL",
        "t.accuracy DESC, t.answers DESC, t.user_id",
        "(t.accuracy > :k1 OR (t.accuracy = :k1 AND t.answers > :k2))",
        ("accuracy", "answers"),
    ),
    "effort": (
        "t.answers > 0",
        "t.answers DESC, t.games DESC, t.user_id",
        "(t.answers > :k1 OR (t.answers = :k1 AND t.games > :k2))",
        ("answers", "games"),
    ),
}
_RATING_BETTER = "(r.rating > :k1 OR (r.rating = :k1 AND r.games > :k2))"


@dataclass(frozen=True, slots=True)
class _Ranking:
    """How SQL orders and ranks a board: its ORDER BY, "strictly better than" a key, and
    the key's columns."""

    order: str
    better: str
    keys: tuple[str, ...]


_NOT_DEPARTED = (
    "NOT EXISTS (SELECT 1 FROM departed_members AS d"
    " WHERE d.guild_id = :guild AND d.user_id = {alias}.user_id)"
)


class BoardStorage(Transactions):
    """Boards, ratings, names and departed members."""

    async def board(self, query: BoardQuery, viewer_id: int | None = None) -> BoardPage:
        """One page of a board, the number of players ranked on it and the viewer's row.

        Ranks are competition ranks (1, 2, 2, 4): players equal on the sort key and its
        tie-break share a rank. Departed members are left out and do not take up ranks.
        """
        sql_from, where, params, ranking = _board_sql(query)
        select = (
            f"SELECT {keys_alias(query)}.user_id AS user_id, t.games AS games, t.wins AS wins,"
            " t.draws AS draws, t.answers AS answers, t.correct AS correct, t.win_rate AS win_rate,"
            " t.accuracy AS accuracy, n.display_name AS display_name, "
            + (
                "NULL AS rating, NULL AS rated_games, NULL AS improvement"  # exact, later
                if ranking is None
                else "r.rating AS rating, r.games AS rated_games, NULL AS improvement"
            )
        )

        def _tx(conn: sqlite3.Connection) -> BoardPage:
            if ranking is None:
                return _board_from_keys(conn, query, viewer_id, select, sql_from, where, params)
            page = all_rows(
                conn,
                f"{select} {sql_from} WHERE {where} ORDER BY {ranking.order}"
                " LIMIT :limit OFFSET :offset",
                {**params, "limit": query.limit, "offset": query.offset},
            )
            total_row = one(conn, f"SELECT count(*) {sql_from} WHERE {where}", params)
            total = int(total_row[0]) if total_row else 0
            rows: list[BoardRow] = []
            previous: tuple[Any, ...] | None = None
            for index, row in enumerate(page):
                key = tuple(row[k] for k in ranking.keys)
                if previous is not None and key == previous:
                    rank = rows[-1].rank
                elif index == 0:
                    rank = _rank(conn, sql_from, where, ranking.better, key, params)
                else:
                    rank = query.offset + index + 1
                previous = key
                rows.append(_board_row(row, rank))
            own: BoardRow | None = None
            if viewer_id is not None:
                mine = one(
                    conn,
                    f"{select} {sql_from} WHERE {where} AND {keys_alias(query)}.user_id = :viewer",
                    {**params, "viewer": viewer_id},
                )
                if mine is not None:
                    key = tuple(mine[k] for k in ranking.keys)
                    better = ranking.better
                    own = _board_row(mine, _rank(conn, sql_from, where, better, key, params))
            return BoardPage(tuple(rows), total, own)

        return await self._read(_tx)

    async def rating_lines(
        self, guild_id: int, user_id: int, *, trend: int = 10
    ) -> list[RatingLine]:
        """The player's ratings in this server (every game and scope) with their last
        ``trend`` changes, oldest first."""

        def _tx(conn: sqlite3.Connection) -> list[RatingLine]:
            rows = all_rows(
                conn,
                "SELECT scope, game, rating, games FROM ratings"
                " WHERE guild_id = ? AND user_id = ? ORDER BY game, scope",
                (guild_id, user_id),
            )
            lines = []
            for r in rows:
                deltas = all_rows(
                    conn,
                    "SELECT delta FROM rating_changes WHERE user_id = ? AND guild_id = ?"
                    " AND game = ? AND scope = ? ORDER BY at DESC, game_id DESC LIMIT ?",
                    (user_id, guild_id, r["game"], r["scope"], trend),
                )
                lines.append(
                    RatingLine(
                        r["game"],
                        r["scope"],
                        r["rating"],
                        r["games"],
                        tuple(d[0] for d in deltas)[::-1],
                    )
                )
            return lines

        return await self._read(_tx)

    async def player_names(self, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
        """The names players had when they last played here."""
        ids = list(user_ids)
        if not ids:
            return {}

        def _tx(conn: sqlite3.Connection) -> dict[int, str]:
            rows = all_rows(
                conn,
                "SELECT user_id, display_name FROM player_names WHERE guild_id = ?"
                f" AND user_id IN ({', '.join('?' * len(ids))})",
                (guild_id, *ids),
            )
            return {r[0]: r[1] for r in rows}

        return await self._read(_tx)

    # ----------------------------------------------------------------- members

    async def mark_departed(self, guild_id: int, user_ids: Iterable[int], at: int) -> None:
        """Keep members who left the server off its boards (until they play there again)."""

        def _tx(conn: sqlite3.Connection) -> None:
            conn.executemany(
                "INSERT INTO departed_members (guild_id, user_id, at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                [(guild_id, u, at) for u in user_ids],
            )

        await self._write(_tx)

    async def mark_present(self, guild_id: int, user_ids: Iterable[int]) -> None:
        """Undo `mark_departed` (the member is back, or the look-up was wrong)."""

        def _tx(conn: sqlite3.Connection) -> None:
            conn.executemany(
                "DELETE FROM departed_members WHERE guild_id = ? AND user_id = ?",
                [(guild_id, u) for u in user_ids],
            )

        await self._write(_tx)

    async def departed(self, guild_id: int) -> set[int]:
        def _tx(conn: sqlite3.Connection) -> set[int]:
            rows = all_rows(
                conn, "SELECT user_id FROM departed_members WHERE guild_id = ?", (guild_id,)
            )
            return {r[0] for r in rows}

        return await self._read(_tx)


def keys_alias(query: BoardQuery) -> str:
    return "r" if query.sort == "rating" else "t"


def _board_sql(query: BoardQuery) -> tuple[str, str, dict[str, Any], _Ranking | None]:
    """FROM, WHERE, the parameters and SQL's ranking of a board. "improved" has none: its
    gain is a difference of two shares, ordered and ranked exactly in Python
    (`_board_from_keys`), never as SQL's REAL."""
    params: dict[str, Any] = {
        "guild": query.guild_id,
        "scope": query.scope,
        "game": query.game,
        "level": query.level,
        "rscope": query.rating_scope or ALL_TIME,
    }
    names = " LEFT JOIN player_names AS n ON n.guild_id = :guild AND n.user_id = {alias}.user_id"
    if query.sort == "rating":
        if query.game == ALL_GAMES:
            raise ValueError("a rating board is for one game")
        sql_from = (
            "FROM ratings AS r LEFT JOIN board_totals AS t ON t.guild_id = :guild"
            " AND t.scope = :scope AND t.game = :game AND t.level = :level"
            " AND t.user_id = r.user_id" + names.format(alias="r")
        )
        where = (
            "r.guild_id = :guild AND r.scope = :rscope AND r.game = :game AND r.games > 0"
            f" AND {_NOT_DEPARTED.format(alias='r')}"
        )
        if query.active_only:
            where += " AND t.games > 0"
        ranking = _Ranking(
            "r.rating DESC, r.games DESC, r.user_id", _RATING_BETTER, ("rating", "rated_games")
        )
        return sql_from, where, params, ranking
    if query.sort == "improved":
        # Accuracy in the period against the period before: both ranked (enough answers).
        params["prev"] = query.previous_scope or ""
        sql_from = (
            "FROM board_totals AS t JOIN board_totals AS p ON p.guild_id = :guild"
            " AND p.scope = :prev AND p.game = t.game AND p.level = t.level"
            " AND p.user_id = t.user_id" + names.format(alias="t")  # no rating on its rows
        )
        where = (
            "t.guild_id = :guild AND t.scope = :scope AND t.game = :game AND t.level = :level"
            " AND t.accuracy IS NOT NULL AND p.accuracy IS NOT NULL"
            f" AND {_NOT_DEPARTED.format(alias='t')}"
        )
        return sql_from, where, params, None
    ranked, order, better, keys = _TOTALS_SORTS[query.sort]
    sql_from = (
        "FROM board_totals AS t LEFT JOIN ratings AS r ON r.guild_id = :guild"
        " AND r.scope = :rscope AND r.game = t.game AND r.user_id = t.user_id"
        + names.format(alias="t")
    )
    where = (
        "t.guild_id = :guild AND t.scope = :scope AND t.game = :game AND t.level = :level"
        f" AND {ranked} AND {_NOT_DEPARTED.format(alias='t')}"
    )
    return sql_from, where, params, _Ranking(order, better, keys)


def _board_from_keys(
    conn: sqlite3.Connection,
    query: BoardQuery,
    viewer_id: int | None,
    select: str,
    sql_from: str,
    where: str,
    params: dict[str, Any],
) -> BoardPage:
    """A board whose key is computed ("improved": this period's accuracy minus the one
    before, a join no index can order): every ranked player's key is read in one pass, and
    the count, the page and the ranks come from that list, where the other boards make four
    passes (page, count, first rank, own rank) over an index. Same ranks: competition ranks
    over the same ORDER BY, ties (equal gain and answers) sharing the first one's."""
    # The gain is taken exactly from the counts, not as a difference of SQL's REAL shares:
    # 20/30 − 10/24 and 15/20 − 10/20 are both 1/4, but the first is 0.24999999999999994 in
    # floats, so equal gains would be ranked apart and the tie rule broken.
    counted = all_rows(
        conn,
        "SELECT t.user_id AS user_id, t.correct AS now_right, t.answers AS now_answers,"
        f" p.correct AS then_right, p.answers AS then_answers {sql_from} WHERE {where}",
        params,
    )
    gains = {row["user_id"]: _gain(row) for row in counted}
    keys = {uid: _gain_key(*gain) for uid, gain in gains.items()}
    keyed = sorted(counted, key=lambda r: (-keys[r["user_id"]], -r["now_answers"], r["user_id"]))
    ranks: dict[int, int] = {}
    previous: tuple[int, int] | None = None
    rank = 0
    for index, row in enumerate(keyed):
        key = (keys[row["user_id"]], row["now_answers"])
        if key != previous:
            rank, previous = index + 1, key
        ranks[row["user_id"]] = rank
    shown = [r["user_id"] for r in keyed[query.offset : query.offset + query.limit]]
    wanted = [*shown, *([viewer_id] if viewer_id in ranks else [])]
    found: dict[int, sqlite3.Row] = {}
    if wanted:
        marks = ", ".join(f":u{i}" for i in range(len(wanted)))
        for row in all_rows(
            conn,
            f"{select} {sql_from} WHERE {where} AND t.user_id IN ({marks})",
            {**params, **{f"u{i}": uid for i, uid in enumerate(wanted)}},
        ):
            found[row["user_id"]] = row

    def exact(uid: int) -> BoardRow:
        numerator, denominator = gains[uid]
        # int / int is correctly rounded: the exact gain's nearest float
        improvement = numerator / denominator
        return replace(_board_row(found[uid], ranks[uid]), improvement=improvement)

    rows = tuple(exact(uid) for uid in shown)
    own = exact(viewer_id) if viewer_id is not None and viewer_id in ranks else None
    return BoardPage(rows, len(keyed), own)


GAIN_BITS = 128  # exact while every share's answers stay below 2**30 (a billion)


def _gain(row: sqlite3.Row) -> tuple[int, int]:
    """now_right/now_answers − then_right/then_answers as (numerator, denominator)."""
    numerator = row["now_right"] * row["then_answers"] - row["then_right"] * row["now_answers"]
    return numerator, row["now_answers"] * row["then_answers"]


def _gain_key(numerator: int, denominator: int) -> int:
    """floor(gain · 2**128): an integer that orders and ties exactly like the fraction, at
    the cost of an integer sort (Fractions compared in Python make the season board several
    times slower on `python -m benchmarks.leaderboard`'s largest server).
    Two different gains with denominators below 2**60 differ by more than 2**-120, so their
    keys lie more than 2**8 apart; equal gains have equal keys."""
    return (numerator << GAIN_BITS) // denominator


def _rank(
    conn: sqlite3.Connection,
    sql_from: str,
    where: str,
    better: str,
    key: tuple[Any, ...],
    params: dict[str, Any],
) -> int:
    row = one(
        conn,
        f"SELECT count(*) {sql_from} WHERE {where} AND {better}",
        {**params, "k1": key[0], "k2": key[1]},
    )
    return 1 + (int(row[0]) if row else 0)


def _board_row(row: sqlite3.Row, rank: int) -> BoardRow:
    return BoardRow(
        rank=rank,
        user_id=row["user_id"],
        display_name=row["display_name"],
        games=row["games"] or 0,
        wins=row["wins"] or 0,
        draws=row["draws"] or 0,
        answers=row["answers"] or 0,
        correct=row["correct"] or 0,
        rating=row["rating"],
        rated_games=row["rated_games"] or 0,
        improvement=row["improvement"],
    )
