"""Everything stored about one person, out (export) or gone (forget), and retention's purge.

`USER_COLUMNS` names every column that holds a Discord user id; a test
checks it against the live schema and against PRIVACY.md, so a new table that names a pupil
cannot be added without its export, its deletion and its line in the privacy notice.

Every forget is also recorded in ``forgotten`` as a keyed fingerprint of the id (never the
id itself), so that a backup restored later can be cleaned again (`reapply_forgotten`); and
a server the bot was removed from waits in ``departed_guilds`` for its grace period.
"""

from __future__ import annotations

import hmac
import json
import sqlite3
from collections.abc import Iterable
from typing import Any, TypeVar

from storage.classes import delete_again
from storage.errors import ConflictError
from storage.fingerprints import fingerprint, privacy_key, record
from storage.records import GameResult
from storage.result_rows import RESULT_FIELDS, players_of, result_of
from storage.results import remove_result
from storage.settings import SettingsStorage
from storage.sql import all_rows

T = TypeVar("T")

# table -> the columns in it that hold a Discord user id.
USER_COLUMNS: dict[str, tuple[str, ...]] = {
    "game_players": ("user_id",),
    "game_events": ("user_id",),
    "invitations": ("host_id",),
    "invitation_members": ("user_id",),
    "result_players": ("user_id",),
    "ratings": ("user_id",),
    "rating_changes": ("user_id",),
    "board_totals": ("user_id",),
    "player_names": ("user_id",),
    "departed_members": ("user_id",),
    "accommodations": ("user_id",),
    "practice_notes": ("user_id",),
}

# What my-data sends: every row naming the user, and the rows those rows belong to (the
# games they played, the results of those games, their answers per operation).
_EXPORT: tuple[tuple[str, str], ...] = (
    (
        "games",
        "SELECT * FROM games WHERE id IN (SELECT game_id FROM game_players WHERE user_id = :u)"
        " ORDER BY id",
    ),
    ("game_players", "SELECT * FROM game_players WHERE user_id = :u ORDER BY game_id"),
    ("game_events", "SELECT * FROM game_events WHERE user_id = :u ORDER BY game_id, seq"),
    (
        "invitations",
        "SELECT * FROM invitations WHERE host_id = :u OR id IN"
        " (SELECT invitation_id FROM invitation_members WHERE user_id = :u) ORDER BY id",
    ),
    (
        "invitation_members",
        "SELECT * FROM invitation_members WHERE user_id = :u ORDER BY invitation_id",
    ),
    (
        "results",
        "SELECT * FROM results WHERE game_id IN"
        " (SELECT game_id FROM result_players WHERE user_id = :u) ORDER BY game_id",
    ),
    ("result_players", "SELECT * FROM result_players WHERE user_id = :u ORDER BY game_id"),
    (
        "result_operations",
        "SELECT o.* FROM result_operations AS o JOIN result_players AS p"
        " ON p.game_id = o.game_id AND p.seat = o.seat WHERE p.user_id = :u"
        " ORDER BY o.game_id, o.op",
    ),
    ("ratings", "SELECT * FROM ratings WHERE user_id = :u ORDER BY guild_id, game, scope"),
    (
        "rating_changes",
        "SELECT * FROM rating_changes WHERE user_id = :u ORDER BY at, game_id, scope",
    ),
    (
        "board_totals",
        "SELECT guild_id, scope, game, level, user_id, games, wins, draws, answers, correct,"
        " last_at FROM board_totals WHERE user_id = :u ORDER BY guild_id, scope, game, level",
    ),
    ("player_names", "SELECT * FROM player_names WHERE user_id = :u ORDER BY guild_id"),
    ("departed_members", "SELECT * FROM departed_members WHERE user_id = :u ORDER BY guild_id"),
    ("accommodations", "SELECT * FROM accommodations WHERE user_id = :u ORDER BY guild_id"),
    (
        "practice_notes",
        "SELECT * FROM practice_notes WHERE user_id = :u ORDER BY game_id, code",
    ),
)
EXPORTED_TABLES = tuple(table for table, _ in _EXPORT)

