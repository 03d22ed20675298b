"""`python -m tests.table.screenshots DIR`: the README's two pictures of the classroom table,
taken in the headless browser the tests use, with the card pictures when installed (a game
in play in regn mode, and a satsing table with the betting hint), from fixed seeds so they
come out the same every time."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from playwright.async_api import Page, async_playwright

from table.pictures import installed_drawer
from tests.table.browser import CHROMIUM, CHROMIUM_ARGS
from tests.table.support import best_answer, serve

SIZE = {"width": 800, "height": 900}


async def _press(page: Page, label: str) -> None:
    async with page.expect_navigation():
        await page.get_by_role("button", name=label, exact=True).click()


async def take(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    async for table in serve(seeds=[5, 9], drawer=installed_drawer()):
        base = str(table.client.make_url("/"))
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = await browser.new_page(viewport=SIZE, locale="nb-NO")
            await page.goto(base + "?game=regnekrig")
            await page.select_option("#level", "5")
            await page.fill("#player1", "Ada")
            await page.fill("#player2", "Bo")
            await _press(page, "Start")
            gid = page.url.split("/game/")[1].split("?")[0]
            game = table.game(gid)
            if game.state.pending == (game.state.namer,) and game.state.namer is not None:
                await _press(page, "3")
            await page.fill("input[name=answer]", best_answer(game, game.state.pending[0]))
            async with page.expect_navigation():
                await page.press("input[name=answer]", "Enter")
            await page.evaluate("window.scrollTo(0, 0)")
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
            await page.evaluate("window.scrollTo(0, 0)")
            await page.screenshot(path=str(folder / "table-browser-satsing.png"))
            await browser.close()


if __name__ == "__main__":
    asyncio.run(take(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")))
