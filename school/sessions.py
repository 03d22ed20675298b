"""A signed-in teacher's browser: the session cookie `mk_session` and who it signs in.

The cookie holds a random token whose SHA-256 alone is stored (`storage.school_teachers`),
so neither the database nor a log holds a way in. It is HttpOnly (no script reads it),
SameSite=Lax (another site's form or script does not carry it; a link to the server from
the school's provider does, so a teacher arriving from sign-in is signed in), Secure when the
server's address is https, and on Path=/ (the teacher's pages and every lesson's teacher
page under /l/<code>/ alike). Every POST is checked for its Origin too (`table.web`), so
SameSite is not the only guard.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from aiohttp import web

from school.settings import OidcSettings
from storage.contract import SchoolTeacherStore
from storage.records.school import Teacher

SESSION_COOKIE = "mk_session"
SESSION_DAYS = 14  # a teacher without a provider needs a new link after this
LINK_DAYS = 7  # a sign-in link from `mattekrig teachers add|link`
DAY_MS = 86_400_000


@dataclass(frozen=True, slots=True)
class SignInSetup:
    """What sign-in needs of the school app: the teachers' storage, the server's public
    address (None: served on localhost only; cookies are Secure when it is https), the
    school's OpenID Connect provider (None: teachers sign in by links alone) and the wall
    clock (seconds; tests pass their own)."""

    store: SchoolTeacherStore
    base_url: str | None = None
    oidc: OidcSettings | None = None
    wall: Callable[[], float] = field(default=time.time)

    @property
    def secure(self) -> bool:
        return (self.base_url or "").startswith("https://")

    def now_ms(self) -> int:
        return int(self.wall() * 1000)


SIGNIN = web.AppKey("signin", SignInSetup)
# The request's teacher, read once per request (an empty tuple: nobody is signed in).
_TEACHER = web.RequestKey("teacher", tuple[Teacher, ...])


def new_token() -> str:
    """A secret of 256 random bits, URL-safe (a link's or a session's token)."""
    return secrets.token_urlsafe(32)


async def teacher_of(request: web.Request) -> Teacher | None:
    """The teacher this request is signed in as: its `mk_session` cookie names a session
    that has not expired, of a teacher not removed. None otherwise (a removed teacher's
    browser is signed out at once: their sessions are gone)."""
    if _TEACHER in request:
        known: tuple[Teacher, ...] = request[_TEACHER]
        return known[0] if known else None
    setup = request.app[SIGNIN]
    token = request.cookies.get(SESSION_COOKIE, "")
    teacher = None
    if 20 <= len(token) <= 100:
        teacher = await setup.store.session_teacher(token, setup.now_ms())
    request[_TEACHER] = () if teacher is None else (teacher,)
    return teacher


def set_session_cookie(response: web.StreamResponse, request: web.Request, token: str) -> None:
    setup = request.app[SIGNIN]
    response.set_cookie(
        SESSION_COOKIE,
        token,
        httponly=True,
        samesite="Lax",
        secure=setup.secure,
        path="/",
        max_age=SESSION_DAYS * 86_400,
    )


def clear_session_cookie(response: web.StreamResponse, request: web.Request) -> None:
    response.del_cookie(
        SESSION_COOKIE,
        path="/",
        secure=request.app[SIGNIN].secure,
        httponly=True,
        samesite="Lax",
    )


def session_token(request: web.Request) -> str | None:
    return request.cookies.get(SESSION_COOKIE) or None


__all__ = [
    "DAY_MS",
    "LINK_DAYS",
    "SESSION_COOKIE",
    "SESSION_DAYS",
    "SIGNIN",
    "SignInSetup",
    "Teacher",
    "clear_session_cookie",
    "new_token",
    "session_token",
    "set_session_cookie",
    "teacher_of",
]
