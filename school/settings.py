"""The school server's settings, read from the environment (or `.env`, as every command reads
them: `storage.environment`), checked all at once: an operator reads one sentence per bad
setting, never a traceback, and the server does not start half-configured.

Why so strict: the server holds teachers' sessions and pupils' answers for a whole school. An
``http://`` address would send the session cookie in the clear, half an OpenID Connect setup
would show a sign-in button that cannot work, and a secret given twice (inline and as a file)
leaves the operator guessing which one is in use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from school.limits import DEVICE_RATE, LESSON_RATE
from storage.database_url import url_label, url_problem
from storage.environment import secret_file
from table.keep import DEFAULT_KEEP_DAYS
from table.net import is_loopback

# The names that make a school server's settings: `mattekrig check` checks them when any is set.
SCHOOL_NAMES = (
    "MATTEKRIG_BASE_URL",
    "OIDC_ISSUER",
    "OIDC_CLIENT_ID",
    "OIDC_CLIENT_SECRET",
    "OIDC_CLIENT_SECRET_FILE",
    "OIDC_NAME",
    "LESSONS_PER_TEACHER",
)
OIDC_NAMES = ("OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET", "OIDC_NAME")
# Secrets that may come from a file named by NAME_FILE (compose's secrets, systemd's
# credentials), so they are neither in the environment nor on a command line.
SECRET_NAMES = ("DATABASE_URL", "OIDC_CLIENT_SECRET")


class SchoolSettingsError(Exception):
    """One or more settings are wrong; ``problems`` holds one sentence per bad setting, and
    the message is those sentences, one a line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = tuple(problems)


@dataclass(frozen=True, slots=True)
class OidcSettings:
    """The school's OpenID Connect provider (Feide, or the school's own)."""

    issuer: str  # e.g. https://auth.dataporten.no; its discovery document is read from it
    client_id: str
    client_secret: str = field(repr=False)
    name: str  # the sign-in button's "Sign in with <name>", e.g. Feide


@dataclass(frozen=True, slots=True)
class RateLimits:
    """How many changes (a press, a join, a teacher's control) a second one device and one
    lesson may make before the server answers "wait a moment" (`school.limits`): a shared
    server must not let one pupil's script, or one lesson, slow the lessons beside it."""

    device_per_second: int = int(DEVICE_RATE)
    lesson_per_second: int = int(LESSON_RATE)
    # wrong codes the front page checks a minute, in all (in each process: school.front)
    wrong_codes_per_minute: int = 120


@dataclass(frozen=True, slots=True)
class SchoolSettings:
    # PostgreSQL for two or more processes; None: the SQLite lessons file (one process only)
    database_url: str | None = field(default=None, repr=False)
    # the public address, an origin (https://mattekrig.school.example); None: not set (the
    # server then serves http://localhost only, and sign-in links cannot be made)
    base_url: str | None = None
    oidc: OidcSettings | None = None
    lessons_per_teacher: int = 6
    # a lesson nobody used for this long is saved and let go by its process (still open)
    quiet_minutes: int = 10
    # a lesson nobody used for this long is ended (and deleted after keep_days)
    idle_hours: int = 24
    keep_days: int = DEFAULT_KEEP_DAYS
    limits: RateLimits = RateLimits()

    @property
    def secure(self) -> bool:
        """Served over HTTPS (behind the proxy): cookies are Secure, HSTS is sent."""
        return self.base_url is not None and self.base_url.startswith("https://")

    @property
    def callback_url(self) -> str | None:
        """The redirect URI the school registers at its OpenID Connect provider."""
        return None if self.base_url is None else f"{self.base_url}/signin/callback"

    @property
    def database_label(self) -> str | None:
        """The database for messages and logs, never its password."""
        return None if self.database_url is None else url_label(self.database_url)


# name → (default, smallest allowed, what it counts)
_NUMBERS: dict[str, tuple[int, int, str]] = {
    "LESSONS_PER_TEACHER": (6, 1, "lessons"),
    "LESSON_QUIET_MINUTES": (10, 1, "minutes"),
    "LESSON_IDLE_HOURS": (24, 1, "hours"),
    "LESSON_KEEP_DAYS": (DEFAULT_KEEP_DAYS, 0, "days"),
    "DEVICE_CHANGES_PER_SECOND": (int(DEVICE_RATE), 1, "changes"),
    "LESSON_CHANGES_PER_SECOND": (int(LESSON_RATE), 1, "changes"),
    "WRONG_CODES_PER_MINUTE": (120, 1, "codes"),
}


# Every setting read here (`mattekrig check` and the tests' clean environment use the list).
ALL_NAMES = (
    *SCHOOL_NAMES,
    *SECRET_NAMES,
    *(f"{name}_FILE" for name in SECRET_NAMES),
    *_NUMBERS,
)


def school_settings_present(env: Mapping[str, str]) -> bool:
    """True when any school server setting is set (then `mattekrig check` checks them)."""
    return any(env.get(name, "").strip() for name in SCHOOL_NAMES)


