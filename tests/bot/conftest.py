"""The project's bot against the fake Discord server: a temporary SQLite file, a fake clock
the tests move, and commands synced to the fake's guild (the bot's development server)."""

from __future__ import annotations

from tests.bot.e2e import (  # noqa: F401 (fixtures)
    bot_clock_fixture,
    bot_factory_fixture,
    bot_pictures_fixture,
    no_errors_fixture,
    table_fixture,
)
