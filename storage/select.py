"""Which backend: PostgreSQL when a ``DATABASE_URL`` is given, else SQLite at a path.

Here so that the client and the command line open storage the same way, and so that the
PostgreSQL driver (an optional extra) is imported only when it is asked for.
"""

from __future__ import annotations

import os

from storage.errors import StorageError
from storage.sqlite import Storage


async def open_storage(path: str | os.PathLike[str], url: str | None = None) -> Storage:
    """The open, migrated backend. StorageError (one sentence) for a PostgreSQL server that
    cannot be reached or a driver that is not installed."""
    if url is None:
        return await Storage.open(path)
    try:
        from storage.postgres import PostgresStorage
    except ImportError:
        raise StorageError(
            "DATABASE_URL names PostgreSQL but its driver is not installed: "
            "pip install 'mattekrig[postgres]'"
        ) from None
    return await PostgresStorage.open_url(url)


__all__ = ["open_storage"]
