"""Teachers sign in to the school server, and the teacher's key never travels in a URL.

* ``GET /signin``: how to sign in (the provider's button, what to do with a link).
* ``GET /signin/oidc``: to the school's OpenID Connect provider (state, nonce and the PKCE
  verifier in a short-lived HttpOnly cookie on /signin, never on the server).
* ``GET /signin/callback``: the provider's answer. The state must be this browser's, the
  ID token must prove the account (`school.oidc`), and the account must be a teacher's:
  an account no link has bound is refused, so a pupil with an account at the same provider
  never becomes a teacher.
* ``GET /signin/link/<token>``: a page with one button, so that a link preview (a chat app,
  a mail scanner) does not spend the one-time link; ``POST`` spends it. With a provider the
  button is "Sign in with <provider>", and the account that signs in there is bound to the
  link's teacher; without one the link itself signs in.
* ``POST /signout``: ends this browser's session.

Every POST is refused unless it comes from the server's own pages (its Origin, as every
lesson checks it); every refusal is a page in the teacher's language and changes nothing.
A signed-in teacher goes to ``/mine``. No token is ever logged: a refusal is logged by its
reason alone.
"""

from __future__ import annotations

import hmac
import logging
import re
import secrets

from aiohttp import web

from classroom.i18n import Lang, t
from school.oidc import IdTokenError, OidcClient, ProviderError
from school.sessions import (
    DAY_MS,
    SESSION_DAYS,
    SIGNIN,
    SignInSetup,
    clear_session_cookie,
    new_token,
    session_token,
    set_session_cookie,
    teacher_of,
)
from storage.errors import SchoolConflictError
from storage.records.school import Teacher
from table.page import button, document, esc, hidden, lang_switch, md, message
from table.web import html, lang_of, read_form, same_origin

log = logging.getLogger(__name__)

FLOW_COOKIE = "mk_signin"
FLOW_PATH = "/signin"
FLOW_SECONDS = 600  # a sign-in at the provider is finished within minutes
HOME = "/mine"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,100}")
OIDC = web.AppKey("oidc", OidcClient)


def _provider(request: web.Request) -> OidcClient | None:
    return request.app.get(OIDC)


def _page(lang: Lang, body: str, status: int = 200) -> web.Response:
    title = t("signin.title", lang)
    return html(
        document(lang, "signin", title, f"<header><h1>{esc(title)}</h1></header>{body}"), status
    )


def _see_other(location: str) -> web.Response:
    return web.Response(status=303, headers={"Location": location})


def _again(lang: Lang) -> str:
    return f'<p><a href="/signin?lang={lang}">{esc(t("signin.again", lang))}</a></p>'


def refused(request: web.Request, lang: Lang, key: str, status: int) -> web.Response:
    """A refusal: the sentence, the way back to the sign-in page; nothing changed."""
    client = _provider(request)
    text = t(key, lang, provider=client.name if client else "")
    return _page(lang, message(text, error=True) + _again(lang), status)


def _signout_form(lang: Lang) -> str:
    return (
        f'<form method="post" action="/signout">{hidden("lang", lang)}'
        + button(t("signin.signout", lang))
        + "</form>"
    )


async def signin_page(request: web.Request) -> web.StreamResponse:
    lang = lang_of(request)
    teacher = await teacher_of(request)
    client = _provider(request)
    parts: list[str] = []
    if teacher is not None:
        parts.append(f'<p role="status">{md(t("signin.signed_in", lang, name=teacher.name))}</p>')
        parts.append(f'<p><a href="{HOME}?lang={lang}">{esc(t("signin.mine", lang))}</a></p>')
        parts.append(_signout_form(lang))
    elif client is not None:
        parts.append(
            f'<p class="intro">{esc(t("signin.intro.oidc", lang, provider=client.name))}</p>'
        )
        parts.append(
            f'<form method="get" action="/signin/oidc">{hidden("lang", lang)}'
            + button(t("signin.with", lang, provider=client.name), cls="primary")
            + "</form>"
        )
    else:
        parts.append(f'<p class="intro">{esc(t("signin.intro.links", lang))}</p>')
    parts.append(lang_switch(lang, "/signin", {}))
    return _page(lang, "".join(parts))


