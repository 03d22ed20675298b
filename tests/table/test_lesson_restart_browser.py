"""The pupils' pages in a real browser (Chromium) when the lesson's server is killed and
started again: each page says the connection is lost, reconnects by itself within seconds,
and redraws from the lesson brought back, with nothing pressed (issue: "pupils' pages
reconnect by themselves within seconds and redraw")."""

from __future__ import annotations

import os

from classroom.i18n import t
from tests.table.browser import launch, need_browser
from tests.table.process import Server
from tests.table.process import http_session as _session


async def test_a_pupils_page_comes_back_by_itself_after_kill_9() -> None:
    need_browser()
    from playwright.async_api import async_playwright

    server = Server(dict(os.environ))
    base, code, link = server.start()
    teacher = _session(base)
    try:
        async with async_playwright() as playwright:
            browser = await launch(playwright)
            pages = []
            for name in ("Ada", "Bo"):
                context = await browser.new_context()
                page = await context.new_page()
                await page.goto(f"{base}?lang=en")
                await page.fill("#code", code)
                await page.fill("#name", name)
                async with page.expect_navigation():
                    await page.get_by_role("button", name="Join").click()
                pages.append(page)
            async with teacher.get(link[len(base) - 1 :]) as response:
                assert response.status == 200
            async with teacher.post("/teacher/pair", data={"how": "random", "lang": "en"}):
                pass
            for page in pages:  # the live connection brings each table
                await page.wait_for_function(
                    "() => ['playing', 'war'].includes("
                    "document.getElementById('table').dataset.state)",
                    timeout=5000,
                )
            server.kill()
            for page in pages:  # each page says so, after a moment (a blink is not worth it)
                lost = t("lesson.connection.lost", "en")
                await page.locator("#link").filter(has_text=lost).wait_for(timeout=5000)
            server.start()
            await teacher.close()
            teacher = _session(base)
            async with teacher.get(link[len(base) - 1 :]) as response:
                assert response.status == 200
            async with teacher.post("/teacher/goal", data={"goal": "77", "lang": "en"}):
                pass
            for page in pages:  # back by itself: the loss is no longer said, and the
                # teacher's new class goal reaches the page over its new connection
                await page.wait_for_function(
                    "() => !document.getElementById('link').textContent"
                    " && document.getElementById('goal').textContent.includes('77')",
                    timeout=8000,
                )
                state = await page.evaluate("document.getElementById('table').dataset.state")
                assert state in ("playing", "war")
            await browser.close()
    finally:
        server.stop()
        await teacher.close()
