"""A real headless browser for the table's tests: Debian's chromium driven by Playwright for
Python (never `playwright install`, which downloads a browser). Locally the browser tests
skip with the reason when either is missing; in CI (the `CI` variable set) they fail."""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # Playwright may be missing here: the tests then skip (`missing`)
    from playwright.async_api import Browser, Page, Playwright

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# No network beyond this computer, no first-run work, no GPU: a quiet, quick browser.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
INSTALL = "apt-get install -y chromium; pip install -e '.[test]'"


def missing() -> str | None:
    """Why the browser tests cannot run here, or None when they can."""
    if importlib.util.find_spec("playwright") is None:
        return f"Playwright for Python is not installed ({INSTALL})"
    if not Path(CHROMIUM).exists():
        return f"no chromium at {CHROMIUM} ({INSTALL})"
    return None


def in_ci() -> bool:
    return bool(os.environ.get("CI"))


def need_browser() -> None:
    """Skip the calling fixture's tests with the reason when the browser cannot run here;
    in CI, fail them instead (the browser tests must run there)."""
    reason = missing()
    if reason is None:
        return
    if in_ci():
        pytest.fail(f"the browser tests must run in CI: {reason}")
    pytest.skip(reason)


# A new chromium's first tab starts its renderer and reads its libraries and fonts from disk:
# measured at 9.4 s to launch and 1.8 s for the first tab on a machine whose disk cache was
# just dropped, against 0.5 s and 0.25 s warm. A fresh CI machine pays that inside the first
# test's first step, whose budget is 5 s, so the launch pays it instead, with room to spare.
WARM_UP_MS = 60_000
WARM_UP_PAGE = (
    "<!doctype html><html lang='nb'><title>Mattekrig</title>"
    "<p>Regnekrig: 3 + (−5) = −2 · fortegnsfeil · teckenfel · ÷ √ ½</p></html>"
)


async def launch(playwright: Playwright) -> Browser:
    """Debian's chromium, launched and warmed up: one tab has drawn a page and closed."""
    browser = await playwright.chromium.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=WARM_UP_MS
    )
    context = await browser.new_context()
    page = await context.new_page()
    await page.set_content(WARM_UP_PAGE, timeout=WARM_UP_MS)
    await page.screenshot(timeout=WARM_UP_MS)
    await context.close()
    return browser


# axe-core's rules for WCAG 2.1 A and AA, and its best practices (landmarks, headings).
AXE_RULES = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    },
    "resultTypes": ["violations"],
}


async def axe_violations(page: Page) -> list[str]:
    """axe-core (bundled with axe-playwright-python, so it runs offline) on the page as it is:
    each violation as its rule and the first elements it names."""
    from axe_playwright_python.async_playwright import Axe

    results = await Axe().run(page, options=AXE_RULES)
    return [
        f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in results.response["violations"]
    ]


@asynccontextmanager
async def running_browser() -> AsyncIterator[Browser]:
    """Debian's chromium for a module's tests, launched and warmed up (the tests skip where
    it cannot run here, and fail in CI)."""
    need_browser()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await launch(playwright)
        try:
            yield launched
        finally:
            await launched.close()


async def state_is(page: Page, state: str) -> None:
    """The live connection brings the page to `state` (no reload, no polling). The predicate
    is a function: a bare expression is evaluated with `eval` in the page, which its
    Content-Security-Policy forbids once the wait has to poll."""
    await page.wait_for_function(
        f"() => document.getElementById('table').dataset.state === '{state}'", timeout=15000
    )
