"""The school server's own pages in real headless Chromium (Debian's, through Playwright):
the front page, a teacher's own page and the 503 of a lesson moving between processes pass
axe-core in each of the four languages, and a pupil reaches a lesson, and a teacher starts
one, with the keyboard alone (forms, no script needed). The standards: "every web page aims
at WCAG 2.1 AA, with axe-core run in the tests, keyboard-only play"."""

from __future__ import annotations

import secrets
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio

from classroom.i18n import LANGS, t
from storage import Storage
from storage.leases import FileLeases
from tests.school.served import Served_, school_app
from tests.table.browser import axe_violations, running_browser

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.usefixtures("quiet_log")]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with running_browser() as launched:
        yield launched


@pytest_asyncio.fixture(loop_scope="module")
async def school(tmp_path: Path) -> AsyncIterator[tuple[Served_, Storage]]:
    store = await Storage.open(tmp_path / "lessons.db")
    leases = FileLeases(str(tmp_path / "lessons.db"))
    try:
        async with school_app(store, leases) as served:
            yield served, store
    finally:
        await leases.close()
        await store.close()


async def _press(page: Page, name: str) -> None:
    """Tab to the button named `name` and press Enter, as a keyboard user does."""
    await page.get_by_role("button", name=name, exact=True).focus()
    async with page.expect_navigation():
        await page.keyboard.press("Enter")


@pytest.mark.parametrize("lang", LANGS)
async def test_a_teacher_starts_and_a_pupil_joins_by_keyboard(
    browser: Browser, school: tuple[Served_, Storage], lang: str
) -> None:
    served, store = school
    teacher_id = secrets.token_hex(16)
    await store.add_school_teacher(teacher_id, f"Kari {lang}", 0)
    token = secrets.token_urlsafe(32)
    now = int(time.time() * 1000)
    await store.add_sign_in_link(teacher_id, token, now, now + 86_400_000)
    teacher = await browser.new_context(viewport={"width": 1280, "height": 720})
    pupil = await browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = await teacher.new_page()
        await page.goto(f"{served.url}/signin/link/{token}?lang={lang}")
        await _press(page, t("signin.link.button", lang))
        assert page.url == f"{served.url}/mine?lang={lang}"
        assert await axe_violations(page) == []
        await _press(page, t("server.mine.new", lang))
        assert "/teacher?lang=" in page.url
        code = page.url.split("/")[4]
        await page.goto(f"{served.url}/mine?lang={lang}")
        assert await axe_violations(page) == []  # with the lesson listed

        phone = await pupil.new_page()
        await phone.goto(f"{served.url}/?lang={lang}")
        assert await axe_violations(phone) == []
        await phone.get_by_label(t("server.front.code", lang)).focus()
        await phone.keyboard.type("000000")
        async with phone.expect_navigation():
            await phone.keyboard.press("Enter")
        assert await phone.get_by_role("alert").count() == 1  # no lesson has that code
        assert await axe_violations(phone) == []
        code_field = phone.get_by_label(t("server.front.code", lang))
        await code_field.fill("")
        await code_field.focus()
        await phone.keyboard.type(code)
        async with phone.expect_navigation():
            await phone.keyboard.press("Enter")
        assert phone.url == f"{served.url}/l/{code}/?lang={lang}"
        await phone.get_by_label(t("lesson.join.name", lang)).focus()
        await phone.keyboard.type("Ada")
        async with phone.expect_navigation():
            await phone.keyboard.press("Enter")
        assert phone.url.startswith(f"{served.url}/l/{code}/table")

        await page.goto(f"{served.url}/mine?lang={lang}")  # the lesson ends from the list
        await _press(page, t("server.mine.end", lang))
        assert page.url == f"{served.url}/mine?lang={lang}"
        assert await axe_violations(page) == []  # with the ended lesson kept
        await page.get_by_role("link", name=t("lesson.kept.summary", lang)).focus()
        async with page.expect_navigation():
            await page.keyboard.press("Enter")
        assert "/mine/lessons/" in page.url and "Ada" in await page.content()
        assert await axe_violations(page) == []
    finally:
        await teacher.close()
        await pupil.close()
