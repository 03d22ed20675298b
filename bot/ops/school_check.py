"""`mattekrig check` for the school server (`mattekrig serve`): its settings, checked by the
same `load_school_settings` the server starts with, one line per problem.

Why here and not in `inspect`: `run` starts the Discord bot, which never reads these settings;
`check` is the operator's one command for whatever runs on this machine's settings. A school
server without a bot has no Discord token, so `check` then does not ask for one.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.ops.startup import Findings
from school.settings import (
    SchoolSettings,
    SchoolSettingsError,
    load_school_settings,
    school_settings_present,
)

BOT_TOKEN = ("DISCORD_TOKEN", "DISCORD_TOKEN_FILE")


def school_only(environ: Mapping[str, str]) -> bool:
    """The settings are a school server's and there is no bot token: no Discord bot here."""
    has_token = any(environ.get(name, "").strip() for name in BOT_TOKEN)
    return school_settings_present(environ) and not has_token


def check_school(environ: Mapping[str, str], found: Findings) -> SchoolSettings | None:
    """Add the school server's lines and problems to ``found`` (nothing when no school
    setting is set); the settings when they are all good."""
    if not school_settings_present(environ):
        return None
    try:
        settings = load_school_settings(environ)
    except SchoolSettingsError as error:
        found.add("school", "the school server's settings (mattekrig serve) have problems")
        # a setting both read (DATABASE_URL) is told once, in the bot's words
        said = {problem.split()[0] for problem in found.problems}
        found.problems.extend(p for p in error.problems if p.split()[0] not in said)
        return None
    found.add("school", settings.base_url or "no MATTEKRIG_BASE_URL: this computer only")
    found.add("sign-in", _sign_in(settings))
    database = settings.database_label or "the lessons' SQLite file (one serve process only)"
    found.add("lessons", f"{database}; at most {settings.lessons_per_teacher} open per teacher")
    return settings


def _sign_in(settings: SchoolSettings) -> str:
    if settings.oidc is None:
        return "teachers by one-time sign-in links (mattekrig teachers add NAME)"
    return (
        f"{settings.oidc.name} ({settings.oidc.issuer}, OpenID Connect; redirect URI "
        f"{settings.callback_url}), a teacher's first sign-in through their link"
    )
