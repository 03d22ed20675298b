"""The PostgreSQL server the tests use: ``TEST_DATABASE_URL`` (`.ci/run` starts a throw-away
one with `.ci/postgres.sh`). Without it the tests that need PostgreSQL are skipped with the
reason, except in CI (``CI`` set), where a missing server fails them: CI must never pass by
skipping the backend it is meant to test."""

from __future__ import annotations

import os
import uuid
from urllib.parse import quote

import pytest

ENV = "TEST_DATABASE_URL"


def server_url() -> str:
    url = os.environ.get(ENV, "")
    reason = ""
    if not url:
        reason = f"no PostgreSQL server: set {ENV} (run `.ci/postgres.sh start`)"
    else:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            reason = "psycopg is not installed: pip install -e '.[postgres]'"
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI runs every backend)")
        pytest.skip(reason)
    return url


def fresh_schema_url() -> str:
    """A URL to a new, empty schema of the test server: each test its own database, cheaply
    (a schema, not a CREATE DATABASE); the server is thrown away after the run."""
    return new_schema_url(server_url())


def new_schema_url(url: str) -> str:
    """A new, empty schema of the server at ``url`` (also for benchmarks.latency)."""
    import psycopg

    schema = f"t_{uuid.uuid4().hex}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}".encode())
    option = quote(f"-csearch_path={schema}")
    return f"{url}{'&' if '?' in url else '?'}options={option}"
