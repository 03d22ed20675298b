"""Teachers of a school server sign in by a one-time link (no identity provider), and the
session that follows. The issue: "Teachers sign in, and the teacher's key never travels in a
URL"; "for a school without an identity provider, the operator issues a teacher a one-time
sign-in link"; "a session cookie (HttpOnly, Secure behind HTTPS, SameSite), CSRF/Origin checks
on every change"."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from school.sessions import SESSION_COOKIE
from storage import Storage
from tests.school.signing import LINK_SECONDS, School, school_server, set_cookie_headers
from tests.table.support import text_of

pytestmark = pytest.mark.usefixtures("quiet_log")


@pytest_asyncio.fixture
async def school(store: Storage) -> AsyncIterator[School]:
    async with school_server(store) as served:
        yield served


async def _signed_in_as(school: School, browser: object = None) -> str | None:
    status, text, _ = await school.in_browser(browser or school.browser, "GET", "/mine")  # type: ignore[arg-type]
    return text.removeprefix("signed in as ").split(" (")[0] if status == 200 else None


async def test_the_sign_in_page_says_to_use_the_link(school: School) -> None:
    """Without a provider the sign-in page explains the link, in the teacher's language."""
    status, text, _ = await school.get("/signin?lang=nn")
    assert status == 200
    assert "eingongslenka for innlogging frå IT-ansvarleg ved skulen" in text_of(text)
    assert "/signin/oidc" not in text


async def test_a_link_signs_in_once_and_looking_at_it_spends_nothing(school: School) -> None:
    """ "GET shows one button so a link preview does not spend it; POST spends it": the page
    opened twice (a chat app's preview, then the teacher) still signs in, once; the same link
    pressed again signs in nobody."""
    teacher, token = await school.link()
    for _ in range(2):
        status, text, _ = await school.get(f"/signin/link/{token}?lang=nb")
        assert status == 200 and "Denne engangslenken logger inn Kari Lærer" in text_of(text)
        assert school.session_cookie() is None
    status, _, answer = await school.post(f"/signin/link/{token}", {"lang": "nb"})
    assert status == 303 and answer.headers["Location"] == "/mine?lang=nb"
    assert await _signed_in_as(school) == "Kari Lærer"
    other = school.new_browser()
    status, text, _ = await school.in_browser(
        other, "POST", f"/signin/link/{token}", data={"lang": "sv"}
    )
    assert status == 404 and "Den här inloggningslänken fungerar inte" in text_of(text)
    assert school.session_cookie(other) is None
    status, text, _ = await school.in_browser(other, "GET", f"/signin/link/{token}?lang=en")
    assert status == 404 and "This sign-in link does not work" in text_of(text)
    assert (await school.store.school_teacher(teacher.id)) is not None


async def test_an_expired_link_is_refused(school: School) -> None:
    """A link works for 7 days: after that it is refused, and signs in nobody."""
    _, token = await school.link()
    school.wall.now += LINK_SECONDS
    status, text, _ = await school.get(f"/signin/link/{token}?lang=en")
    assert status == 404 and "has run out" in text_of(text)
    status, _, _ = await school.post(f"/signin/link/{token}", {"lang": "en"})
    assert status == 404 and school.session_cookie() is None
    for bad in ("short", "x" * 101, "not%20a%20token" * 3):
        status, text, _ = await school.get(f"/signin/link/{bad}")
        assert status == 404 and "sign-in link" in text_of(text)


async def test_the_session_cookie_is_httponly_lax_and_secure_behind_https(
    store: Storage,
) -> None:
    """ "the cookie `mk_session`: HttpOnly, SameSite=Lax, Secure when the base URL is https,
    Path=/"."""
    for base, secure in ((None, False), ("https://mattekrig.school.example", True)):
        async with school_server(store, base_url=base) as school:
            _, token = await school.link(f"Teacher {secure}")
            _, _, answer = await school.post(f"/signin/link/{token}")
            (cookie,) = set_cookie_headers(answer, SESSION_COOKIE)
            morsel = cookie[SESSION_COOKIE]
            assert morsel["httponly"] is True
            assert morsel["samesite"] == "Lax"
            assert morsel["path"] == "/"
            assert bool(morsel["secure"]) is secure
            assert token not in morsel.value and len(morsel.value) >= 40


async def test_a_cross_site_post_is_refused_and_changes_nothing(school: School) -> None:
    """ "Every POST checks Origin": another site's form can neither spend a teacher's link
    nor sign a teacher out."""
    _, token = await school.link()
    for origin in ("https://evil.example", None):
        headers = {"Origin": origin} if origin else {}
        status, text, _ = await school.post(
            f"/signin/link/{token}", {"lang": "en"}, headers=headers
        )
        assert status == 403 and "came from another web page" in text_of(text)
    assert school.session_cookie() is None
    await school.post(f"/signin/link/{token}")
    assert await _signed_in_as(school) == "Kari Lærer"
    status, _, _ = await school.post(
        "/signout", {"lang": "en"}, headers={"Origin": "https://evil.example"}
    )
    assert status == 403
    assert await _signed_in_as(school) == "Kari Lærer"


async def test_signing_out_ends_the_session(school: School) -> None:
    """Sign out ends the session on the server, not only in this browser: the old cookie
    opens nothing afterwards."""
    _, token = await school.link()
    await school.post(f"/signin/link/{token}")
    cookie = school.session_cookie()
    assert cookie is not None
    status, _, answer = await school.post("/signout", {"lang": "nn"})
    assert status == 303 and answer.headers["Location"] == "/signin?lang=nn"
    assert school.session_cookie() is None
    replay = school.new_browser()
    replay.cookie_jar.update_cookies({SESSION_COOKIE: cookie})
    assert await _signed_in_as(school, replay) is None


async def test_removing_a_teacher_ends_the_session_at_once(school: School) -> None:
    """ "`teachers remove NAME` ends their sessions and links": the next request of the
    teacher's browser is no longer signed in, and their other links open nothing."""
    teacher, token = await school.link()
    _, spare = await school.link()
    await school.post(f"/signin/link/{token}")
    assert await _signed_in_as(school) == "Kari Lærer"
    assert await school.store.remove_school_teacher(teacher.id, int(school.wall.now * 1000))
    assert await _signed_in_as(school) is None
    status, _, _ = await school.get(f"/signin/link/{spare}")
    assert status == 404


async def test_the_sign_in_page_of_a_signed_in_teacher(school: School) -> None:
    """A signed-in teacher sees whom they are signed in as, the way to their lessons and
    the way out."""
    _, token = await school.link()
    await school.post(f"/signin/link/{token}")
    status, text, _ = await school.get("/signin?lang=sv")
    assert status == 200
    assert "Du är inloggad som Kari Lærer" in text_of(text)
    assert 'action="/signout"' in text and 'href="/mine?lang=sv"' in text


async def test_no_token_reaches_the_log(school: School, caplog: pytest.LogCaptureFixture) -> None:
    """ "tokens never logged": neither the link's token nor the session's, on a sign-in, a
    refused link and a sign-out."""
    caplog.set_level(logging.DEBUG)
    _, token = await school.link()
    await school.get(f"/signin/link/{token}")
    await school.post(f"/signin/link/{token}")
    session = school.session_cookie()
    await school.post(f"/signin/link/{token}")
    await school.post("/signout")
    assert session is not None
    logged = caplog.text + "".join(str(r.args) for r in caplog.records)
    assert "a teacher signed in" in caplog.text
    assert token not in logged and session not in logged
