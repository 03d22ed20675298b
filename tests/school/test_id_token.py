"""The ID token is checked whole before its subject is believed (school/oidc.py). The issue's
sign-in: "the ID token verified (issuer, audience, expiry, nonce, signature by the provider's
JWKS)". Tokens signed here with a key made for the test, as a provider signs them, and each
changed in one way the check must refuse."""

from __future__ import annotations

from typing import Any

import pytest
from joserfc import jwt
from joserfc.errors import InvalidKeyIdError
from joserfc.jwk import KeySet, OctKey, RSAKey

from school.oidc import IdTokenError, ProviderError, provider_of, verify_id_token

ISSUER = "https://auth.school.example"
CLIENT = "mattekrig"
NONCE = "n" * 43
NOW = 1_800_000_000
KEY = RSAKey.generate_key(2048, parameters={"kid": "k1"}, private=True)
OTHER = RSAKey.generate_key(2048, parameters={"kid": "k1"}, private=True)
PUBLISHED = KeySet([RSAKey.import_key(KEY.as_dict(private=False))])


def _claims(**changed: Any) -> dict[str, Any]:
    claims = {
        "iss": ISSUER, "sub": "kari", "aud": CLIENT, "exp": NOW + 300, "iat": NOW,
        "nonce": NONCE,
    }  # fmt: skip
    claims.update(changed)
    return {k: v for k, v in claims.items() if v is not None}


def _token(key: Any = KEY, alg: str = "RS256", **changed: Any) -> str:
    return jwt.encode({"alg": alg, "kid": "k1"}, _claims(**changed), key)


def _verify(token: str, nonce: str = NONCE) -> str:
    return verify_id_token(
        token, PUBLISHED, issuer=ISSUER, client_id=CLIENT, nonce=nonce,
        algorithms=("RS256",), now=NOW,
    )  # fmt: skip


def test_a_valid_token_names_its_subject() -> None:
    assert _verify(_token()) == "kari"
    assert _verify(_token(aud=[CLIENT])) == "kari"


@pytest.mark.parametrize(
    "changed",
    [
        {"aud": "another-application"},  # for another audience
        {"aud": ["another-application"]},
        {"aud": [CLIENT, "other"], "azp": "other"},  # another party was authorised
        {"iss": "https://evil.example"},  # another issuer
        {"exp": NOW - 120},  # expired (beyond the minute's leeway)
        {"exp": None},  # no expiry
        {"nonce": "another-nonce"},  # another sign-in's token
        {"nonce": None},
        {"sub": None},
        {"sub": ""},
    ],
)
def test_a_token_changed_in_one_claim_is_refused(changed: dict[str, Any]) -> None:
    with pytest.raises(IdTokenError):
        _verify(_token(**changed))


def test_a_token_signed_by_another_key_or_algorithm_is_refused() -> None:
    """Only the provider's published keys, by the asymmetric algorithms it announces: not a
    key of the same id made by someone else, not a shared secret, not ``none``."""
    with pytest.raises(IdTokenError):
        _verify(_token(OTHER))
    secret = OctKey.generate_key(256, parameters={"kid": "k1"})
    with pytest.raises(IdTokenError):
        _verify(_token(secret, "HS256"))
    unsigned = _token().rsplit(".", 1)[0] + "."
    with pytest.raises(IdTokenError):
        _verify(unsigned)
    with pytest.raises(IdTokenError):
        _verify("not a token")


def test_a_key_the_provider_has_not_published_asks_for_its_keys_again() -> None:
    """A new key id is the provider's rotation, not a forgery yet: the client reads the JWKS
    again before it refuses (school.oidc.OidcClient.subject)."""
    stranger = RSAKey.generate_key(2048, parameters={"kid": "new"}, private=True)
    token = jwt.encode({"alg": "RS256", "kid": "new"}, _claims(), stranger)
    with pytest.raises(InvalidKeyIdError):
        _verify(token)


def test_discovery_must_name_the_issuer_and_a_public_key_algorithm() -> None:
    document = {
        "issuer": ISSUER,
        "authorization_endpoint": f"{ISSUER}/authorize",
        "token_endpoint": f"{ISSUER}/token",
        "jwks_uri": f"{ISSUER}/jwks",
        "id_token_signing_alg_values_supported": ["RS256", "HS256", "none"],
    }
    assert provider_of(document, ISSUER).algorithms == ("RS256",)
    for wrong in (
        {"issuer": "https://evil.example"},
        {"id_token_signing_alg_values_supported": ["HS256", "none"]},
        {"token_endpoint": "javascript:alert(1)"},
        {"jwks_uri": None},
    ):
        with pytest.raises(ProviderError):
            provider_of({**document, **wrong}, ISSUER)
