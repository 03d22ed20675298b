"""A real headless browser for the table's tests: Debian's chromium driven by Playwright for
Python (never `playwright install`, which downloads a browser). Locally the browser tests
skip with the reason when either is missing; in CI (the `CI` variable set) they fail."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path
from typing import Any

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


# axe-core's rules for WCAG 2.1 A and AA, and its best practices (landmarks, headings).
AXE_RULES = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    },
    "resultTypes": ["violations"],
}


async def axe_violations(page: Any) -> list[str]:
    """axe-core (bundled with axe-playwright-python, so it runs offline) on the page as it is:
    each violation as its rule and the first elements it names."""
    from axe_playwright_python.async_playwright import Axe

    results = await Axe().run(page, options=AXE_RULES)
    return [
        f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in results.response["violations"]
    ]
