"""The classroom table in a real headless browser (chromium through Playwright): whole games
to their end — hot-seat regn mode with typed answers (right, wrong, unreadable), one player
against the computer, four players as two teams — in nb, sv and en; keyboard only; and a
stale press from a second tab refused. The server is the table's own app on 127.0.0.1 with
a clock the test moves (the time limit ends each game quickly)."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import pytest_asyncio

from classroom.i18n import t
from classroom.text.board_text import answer_reply
from engine.intervallkrig import BET
from engine.regnekrig import ANSWER, judge_answer
from engine.replay import run
from engine.view import view
from table.board import round_lines, side_names
from tests.table.browser import axe_violations, running_browser
from tests.table.support import Table, best_answer, faces_in, serve, words_around_cards

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page, ViewportSize

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with running_browser() as launched:
        yield launched


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def served() -> AsyncIterator[Table]:
    async for table in serve(seeds=[11]):
        yield table


def base(table: Table) -> str:
    return str(table.client.make_url("/"))


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def context(browser: Browser) -> AsyncIterator[BrowserContext]:
    """One browser context for the module (a new one per test costs more than the test)."""
    shared = await browser.new_context(accept_downloads=True)
    yield shared
    await shared.close()


async def new_page(context: BrowserContext, locale: str) -> Page:
    """A new tab whose browser asks for `locale` (its Accept-Language)."""
    page = await context.new_page()
    await page.set_extra_http_headers({"Accept-Language": locale})
    page.set_default_timeout(5000)
    return page


async def enter(page: Page) -> None:
    """Press Enter where the focus is, and wait for the page it submits to."""
    async with page.expect_navigation():
        await page.keyboard.press("Enter")


async def press(page: Page, label: str) -> None:
    """Click the button whose text is `label`, and wait for the page it leads to."""
    async with page.expect_navigation():
        await page.get_by_role("button", name=label, exact=True).click()


async def state_of(page: Page) -> str | None:
    return await page.get_attribute("#table", "data-state")


def game_id(page: Page) -> str:
    found = re.search(r"/game/([\w-]+)", page.url)
    assert found is not None, page.url
    return found.group(1)


async def words(page: Page) -> str:
    return " ".join((await page.inner_text("#table")).split())


async def message(page: Page) -> str:
    return " ".join((await page.inner_text("#messages")).split())


async def focused(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = await page.evaluate(
        "() => ({name: document.activeElement.name || '', id: document.activeElement.id || '',"
        " tag: document.activeElement.tagName, text: document.activeElement.textContent})"
    )
    return found


def plain(text: str) -> str:
    """A catalogue sentence as the page shows it (bold drawn, not written)."""
    return " ".join(text.replace("**", "").split())


async def end_by_time(page: Page, table: Table, lang: str) -> None:
    """RULES §1.5: the time limit runs out; the round in play is finished (flip, or pass and
    answer as the page asks), then the side with the most cards wins."""
    table.clock.now += 61
    await page.reload()
    gid = game_id(page)
    for _ in range(40):
        if await state_of(page) == "over":
            break
        state = table.game(gid).state
        if state.phase is ANSWER:
            side = state.pending[0]
            await page.fill("input[name=answer]", best_answer(table.game(gid), side))
            await page.press("input[name=answer]", "Enter")
        elif state.phase is BET:
            await press(page, t("button.no_bet", lang))
        else:
            await press(page, t("button.flip", lang))
    assert await state_of(page) == "over"
    assert t("over.reason.time_up", lang) in await words(page)


async def download_plays_back(page: Page, table: Table, lang: str, tmp: Path) -> None:
    """RULES §1.6: the downloaded game is its configuration, seed and actions."""
    async with page.expect_download() as caught:
        await page.get_by_role("button", name=t("table.download", lang), exact=True).click()
    download = await caught.value
    path = tmp / download.suggested_filename
    await download.save_as(path)
    result = run(json.loads(path.read_text("utf-8")))
    state = table.game(game_id(page)).state
    assert result["status"] == "over" and result["counts"] == list(state.counts)


async def test_hot_seat_two_players_type_their_answers_in_nb(
    context: BrowserContext, served: Table, tmp_path: Path
) -> None:
    """RULES §2.2: each side types a value or a calculation; an unreadable one is refused
    (type again), one that breaks a rule counts as no value and says which rule."""
    page = await new_page(context, "nb-NO")
    await page.goto(base(served))
    assert await state_of(page) == "setup"
    assert await axe_violations(page) == []
    await press(page, f"🧮 {t('game.regnekrig.name', 'nb')}")
    await page.fill("#player1", "Ada")
    await page.fill("#player2", "Bo")
    await page.fill("#minutes", "1")
    await press(page, t("button.begin", "nb"))
    assert await state_of(page) == "playing"
    assert await axe_violations(page) == []
    # The answer box and whose turn it is are in sight without scrolling on a classroom's
    # screens (a picture loading above them used to push them off-screen).
    sizes: tuple[ViewportSize, ...] = (
        {"width": 1280, "height": 800},
        {"width": 1366, "height": 768},
        {"width": 1024, "height": 768},
    )
    for size in sizes:
        await page.set_viewport_size(size)
        await page.reload()
        for selector in ("input[name=answer]", "#turn"):
            top, bottom = await page.evaluate(
                f"(() => {{ const r = document.querySelector('{selector}')"
                ".getBoundingClientRect(); return [r.top, r.bottom]; })()"
            )
            assert top >= 0 and bottom <= size["height"], (size, selector)
    game = served.game(game_id(page))
    assert (await focused(page))["name"] == "answer"  # Ada types straight away

    await page.keyboard.type("3 +* 4")
    await enter(page)
    assert await state_of(page) == "playing" and game.actions == []
    assert (await message(page)).startswith("Ada: ")
    assert await page.input_value("input[name=answer]") == "3 +* 4"

    right = best_answer(game, 0)
    await page.fill("input[name=answer]", right)
    await enter(page)
    told = t("table.note.side", "nb", name="Ada", text=answer_reply(None, "nb"))
    assert await message(page) == told
    assert t("table.turn", "nb", name="Bo") in await words(page)
    assert (await focused(page))["name"] == "answer"  # now Bo's box
    assert await page.input_value("input[name=answer]") == ""  # Ada's answer is not shown

    verdict = judge_answer(game.state, 1, "99")
    await page.keyboard.type("99")
    await enter(page)
    told = t("table.note.side", "nb", name="Bo", text=answer_reply(verdict, "nb"))
    assert await message(page) == told
    shown = await words(page)
    assert plain(t("result.round", "nb", round=1)) in shown  # the round's block
    assert f"→ 99 → {t('value.none', 'nb')}" in shown  # Bo's typed number, no value

    await end_by_time(page, served, "nb")
    assert await axe_violations(page) == []
    await download_plays_back(page, served, "nb", tmp_path)
    await page.goto(base(served) + "game/nothing")  # the page of a refusal
    assert await state_of(page) == "error" and await axe_violations(page) == []
    await page.close()


async def test_one_player_against_the_computer_bets_with_a_hint_in_sv(
    context: BrowserContext, served: Table, tmp_path: Path
) -> None:
    """RULES §3.3: satsing's bets are decided in secret; the hint shows the chances."""
    page = await new_page(context, "sv-SE")
    await page.goto(base(served) + "?game=satsing")
    await page.fill("#player1", "Ada")
    hard = t("table.setup.computer", "sv", strength=t("choice.computer.hard", "sv"))
    await page.select_option("#opponent", label=hard)
    await page.fill("#minutes", "1")
    await press(page, t("button.begin", "sv"))
    assert await state_of(page) == "playing"
    game = served.game(game_id(page))
    assert game.humans == frozenset({0})
    hinted = False
    for _ in range(6):
        if game.state.phase is BET and 0 in game.state.pending:
            if not hinted and 0 in game.state.pending:
                await press(page, t("button.hint", "sv"))
                assert t("hint.title", "sv") in await words(page)
                hinted = True
            label = t("button.bet_left", "sv")
            await press(page, label)
            # The computer has decided already: the bet reveals the round, and a note of the
            # round before ("wait for the others") is not carried into the next one.
            bet = t("reply.bet_received", "sv", card=t("reply.bet_left", "sv"))
            assert bet not in await message(page)
        else:
            await press(page, t("button.flip", "sv"))
    strength = t("computer.hard.name", "sv")
    computer = t("side.computer", "sv", name=t("computer.name", "sv"), strength=strength)
    assert computer in await words(page)
    await end_by_time(page, served, "sv")
    await download_plays_back(page, served, "sv", tmp_path)
    await page.close()