# -- OpenID Connect ---------------------------------------------------------------------------


async def _to_provider(request: web.Request, lang: Lang, link: str = "") -> web.StreamResponse:
    """Off to the provider; what the callback must find again is in the flow cookie."""
    client = _provider(request)
    if client is None:
        return refused(request, lang, "signin.error.no_provider", 404)
    state, nonce, verifier = (secrets.token_urlsafe(32) for _ in range(3))
    try:
        where = await client.authorize_url(state, nonce, verifier)
    except ProviderError as error:
        log.warning("the sign-in provider could not be asked: %s", error)
        return refused(request, lang, "signin.error.provider", 502)
    response = _see_other(where)
    response.set_cookie(
        FLOW_COOKIE,
        ".".join((state, nonce, verifier, lang, link)),
        httponly=True,
        samesite="Lax",  # the provider's redirect back is a top-level GET from its site
        secure=request.app[SIGNIN].secure,
        path=FLOW_PATH,
        max_age=FLOW_SECONDS,
    )
    return response


async def oidc_start(request: web.Request) -> web.StreamResponse:
    return await _to_provider(request, lang_of(request))


def _flow(request: web.Request) -> tuple[str, str, str, str, str] | None:
    parts = request.cookies.get(FLOW_COOKIE, "").split(".")
    if len(parts) != 5 or not all(_TOKEN.fullmatch(p) for p in parts[:3]):
        return None
    state, nonce, verifier, lang, link = parts
    if link and not _TOKEN.fullmatch(link):
        return None
    return state, nonce, verifier, lang, link


async def callback(request: web.Request) -> web.StreamResponse:
    """The provider sends the browser back here. The flow cookie is spent whatever happens,
    so a state is good for one answer only."""
    flow = _flow(request)
    lang = lang_of(request, {"lang": flow[3]} if flow else None)
    response = await _answer(request, lang, flow)
    response.del_cookie(FLOW_COOKIE, path=FLOW_PATH)
    return response


