"""The school's OpenID Connect provider (Feide, or the school's own), as a client: its
discovery document, the authorization code flow with PKCE, and the ID token checked.

Only the scope ``openid`` is asked for: the server needs the account's opaque subject and
nothing else (no name, no e-mail). The ID token is checked whole before its subject is
believed: signed by a key of the provider's JWKS with an asymmetric algorithm the provider
announces (never ``none``, never a shared secret), issued by the configured issuer, for this
client (``aud``, and ``azp`` when present), not expired, and carrying the nonce this browser's
sign-in began with. The JOSE work is joserfc's (Authlib's JOSE library) and the ID token's
own rules are Authlib's `CodeIDToken`; HTTP is aiohttp, which the server runs on already.

Nothing here logs a token, a code or a nonce: a refusal is logged by the claim it failed.
"""

from __future__ import annotations

import asyncio
import base64
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

import aiohttp
from authlib.oauth2.rfc7636 import create_s256_code_challenge
from authlib.oidc.core import CodeIDToken
from joserfc import jwt
from joserfc.errors import InvalidKeyIdError, JoseError
from joserfc.jwk import KeySet
from joserfc.jws import JWSRegistry

from school.settings import OidcSettings

log = logging.getLogger(__name__)

SCOPE = "openid"
TIMEOUT = aiohttp.ClientTimeout(total=10)
# What an ID token may be signed with: public-key algorithms only (a symmetric one would be
# keyed by the client secret, which this server holds too).
SIGNING = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512")
LEEWAY_SECONDS = 60  # the provider's clock and ours may differ a little


class ProviderError(Exception):
    """The provider could not be reached, or answered something that is no OpenID Connect."""


class IdTokenError(Exception):
    """The provider's answer does not prove who signed in: nothing is believed of it."""


@dataclass(frozen=True, slots=True)
class Provider:
    """What discovery says of the provider, as much as the flow needs."""

    issuer: str
    authorization_endpoint: str
    token_endpoint: str
    jwks_uri: str
    algorithms: tuple[str, ...]
    basic_auth: bool  # the client authenticates with HTTP Basic (else in the form)


def _endpoint(document: Mapping[str, Any], name: str) -> str:
    value = document.get(name)
    parts = urlsplit(value) if isinstance(value, str) else None
    if parts is None or parts.scheme not in ("https", "http") or not parts.hostname:
        raise ProviderError(f"the discovery document has no usable {name}")
    return str(value)


def provider_of(document: Mapping[str, Any], issuer: str) -> Provider:
    """The provider of a discovery document, which must name the configured issuer."""
    if document.get("issuer") != issuer:
        raise ProviderError("the discovery document names another issuer")
    offered = document.get("id_token_signing_alg_values_supported") or ["RS256"]
    algorithms = tuple(a for a in SIGNING if a in offered)
    if not algorithms:
        raise ProviderError("the provider signs ID tokens with no public-key algorithm")
    methods = document.get("token_endpoint_auth_methods_supported") or ["client_secret_basic"]
    return Provider(
        issuer=issuer,
        authorization_endpoint=_endpoint(document, "authorization_endpoint"),
        token_endpoint=_endpoint(document, "token_endpoint"),
        jwks_uri=_endpoint(document, "jwks_uri"),
        algorithms=algorithms,
        basic_auth="client_secret_basic" in methods or "client_secret_post" not in methods,
    )


def verify_id_token(
    token: str,
    keys: KeySet,
    *,
    issuer: str,
    client_id: str,
    nonce: str,
    algorithms: tuple[str, ...],
    now: int,
) -> str:
    """The subject of a valid ID token (see the module's docstring); IdTokenError naming the
    check it failed. InvalidKeyIdError passes through: the provider may have new keys."""
    try:
        decoded = jwt.decode(token, keys, registry=JWSRegistry(algorithms=list(algorithms)))
    except InvalidKeyIdError:
        raise
    except (JoseError, ValueError) as error:
        raise IdTokenError(f"the ID token's signature: {type(error).__name__}") from None
    options = {
        "iss": {"essential": True, "value": issuer},
        "aud": {"essential": True, "value": client_id},
        "sub": {"essential": True},
        "exp": {"essential": True},
        "nonce": {"essential": True, "value": nonce},
    }
    claims = CodeIDToken(
        decoded.claims, decoded.header, options, {"nonce": nonce, "client_id": client_id}
    )
    try:
        claims.validate(now=now, leeway=LEEWAY_SECONDS)
    except (JoseError, ValueError, TypeError) as error:
        raise IdTokenError(f"the ID token's claims: {error}") from None
    subject = decoded.claims.get("sub")
    if not isinstance(subject, str) or not 0 < len(subject) <= 255:
        raise IdTokenError("the ID token's subject is not a name of an account")
    return subject


