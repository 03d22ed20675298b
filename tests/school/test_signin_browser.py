"""The sign-in pages in real headless Chromium (Debian's, through Playwright): axe-core finds
nothing on the sign-in page, a link's page, the signed-in page and a refusal, in each of the
four languages, and a teacher signs in and out with the keyboard alone (forms, no script).
HELPERS: "Web pages: WCAG 2.1 AA (axe-core runs in the browser tests), keyboard-only"."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio

from classroom.i18n import LANGS, t
from storage import Storage
from tests.school.signing import School, school_server
from tests.table.browser import axe_violations, running_browser

if TYPE_CHECKING:
    from playwright.async_api import Browser

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.usefixtures("quiet_log")]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with running_browser() as launched:
        yield launched


@pytest_asyncio.fixture(loop_scope="module")
async def school(tmp_path: Path) -> AsyncIterator[School]:
    store = await Storage.open(tmp_path / "lessons.db")
    try:
        async with school_server(store) as served:
            yield served
    finally:
        await store.close()


@pytest.mark.parametrize("lang", LANGS)
async def test_a_teacher_signs_in_and_out_by_keyboard_and_axe_finds_nothing(
    browser: Browser, school: School, lang: str
) -> None:
    _, token = await school.link()
    context = await browser.new_context(viewport={"width": 1280, "height": 720})
    page = await context.new_page()
    try:
        await page.goto(f"{school.url}/signin?lang={lang}")
        assert await axe_violations(page) == []
        await page.goto(f"{school.url}/signin/link/{token}?lang={lang}")
        assert await axe_violations(page) == []
        sign_in = page.get_by_role("button", name=t("signin.link.button", lang))
        await sign_in.focus()
        await page.keyboard.press("Enter")
        await page.wait_for_url(f"{school.url}/mine?lang={lang}")
        assert "signed in as Kari Lærer" in await page.content()
        await page.goto(f"{school.url}/signin?lang={lang}")
        assert await axe_violations(page) == []
        await page.get_by_role("button", name=t("signin.signout", lang)).focus()
        async with page.expect_navigation():  # from /signin back to /signin
            await page.keyboard.press("Enter")
        assert page.url == f"{school.url}/signin?lang={lang}"
        assert await page.get_by_role("button", name=t("signin.signout", lang)).count() == 0
        await page.goto(f"{school.url}/signin/link/{token}?lang={lang}")  # spent: refused
        assert await page.get_by_role("alert").count() == 1
        assert await axe_violations(page) == []
    finally:
        await context.close()
