"""A real OpenID Connect provider on 127.0.0.1, for the sign-in tests: oidc-provider-mock
(Authlib's server side in a Flask app), served by werkzeug in a thread. Any client id and
secret are accepted; its authorize page takes the account's subject as a form field, which
`sign_in_at` fills as a teacher (or a pupil) would sign in there.

The school's provider is reached over HTTPS in use; here it is plain HTTP on this computer,
which Authlib's server side allows only with ``AUTHLIB_INSECURE_TRANSPORT``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import aiohttp
import oidc_provider_mock
import pytest
import werkzeug.serving


@contextmanager
def running_provider(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The provider's issuer URL, for as long as the context lasts."""
    monkeypatch.setenv("AUTHLIB_INSECURE_TRANSPORT", "1")
    app = oidc_provider_mock.app(require_nonce=True)
    server = werkzeug.serving.make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


def with_query(url: str, **changed: str) -> str:
    """``url`` with some of its query's parameters changed (a tampered authorization
    request: another nonce, another client)."""
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    query.update(changed)
    return urlunsplit(parts._replace(query=urlencode(query)))


async def sign_in_at(authorize_url: str, subject: str) -> str:
    """Sign in at the provider as ``subject``; the address it sends the browser back to (the
    server's callback, with the code and the state)."""
    async with (
        aiohttp.ClientSession() as browser,
        browser.post(authorize_url, data={"sub": subject}, allow_redirects=False) as answer,
    ):
        assert answer.status in (302, 303), await answer.text()
        return answer.headers["Location"]