def load_school_settings(env: Mapping[str, str]) -> SchoolSettings:
    """The school server's settings from ``env`` (the environment over the `.env` files:
    ``storage.environment.environment()``); a command-line ``--base-url`` is passed in as
    ``MATTEKRIG_BASE_URL``. Raises SchoolSettingsError naming every bad setting."""
    problems: list[str] = []
    secrets = {name: _secret(env, name, problems) for name in SECRET_NAMES}
    database_url = secrets["DATABASE_URL"] or None
    if database_url is not None and (problem := url_problem(database_url)) is not None:
        problems.append(problem)
    base_url = _base_url(env.get("MATTEKRIG_BASE_URL", "").strip(), problems)
    oidc = _oidc(env, secrets["OIDC_CLIENT_SECRET"], base_url, problems)
    numbers = {name: _number(env, name, problems) for name in _NUMBERS}
    if problems:
        raise SchoolSettingsError(problems)
    return SchoolSettings(
        database_url=database_url,
        base_url=base_url,
        oidc=oidc,
        lessons_per_teacher=numbers["LESSONS_PER_TEACHER"],
        quiet_minutes=numbers["LESSON_QUIET_MINUTES"],
        idle_hours=numbers["LESSON_IDLE_HOURS"],
        keep_days=numbers["LESSON_KEEP_DAYS"],
        limits=RateLimits(
            device_per_second=numbers["DEVICE_CHANGES_PER_SECOND"],
            lesson_per_second=numbers["LESSON_CHANGES_PER_SECOND"],
            wrong_codes_per_minute=numbers["WRONG_CODES_PER_MINUTE"],
        ),
    )


def _secret(env: Mapping[str, str], name: str, problems: list[str]) -> str:
    inline = env.get(name, "").strip()
    given = env.get(f"{name}_FILE", "").strip()
    if inline and given:
        problems.append(
            f"{name} and {name}_FILE are both set: keep one (the file keeps the secret out of "
            "the environment)."
        )
        return ""
    if not given:
        return inline
    value, problem = secret_file(name, given, "the server's user")
    if problem is not None:
        problems.append(problem)
    return value


def _https_url(name: str, raw: str, what: str, problems: list[str]) -> str | None:
    """``raw`` as an https URL (http only to this computer), without a trailing slash."""
    try:
        parts = urlsplit(raw)
        parts.port  # noqa: B018 - reading it is the check: it raises on a bad port
    except ValueError:
        problems.append(f"{name} cannot be read as an address: write it as {what}.")
        return None
    if parts.scheme not in ("https", "http") or not parts.hostname:
        problems.append(f"{name} must be an address such as {what}, not {raw!r}.")
        return None
    if parts.scheme == "http" and not is_loopback(parts.hostname):
        problems.append(
            f"{name} must start with https:// (http:// only for localhost): over plain http "
            "the teachers' sign-in would cross the network in the clear."
        )
        return None
    if parts.query or parts.fragment or parts.username or parts.password:
        problems.append(f"{name} must be a plain address such as {what}, with no ?, # or @.")
        return None
    return raw.rstrip("/")


def _base_url(raw: str, problems: list[str]) -> str | None:
    if not raw:
        return None
    what = "https://mattekrig.school.example"
    url = _https_url("MATTEKRIG_BASE_URL", raw, what, problems)
    if url is not None and urlsplit(url).path:
        problems.append(
            f"MATTEKRIG_BASE_URL must be the address alone ({what}), without a path: the "
            "server's pages are at its root."
        )
        return None
    return url


def _oidc(
    env: Mapping[str, str], secret: str, base_url: str | None, problems: list[str]
) -> OidcSettings | None:
    given = {name: env.get(name, "").strip() for name in OIDC_NAMES}
    given["OIDC_CLIENT_SECRET"] = secret or env.get("OIDC_CLIENT_SECRET_FILE", "").strip()
    if not any(given.values()):
        return None
    missing = [name for name in OIDC_NAMES[:3] if not given[name]]
    if missing:
        problems.append(
            f"OpenID Connect is half set: {' and '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} missing (set OIDC_ISSUER, OIDC_CLIENT_ID "
            "and OIDC_CLIENT_SECRET, or none of them to sign teachers in by links only)."
        )
        return None
    issuer = _https_url("OIDC_ISSUER", given["OIDC_ISSUER"], "https://auth.dataporten.no", problems)
    if base_url is None:
        problems.append(
            "OIDC_ISSUER needs MATTEKRIG_BASE_URL: the provider sends teachers back to "
            "<MATTEKRIG_BASE_URL>/signin/callback."
        )
        return None
    if issuer is None or not secret:  # the secret's file problem is already said
        return None
    return OidcSettings(
        issuer=issuer,
        client_id=given["OIDC_CLIENT_ID"],
        client_secret=secret,
        name=given["OIDC_NAME"] or (urlsplit(issuer).hostname or issuer),
    )


def _number(env: Mapping[str, str], name: str, problems: list[str]) -> int:
    default, least, unit = _NUMBERS[name]
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or not least <= int(raw) <= 1_000_000:
        problems.append(f"{name} must be a whole number of {unit} from {least}, not {raw!r}.")
        return default
    return int(raw)


__all__ = [
    "ALL_NAMES",
    "OIDC_NAMES",
    "SCHOOL_NAMES",
    "OidcSettings",
    "RateLimits",
    "SchoolSettings",
    "SchoolSettingsError",
    "load_school_settings",
    "school_settings_present",
]