class OidcClient:
    """One server's client of its provider: discovery and keys read once (the keys again
    when a token names a key not seen yet), over one HTTP session closed with the app."""

    def __init__(self, settings: OidcSettings, redirect_uri: str) -> None:
        self.settings = settings
        self.redirect_uri = redirect_uri
        self._http: aiohttp.ClientSession | None = None
        self._provider: Provider | None = None
        self._keys: KeySet | None = None
        self._lock = asyncio.Lock()

    @property
    def name(self) -> str:
        return self.settings.name

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._http

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()

    async def _json(self, method: str, url: str, **kwargs: Any) -> dict[str, Any]:
        """The provider's JSON answer. ProviderError when it cannot be had; IdTokenError when
        the provider refuses the request in OAuth's words (a code not ours, used, expired)."""
        where = urlsplit(url).path
        try:
            async with self._session().request(method, url, **kwargs) as answer:
                body = await answer.json(content_type=None)
                status = answer.status
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise ProviderError(f"{where}: {type(error).__name__}") from None
        if not isinstance(body, dict):
            raise ProviderError(f"{where} answered {status} without a JSON object")
        if status == 400 and isinstance(body.get("error"), str):
            raise IdTokenError(f"{where} refused: {body['error'][:40]}")
        if status != 200:
            raise ProviderError(f"{where} answered {status}")
        return body

    async def provider(self) -> Provider:
        async with self._lock:
            if self._provider is None:
                issuer = self.settings.issuer
                document = await self._json("GET", f"{issuer}/.well-known/openid-configuration")
                self._provider = provider_of(document, issuer)
            return self._provider

    async def _key_set(self, fresh: bool = False) -> KeySet:
        provider = await self.provider()
        if self._keys is None or fresh:
            document = await self._json("GET", provider.jwks_uri)
            try:
                self._keys = KeySet.import_key_set(document)  # type: ignore[arg-type]
            except (JoseError, ValueError, TypeError, KeyError) as error:
                raise ProviderError(f"the provider's keys: {type(error).__name__}") from None
        return self._keys

    async def authorize_url(self, state: str, nonce: str, verifier: str) -> str:
        """Where the browser goes to sign in (ProviderError when discovery fails)."""
        provider = await self.provider()
        query = urlencode(
            {
                "response_type": "code",
                "client_id": self.settings.client_id,
                "redirect_uri": self.redirect_uri,
                "scope": SCOPE,
                "state": state,
                "nonce": nonce,
                "code_challenge": create_s256_code_challenge(verifier),
                "code_challenge_method": "S256",
            }
        )
        separator = "&" if "?" in provider.authorization_endpoint else "?"
        return f"{provider.authorization_endpoint}{separator}{query}"

    async def subject(self, code: str, verifier: str, nonce: str, now: int) -> str:
        """The account the provider's code proves: the code exchanged (with the PKCE
        verifier) for an ID token, which is checked. ProviderError, IdTokenError."""
        provider = await self.provider()
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": self.redirect_uri,
            "code_verifier": verifier,
        }
        headers = {}
        if provider.basic_auth:  # RFC 6749 §2.3.1: each part form-encoded first
            pair = f"{quote(self.settings.client_id)}:{quote(self.settings.client_secret)}"
            headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode()
        else:
            form |= {"client_id": self.settings.client_id,
                     "client_secret": self.settings.client_secret}  # fmt: skip
        answer = await self._json("POST", provider.token_endpoint, data=form, headers=headers)
        token = answer.get("id_token")
        if not isinstance(token, str):
            raise IdTokenError("the provider's answer has no ID token")

        def check(keys: KeySet) -> str:
            return verify_id_token(
                token,
                keys,
                issuer=provider.issuer,
                client_id=self.settings.client_id,
                nonce=nonce,
                algorithms=provider.algorithms,
                now=now,
            )

        try:
            return check(await self._key_set())
        except InvalidKeyIdError:
            try:
                return check(await self._key_set(fresh=True))
            except InvalidKeyIdError:
                raise IdTokenError("the ID token names a key the provider does not have") from None


__all__ = [
    "SCOPE",
    "IdTokenError",
    "OidcClient",
    "Provider",
    "ProviderError",
    "provider_of",
    "verify_id_token",
]
