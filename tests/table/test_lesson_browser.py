"""A class lesson in real headless Chromium (Debian's, through Playwright): the teacher's page
and four pupils, each in a browser context of their own (their own cookies), at the screen
sizes of a classroom (1280×800 and 1024×768 Chromebooks, a 1366×768 laptop, a phone).

They join by code, are paired, play Regnekrig level 5 with typed answers (a target chosen with
the arrow keys, one sign slip) and then Satsing with bets, to the end of the lesson. One pupil
closes their browser and comes back with its cookie to the same seat; a fifth browser without
it acts for nobody; the summary names the mistake typed. axe-core checks every page state.

The tests run in order and share one lesson (one browser for the module: a new one per test
costs more than the test)."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pytest
import pytest_asyncio

from classroom.i18n import t
from engine.intervallkrig import BET
from engine.regnekrig import ANSWER, TARGET, judge_answer, part_of
from engine.solver import reachable
from engine.state import Phase
from table.class_web import HUB
from table.games import TableGame
from table.lesson import Seat
from tests.table.browser import axe_violations, launch, need_browser, state_is
from tests.table.lessons import best_text, war_round
from tests.table.support import Table, serve

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page, ViewportSize, WebSocketRoute

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCREENS: dict[str, ViewportSize] = {
    "Ada": {"width": 1280, "height": 800},
    "Bo": {"width": 1366, "height": 768},
    "Cy": {"width": 1024, "height": 768},
    "Di": {"width": 390, "height": 844},
}
LAPTOPS = ("Ada", "Bo", "Cy")


@dataclass
class Room:
    """The lesson as the tests leave it for the next."""

    table: Table
    browser: Browser
    teacher: Page | None = None
    contexts: dict[str, BrowserContext] = field(default_factory=dict)
    pages: dict[str, Page] = field(default_factory=dict)
    checked: set[str] = field(default_factory=set)  # the page states axe has checked
    slip: tuple[str, str] | None = None  # (pupil, mistake kind) typed on purpose
    cards: dict[str, list[str]] = field(default_factory=dict)  # the card elements each saw

    def seat(self, name: str) -> Seat:
        return next(s for s in self.table.lesson.seats.values() if s.name == name)

    def game_of(self, name: str) -> TableGame:
        game = self.table.lesson.game_of(self.seat(name))
        assert game is not None
        return game

    def side(self, name: str) -> int:
        game = self.game_of(name)
        return next(i for i, held in enumerate(game.seats) if self.seat(name).id in held)

    @property
    def base(self) -> str:
        return str(self.table.client.make_url("/"))

    async def axe(self, page: Page, state: str, name: str | None = None) -> None:
        """axe-core finds nothing on this page state (`name`: a state of the page that
        its root does not name, such as a round on the projector)."""
        assert await page.get_attribute("#table", "data-state") == state
        found = await axe_violations(page)
        assert found == [], f"{name or state}: {found}"
        self.checked.add(name or state)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def room() -> AsyncIterator[Room]:
    need_browser()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await launch(playwright)
        async for table in serve(seeds=[21, 22, 23, 24, 25, 26], kind="class"):
            table.lesson.rng = random.Random(5)
            yield Room(table, browser)
        await browser.close()


async def until(check: Callable[[], bool], what: str) -> None:
    for _ in range(200):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"never: {what}")


# The checks `until` waits on, each bound to its game when made (not when a loop moves on).


def phase_is(game: TableGame, phase: str) -> Callable[[], bool]:
    return lambda: game.state.phase is phase


def phase_left(game: TableGame, phase: str) -> Callable[[], bool]:
    return lambda: game.state.phase is not phase


def version_past(game: TableGame, before: int) -> Callable[[], bool]:
    return lambda: game.version > before


async def click(page: Page, name: str) -> None:
    """A button named by its action; a plain form (the teacher's) loads the next page."""
    await page.get_by_role("button", name=name, exact=True).first.click()


async def teacher_press(room: Room, name: str) -> None:
    assert room.teacher is not None
    async with room.teacher.expect_navigation():
        await click(room.teacher, name)


async def inside_viewport(page: Page, selector: str) -> bool:
    box = await page.evaluate(
        f"(() => {{ const r = document.querySelector('{selector}').getBoundingClientRect();"
        " return [r.top, r.bottom, window.innerHeight]; })()"
    )
    top, bottom, height = box
    return bool(top >= 0 and bottom <= height)


async def layout_shift(page: Page) -> float:
    """The page's layout shift while it and its live connection load (0: nothing moved)."""
    shift = await page.evaluate(
        """() => new Promise(done => {
             let sum = 0;
             new PerformanceObserver(list => { for (const e of list.getEntries()) sum += e.value; })
               .observe({type: 'layout-shift', buffered: true});
             setTimeout(() => done(sum), 600);
           })"""
    )
    return float(shift)


async def press_by_keyboard(page: Page, name: str) -> None:
    """Tab from the top of the page to the button named `name`, and press Enter on it."""
    await page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(60):
        await page.keyboard.press("Tab")
        focused = await page.evaluate(
            "document.activeElement.tagName === 'BUTTON' ? document.activeElement.textContent : ''"
        )
        if focused == name:
            async with page.expect_navigation():
                await page.keyboard.press("Enter")
            return
    raise AssertionError(f"no Tab stop reaches {name!r}")


async def test_pupils_join_by_code_on_their_own_devices(room: Room) -> None:
    context = await room.browser.new_context(viewport={"width": 1366, "height": 768})
    room.teacher = await context.new_page()
    room.teacher.set_default_timeout(5000)
    key = room.table.lesson.teacher_secret
    await room.teacher.goto(f"{room.base}teacher?key={key}&lang=en")
    await room.axe(room.teacher, "teacher")
    code = await room.teacher.get_attribute("[data-join-code]", "data-join-code")
    url = await room.teacher.get_attribute("[data-join-url]", "data-join-url")
    assert code == room.table.lesson.code and url == room.base
    # A school filter that cuts the live connection: the join page says what is wrong.
    blocked = await context.new_page()

    async def cut(ws: WebSocketRoute) -> None:
        await ws.close()

    await blocked.route_web_socket("**/live*", cut)
    await blocked.goto(url)
    line = blocked.locator("#connection")
    await line.filter(has_text=t("lesson.connection.blocked", "en")).wait_for()
    await blocked.close()
    for name, screen in SCREENS.items():
        pupil = await room.browser.new_context(viewport=screen, locale="en-GB")
        page = await pupil.new_page()
        page.set_default_timeout(5000)
        await page.goto(url)
        if name == "Ada":
            await room.axe(page, "join")
            line = page.locator("#connection")
            await line.filter(has_text=t("lesson.connection.ok", "en")).wait_for()
        await page.fill('input[name="code"]', code)
        await page.fill('input[name="name"]', name)
        async with page.expect_navigation():
            await click(page, t("lesson.join.button", "en"))
        assert await page.get_attribute("#table", "data-state") == "waiting"
        room.contexts[name], room.pages[name] = pupil, page
    await state_is(room.pages["Ada"], "waiting")
    await room.axe(room.pages["Ada"], "waiting")
    assert len(room.table.lesson.seats) == 4


async def test_regnekrig_5_is_played_with_typed_answers_and_the_arrow_keys(room: Room) -> None:
    """RULES §2.5: the namer names a target (here with the arrow keys and Enter); §2.2: each
    side types its value; §2.6: a sign slip is named. The answer box and whose turn it is are
    in sight without scrolling on every laptop screen."""
    assert room.teacher is not None
    await room.teacher.fill("#goal-set", "4")  # the class goal, on every device too
    await teacher_press(room, t("lesson.goal.save", "en"))
    # The game is chosen in the pairing's own form: what it shows is what is played.
    await room.teacher.select_option("#game", "regnekrig")
    await room.teacher.select_option("#level", "5")
    await room.teacher.fill("#answer_seconds", "0")
    await room.teacher.fill("#minutes", "20")
    await teacher_press(room, t("lesson.teacher.pair_random", "en"))
    games = room.table.lesson.live_games()
    assert len(games) == 2
    for page in room.pages.values():
        await state_is(page, "playing")
    # RULES §2.5: the namer chooses the target: Tab lands on 0, → three times is 3, Enter.
    namers = {}
    for name in SCREENS:
        game = room.game_of(name)
        if game.state.phase is TARGET and room.side(name) == part_of(game.state).namer:
            namers[name] = game
    assert len(namers) == 2
    first = next(iter(namers))
    await room.axe(room.pages[first], "playing")
    for name, game in namers.items():
        page = room.pages[name]
        await page.locator('.targets button[tabindex="0"]').wait_for()
        focused = await page.evaluate("document.activeElement.textContent")
        assert focused == "0"
        for _ in range(3):
            await page.keyboard.press("ArrowRight")
        await page.keyboard.press("Enter")
        await until(phase_is(game, ANSWER), "the target named")
        assert part_of(game.state).target == 3
    # §2.2: every pupil types; Ada types a sign slip on purpose.
    for name in SCREENS:
        page = room.pages[name]
        box = page.locator('input[name="answer"]')
        await box.wait_for()
        if name in LAPTOPS:
            assert await inside_viewport(page, 'input[name="answer"]'), name
            assert await inside_viewport(page, "#turn"), name
        game, side = room.game_of(name), room.side(name)
        if name == "Ada":
            a, b = (c.value for c in game.state.up[side])
            values = reachable(a, b, 5)
            wrong = next(-v for v in values if v and -v not in values)
            typed = str(wrong).replace("-", "−") if wrong.denominator == 1 else str(wrong)
            verdict = judge_answer(game.state, side, typed)
            assert verdict.value is None and verdict.reason is not None
            room.slip = ("Ada", verdict.reason)
            await room.axe(page, "playing")
        else:
            typed = best_text(game, side)
        assert await page.evaluate("document.activeElement.name") == "answer"  # it has the focus
        room.cards[name] = await page.eval_on_selector_all(
            "#sides .card", "cards => cards.map(card => card.outerHTML)"
        )
        await page.evaluate("window.stayed = true")  # gone if the page were loaded again
        await page.keyboard.type(typed)
        await page.keyboard.press("Enter")
    for game in games:
        await until(phase_left(game, ANSWER), "the round revealed")
    for name, page in room.pages.items():
        round_one = t("result.round", "en", round=1).replace("**", "")
        await page.locator("#now").filter(has_text=round_one).wait_for()
        # The news draws the round's cards as the table drew them (spoken names and all).
        news = await page.eval_on_selector_all(
            "#now .card", "cards => cards.map(card => card.outerHTML)"
        )
        assert set(room.cards[name]) <= set(news) and len(room.cards[name]) == 4, name
        assert "[ " not in await page.inner_text("#now")
    # On a phone the news with its cards fits the screen's width, its cards as big as the
    # answer box's words; axe checks it.
    phone = room.pages["Di"]
    wide = await phone.evaluate(
        "[document.documentElement.scrollWidth, window.innerWidth,"
        " parseFloat(getComputedStyle(document.querySelector('#now .card')).fontSize)]"
    )
    assert wide[0] <= wide[1] and wide[2] >= 16, wide
    await room.axe(phone, "playing", "news")
    assert room.slip is not None
    # The class goal moved on every device, live (the table revealed first heard of the
    # other's round as the goal alone): the same count for everyone, no name.
    best, exact = room.table.lesson.found()
    together = t("lesson.goal.progress", "en", best=best, exact=exact)
    for name, page in room.pages.items():
        goal = page.locator("#goal[aria-live=polite]")
        await goal.filter(has_text=together).wait_for()
        words = await goal.inner_text()
        assert t("lesson.goal.of", "en", done=best + exact, goal=4) in words
        assert not any(other in words for other in SCREENS)
        assert await page.evaluate("window.stayed === true"), name


async def test_the_live_region_is_told_changes_not_seconds(room: Room) -> None:
    """The clock counts down outside the live region: two seconds of ticking change nothing
    a screen reader announces; no layout shift on the page; the focus ring is dark on light."""
    page = room.pages["Bo"]
    changes = await page.evaluate(
        """() => new Promise(done => {
             let n = 0;
             const seen = new MutationObserver(list => { n += list.length; });
             for (const live of document.querySelectorAll('[aria-live], [role=status]')) {
               seen.observe(live, {subtree: true, childList: true, characterData: true});
             }
             const before = document.querySelector('#clock time').textContent;
             setTimeout(() => { seen.disconnect();
               done([n, before, document.querySelector('#clock time').textContent]); }, 2200);
           })"""
    )
    assert changes[0] == 0 and changes[1] != changes[2]
    await page.reload()  # nothing moves while the page and its live connection load
    assert await layout_shift(page) == 0
    await page.keyboard.press("Tab")  # a keyboard focus: the ring is drawn
    ring = await page.evaluate("getComputedStyle(document.activeElement).outlineColor")
    assert ring in ("rgb(17, 24, 39)", "rgb(0, 0, 0)")  # the ink on #f8fafc: 17:1, ≥ 3:1


async def test_the_teacher_shows_a_round_and_pauses_everyone(room: Room) -> None:
    """The round on the projector draws the very card elements the pupils' tables drew (with
    their spoken names, suits and all), big enough for the back of the classroom (type at
    least 1/16 of the screen's height: some 9 cm on a 1.5 m high picture, legible from
    about 9 m at the usual 1 cm of letter per metre), in sight without scrolling, nothing
    moving as it loads, its controls worked by the keyboard alone."""
    assert room.teacher is not None
    await room.teacher.reload()
    await teacher_press(room, t("lesson.teacher.show", "en"))
    shown = room.teacher.locator("#shown")
    text = await shown.inner_text()  # names hidden until the teacher shows them
    assert t("lesson.side_letter", "en", letter="A") in text
    assert not any(name in text for name in SCREENS)
    assert room.table.lesson.projected is not None
    game = room.table.lesson.projected.game
    pupil = next(n for n in SCREENS if room.game_of(n) is game)
    drawn = await room.teacher.eval_on_selector_all(
        "#shown .card", "cards => cards.map(card => card.outerHTML)"
    )
    assert set(room.cards[pupil]) <= set(drawn) and len(room.cards[pupil]) == 4, drawn
    assert all(re.search(r'role="img" aria-label="[^"]+ of [^"]+"', card) for card in drawn)
    size = await room.teacher.evaluate(
        "[parseFloat(getComputedStyle(document.querySelector('#shown .card')).fontSize),"
        " window.innerHeight, document.querySelector('#shown').getBoundingClientRect().bottom]"
    )
    assert size[0] >= size[1] / 16 and size[2] <= size[1], size
    await room.teacher.reload()
    assert await layout_shift(room.teacher) == 0
    await press_by_keyboard(room.teacher, t("lesson.teacher.show_names", "en"))
    assert "Ada" in await shown.inner_text() or "Bo" in await shown.inner_text()
    await press_by_keyboard(room.teacher, t("lesson.teacher.hide_names", "en"))
    await room.axe(room.teacher, "teacher", "projected")
    await press_by_keyboard(room.teacher, t("lesson.teacher.hide_table", "en"))
    assert await shown.inner_text() == ""
    await room.axe(room.teacher, "teacher")
    await teacher_press(room, t("lesson.teacher.pause", "en"))
    await room.pages["Cy"].locator("#messages").filter(has_text=t("lesson.paused", "en")).wait_for()
    await teacher_press(room, t("lesson.teacher.resume", "en"))
    # Removing a seat is asked first (axe checks the question); the teacher keeps Di.
    await room.teacher.locator("#remove-menu summary").click()
    await room.teacher.select_option("#remove-seat", label="Di")
    await teacher_press(room, t("lesson.teacher.remove_button", "en"))
    await room.axe(room.teacher, "teacher")
    await teacher_press(room, t("lesson.teacher.remove_no", "en", name="Di"))
    assert len(room.table.lesson.seats) == 4
    await (
        room.pages["Cy"]
        .locator("#messages")
        .filter(has_text=t("lesson.paused", "en"))
        .wait_for(state="detached")
    )


@pytest.mark.parametrize(("game", "layings"), [("satsing", 2), ("regnekrig", 3)])
async def test_a_war_round_on_the_projector_fits_a_laptop_screen(
    room: Room, game: str, layings: int
) -> None:
    """RULES §2.3: equal values go to war, and again. A round with its wars, on the projector
    of a 1366×768 laptop, is in sight without scrolling (the teacher never scrolls in front of
    the class): every laying's cards drawn, still legible across the room (type at least
    1/32 of the screen's height), nothing moving as it loads, axe finding nothing."""
    async for table in serve(seeds=list(range(1, 80)), kind="class"):
        played = war_round(table.lesson, game, layings)
        table.lesson.show(played.id)
        facts = played.view(None).result
        assert facts is not None
        context = await room.browser.new_context(viewport={"width": 1366, "height": 768})
        page = await context.new_page()
        key = table.lesson.teacher_secret
        await page.goto(f"{table.client.make_url('/')}teacher?key={key}&lang=en")
        assert await layout_shift(page) == 0
        size = await page.evaluate(
            "[parseFloat(getComputedStyle(document.querySelector('#shown .card')).fontSize),"
            " window.innerHeight, document.querySelector('#shown').getBoundingClientRect().bottom,"
            " document.querySelectorAll('#shown .card').length]"
        )
        laid = played.laid_in(facts)
        assert size[3] == sum(len(cards) for layings in laid.values() for cards in layings)
        assert size[0] >= size[1] / 32 and size[2] <= size[1], size
        await room.axe(page, "teacher", f"projected war ({game})")
        await context.close()


async def test_a_lost_connection_is_said_and_the_page_comes_back(room: Room) -> None:
    """A device whose live connection drops (the Wi-Fi, a tablet asleep) says so at the
    bottom of the screen, in the live region, without moving the answer box; once the
    network is back it reconnects by itself and shows its seat's table as it is now."""
    page, context = room.pages["Cy"], room.contexts["Cy"]
    hub = room.table.app[HUB]
    before = await page.evaluate("document.querySelector('#turn').getBoundingClientRect().top")
    await context.set_offline(True)
    for ws in list(hub.pupils.get(room.seat("Cy").device, {})):
        await ws.close()
    line = page.locator("#link[role=status]")
    await line.filter(has_text=t("lesson.connection.lost", "en")).wait_for()
    after = await page.evaluate("document.querySelector('#turn').getBoundingClientRect().top")
    assert after == before
    state = await page.get_attribute("#table", "data-state")
    await room.axe(page, state or "")  # the line's contrast and place
    await context.set_offline(False)
    await page.wait_for_function("() => document.getElementById('link').textContent === ''",
                                 timeout=15000)  # fmt: skip
    await until(lambda: bool(hub.pupils.get(room.seat("Cy").device)), "Cy is back")
    window = str(room.game_of("Cy").state.window)
    assert await page.get_attribute("#table", "data-window") == window


async def test_a_pupil_comes_back_with_the_cookie_and_a_stranger_acts_for_nobody(
    room: Room,
) -> None:
    """A browser closed (a device that slept, a dropped Wi-Fi) comes back to the same seat in
    the same game; a browser without the cookie cannot act for anyone."""
    saved = await room.contexts["Bo"].storage_state()
    before = room.game_of("Bo")
    await room.contexts["Bo"].close()
    back = await room.browser.new_context(viewport=SCREENS["Bo"], storage_state=saved)
    page = await back.new_page()
    await page.goto(f"{room.base}table")
    assert await page.get_attribute("#table", "data-state") in ("playing", "war")
    assert room.game_of("Bo") is before
    assert await page.locator(".you").count() == 1
    room.contexts["Bo"], room.pages["Bo"] = back, page
    stranger = await room.browser.new_context()
    other = await stranger.new_page()
    await other.goto(f"{room.base}table")
    assert await other.get_attribute("#table", "data-state") == "join"
    game = room.game_of("Ada")
    state = game.state
    for side in ("0", "1"):
        answer = await other.request.post(
            f"{room.base}table/act",
            form={"window": str(state.window), "side": side, "choice": "flip"},
            headers={"Origin": room.base.rstrip("/")},
        )
        assert answer.status == 403
    assert game.state is state
    await stranger.close()


async def _play_until(room: Room, done: Callable[[], bool], bet: bool = True) -> None:
    """Every pupil presses what their page offers (a bet or no bet, Flip, an answer) until
    `done`; a war's page is checked by axe on the way."""
    for _ in range(60):
        if done():
            return
        for name, page in room.pages.items():
            state = await page.get_attribute("#table", "data-state")
            if state == "war" and "war" not in room.checked:
                await room.axe(page, "war")
            game = room.game_of(name)
            if game.over:
                continue
            side = room.side(name)
            before = game.version
            # The page has the game's window now (its live update is in), so no press is stale.
            window = str(game.state.window)
            await page.wait_for_function(
                f"() => document.getElementById('table').dataset.window === '{window}'",
                timeout=5000,
            )
            if game.state.phase is BET and side in game.state.pending:
                label = "button.bet_left" if bet and name in ("Ada", "Cy") else "button.no_bet"
                await click(page, t(label, "en"))
            elif game.state.phase is ANSWER and side in game.state.pending:
                await page.fill('input[name="answer"]', best_text(game, side))
                await page.press('input[name="answer"]', "Enter")
            elif game.state.phase is Phase.FLIP and side == 0:
                await click(page, t("button.flip", "en"))
            else:
                continue
            await until(version_past(game, before), "the press")
    raise AssertionError("the games did not get there")


async def test_new_partners_play_satsing_with_bets_to_the_end(room: Room) -> None:
    """RULES §3.3: bets decided in secret; new partners end the games as when time runs out
    (§1.5) and pair everyone with someone new; the end of the lesson ends every game."""
    assert room.teacher is not None
    await room.teacher.locator("#setup-fields summary").click()  # folded while they play
    await room.teacher.select_option("#game", "satsing")
    await room.teacher.fill("#minutes", "20")
    old = {g.id for g in room.table.lesson.live_games()}
    await teacher_press(room, t("lesson.teacher.new_partners", "en"))
    # A game in the middle of a round finishes it first (RULES §1.5).
    await _play_until(room, lambda: all(room.table.lesson.games.get(g).over for g in old))  # type: ignore[union-attr]
    await until(lambda: all(room.game_of(n).id not in old for n in SCREENS), "new partners paired")
    for page in room.pages.values():
        await state_is(page, "playing")
    assert room.game_of("Ada").state.config.game == "satsing"
    await _play_until(room, lambda: "war" in room.checked or room.game_of("Ada").state.round > 8)
    await teacher_press(room, t("lesson.teacher.end", "en"))
    await _play_until(room, lambda: all(room.game_of(n).over for n in SCREENS))
    for page in room.pages.values():
        await state_is(page, "over")
    await room.axe(room.pages["Di"], "over")


async def test_the_summary_names_the_mistake_typed(room: Room) -> None:
    assert room.teacher is not None and room.slip is not None
    async with room.teacher.expect_navigation():
        await room.teacher.get_by_role("link", name=t("lesson.teacher.summary", "en")).click()
    await room.axe(room.teacher, "summary")
    name, kind = room.slip
    # A part per game and level: the Regnekrig part, played first, comes first.
    row = room.teacher.locator("tr", has_text=name).first
    assert t(f"mistake.{kind}", "en") + " (1)" in await row.inner_text()
    states = {"teacher", "projected", "join", "waiting", "playing", "war", "over", "summary"}
    assert states <= room.checked
    # Printed, the summary is its table: no buttons, no links to click, no language switch.
    await room.teacher.emulate_media(media="print")
    assert await row.is_visible()
    for control in ("button", ".button-link", ".langs"):
        shown = room.teacher.locator(control)
        assert not [i for i in range(await shown.count()) if await shown.nth(i).is_visible()]
    await room.teacher.emulate_media(media="screen")
    for context in room.contexts.values():
        await context.close()
