"""The PostgreSQL backend: the same storage contract, for several bot processes on one database.

Selected by ``DATABASE_URL=postgresql://…`` (bot/config.py); needs the ``postgres`` extra
(``pip install '.[postgres]'``). See `storage.postgres.storage` for how it reuses the
SQLite backend's transaction functions.
"""

from storage.postgres.storage import PostgresStorage, is_postgres_url

__all__ = ["PostgresStorage", "is_postgres_url"]
