"""Teachers sign in with the school's OpenID Connect provider, here a real one on 127.0.0.1
(oidc-provider-mock, tests/school/provider.py). The issue: "OpenID Connect (Norway's Feide is
an OpenID Connect provider …), asking only for `openid` and the opaque user id"; "Test against
a local OpenID Connect provider started by the tests … never the network"; SERVE.md: "With OIDC
configured, an unknown subject is refused: a teacher's first OIDC sign-in goes through their
link (the link binds the subject), so a pupil with a Feide account can never become a
teacher"."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Iterator
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
import pytest_asyncio

from school.sessions import SESSION_COOKIE
from school.settings import OidcSettings
from school.signin import FLOW_COOKIE
from storage import Storage
from storage.records.school import Teacher
from tests.school.provider import running_provider, sign_in_at, with_query
from tests.school.signing import School, school_server, set_cookie_headers
from tests.table.support import text_of

pytestmark = pytest.mark.usefixtures("quiet_log")
CLIENT = "mattekrig-test"


@pytest.fixture
def issuer(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    with running_provider(monkeypatch) as url:
        yield url


@pytest_asyncio.fixture
async def school(store: Storage, issuer: str) -> AsyncIterator[School]:
    oidc = OidcSettings(issuer=issuer, client_id=CLIENT, client_secret="test-secret", name="Feide")
    async with school_server(store, oidc) as served:
        served.wall.now = time.time()  # the provider signs its tokens by the real clock
        yield served


async def _to_provider(
    school: School, browser: aiohttp.ClientSession | None = None, link: str | None = None
) -> str:
    """The browser leaves for the provider: by the sign-in page's button, or by a link's."""
    if link is None:
        status, _, answer = await school.in_browser(
            browser or school.browser, "GET", "/signin/oidc?lang=en"
        )
    else:
        status, _, answer = await school.in_browser(
            browser or school.browser, "POST", f"/signin/link/{link}", data={"lang": "en"}
        )
    assert status == 303, answer
    return answer.headers["Location"]


async def _back(
    school: School, callback: str, browser: aiohttp.ClientSession | None = None
) -> tuple[int, str]:
    status, text, _ = await school.in_browser(browser or school.browser, "GET", callback)
    return status, text_of(text)


async def _who(school: School, browser: aiohttp.ClientSession | None = None) -> str | None:
    status, text, _ = await school.in_browser(browser or school.browser, "GET", "/mine")
    return text.removeprefix("signed in as ").split(" (")[0] if status == 200 else None


async def _bound_teacher(school: School, subject: str = "kari-at-feide") -> Teacher:
    """Kari's first sign-in, through her link: her account is bound to her."""
    teacher, token = await school.link("Kari")
    browser = school.new_browser()
    callback = await sign_in_at(await _to_provider(school, browser, token), subject)
    assert (await _back(school, callback, browser))[0] == 303
    found = await school.store.school_teacher(teacher.id)
    assert found is not None and found.bound
    return found


async def test_a_teacher_binds_the_account_by_the_link_then_signs_in_with_it(
    school: School,
) -> None:
    """The link page offers "Sign in with Feide"; that first sign-in binds the account and
    spends the link; from then on the provider alone signs the teacher in. Only `openid` is
    asked for, with state, nonce and PKCE, and the link's token is not in the provider's URL."""
    teacher, token = await school.link("Kari")
    status, page, _ = await school.get(f"/signin/link/{token}?lang=nb")
    assert status == 200 and "Logg inn med Feide" in text_of(page)
    status, _, answer = await school.post(f"/signin/link/{token}", {"lang": "en"})
    assert status == 303
    where = answer.headers["Location"]
    query = parse_qs(urlsplit(where).query)
    assert query["scope"] == ["openid"] and query["client_id"] == [CLIENT]
    assert query["code_challenge_method"] == ["S256"] and query["nonce"] and query["state"]
    assert token not in where
    (flow,) = set_cookie_headers(answer, FLOW_COOKIE)
    assert flow[FLOW_COOKIE]["httponly"] is True and flow[FLOW_COOKIE]["path"] == "/signin"
    assert flow[FLOW_COOKIE]["samesite"] == "Lax" and flow[FLOW_COOKIE]["max-age"] == "600"
    status, _ = await _back(school, await sign_in_at(where, "kari-at-feide"))
    assert status == 303 and await _who(school) == "Kari"
    assert (await school.get(f"/signin/link/{token}"))[0] == 404  # spent
    bound = await school.store.school_teacher(teacher.id)
    assert bound is not None and bound.bound
    later = school.new_browser()
    callback = await sign_in_at(await _to_provider(school, later), "kari-at-feide")
    status, _ = await _back(school, callback, later)
    assert status == 303 and await _who(school, later) == "Kari"


async def test_an_unknown_subject_is_refused(school: School) -> None:
    """A pupil with an account at the school's provider signs in there, and is refused here
    with the way a teacher gets in: no session, no teacher made."""
    kari = await _bound_teacher(school)
    callback = await sign_in_at(await _to_provider(school), "pupil-at-feide")
    status, text = await _back(school, callback)
    assert status == 403
    assert "This Feide account is not a teacher on this server" in text
    assert "one-time sign-in link" in text
    assert school.session_cookie() is None and await _who(school) is None
    assert await school.store.school_teachers() == [kari]


