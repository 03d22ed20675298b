"""The PostgreSQL URL's checks live in storage (the class lesson and the school server read
the same setting and never import the bot); the bot's modules keep their old import."""

from __future__ import annotations

from storage.database_url import DATABASE_SCHEMES, SHAPE, url_label, url_problem

__all__ = ["DATABASE_SCHEMES", "SHAPE", "url_label", "url_problem"]