_JSON_COLUMNS = frozenset({"config", "action", "events", "options", "payload", "channels"})

# Tables whose rows belong to one server (for forget_guild), child tables first.
_GUILD_TABLES = (
    "invitations",
    "results",
    "ratings",
    "board_totals",
    "player_names",
    "departed_members",
    "accommodations",
    "practice_notes",
    "class_presets",
    "named_presets",
    "class_sessions",
    "assignments",
    "seasons",
    "guild_settings",
    "games",
)


class UserInLiveGameError(ConflictError):
    """The user is still playing: their live game must end before their data can go."""

    def __init__(self, user_id: int, game_ids: list[int]) -> None:
        super().__init__(f"user {user_id} is in live game(s) {game_ids}")
        self.user_id = user_id
        self.game_ids = game_ids


class PrivacyStorage(SettingsStorage):
    """Export, forget-me and retention (a forgotten server's cached settings go too)."""

    async def export_user(self, user_id: int) -> dict[str, list[dict[str, Any]]]:
        """Every stored row that names the user, table by table (JSON columns decoded)."""
        out: dict[str, list[dict[str, Any]]] = {}

        def _tx(conn: sqlite3.Connection) -> dict[str, list[dict[str, Any]]]:
            for table, sql in _EXPORT:
                rows = all_rows(conn, sql, {"u": user_id})
                out[table] = [_row_dict(r) for r in rows]
            return out

        return await self._read(_tx)

    async def live_games_in(self, guild_id: int) -> list[int]:
        """The server's live games (a server's data cannot go while one is played)."""

        def _tx(conn: sqlite3.Connection) -> list[int]:
            rows = all_rows(
                conn,
                "SELECT id FROM games WHERE guild_id = ? AND status = 'live' ORDER BY id",
                (guild_id,),
            )
            return [int(r[0]) for r in rows]

        return await self._read(_tx)

    async def live_games_of(self, user_id: int) -> list[int]:
        def _tx(conn: sqlite3.Connection) -> list[int]:
            return _live_games_of(conn, user_id)

        return await self._read(_tx)

    async def forget_user(
        self, user_id: int, at: int, guild_id: int | None = None
    ) -> dict[str, int]:
        """Delete everything about the user (``guild_id``: in that server only); in other
        players' results they become an anonymous seat (no id, no name, no answers), so the
        others keep their own results.

        The move logs of the games they played are deleted whole (they would name them), as
        are the challenges and lobbies they hosted; from the others they are removed (their
        name, and the host's choice of them as a partner). The forget is recorded (as a
        fingerprint). Raises UserInLiveGameError while they are in a live game (there).
        Returns rows touched per table.
        """

        def _tx(conn: sqlite3.Connection) -> dict[str, int]:
            live = _live_games_of(conn, user_id, guild_id)
            if live:
                raise UserInLiveGameError(user_id, live)
            counts = _forget_user_rows(conn, user_id, at, guild_id)
            if guild_id is None:
                record(conn, "user", str(user_id), at)
            else:
                conn.execute(
                    "INSERT INTO forgotten (kind, fingerprint, at) VALUES ('member', ?, ?)",
                    (_member(privacy_key(conn), guild_id, user_id), at),
                )
            return counts

        return await self._write(_tx)

    async def forget_guild(self, guild_id: int, at: int) -> dict[str, int]:
        """Delete everything stored for a server (the bot was removed from it), and record
        the forget (as a fingerprint)."""

        def _tx(conn: sqlite3.Connection) -> dict[str, int]:
            counts = _forget_guild_rows(conn, guild_id)
            record(conn, "guild", str(guild_id), at)
            return counts

        self._settings_changed(guild_id, None)
        forgotten = await self._write(_tx)
        self._settings_changed(guild_id, None)
        return forgotten

    # -- servers the bot was removed from -------------------------------------------------

    async def guild_left(self, guild_id: int, at: int) -> None:
        """The bot was removed from the server (or it was deleted): its grace period starts
        (the first departure counts when Discord says it twice)."""

        def _tx(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO departed_guilds (guild_id, left_at) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, at),
            )

        await self._write(_tx)

    async def guild_back(self, guild_id: int) -> bool:
        """The bot is in the server again: it keeps its data. True if it had left."""

        def _tx(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute("DELETE FROM departed_guilds WHERE guild_id = ?", (guild_id,))
            return cursor.rowcount > 0

        return await self._write(_tx)

    async def departed_guilds(self) -> dict[int, int]:
        """Every server the bot has left and not come back to, with when it left."""

        def _tx(conn: sqlite3.Connection) -> dict[int, int]:
            rows = all_rows(conn, "SELECT guild_id, left_at FROM departed_guilds")
            return {int(r[0]): int(r[1]) for r in rows}

        return await self._read(_tx)

    async def known_guilds(self) -> set[int]:
        """Every server something is stored for."""

        def _tx(conn: sqlite3.Connection) -> set[int]:
            return _guild_ids(conn)

        return await self._read(_tx)

    # -- a restored backup, cleaned again -----------------------------------------------------

    async def derived_key(self, purpose: str) -> bytes:
        """A key of this database for ``purpose`` (32 bytes): every process on the database
        derives the same one, from the random key made once with the database, and learns
        nothing of that key from it (HMAC-SHA256 of the purpose under it)."""

        def _tx(conn: sqlite3.Connection) -> bytes:
            return hmac.new(privacy_key(conn), f"mattekrig:{purpose}".encode(), "sha256").digest()

        return await self._read(_tx)

    async def forgotten_entries(self) -> tuple[bytes, list[tuple[str, str, int]]]:
        """The fingerprints' key, and every recorded forget (kind, fingerprint, time)."""

        def _tx(conn: sqlite3.Connection) -> tuple[bytes, list[tuple[str, str, int]]]:
            rows = all_rows(conn, "SELECT kind, fingerprint, at FROM forgotten ORDER BY id")
            return privacy_key(conn), [(str(r[0]), str(r[1]), int(r[2])) for r in rows]

        return await self._read(_tx)

    async def reapply_forgotten(
        self, key: bytes, entries: Iterable[tuple[str, str, int]], at: int
    ) -> dict[str, int]:
        """Make this database (a restored backup) forget again what the database it replaced
        had forgotten: ``entries`` (kind, fingerprint, time) made with ``key`` are recorded
        here too, and every pupil and server whose id has one of those fingerprints is
        forgotten, a live game of theirs included (the backup caught it mid-game; it cannot
        go on); so is every class, pupil of a class and lesson deleted (`storage.classes`).
        Returns rows touched per table, with ``users`` and ``guilds`` forgotten and
        ``classes``, ``pupils`` and ``lessons`` deleted."""
        wanted = list(entries)

        def _tx(conn: sqlite3.Connection) -> dict[str, int]:
            conn.execute("UPDATE privacy_key SET key = ? WHERE id = 1", (key,))
            known = {
                (str(r[0]), str(r[1]), int(r[2]))
                for r in all_rows(conn, "SELECT kind, fingerprint, at FROM forgotten")
            }
            for kind, mark, when in wanted:
                if (kind, mark, when) not in known:
                    conn.execute(
                        "INSERT INTO forgotten (kind, fingerprint, at) VALUES (?, ?, ?)",
                        (kind, mark, when),
                    )
            marks = {(kind, mark) for kind, mark, _ in wanted}
            counts: dict[str, int] = {"users": 0, "guilds": 0}
            guilds = sorted(_guild_ids(conn))
            for user_id in sorted(_user_ids(conn)):
                scopes: list[int | None] = [
                    g
                    for g in guilds
                    if ("member", fingerprint(key, "member", f"{g}:{user_id}")) in marks
                ]
                if ("user", fingerprint(key, "user", str(user_id))) in marks:
                    scopes = [None]
                for scope in scopes:
                    _abandon_live(conn, user_id, at, scope)
                    _add(counts, _forget_user_rows(conn, user_id, at, scope))
                counts["users"] += bool(scopes)
            for guild_id in guilds:
                if ("guild", fingerprint(key, "guild", str(guild_id))) in marks:
                    _add(counts, _forget_guild_rows(conn, guild_id))
                    counts["guilds"] += 1
            _add(counts, delete_again(conn, key, marks))  # the lessons' classes and lessons
            return counts

        return await self._write(_tx)

    async def purge_old(
        self,
        *,
        games_before: int,
        invitations_before: int,
        results_before: int,
        weeks_before: int,
    ) -> dict[str, int]:
        """Retention (PRIVACY.md): delete finished games' move logs last changed before
        ``games_before``, closed invitations before ``invitations_before``, results of games
        that ended before ``results_before`` (taken off the boards first; ratings stay as
        they are) and weekly board totals older than ISO week ``weeks_before``."""
        counts: dict[str, int] = {}

        def _tx(conn: sqlite3.Connection) -> dict[str, int]:
            cursor = conn.execute(
                "DELETE FROM games WHERE status <> 'live' AND updated_at < ?", (games_before,)
            )
            counts["games"] = max(cursor.rowcount, 0)
            cursor = conn.execute(
                "DELETE FROM invitations WHERE status <> 'open' AND updated_at < ?",
                (invitations_before,),
            )
            counts["invitations"] = max(cursor.rowcount, 0)
            rows = all_rows(
                conn,
                f"SELECT {RESULT_FIELDS} FROM results AS r WHERE r.ended_at < ?",
                (results_before,),
            )
            old: list[GameResult] = []
            for row in rows:
                players = (players_of(conn, [row["r_game_id"]]))[row["r_game_id"]]
                old.append(result_of(row, players))
            for result in old:
                if result.voided_at is None:
                    remove_result(conn, result, reverse_ratings=False)
                conn.execute("DELETE FROM results WHERE game_id = ?", (result.game_id,))
                conn.execute("DELETE FROM practice_notes WHERE game_id = ?", (result.game_id,))
            counts["results"] = len(old)
            cursor = conn.execute(
                "DELETE FROM board_totals WHERE scope LIKE 'w%' AND scope < ?",
                (f"w{weeks_before:d}",),
            )
            counts["board_totals"] = max(cursor.rowcount, 0)
            return counts

        return await self._write(_tx)


def _member(key: bytes, guild_id: int, user_id: int) -> str:
    return fingerprint(key, "member", f"{guild_id:d}:{user_id:d}")


def _abandon_live(conn: sqlite3.Connection, user_id: int, at: int, guild_id: int | None) -> None:
    """A restored backup's live game of a forgotten pupil: it cannot go on, it goes."""
    where, params = _in_guild("id", guild_id)
    conn.execute(
        "UPDATE games SET status = 'abandoned', updated_at = ? WHERE status = 'live'"
        f" AND id IN (SELECT game_id FROM game_players WHERE user_id = ?){where}",
        (at, user_id, *params),
    )


def _in_guild(
    column: str, guild_id: int | None, table: str = "games"
) -> tuple[str, tuple[int, ...]]:
    """`` AND <column> IN (the server's rows of <table>)``, or nothing for every server."""
    if guild_id is None:
        return "", ()
    key = "id" if table in ("games", "invitations") else "game_id"
    return f" AND {column} IN (SELECT {key} FROM {table} WHERE guild_id = ?)", (guild_id,)


def _add(counts: dict[str, int], more: dict[str, int]) -> None:
    for table, n in more.items():
        counts[table] = counts.get(table, 0) + n


def _user_ids(conn: sqlite3.Connection) -> set[int]:
    """Every user id stored anywhere (USER_COLUMNS)."""
    found: set[int] = set()
    for table, columns in USER_COLUMNS.items():
        for column in columns:
            rows = all_rows(
                conn, f"SELECT DISTINCT {column} FROM {table} WHERE {column} IS NOT NULL"
            )
            found.update(int(r[0]) for r in rows)
    return found


def _guild_ids(conn: sqlite3.Connection) -> set[int]:
    found: set[int] = set()
    for table in _GUILD_TABLES:
        rows = all_rows(conn, f"SELECT DISTINCT guild_id FROM {table} WHERE guild_id IS NOT NULL")
        found.update(int(r[0]) for r in rows)
    return found


def _forget_user_rows(
    conn: sqlite3.Connection, user_id: int, at: int, guild_id: int | None = None
) -> dict[str, int]:
    """forget-me's deletions (see `PrivacyStorage.forget_user`), without its checks;
    ``guild_id``: only what belongs to that server."""
    counts: dict[str, int] = {}

    def run(table: str, sql: str, params: tuple[Any, ...] = (user_id,)) -> None:
        cursor = conn.execute(sql, params)
        counts[table] = counts.get(table, 0) + max(cursor.rowcount, 0)

    games, in_games = _in_guild("game_id", guild_id)
    own_games, in_own = _in_guild("id", guild_id)
    invitations, in_invitations = _in_guild("invitation_id", guild_id, "invitations")
    own_invitations, in_own_invitations = _in_guild("id", guild_id, "invitations")
    results, in_results = _in_guild("game_id", guild_id, "results")
    server = " AND guild_id = ?" if guild_id is not None else ""
    in_server = (guild_id,) if guild_id is not None else ()

    run(
        "games",
        "DELETE FROM games WHERE id IN (SELECT game_id FROM game_players WHERE user_id = ?)"
        + own_games,
        (user_id, *in_own),
    )
    run(
        "game_events",
        "UPDATE game_events SET user_id = NULL WHERE user_id = ?" + games,
        (user_id, *in_games),
    )
    run(
        "invitations",
        "DELETE FROM invitations WHERE host_id = ?" + own_invitations,
        (user_id, *in_own_invitations),
    )
    # Their name and the host's choice of them as a partner go from the challenges and lobbies
    # they were in (a team lobby's partner is a member, so removing it names nobody else).
    run(
        "invitations",
        "UPDATE invitations SET options = json_remove(json_remove(options, ?), '$.partner'),"
        " updated_at = ?"
        " WHERE id IN (SELECT invitation_id FROM invitation_members WHERE user_id = ?)"
        + own_invitations,
        (f'$.names."{user_id:d}"', at, user_id, *in_own_invitations),
    )
    run(
        "invitation_members",
        "DELETE FROM invitation_members WHERE user_id = ?" + invitations,
        (user_id, *in_invitations),
    )
    run(
        "result_operations",
        "DELETE FROM result_operations WHERE (game_id, seat) IN"
        " (SELECT game_id, seat FROM result_players WHERE user_id = ?" + results + ")",
        (user_id, *in_results),
    )
    run(
        "result_players",
        "UPDATE result_players SET kind = 'anonymous', user_id = NULL,"
        " display_name = NULL, answers = 0, correct = 0, best = 0, missed = 0,"
        " answer_ms = 0 WHERE user_id = ?" + results,
        (user_id, *in_results),
    )
    for table in (
        "ratings",
        "rating_changes",
        "board_totals",
        "player_names",
        "departed_members",
        "accommodations",
        "practice_notes",
    ):
        run(table, f"DELETE FROM {table} WHERE user_id = ?" + server, (user_id, *in_server))
    return counts


def _forget_guild_rows(conn: sqlite3.Connection, guild_id: int) -> dict[str, int]:
    counts: dict[str, int] = {}
    for table in (*_GUILD_TABLES, "departed_guilds"):
        cursor = conn.execute(f"DELETE FROM {table} WHERE guild_id = ?", (guild_id,))
        counts[table] = max(cursor.rowcount, 0)
    return counts


def _live_games_of(
    conn: sqlite3.Connection, user_id: int, guild_id: int | None = None
) -> list[int]:
    server = " AND g.guild_id = ?" if guild_id is not None else ""
    rows = all_rows(
        conn,
        "SELECT g.id FROM games AS g JOIN game_players AS p ON p.game_id = g.id"
        f" WHERE p.user_id = ? AND g.status = 'live'{server} ORDER BY g.id",
        (user_id, *((guild_id,) if guild_id is not None else ())),
    )
    return [r[0] for r in rows]


def _row_dict(row: Any) -> dict[str, Any]:
    out = {}
    for key in row.keys():  # noqa: SIM118 - sqlite3.Row has keys() but no iteration by key
        value = row[key]
        if key in _JSON_COLUMNS and isinstance(value, str):
            value = json.loads(value)
        out[key] = value
    return out
