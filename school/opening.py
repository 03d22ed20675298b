"""What every school server command opens first, the same way: its settings (the environment
or `.env`, a `--base-url` given on the command line over ``MATTEKRIG_BASE_URL``) and its
database (the PostgreSQL of ``DATABASE_URL``, else the lessons' SQLite file, private to the
user). A problem with either is one sentence for the operator (`Refusal`, exit status 2),
never a traceback."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from school.settings import SchoolSettings, SchoolSettingsError, load_school_settings
from storage.environment import SettingsError, environment
from storage.errors import StorageError
from storage.paths import lessons_database, private_file
from storage.select import open_storage
from storage.sqlite import Storage


class Refusal(Exception):
    """A bad setting or argument: one sentence for the operator, exit status 2."""


def school_settings(base_url: str | None = None) -> SchoolSettings:
    try:
        env, _ = environment()
    except SettingsError as error:
        raise Refusal(str(error)) from None
    if base_url is not None:
        env["MATTEKRIG_BASE_URL"] = base_url
    try:
        return load_school_settings(env)
    except SchoolSettingsError as error:
        raise Refusal(" ".join(error.problems)) from None


def database_target(settings: SchoolSettings) -> str:
    """The database as the leases name it: the PostgreSQL URL, or the SQLite file's path."""
    return settings.database_url or str(lessons_database())


@contextlib.asynccontextmanager
async def school_storage(settings: SchoolSettings) -> AsyncIterator[Storage]:
    """The server's storage, opened (and migrated) as every process of the server opens it."""
    path = lessons_database()
    if settings.database_url is None:
        private_file(path)
    try:
        store = await open_storage(path, settings.database_url)
    except StorageError as error:
        raise Refusal(str(error)) from None
    try:
        yield store
    finally:
        await store.close()


__all__ = ["Refusal", "database_target", "school_settings", "school_storage"]