async def test_a_forged_or_replayed_state_is_refused_and_changes_nothing(
    school: School,
) -> None:
    """The provider's answer counts only in the browser that began the sign-in, once: a
    state not this browser's (forged, or another browser's answer pushed on it) and the
    same answer a second time are refused, and leave every session as it was."""
    kari = await _bound_teacher(school)
    callback = await sign_in_at(await _to_provider(school), "kari-at-feide")
    forged = with_query(callback, state="forged" * 8)
    status, text = await _back(school, forged)
    assert status == 400 and "was not started in this browser" in text
    assert await _who(school) is None
    victim = school.new_browser()  # login CSRF: an attacker's answer in another's browser
    assert (await _back(school, callback, victim))[0] == 400
    assert await _who(school, victim) is None

    callback = await sign_in_at(await _to_provider(school), "kari-at-feide")
    school.wall.now += 60
    assert (await _back(school, callback))[0] == 303
    session = school.session_cookie()
    signed = await school.store.school_teacher(kari.id)
    school.wall.now += 60
    status, text = await _back(school, callback)  # replayed
    assert status == 400 and "was not started in this browser" in text
    assert school.session_cookie() == session and await _who(school) == "Kari"
    assert await school.store.school_teacher(kari.id) == signed


async def test_a_wrong_nonce_is_refused_and_binds_nothing(school: School) -> None:
    """An ID token whose nonce is not the one this browser's sign-in began with (a token
    replayed from another sign-in) proves nothing: the link stays unspent, nothing bound."""
    teacher, token = await school.link("Kari")
    where = await _to_provider(school, link=token)
    callback = await sign_in_at(with_query(where, nonce="another-nonce" * 4), "kari-at-feide")
    status, text = await _back(school, callback)
    assert status == 403 and "Feide did not confirm who you are" in text
    assert school.session_cookie() is None
    assert (await school.store.school_teacher(teacher.id)) == teacher  # unbound
    assert (await school.get(f"/signin/link/{token}"))[0] == 200  # unspent


async def test_a_code_for_another_client_is_refused(school: School) -> None:
    """An answer the provider made for another application (another audience) signs in
    nobody here."""
    await _bound_teacher(school)
    where = with_query(await _to_provider(school), client_id="another-application")
    status, text = await _back(school, await sign_in_at(where, "kari-at-feide"))
    assert status == 403 and "did not confirm who you are" in text
    assert school.session_cookie() is None


async def test_an_account_bound_to_another_teacher_is_refused(school: School) -> None:
    """A link cannot give one account to two teachers: Lars's link with Kari's account is
    refused, and Lars's link stays unspent for his own account."""
    await _bound_teacher(school, "shared-account")
    _, token = await school.link("Lars")
    callback = await sign_in_at(await _to_provider(school, link=token), "shared-account")
    status, text = await _back(school, callback)
    assert status == 409 and "already connected to another teacher" in text
    assert school.session_cookie() is None
    callback = await sign_in_at(await _to_provider(school, link=token), "lars-at-feide")
    assert (await _back(school, callback))[0] == 303 and await _who(school) == "Lars"


async def test_a_provider_that_cannot_be_reached_is_a_page_not_a_500(store: Storage) -> None:
    """The provider down: the teacher reads a sentence and may try again; no traceback."""
    oidc = OidcSettings(
        issuer="http://127.0.0.1:9", client_id=CLIENT, client_secret="s", name="Feide"
    )
    async with school_server(store, oidc) as school:
        status, text, _ = await school.get("/signin/oidc?lang=nn")
        assert status == 502 and "Fekk ikkje kontakt med Feide" in text_of(text)
        assert SESSION_COOKIE not in {c.key for c in school.browser.cookie_jar}


async def test_no_token_code_or_state_reaches_the_servers_log(
    school: School, caplog: pytest.LogCaptureFixture
) -> None:
    """ "tokens never logged": the server's own log lines (the provider's are its own) hold
    neither the link's token nor the session's, nor the state, the nonce or the code."""
    caplog.set_level(logging.DEBUG)
    _, token = await school.link("Kari")
    where = await _to_provider(school, link=token)
    callback = await sign_in_at(where, "kari-at-feide")
    await _back(school, callback)
    await _back(school, callback)  # replayed: refused, and logged as such
    session = school.session_cookie()
    assert session is not None
    query = parse_qs(urlsplit(where).query) | parse_qs(urlsplit(callback).query)
    secrets = [token, session, *query["state"], *query["nonce"], *query["code"]]
    ours = [r for r in caplog.records if not r.name.startswith(("werkzeug", "oidc_provider"))]
    logged = "\n".join(f"{r.getMessage()} {r.args}" for r in ours)
    assert "a teacher signed in" in logged and "without this browser's state" in logged
    assert [s for s in secrets if s in logged] == []
