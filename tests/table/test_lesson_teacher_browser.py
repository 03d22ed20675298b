"""The teacher's page for a class of 32 in real headless Chromium (Debian's, through
Playwright), at the sizes of a teacher's laptop on the projector (1280×720 and 1366×768):
axe-core finds nothing, the whole page is about two screens high, the game chosen in the
pairing's form is the one played, and the removal menu works from the keyboard alone.

One browser for the module (a new one per test costs more than the test)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio

from classroom.i18n import t
from table.class_web import HUB
from table.lesson import Lesson
from tests.table.browser import axe_violations, running_browser
from tests.table.support import Table, serve

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page, ViewportSize

pytestmark = pytest.mark.asyncio(loop_scope="module")

LAPTOPS: list[ViewportSize] = [{"width": 1280, "height": 720}, {"width": 1366, "height": 768}]
# A class as it is: short names and long ones, letters beyond a–z.
NAMES = ["Ada", "Bo", "Cy", "Di", "Eli", "Fia", "Gus", "Hans", "Ida", "Jon", "Kari", "Lars",
         "Mia", "Nils", "Ola", "Pia", "Rut", "Siv", "Tor", "Una", "Vera", "Wenche", "Yngve",
         "Øyvind", "Åse", "Ingrid-Marie", "Mohammed", "Sofie", "Emil", "Nora", "Jakob",
         "Thea"]  # fmt: skip
SCREENS = 2.1  # "the whole page within about two screens at 32 pupils"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with running_browser() as launched:
        yield launched


@pytest_asyncio.fixture(loop_scope="module")
async def lesson() -> AsyncIterator[Table]:
    async for table in serve(seeds=[21, 22, 23], kind="class"):
        table.lesson.rng = random.Random(5)
        yield table


def seat_class(lesson: Lesson) -> None:
    for name in NAMES:
        lesson.join(None, lesson.code, name)


async def teacher_page(
    browser: Browser, table: Table, size: ViewportSize, script: bool = True, lang: str = "nb"
) -> Page:
    context = await browser.new_context(viewport=size, locale="nb-NO", java_script_enabled=script)
    page = await context.new_page()
    page.set_default_timeout(5000)
    base = str(table.client.make_url("/"))
    await page.goto(f"{base}teacher?key={table.lesson.teacher_secret}&lang={lang}")
    return page


async def height(page: Page) -> int:
    return int(await page.evaluate("document.documentElement.scrollHeight"))


@pytest.mark.parametrize(
    ("size", "lang"),
    [(LAPTOPS[0], "nb"), (LAPTOPS[1], "nb"), (LAPTOPS[0], "en")],
    ids=["1280x720", "1366x768", "1280x720-en"],
)
async def test_a_class_of_32_fits_in_about_two_screens(
    browser: Browser, lesson: Table, size: ViewportSize, lang: str
) -> None:
    """Issue: "4,800 px at 1280×720 with 28 pupils, finished games piled above the live
    ones, 28 'Remove' buttons on the projector". At 32 pupils, while they join and while
    they play (one table already finished), the page is about two screens; axe-core finds
    nothing in either. (English's words are the longest of the four.)"""
    seat_class(lesson.lesson)
    page = await teacher_page(browser, lesson, size, lang=lang)
    joining = await height(page)
    assert await axe_violations(page) == []
    lesson.lesson.pair("random")
    lesson.lesson.remove(next(iter(lesson.lesson.seats)))  # its game is over: folded away
    await page.reload()
    playing = await height(page)
    assert await axe_violations(page) == []
    assert await page.locator("[data-seat]").count() == 31
    assert await page.locator('[data-control="remove"]').count() == 1
    assert not await page.locator('details.finished [data-state="over"]').is_visible()
    screens = max(joining, playing) / size["height"]
    print(f"teacher's page at {size['width']}×{size['height']}: {joining} px joining, "
          f"{playing} px playing ({screens:.2f} screens)")  # fmt: skip
    assert screens <= SCREENS, (joining, playing)
    await page.context.close()


@pytest.mark.parametrize("script", [True, False], ids=["script", "forms alone"])
async def test_the_game_chosen_on_the_page_is_the_game_paired(
    browser: Browser, lesson: Table, script: bool
) -> None:
    """Issue: "a teacher who picks Satsing and presses 'Tilfeldige par' gets Regnekrig level
    1". With the script, the options Satsing does not ask (the level) leave the form's view
    when it is chosen; without it they stay, and the server reads only Satsing's."""
    for name in NAMES[:6]:
        lesson.lesson.join(None, lesson.lesson.code, name)
    page = await teacher_page(browser, lesson, LAPTOPS[0], script)
    level = page.locator(".field[data-games] #level")
    assert await level.is_visible()
    await page.select_option("#game", "satsing")
    assert await level.is_visible() is not script
    async with page.expect_navigation():
        await page.get_by_role("button", name=t("lesson.teacher.pair_random", "nb")).click()
    games = lesson.lesson.live_games()
    assert len(games) == 3 and {g.state.config.game for g in games} == {"satsing"}
    await page.context.close()


async def test_the_removal_menu_works_from_the_keyboard(browser: Browser, lesson: Table) -> None:
    """Seat removal is one menu: Tab to it, Enter opens it, the arrow keys choose the pupil,
    Enter removes after the question (also answered from the keyboard)."""
    for name in NAMES[:4]:
        lesson.lesson.join(None, lesson.lesson.code, name)
    page = await teacher_page(browser, lesson, LAPTOPS[1])

    async def tab_to(check: str) -> None:
        for _ in range(80):
            await page.keyboard.press("Tab")
            if await page.evaluate(f"(() => {{ const e = document.activeElement; {check} }})()"):
                return
        raise AssertionError(f"no Tab stop where {check}")

    await tab_to("return e.tagName === 'SUMMARY' && e.closest('#remove-menu') !== null;")
    await page.keyboard.press("Enter")
    assert await page.locator("#remove-menu").get_attribute("open") is not None
    await page.keyboard.press("Tab")
    assert await page.evaluate("document.activeElement.id") == "remove-seat"
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("ArrowDown")  # past "everyone not playing" and Ada: Bo
    assert await page.locator("#remove-seat").evaluate("s => s.selectedOptions[0].text") == "Bo"
    # A latecomer joins meanwhile: the page's seats are redrawn live, and the open menu, the
    # choice made in it and the focus stay as the teacher left them.
    lesson.lesson.join(None, lesson.lesson.code, "Eli")
    await lesson.app[HUB].lobby_changed()
    await page.locator("[data-seat]").nth(4).wait_for()
    assert await page.locator("#remove-menu").get_attribute("open") is not None
    assert await page.locator("#remove-seat").evaluate("s => s.selectedOptions[0].text") == "Bo"
    assert await page.evaluate("document.activeElement.id") == "remove-seat"
    await page.keyboard.press("Tab")
    async with page.expect_navigation():
        await page.keyboard.press("Enter")
    assert await axe_violations(page) == []
    yes = t("lesson.teacher.remove_yes", "nb", name="Bo")
    await tab_to(f"return e.textContent === {yes!r};")
    async with page.expect_navigation():
        await page.keyboard.press("Enter")
    assert sorted(s.name for s in lesson.lesson.seats.values()) == ["Ada", "Cy", "Di", "Eli"]
    await page.context.close()


async def test_closing_the_lesson_and_removing_every_waiting_seat(
    browser: Browser, lesson: Table
) -> None:
    """After a flood of joins: "Steng timen for nye", then every seat not playing removed in
    one step (asked first), and the lesson opened again; axe-core finds nothing on the way."""
    for name in NAMES[:8]:
        lesson.lesson.join(None, lesson.lesson.code, name)
    lesson.lesson.pair("random")
    for n in range(20):
        lesson.lesson.join(None, lesson.lesson.code, f"Bot {n}")
    page = await teacher_page(browser, lesson, LAPTOPS[0])
    async with page.expect_navigation():
        await page.locator('[data-control="lock"]').click()
    assert lesson.lesson.locked and await page.locator('[data-control="unlock"]').is_visible()
    await page.locator("#remove-menu summary").click()
    await page.select_option("#remove-seat", "waiting")
    async with page.expect_navigation():
        await page.locator('[data-control="remove"]').click()
    assert await axe_violations(page) == []
    yes = t("lesson.teacher.remove_waiting_yes", "nb", count=20)
    async with page.expect_navigation():
        await page.get_by_role("button", name=yes).click()
    assert sorted(s.name for s in lesson.lesson.seats.values()) == sorted(NAMES[:8])
    assert await page.locator("[data-seat]").count() == 8
    async with page.expect_navigation():
        await page.locator('[data-control="unlock"]').click()
    assert not lesson.lesson.locked
    assert await axe_violations(page) == []
    await page.context.close()
