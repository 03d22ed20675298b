"""The teacher's page for a class of 32, through HTTP: the game chosen in the pairing's own
form, the seat grid (who plays, who is connected), the live tables before the finished ones,
removal in one menu, and a `data-control` button for every control, each in a plain form
(the page works without its script)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from classroom.i18n import t
from table.lesson import Lesson
from tests.table.lessons import Device, join, received, teacher
from tests.table.support import Table, message_of

pytestmark = pytest.mark.usefixtures("quiet_log")

CONTROLS = {"pair-random", "pair-results", "challenges", "new-partners", "pause", "resume",
            "more-time", "end", "lock", "unlock", "remove"}  # fmt: skip


def seat_class(lesson: Lesson, count: int) -> None:
    for n in range(count):
        lesson.join(None, lesson.code, f"Elev {n + 1}")


class Controls(HTMLParser):
    """Each `data-control` button and whether a POST form holds it."""

    def __init__(self) -> None:
        super().__init__()
        self.form: str | None = None
        self.found: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "form":
            self.form = (values.get("method") or "get").lower()
        if tag == "button" and "data-control" in values:
            self.found.append((values["data-control"] or "", self.form))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None


def controls(page: str) -> list[tuple[str, str | None]]:
    reader = Controls()
    reader.feed(page)
    return reader.found


async def test_the_game_on_the_screen_is_the_game_paired(lesson: Table) -> None:
    """Issue: "a teacher who picks Satsing and presses 'Tilfeldige par' gets Regnekrig level
    1, because the settings count only after a separate 'Lagre innstillingene'". The game
    and the pairing are one form: the choice and the press are one step."""
    boss = await teacher(lesson)
    seat_class(lesson.lesson, 4)
    form = {"game": "satsing", "minutes": "15", "answer_seconds": "0", "war_rule": "highest",
            "deck": "heltall", "how": "random", "lang": "nb"}  # fmt: skip
    status, _ = await boss.post("/teacher/pair", **form)
    assert status == 200
    games = lesson.lesson.live_games()
    assert len(games) == 2 and {g.state.config.game for g in games} == {"satsing"}
    assert lesson.lesson.setup.settings.minutes == 15
    await boss.close()


async def test_a_refused_pairing_keeps_the_game_it_had(lesson: Table) -> None:
    """Bad input changes nothing: a pairing refused (nobody waits) leaves the game as it was,
    and a game the registry does not know is refused before anything is paired."""
    boss = await teacher(lesson)
    before = lesson.lesson.setup
    status, page = await boss.post("/teacher/pair", game="satsing", how="random", lang="sv")
    assert status == 409 and message_of(page) == t("lesson.error.nobody_waiting", "sv")
    assert lesson.lesson.setup == before
    seat_class(lesson.lesson, 2)
    status, page = await boss.post("/teacher/pair", game="poker", how="random", lang="en")
    assert status == 400 and message_of(page) == t("table.error.unknown_game", "en", game="poker")
    status, page = await boss.post("/teacher/pair", game="regnekrig", level="9", how="random",
                                   lang="en")  # fmt: skip
    assert status == 400 and not lesson.lesson.live_games() and lesson.lesson.setup == before
    await boss.close()


async def test_new_partners_take_the_game_on_the_screen(lesson: Table) -> None:
    boss = await teacher(lesson)
    seat_class(lesson.lesson, 4)
    await boss.post("/teacher/pair", game="regnekrig", level="1", how="random", lang="en")
    status, _ = await boss.post("/teacher/new-partners", game="intervallkrig", lang="en")
    assert status == 200 and lesson.lesson.setup.settings.engine.game == "intervallkrig"
    await boss.close()


async def test_every_control_is_a_button_in_a_plain_form(lesson: Table) -> None:
    """Issue: "every teacher control is a button with data-control"; the lesson works with
    forms alone: each of them is in a POST form."""
    boss = await teacher(lesson)
    seat_class(lesson.lesson, 4)
    seen: set[str] = set()
    _, page = await boss.get("/teacher?lang=en")
    seen |= {c for c, _ in controls(page)}
    await boss.post("/teacher/pause", lang="en")
    await boss.post("/teacher/lock", lang="en")
    _, page = await boss.get("/teacher?lang=en")
    found = controls(page)
    seen |= {c for c, _ in found}
    assert seen >= CONTROLS
    assert all(form == "post" for _, form in found)
    await boss.close()


async def test_the_seat_grid_shows_who_plays_and_who_is_connected(lesson: Table) -> None:
    """Issue: "no sign of who has lost their connection". Each seat carries `data-seat` and
    `data-connected`; a seat whose page is open is connected, one whose page closed is not."""
    boss = await teacher(lesson)
    ada, ada_seat = await join(lesson, "Ada")
    bo, bo_seat = await join(lesson, "Bo")
    await ada.listen()
    _, page = await boss.get("/teacher?lang=en")
    assert re.search(rf'data-seat="{ada_seat.id}" data-connected="true"', page)
    assert re.search(rf'data-seat="{bo_seat.id}" data-connected="false"', page)
    # The teacher's open page is told when a pupil's connection goes.
    await boss.listen(teacher=True)
    assert ada.ws is not None
    await ada.ws.close()
    await received(boss, 2)
    assert re.search(
        rf'data-seat="{ada_seat.id}" data-connected="false"', boss.received[-1]["html"]
    )
    for device in (ada, bo, boss):
        await device.close()


async def test_one_removal_menu_whatever_the_class(lesson: Table) -> None:
    """Issue: "28 'Remove' buttons on the projector". At 32 pupils there is one removal
    menu, naming every seat and "everyone not playing"; the page's buttons do not grow with
    the class."""
    boss = await teacher(lesson)
    seat_class(lesson.lesson, 4)
    _, small = await boss.get("/teacher?lang=en")
    seat_class_more = [f"Elev {n}" for n in range(5, 33)]
    for name in seat_class_more:
        lesson.lesson.join(None, lesson.lesson.code, name)
    _, page = await boss.get("/teacher?lang=en")
    assert page.count('data-control="remove"') == 1 and page.count("data-seat=") == 32
    assert page.count("<button") == small.count("<button")
    options = re.findall(r'<select id="remove-seat"[^>]*>(.*?)</select>', page, re.S)
    assert len(options) == 1 and options[0].count("<option") == 33
    assert t("lesson.teacher.remove_waiting", "en", count=32) in options[0]
    await boss.close()


async def test_the_live_tables_come_first_and_the_finished_are_folded(lesson: Table) -> None:
    """Issue: "finished games piled above the live ones". Each table names its players
    "A – B" with its `data-table` and `data-state`; the finished ones are in a <details>."""
    boss = await teacher(lesson)
    seat_class(lesson.lesson, 4)
    await boss.post("/teacher/pair", game="regnekrig", level="1", how="random", lang="en")
    first, second = lesson.lesson.live_games()
    gone = first.all_seats[0]
    await boss.post("/teacher/remove", seat=gone, confirm="yes", lang="en")
    assert first.over and not second.over
    _, page = await boss.get("/teacher?lang=en")
    live = page.index(f'data-table="{second.id}" data-state="playing"')
    folded = page.index('<details class="finished"')
    over = page.index(f'data-table="{first.id}" data-state="over"')
    assert live < folded < over
    names = " – ".join(second.names)
    assert f"<h3>{names}</h3>" in page
    await boss.close()


async def test_the_teacher_page_works_without_a_pupil_device(lesson: Table) -> None:
    """A seat whose device never opened the live connection (forms alone) is simply not
    connected; the grid still names it."""
    boss = await teacher(lesson)
    plain = Device.new(lesson)
    status, _ = await plain.post("/join", code=lesson.lesson.code, name="Cy", lang="en")
    assert status == 200
    _, page = await boss.get("/teacher?lang=en")
    assert re.search(r'data-connected="false"[^>]*>.*?<span class="name">Cy<', page)
    for device in (plain, boss):
        await device.close()
