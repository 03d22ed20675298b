"""The pupil's own page through HTTP and its live connection: Satsing's hint and notes, the
praise for a best move, the round's reveal line, and the page after a game."""

from __future__ import annotations

import re

import pytest

from classroom.i18n import t
from classroom.text.praise import PRAISE_BEST, PRAISE_EXACT, PRAISE_RIGHT
from engine.actions import Forfeit
from engine.game import choices
from engine.intervallkrig import BET
from engine.regnekrig import ANSWER
from tests.table.lessons import Device, best_text, join, settle, side_of, teacher
from tests.table.support import Table, message_of, text_of

pytestmark = pytest.mark.usefixtures("quiet_log")


async def settings(boss: Device, **form: str) -> None:
    status, page = await boss.post("/teacher/settings", lang="en", **form)
    assert status == 200, message_of(page)


def last_page(device: Device) -> str:
    pages = [m for m in device.received if "html" in m]
    assert pages
    return str(pages[-1]["html"])


def part(page: str, name: str) -> str:
    found = re.search(rf'<(?:section|div) id="{name}"[^>]*>(.*?)</(?:section|div)>', page, re.S)
    assert found is not None, name
    return found.group(1)


def praises(lang: str) -> set[str]:
    every = {t(f"lesson.praise.best.{n}", lang) for n in range(1, PRAISE_BEST + 1)}
    every |= {t(f"lesson.praise.exact.{n}", lang) for n in range(1, PRAISE_EXACT + 1)}
    return every | {t(f"lesson.praise.right.{n}", lang) for n in range(1, PRAISE_RIGHT + 1)}


async def satsing_pair(lesson: Table) -> tuple[Device, Device, Device]:
    """The teacher, Ada and Bo at one Satsing table, both asked whether to bet."""
    boss = await teacher(lesson)
    await settings(boss, game="satsing", answer_seconds="0")
    ada, _ = await join(lesson, "Ada")
    bo, _ = await join(lesson, "Bo")
    await boss.post("/teacher/pair", how="random", lang="en")
    (game,) = lesson.lesson.live_games()
    assert game.state.phase is BET and len(game.state.pending) == 2
    return boss, ada, bo


async def test_a_hint_stays_until_the_pupil_acts(lesson: Table) -> None:
    """Issue: "'Hint' draws the chances, and the next live update wipes them before the pupil
    sees them." Ada asks for her hint; Bo decides, and the live update Ada's device gets
    still shows her chances, until Ada herself decides."""
    boss, ada, bo = await satsing_pair(lesson)
    (game,) = lesson.lesson.live_games()
    ada_seat = next(s for s in lesson.lesson.seats.values() if s.name == "Ada")
    side = side_of(game, ada_seat)
    await ada.listen(lang="nb")
    status, page = await ada.get(f"/table?lang=nb&hint={side}")
    assert status == 200 and t("hint.keep", "nb") in text_of(page)
    status, _ = await bo.post("/table/act", window=str(game.state.window), choice="pass",
                              lang="en")  # fmt: skip
    assert status == 200
    await settle([ada])
    assert t("hint.keep", "nb") in text_of(last_page(ada))
    status, _ = await ada.post("/table/act", window=str(game.state.window), choice="pass",
                               lang="nb")  # fmt: skip
    assert status == 200
    await settle([ada])
    assert t("hint.keep", "nb") not in text_of(last_page(ada))
    for device in (ada, bo, boss):
        await device.close()


async def test_the_last_to_decide_is_not_told_to_wait(lesson: Table) -> None:
    """Issue: "The last pupil to decide keeps 'you are not betting this round, wait for the
    others' into the next round, above 'your turn'." A note belongs to its round: the first
    to pass is told to wait; the last one's pass reveals the round, and nothing tells either
    of them to wait once the next round asks them again."""
    boss, ada, bo = await satsing_pair(lesson)
    (game,) = lesson.lesson.live_games()
    waiting = t("reply.pass_received", "en")
    status, page = await ada.post("/table/act", window=str(game.state.window), choice="pass",
                                  lang="en")  # fmt: skip
    status, page = await ada.get("/table?lang=en")
    assert waiting in text_of(page)
    status, page = await bo.post("/table/act", window=str(game.state.window), choice="pass",
                                 lang="en")  # fmt: skip
    assert status == 200
    for device in (ada, bo):
        status, page = await device.get("/table?lang=en")
        assert waiting not in text_of(page), text_of(page)
    for device in (ada, bo, boss):
        await device.close()