async def test_four_players_play_as_two_teams_in_en(context: BrowserContext, served: Table) -> None:
    """RULES §1.2: four players play two teams of two; a team is one side with one pile."""
    page = await new_page(context, "en-GB")
    await page.goto(base(served) + "?game=intervallkrig")
    for n, name in enumerate(["Ada", "Bo", "Cy", "Di"], start=1):
        await page.fill(f"#player{n}", name)
    await page.check("input[name=teams]")
    await page.fill("#minutes", "1")
    await press(page, "Start")
    assert await state_of(page) == "playing"
    assert served.game(game_id(page)).state.config.sides == 2
    for _ in range(3):
        await press(page, "Flip")
    sides = await page.locator(".side h2").all_inner_texts()
    assert [s.strip("🏆💤🎯 ") for s in sides] == ["Ada & Bo", "Cy & Di"]
    game = served.game(game_id(page))
    lines = round_lines(view(game.state, None), side_names(game, "en"), "en")
    said = await words(page)
    assert lines and all(w in said for w in words_around_cards(" ".join(lines)))
    # The news draws the round's cards, each with its spoken name (by its value alone where
    # one flip turned and took them, RULES §3.2: no suit is made up).
    drawn = await page.locator("#now .card").evaluate_all(
        "cards => cards.map(card => card.getAttribute('aria-label'))"
    )
    assert len(drawn) == faces_in(" ".join(lines)) > 0
    assert all(re.fullmatch(r"(minus )?\d+( of \w+)?( \(\w+\))?", n or "") for n in drawn), drawn
    await end_by_time(page, served, "en")
    assert t("over.winner", "en", name="x").split("x")[0].replace("*", "") in await words(page)
    await page.close()


