"""A lesson under a root, in real headless Chromium (Debian's, through Playwright): pupils
join lesson /l/ABCD/ of a server that serves two, are paired, and play a round with the page's
script (the join page's checks, the presses sent with fetch, the live connection), every
request of theirs going to the lesson's own addresses."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest_asyncio

from classroom.i18n import t
from engine.regnekrig import ANSWER
from table.games import TableGame
from tests.table.browser import launch, need_browser, state_is
from tests.table.lessons import best_text, side_of
from tests.table.rooted import School, school

if TYPE_CHECKING:
    from playwright.async_api import Browser, Page


@pytest_asyncio.fixture
async def browser() -> AsyncIterator[Browser]:
    need_browser()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        found = await launch(playwright)
        yield found
        await found.close()


async def until(check: Callable[[], bool], what: str) -> None:
    for _ in range(250):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"never: {what}")


def version_past(game: TableGame, before: int) -> Callable[[], bool]:
    return lambda: game.version > before


async def test_a_pupil_joins_and_plays_under_the_lessons_root(
    tmp_path: Path, browser: Browser
) -> None:
    async with school(tmp_path) as served:
        await _play(served, browser)


async def _play(served: School, browser: Browser) -> None:
    root = served.root("ABCD")
    lesson = served.hosts["ABCD"].lesson
    base = served.table.origin
    asked: list[str] = []  # every address the pupils' pages ask for (pages, fetches, sockets)
    teacher = await (await browser.new_context()).new_page()
    teacher.set_default_timeout(5000)
    await teacher.goto(f"{base}{root}/teacher?key={served.secret('ABCD')}&lang=en")
    url = await teacher.get_attribute("[data-join-url]", "data-join-url")
    assert url == f"{base}{root}/"
    pages: dict[str, Page] = {}
    for name in ("Ada", "Bo"):
        page = await (await browser.new_context(locale="en-GB")).new_page()
        page.set_default_timeout(5000)
        page.on("request", lambda request: asked.append(request.url))
        page.on("websocket", lambda ws: asked.append(ws.url))
        await page.goto(url)
        # The join page's script asks this lesson whether the device holds a seat, and
        # checks the live connection: both under the root.
        line = page.locator("#connection")
        await line.filter(has_text=t("lesson.connection.ok", "en")).wait_for()
        await page.fill('input[name="code"]', lesson.code)
        await page.fill('input[name="name"]', name)
        async with page.expect_navigation():
            await page.get_by_role("button", name=t("lesson.join.button", "en")).click()
        assert urlsplit(page.url).path == f"{root}/table"
        await state_is(page, "waiting")
        pages[name] = page
    async with teacher.expect_navigation():
        await teacher.get_by_role("button", name=t("lesson.teacher.pair_random", "en")).click()
    game = lesson.live_games()[0]
    for page in pages.values():
        await state_is(page, "playing")  # told by the live connection
        await page.locator('input[name="answer"]').wait_for()
        await page.evaluate("window.stayed = true")  # gone if the page were loaded again
    await until(lambda: game.state.phase is ANSWER, "the answers asked")
    # Bo's page as it is before Ada answers: Ada's answer changes it (Bo then types into
    # the page as it is now).
    await pages["Bo"].evaluate("window.seen = document.getElementById('table').innerHTML")
    for name, page in pages.items():
        if name == "Bo":
            await page.wait_for_function(
                "() => document.getElementById('table').innerHTML !== window.seen"
            )
        seat = next(s for s in lesson.seats.values() if s.name == name)
        side = side_of(game, seat)
        box = page.locator('input[name="answer"]')
        before = game.version
        await box.fill(best_text(game, side))
        await box.press("Enter")  # sent by the script, to the lesson's own address
        await until(version_past(game, before), f"{name}'s answer taken")
    round_one = t("result.round", "en", round=1).replace("**", "")
    for page in pages.values():
        await page.locator("#now").filter(has_text=round_one).wait_for()
        assert await page.evaluate("window.stayed === true")  # no page loaded again
    paths = {urlsplit(address).path for address in asked}
    assert f"{root}/live" in paths and f"{root}/seat" in paths and f"{root}/table/act" in paths
    theirs = {p for p in paths if not p.startswith((f"{root}/", "/static/", "/favicon.ico"))}
    assert theirs == set()
    await teacher.context.close()
    for page in pages.values():
        await page.context.close()
