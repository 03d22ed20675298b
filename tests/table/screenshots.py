"""`python -m tests.table.screenshots DIR`: the README's pictures of the browser table, taken in
the headless browser the tests use, from fixed seeds so they come out the same every time:
the one-screen table (a Regnekrig game in regn mode, and Satsing with the betting hint), and a
class lesson (the teacher's view on a 1366×768 projector, a pupil's phone). Emoji need a
colour emoji font on the machine (Debian: fonts-noto-color-emoji)."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from playwright.async_api import Browser, FloatRect, Page, ViewportSize, async_playwright

from engine.regnekrig import TARGET, Answer, NameTarget, part_of
from table.web import SERVED
from tests.table.browser import launch
from tests.table.lessons import best_text
from tests.table.support import best_answer, serve

SIZE: ViewportSize = {"width": 800, "height": 900}


async def _press(page: Page, label: str) -> None:
    async with page.expect_navigation():
        await page.get_by_role("button", name=label, exact=True).click()


async def one_screen(browser: Browser, folder: Path) -> None:
    async for table in serve(seeds=[5, 9]):
        base = str(table.client.make_url("/"))
        page = await browser.new_page(viewport=SIZE, locale="nb-NO")
        await page.goto(base + "?game=regnekrig")
        await page.select_option("#level", "5")
        await page.fill("#player1", "Ada")
        await page.fill("#player2", "Bo")
        await _press(page, "Start")
        gid = page.url.split("/game/")[1].split("?")[0]
        game = table.game(gid)
        if game.state.phase is TARGET:
            await _press(page, "3")
        await page.fill("input[name=answer]", best_answer(game, game.state.pending[0]))
        async with page.expect_navigation():
            await page.press("input[name=answer]", "Enter")
        await page.screenshot(path=str(folder / "table-browser-regnekrig.png"))

        page = await browser.new_page(viewport=SIZE, locale="en-GB")
        await page.goto(base + "?game=satsing")
        await page.fill("#player1", "Ada")
        await page.select_option("#opponent", "medium")
        await _press(page, "Start")
        gid = page.url.split("/game/")[1].split("?")[0]
        if not table.game(gid).state.pending:
            await _press(page, "Flip")
        await _press(page, "Hint")
        await page.screenshot(path=str(folder / "table-browser-satsing.png"))


async def lesson(browser: Browser, folder: Path) -> None:
    """Six pupils in Regnekrig level 5: one round played at every table, the next target being
    named; the teacher's view, and Ada's phone with her answer box."""
    async for table in serve(seeds=[31, 32, 33], kind="class"):
        table.lesson.rng = random.Random(2)
        base = str(table.client.make_url("/"))
        served = table.app[SERVED]
        served.join_url, served.address_note = "http://10.20.30.40:8080/", "10.20.30.40"
        teacher = await browser.new_page(viewport={"width": 1366, "height": 768}, locale="nb-NO")
        await teacher.goto(f"{base}teacher?key={table.lesson.teacher_secret}&lang=nb")
        phones: dict[str, Page] = {}
        for name in ("Ada", "Bo", "Cy", "Di", "Eli", "Fia"):
            context = await browser.new_context(
                viewport={"width": 390, "height": 844}, locale="nb-NO", device_scale_factor=2
            )
            phone = await context.new_page()
            await phone.goto(base + "?lang=nb")
            await phone.fill('input[name="code"]', table.lesson.code)
            await phone.fill('input[name="name"]', name)
            await _press(phone, "Bli med")
            phones[name] = phone
        # The game is chosen in the pairing's own form: what it shows is what is played.
        await teacher.select_option("#level", "5")
        await teacher.fill("#answer_seconds", "0")
        await teacher.fill("#minutes", "20")
        await _press(teacher, "Tilfeldige par")
        # Every table names target 3; everybody but Ada has answered.
        now = table.lesson.clock()
        for game in table.lesson.live_games():
            if game.state.phase is TARGET:
                game.play(NameTarget(part_of(game.state).namer, 3), now=now)
            for side in game.state.pending:
                seat = game.seats[side][0]
                if table.lesson.seats[seat].name != "Ada":
                    game.play(Answer(side, best_text(game, side)), seat, now)
        await teacher.reload()
        await teacher.evaluate("window.scrollTo(0, 0)")
        shown: FloatRect = {"x": 0, "y": 0, "width": 1366, "height": 1000}
        await teacher.screenshot(
            path=str(folder / "lesson-teacher.png"), full_page=True, clip=shown
        )
        ada = phones["Ada"]
        await ada.reload()
        await ada.screenshot(path=str(folder / "lesson-phone.png"))  # 390×844, at 2× pixels


async def take(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    async with async_playwright() as playwright:
        browser = await launch(playwright)
        await one_screen(browser, folder)
        await lesson(browser, folder)
        await browser.close()


if __name__ == "__main__":
    asyncio.run(take(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")))