async def _answer(
    request: web.Request, lang: Lang, flow: tuple[str, str, str, str, str] | None
) -> web.StreamResponse:
    client = _provider(request)
    if client is None:
        return refused(request, lang, "signin.error.no_provider", 404)
    state = request.query.get("state", "")
    if flow is None or not hmac.compare_digest(state.encode(), flow[0].encode()):
        log.info("a sign-in answer without this browser's state was refused")
        return refused(request, lang, "signin.error.state", 400)
    _, nonce, verifier, _, link = flow
    code = request.query.get("code", "")
    if "error" in request.query or not code or len(code) > 2000:
        log.info("the provider answered a sign-in without a code")
        return refused(request, lang, "signin.error.refused", 403)
    setup = request.app[SIGNIN]
    try:
        subject = await client.subject(code, verifier, nonce, setup.now_ms() // 1000)
    except ProviderError as error:
        log.warning("the sign-in provider could not be asked: %s", error)
        return refused(request, lang, "signin.error.provider", 502)
    except IdTokenError as error:
        log.info("a sign-in was refused: %s", error)
        return refused(request, lang, "signin.error.refused", 403)
    account = (client.settings.issuer, subject)
    session = new_token()
    now = setup.now_ms()
    until = now + SESSION_DAYS * DAY_MS
    if link:
        try:
            teacher = await setup.store.spend_sign_in_link(link, session, now, until, account)
        except SchoolConflictError:
            log.info("a sign-in link was refused: its account is another teacher's")
            return refused(request, lang, "signin.error.account_taken", 409)
        if teacher is None:
            return refused(request, lang, "signin.error.link", 404)
    else:
        teacher = await setup.store.sign_in_account(*account, session, now, until)
        if teacher is None:
            log.info("a sign-in was refused: the account is no teacher's")
            return refused(request, lang, "signin.error.unknown_account", 403)
    return await _signed_in(request, lang, teacher, session)


async def _signed_in(
    request: web.Request, lang: Lang, teacher: Teacher, session: str
) -> web.StreamResponse:
    """The new session's cookie, the browser's old session ended, and on to ``/mine``."""
    setup = request.app[SIGNIN]
    old = session_token(request)
    if old is not None and old != session:
        await setup.store.end_school_session(old)
    await setup.store.purge_sign_ins(setup.now_ms())
    log.info("a teacher signed in")
    response = _see_other(f"{HOME}?lang={lang}")
    set_session_cookie(response, request, session)
    return response


# -- one-time links -----------------------------------------------------------------------------


def _link_token(request: web.Request) -> str | None:
    token = request.match_info.get("token", "")
    return token if _TOKEN.fullmatch(token) else None


async def link_page(request: web.Request) -> web.StreamResponse:
    """The link's page: one button, nothing spent (a preview must not sign anyone in)."""
    lang = lang_of(request)
    token = _link_token(request)
    setup = request.app[SIGNIN]
    teacher = None if token is None else await setup.store.sign_in_link(token, setup.now_ms())
    if token is None or teacher is None:
        return refused(request, lang, "signin.error.link", 404)
    client = _provider(request)
    if client is not None:
        intro = t("signin.link.intro.oidc", lang, name=teacher.name, provider=client.name)
        label = t("signin.with", lang, provider=client.name)
    else:
        intro = t("signin.link.intro", lang, name=teacher.name)
        label = t("signin.link.button", lang)
    body = (
        f'<p class="intro">{md(intro)}</p>'
        f'<form method="post" action="/signin/link/{esc(token)}">{hidden("lang", lang)}'
        + button(label, cls="primary")
        + "</form>"
    )
    # The token is in this page's address: the lessons' Referrer-Policy (same-origin) sends
    # it to no other site; no-referrer would make the button's POST come from Origin "null".
    return _page(lang, body)


async def spend_link(request: web.Request) -> web.StreamResponse:
    form = await read_form(request)
    lang = lang_of(request, form)
    if not same_origin(request):
        return refused(request, lang, "table.error.cross_site", 403)
    token = _link_token(request)
    setup = request.app[SIGNIN]
    if token is None:
        return refused(request, lang, "signin.error.link", 404)
    if _provider(request) is not None:  # the account that signs in there is bound to the link
        if await setup.store.sign_in_link(token, setup.now_ms()) is None:
            return refused(request, lang, "signin.error.link", 404)
        return await _to_provider(request, lang, token)
    session = new_token()
    now = setup.now_ms()
    teacher = await setup.store.spend_sign_in_link(token, session, now, now + SESSION_DAYS * DAY_MS)
    if teacher is None:
        return refused(request, lang, "signin.error.link", 404)
    return await _signed_in(request, lang, teacher, session)


async def signout(request: web.Request) -> web.StreamResponse:
    form = await read_form(request)
    lang = lang_of(request, form)
    if not same_origin(request):
        return refused(request, lang, "table.error.cross_site", 403)
    token = session_token(request)
    if token is not None:
        await request.app[SIGNIN].store.end_school_session(token)
    response = _see_other(f"/signin?lang={lang}")
    clear_session_cookie(response, request)
    return response


async def _close(app: web.Application) -> None:
    client = app.get(OIDC)
    if client is not None:
        await client.close()


def add_routes(app: web.Application, setup: SignInSetup) -> None:
    """The sign-in pages on the school app (whose `table.web.guard` and `SERVED` are set):
    ``setup`` names the teachers' storage, the public address and the provider."""
    app[SIGNIN] = setup
    if setup.oidc is not None:
        if setup.base_url is None:
            raise ValueError("OpenID Connect needs the server's public address")
        app[OIDC] = OidcClient(setup.oidc, f"{setup.base_url}/signin/callback")
        app.on_cleanup.append(_close)
    app.router.add_get("/signin", signin_page)
    app.router.add_get("/signin/oidc", oidc_start)
    app.router.add_get("/signin/callback", callback)
    app.router.add_get("/signin/link/{token}", link_page)
    app.router.add_post("/signin/link/{token}", spend_link)
    app.router.add_post("/signout", signout)


__all__ = ["FLOW_COOKIE", "HOME", "OIDC", "add_routes", "refused"]
