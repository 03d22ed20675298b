"""How a result is stored as rows (results, result_players, result_operations) and read
back: shared by results, boards' player histories and privacy's purge."""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import fields

from storage.records import (
    GameResult,
    OperationTally,
    PlayerResult,
    mistake_counts,
)
from storage.sql import all_rows

_RESULT_COLUMNS = (
    "game_id",
    "guild_id",
    "channel_id",
    "game",
    "level",
    "deck",
    "mode",
    "sides",
    "teams",
    "computer",
    "winner",
    "reason",
    "rounds",
    "started_at",
    "ended_at",
    "duration_ms",
    "season",
    "day",
    "week",
    "rated",
    "unrated",
    "recorded_at",
    "voided_at",
)
_PLAYER_COLUMNS = (
    "game_id",
    "seat",
    "side",
    "team",
    "kind",
    "user_id",
    "computer",
    "display_name",
    "outcome",
    "cards_end",
    "rounds_won",
    "wars_won",
    "exact_hits",
    "answers",
    "correct",
    "best",
    "missed",
    "answer_ms",
)
RESULT_FIELDS = ", ".join(f"r.{c} AS r_{c}" for c in _RESULT_COLUMNS)
PLAYER_FIELDS = ", ".join(f"p.{c} AS p_{c}" for c in _PLAYER_COLUMNS)


def insert_result(conn: sqlite3.Connection, result: GameResult) -> None:
    conn.execute(
        f"INSERT INTO results ({', '.join(_RESULT_COLUMNS)})"
        f" VALUES ({', '.join('?' * len(_RESULT_COLUMNS))})",
        (
            result.game_id,
            result.guild_id,
            result.channel_id,
            result.game,
            result.level,
            result.deck,
            result.mode,
            result.sides,
            int(result.teams),
            int(result.computer),
            result.winner,
            result.reason,
            result.rounds,
            result.started_at,
            result.ended_at,
            result.duration_ms,
            result.season,
            result.day,
            result.week,
            int(result.rated),
            result.unrated,
            result.recorded_at,
            result.voided_at,
        ),
    )
    conn.executemany(
        f"INSERT INTO result_players ({', '.join(_PLAYER_COLUMNS)})"
        f" VALUES ({', '.join('?' * len(_PLAYER_COLUMNS))})",
        [
            (
                result.game_id,
                p.seat,
                p.side,
                p.team,
                p.kind,
                p.user_id,
                p.computer,
                p.display_name,
                p.outcome,
                p.cards_end,
                p.rounds_won,
                p.wars_won,
                p.exact_hits,
                p.answers,
                p.correct,
                p.best,
                p.missed,
                p.answer_ms,
            )
            for p in result.players
        ],
    )
    conn.executemany(
        "INSERT INTO result_operations (game_id, seat, op, answers, correct, best, answer_ms,"
        " mistakes, times) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                result.game_id,
                p.seat,
                o.op,
                o.answers,
                o.correct,
                o.best,
                o.answer_ms,
                json.dumps(dict(o.mistakes)),
                json.dumps(list(o.times)),
            )
            for p in result.players
            for o in p.operations
        ],
    )


def players_of(
    conn: sqlite3.Connection, game_ids: Sequence[int]
) -> defaultdict[int, tuple[PlayerResult, ...]]:
    found: defaultdict[int, list[PlayerResult]] = defaultdict(list)
    if game_ids:
        marks = ", ".join("?" * len(game_ids))
        ops = all_rows(
            conn,
            f"SELECT * FROM result_operations WHERE game_id IN ({marks}) ORDER BY op",
            tuple(game_ids),
        )
        by_seat: defaultdict[tuple[int, int], list[OperationTally]] = defaultdict(list)
        for o in ops:
            by_seat[(o["game_id"], o["seat"])].append(tally_of(o))
        rows = all_rows(
            conn,
            f"SELECT * FROM result_players WHERE game_id IN ({marks}) ORDER BY game_id, seat",
            tuple(game_ids),
        )
        for r in rows:
            found[r["game_id"]].append(player_of(r, "", by_seat[(r["game_id"], r["seat"])]))
    return defaultdict(tuple, {k: tuple(v) for k, v in found.items()})


def tally_of(row: sqlite3.Row) -> OperationTally:
    return OperationTally(
        row["op"],
        row["answers"],
        row["correct"],
        row["best"],
        row["answer_ms"],
        mistakes=mistake_counts(json.loads(row["mistakes"])),
        times=tuple(json.loads(row["times"])),
    )


# A record's fields as the columns it is read from (the rest: its operations, its players)
_PLAYER_FIELDS = tuple(f.name for f in fields(PlayerResult) if f.name != "operations")
_GAME_FIELDS = tuple(f.name for f in fields(GameResult) if f.name != "players")
_FLAGS = ("teams", "computer", "rated")  # a game's yes/no columns, stored as 0 or 1


def player_of(row: sqlite3.Row, prefix: str, ops: Sequence[OperationTally]) -> PlayerResult:
    values = {name: row[prefix + name] for name in _PLAYER_FIELDS}
    return PlayerResult(**values, operations=tuple(sorted(ops, key=lambda o: o.op)))


def result_of(
    row: sqlite3.Row, players: Sequence[PlayerResult], *, prefix: str = "r_"
) -> GameResult:
    values = {name: row[prefix + name] for name in _GAME_FIELDS}
    values.update((flag, bool(values[flag])) for flag in _FLAGS)
    return GameResult(**values, players=tuple(players))
