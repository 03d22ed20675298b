"""A class that remembers in real headless Chromium (Debian's, through Playwright): the progress
pages, the progress note, the roster and the cards pass axe-core in nb, nn, sv and en, and the
heat map's cells open and close from the keyboard alone; a pupil joins by the card's page and
reads their own progress by keyboard (issue: "axe and keyboard tests on the progress pages, in
nb, nn, sv and en")."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio

from classroom.i18n import t
from storage.records.classes import NoteRow, RoundRow
from storage.sqlite import Storage
from table.lesson import card_code
from table.roster import load_roster
from table.roster_web import CLASS
from tests.table.browser import axe_violations, running_browser
from tests.table.classes import ClassLesson, Wall, class_lesson

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page

pytestmark = pytest.mark.asyncio(loop_scope="module")

LANGS = ("nb", "nn", "sv", "en")
NAMES = ("Åse", "Bo", "Ingrid-Marie", "Mohammed")
DAY = 86_400_000


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with running_browser() as launched:
        yield launched


async def _year(store: Storage, class_id: int) -> dict[str, str]:
    """Three lessons of four pupils (sign slips falling for Åse, notes for Bo); the cards."""
    wall = Wall()
    start = round(wall.now * 1000) - 21 * DAY
    cards = {}
    for i, name in enumerate(NAMES):
        pupil = await store.add_pupil(class_id, name, f"CARD{i:04d}", start)
        cards[name] = pupil.card
        for lesson in range(3):
            at = start + lesson * 7 * DAY
            slips = (6, 3, 1)[lesson] if i == 0 else 0
            rows = [RoundRow(pupil.id, 100 + lesson, at, "g", seq, at, 1 + lesson // 2, True,
                             seq >= slips, "sign_slip" if seq < slips else None)
                    for seq in range(8)]  # fmt: skip
            notes = (
                [NoteRow(pupil.id, 100 + lesson, at, "g", "not_simplified", 8, at)]
                if i == 1
                else []
            )
            await store.record_rounds(class_id, rows, notes)
    return cards


@pytest_asyncio.fixture(loop_scope="module")
async def served(tmp_path: Path) -> AsyncIterator[tuple[ClassLesson, dict[str, str]]]:
    store = await Storage.open(tmp_path / "lessons.db")
    try:
        async with class_lesson(store, Wall()) as lesson:
            cards = await _year(store, lesson.lesson.class_id or 0)
            await load_roster(store, lesson.lesson)
            yield lesson, cards
    finally:
        await store.close()


async def _teacher(browser: Browser, served: ClassLesson, lang: str) -> Page:
    context = await browser.new_context(viewport={"width": 1280, "height": 720}, locale=lang)
    page = await context.new_page()
    page.set_default_timeout(5000)
    base = str(served.table.client.make_url("/"))
    await page.goto(f"{base}teacher?key={served.lesson.teacher_secret}&lang={lang}")
    return page


@pytest.mark.parametrize("lang", LANGS)
async def test_the_class_pages_pass_axe(
    browser: Browser, served: tuple[ClassLesson, dict[str, str]], lang: str
) -> None:
    lesson, _ = served
    page = await _teacher(browser, lesson, lang)
    base = str(lesson.table.client.make_url("/"))
    pupil = (await lesson.table.app[CLASS].store.pupils(lesson.lesson.class_id or 0))[0]
    for path in (
        f"teacher/progress?lang={lang}",
        f"teacher/progress?lang={lang}&by=week",
        f"teacher/progress?lang={lang}&kind=sign_slip&lesson=100",
        f"teacher/progress/pupil/{pupil.id}?lang={lang}",
        f"teacher/class?lang={lang}",
        f"teacher/class/cards?lang={lang}",
    ):
        response = await page.goto(base + path)
        assert response is not None and response.status == 200, path
        assert await axe_violations(page) == [], path
    await page.context.close()


async def test_the_heat_map_opens_and_closes_from_the_keyboard(
    browser: Browser, served: tuple[ClassLesson, dict[str, str]]
) -> None:
    """Names only when the teacher opens a cell: Tab to the cell's number, Enter shows who,
    Tab and Enter on "hide the names" hides them again."""
    lesson, _ = served
    page = await _teacher(browser, lesson, "nb")
    base = str(lesson.table.client.make_url("/"))
    await page.goto(f"{base}teacher/progress?lang=nb")
    assert await page.locator("#cell-h").count() == 0
    # The cell's link names its count, kind and lesson: "1 elev: fortegnsfeil, 2026-…".
    opener = t("class.progress.heat.open", "nb", count=1, kind=t("mistake.sign_slip", "nb"),
               lesson="{lesson}").split("{lesson}")[0]  # fmt: skip
    for _ in range(80):
        await page.keyboard.press("Tab")
        label = await page.evaluate("document.activeElement.getAttribute('aria-label') || ''")
        if label.startswith(opener):
            break
    else:
        raise AssertionError("no heat-map cell reached by Tab")
    await page.keyboard.press("Enter")
    await page.wait_for_selector("#cell-h")
    cell = await page.locator("#cell-h").locator("xpath=..").inner_text()
    assert "Åse" in cell and "Bo" not in cell.split("\n", 1)[1]
    hide = t("class.progress.cell.close", "nb")
    for _ in range(80):
        await page.keyboard.press("Tab")
        if (await page.evaluate("document.activeElement.textContent")) == hide:
            break
    else:
        raise AssertionError("the names cannot be hidden by keyboard")
    await page.keyboard.press("Enter")
    await page.wait_for_load_state()
    assert await page.locator("#cell-h").count() == 0
    await page.context.close()


@pytest.mark.parametrize("lang", LANGS)
async def test_a_pupil_joins_by_the_card_and_reads_their_own_progress(
    browser: Browser, served: tuple[ClassLesson, dict[str, str]], lang: str
) -> None:
    lesson, cards = served
    context = await browser.new_context(viewport={"width": 390, "height": 844}, locale=lang)
    page = await context.new_page()
    page.set_default_timeout(5000)
    base = str(lesson.table.client.make_url("/"))
    name = NAMES[LANGS.index(lang)]
    await page.goto(f"{base}card/{card_code(cards[name])}?lang={lang}")
    assert await axe_violations(page) == []
    await page.focus("#code")
    await page.keyboard.press("Enter")  # the code is filled in: Enter joins
    await page.wait_for_url("**/table**")
    await page.goto(f"{base}mine?lang={lang}")
    text = await page.inner_text("main")
    assert t("class.mine.title", lang) in text
    assert not any(other in text for other in NAMES if other != name)
    assert await axe_violations(page) == []
    await page.goto(f"{base}card/{card_code(cards[name])}?lang={lang}")
    assert t("class.mine.title", lang) in await page.inner_text("main")
    await context.close()
