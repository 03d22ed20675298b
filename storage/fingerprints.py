"""A deletion as it is remembered: a keyed one-way fingerprint in ``forgotten``, never the id.

A restored backup is cleaned again by comparing the fingerprints of the ids it holds with
the ones the database it replaced had recorded (`storage.privacy.reapply_forgotten`). The key
is random, made once per database (``privacy_key``) and carried by every backup of it, so a
fingerprint names nobody without the database it came from.

The kinds: on Discord a pupil forgotten everywhere (``user``), in one server (``member``),
and a server (``guild``); in the lessons' database a class deleted (``class``), a pupil of a
class forgotten (``pupil``) and a lesson deleted (``lesson``). A class's, pupil's or
lesson's id is numbered again once the newest is deleted, so theirs is fingerprinted with
the time it was made: a new class given the old one's number is never taken for it.
"""

from __future__ import annotations

import hashlib
import sqlite3


def fingerprint(key: bytes, kind: str, subject: str) -> str:
    """A forgotten id as it is kept: keyed BLAKE2b, so the table holds no id, and an id can be
    recognised again only with this database's key. ``subject``: the id ("user", "guild"),
    "<server id>:<user id>" ("member"), or "<id>:<made at>" ("class", "pupil", "lesson")."""
    return hashlib.blake2b(f"{kind}:{subject}".encode(), key=key, digest_size=16).hexdigest()


def made(row_id: int, created_at: int) -> str:
    """The subject of a class, a pupil or a lesson: its id and the time it was made."""
    return f"{row_id:d}:{created_at:d}"


def privacy_key(conn: sqlite3.Connection) -> bytes:
    row = conn.execute("SELECT key FROM privacy_key WHERE id = 1").fetchone()
    return bytes(row[0])


def record(conn: sqlite3.Connection, kind: str, subject: str, at: int) -> None:
    """Remember in ``forgotten`` that ``subject`` of ``kind`` was deleted at ``at``."""
    conn.execute(
        "INSERT INTO forgotten (kind, fingerprint, at) VALUES (?, ?, ?)",
        (kind, fingerprint(privacy_key(conn), kind, subject), at),
    )


__all__ = ["fingerprint", "made", "privacy_key", "record"]