async def test_a_class_plays_with_the_keyboard_only(context: BrowserContext, served: Table) -> None:
    """Setup, answers, flips and the end, with Tab, typing and Enter (no mouse)."""
    page = await new_page(context, "en-US")
    await page.goto(base(served))
    assert (await focused(page))["tag"] == "BUTTON"  # the first game
    await enter(page)
    assert (await focused(page))["id"] == "level"

    async def tab_to(element_id: str | None = None, text: str | None = None) -> None:
        for _ in range(30):
            now = await focused(page)
            if (element_id and now["id"] == element_id) or (text and now["text"] == text):
                return
            await page.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {element_id or text}")

    await page.keyboard.press("ArrowDown")  # level 2: multiplication
    await tab_to("minutes")
    await page.keyboard.press("Control+a")
    await page.keyboard.type("1")
    await tab_to("player1")
    await page.keyboard.type("Ada")
    await page.keyboard.press("Tab")
    await page.keyboard.type("Bo")
    await tab_to(text="Start")
    await enter(page)
    assert await state_of(page) == "playing"
    game = served.game(game_id(page))
    assert game.state.config.level == 2

    async def play_on() -> None:
        """Enter on what has the focus: the next side's answer box (typed) or Flip."""
        if (await focused(page))["name"] == "answer":
            await page.keyboard.type(best_answer(game, game.state.pending[0]))
        else:
            assert (await focused(page))["text"] == "Flip"
        await enter(page)

    for _ in range(6):  # a few rounds: both sides answer, then a flip
        await play_on()
    assert len(game.actions) >= 6
    served.clock.now += 61
    await page.reload()
    for _ in range(20):
        if await state_of(page) == "over":
            break
        await play_on()
    assert await state_of(page) == "over"
    assert (await focused(page))["text"] == t("table.download", "en")
    await page.close()


async def test_a_stale_press_from_a_second_tab_is_refused(
    context: BrowserContext, served: Table
) -> None:
    page = await new_page(context, "en")
    await page.goto(base(served) + "?game=intervallkrig")
    await page.fill("#player1", "Ada")
    await page.fill("#player2", "Bo")
    await press(page, "Start")
    second = await new_page(context, "en")
    await second.goto(page.url)
    game = served.game(game_id(page))
    await press(page, "Flip")
    assert len(game.actions) == 1
    await press(second, "Flip")
    assert await message(second) == t("reply.stale", "en")
    assert len(game.actions) == 1  # nothing changed
    assert await state_of(second) == "playing"
    # The refused tab now shows the table as it is, so its next press counts.
    await press(second, "Flip")
    assert len(game.actions) == 2
    await second.close()
    await page.close()


async def test_the_language_switch_changes_every_word(
    context: BrowserContext, served: Table
) -> None:
    page = await new_page(context, "en")
    await page.goto(base(served) + "?game=intervallkrig")
    await press(page, "Svenska")
    assert await page.get_attribute("html", "lang") == "sv"
    assert t("button.begin", "sv") in await words(page)
    assert await state_of(page) == "setup"
    await page.close()


async def test_the_table_fits_a_phone(context: BrowserContext, served: Table) -> None:
    """One column on a phone: nothing wider than the screen, every button in reach."""
    page = await new_page(context, "nb")
    await page.set_viewport_size({"width": 360, "height": 740})
    await page.goto(base(served) + "?game=regnekrig")
    await page.fill("#player1", "Ada")
    await page.fill("#player2", "Bo")
    await page.select_option("#level", "5")
    await press(page, t("button.begin", "nb"))
    width = await page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360
    for box in await page.locator("button").all():
        shape = await box.bounding_box()
        assert shape is not None and shape["x"] + shape["width"] <= 360
    await page.close()