async def test_a_best_move_is_praised_as_on_discord_and_the_reveal_reads_well(
    lesson: Table,
) -> None:
    """Issue: "A best move found gets no praise on the pupil's page, while the Discord board
    says 'Beste trekk!'"; "the reveal line has a separator before the best move and true
    minus signs ('🎯 −3', not '-3')". At level 5 both pupils type their best: each page's
    round says so in the bot's own words, after a separator, and every minus is a true one."""
    boss = await teacher(lesson)
    await settings(boss, game="regnekrig", level="5", answer_seconds="0")
    ada, ada_seat = await join(lesson, "Ada")
    bo, bo_seat = await join(lesson, "Bo")
    await boss.post("/teacher/pair", how="random", lang="en")
    (game,) = lesson.lesson.live_games()
    for _ in range(8):  # the first rounds: a target, then the answers
        for device, seat in ((ada, ada_seat), (bo, bo_seat)):
            side = side_of(game, seat)
            if side not in game.state.pending:
                continue
            if game.state.phase is ANSWER:
                form = {"choice": "answer", "answer": best_text(game, side)}
            else:
                form = {"choice": "random_target"}
            status, page = await device.post("/table/act", window=str(game.state.window),
                                             lang="nb", **form)  # fmt: skip
            assert status == 200, message_of(page)
        shown = game.view(None).result
        if shown is not None and shown.target is not None:
            break
    status, page = await ada.get("/table?lang=nb")
    news = text_of(part(page, "now"))
    said = [p for p in praises("nb") if p in news]
    assert said, news
    assert re.search(r"(?<![\w])-\d", news) is None, news  # true minus signs only
    assert re.search(r"\d · \d+ \w+ 🎯 −?\d", news), news  # a separator before the distance
    for device in (ada, bo, boss):
        await device.close()


async def test_after_a_game_one_waiting_message_and_no_second_welcome(lesson: Table) -> None:
    """Issue: "after a game one waiting message, not two and a second welcome"."""
    boss = await teacher(lesson)
    await settings(boss, game="regnekrig", level="1", answer_seconds="0")
    ada, ada_seat = await join(lesson, "Ada")
    bo, _ = await join(lesson, "Bo")
    await boss.post("/teacher/pair", how="random", lang="en")
    game = lesson.lesson.game_of(ada_seat)
    assert game is not None
    game.play(Forfeit(1 - side_of(game, ada_seat)))  # Bo gives up: Ada's game is over
    status, page = await ada.get("/table?lang=en")
    assert status == 200
    words = text_of(page)
    assert words.count(t("lesson.after_game", "en")) == 1
    assert t("lesson.waiting", "en", name="Ada") not in words
    for device in (ada, bo, boss):
        await device.close()


@pytest.mark.parametrize(("level", "form", "key"), [
    ("5", "expression", "lesson.answer.label.expression"),
    ("5", "number", "lesson.answer.label.number"),
    ("2", "expression", "lesson.answer.label.number"),  # levels 1–2: always the number
])  # fmt: skip
async def test_the_answer_box_says_in_plain_words_what_to_type(
    lesson: Table, level: str, form: str, key: str
) -> None:
    """Issue: "the answer box's label in plain words that match the answer form the teacher
    chose" (RULES §2.2: the number, or at levels 3–7 the calculation alone if so chosen)."""
    boss = await teacher(lesson)
    await settings(boss, game="regnekrig", level=level, answer_form=form, answer_seconds="0")
    ada, ada_seat = await join(lesson, "Ada")
    bo, _ = await join(lesson, "Bo")
    await boss.post("/teacher/pair", how="random", lang="en")
    game = lesson.lesson.game_of(ada_seat)
    assert game is not None
    if game.state.phase is not ANSWER:
        game.play(next(c.action for c in choices(game.state) if c.kind.name == "random_target"))
    for lang in ("nb", "nn", "sv", "en"):
        status, page = await ada.get(f"/table?lang={lang}")
        assert status == 200
        label = re.search(r'<label for="answer">(.*?)</label>', page)
        assert label is not None and label.group(1) == t(key, lang)
    for device in (ada, bo, boss):
        await device.close()


async def test_a_refusal_to_the_pages_script_is_in_the_pages_words(lesson: Table) -> None:
    """Issue: "refusals in the page's language". The page's script sends a press with the
    page's language in its address and reads the refusal as JSON, even one the server gives
    before it reads the form (a body it cannot read)."""
    ada, _ = await join(lesson, "Ada")
    async with ada.session.post(
        "/table/act?lang=nn",
        data={"answer": "x" * 70_000},
        headers={"Accept": "application/json", "Accept-Language": "en-GB"},
    ) as response:
        assert response.status == 413
        assert await response.json() == {"error": t("table.error.too_large", "nn")}
    await ada.close()
