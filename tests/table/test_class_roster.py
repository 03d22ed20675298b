"""A class and its roster (`mattekrig class --class 7B`): each pupil's own join card, the only
way into a lesson of the class as that pupil; a lost card replaced; the cards printed."""

from __future__ import annotations

from pathlib import Path

from classroom.i18n import t
from storage.sqlite import Storage
from table.lesson import card_code
from table.roster import CARD_ALPHABET, CARD_LENGTH
from tests.table.classes import (
    Wall,
    add_pupils,
    cards_of,
    class_lesson,
    join_by_card,
    teacher_of,
)
from tests.table.lessons import Device
from tests.table.support import data_state, message_of, text_of

PUPILS = ("Ada", "Bo", "Cy")


async def test_a_card_lets_its_pupil_in_as_themselves_and_nobody_else(tmp_path: Path) -> None:
    """Issue: "A card lets that pupil into any lesson of that class as themselves; the class
    code alone no longer gives a seat in a class lesson"; a classmate's card is refused."""
    store = await Storage.open(tmp_path / "lessons.db")
    wall = Wall()
    try:
        async with class_lesson(store, wall) as served:
            table = served.table
            teacher = await teacher_of(table)
            cards = cards_of(await add_pupils(teacher, *PUPILS))
            assert sorted(cards) == sorted(PUPILS)
            for code in cards.values():
                plain = card_code(code)
                assert len(plain) == CARD_LENGTH and set(plain) <= set(CARD_ALPHABET)
            # The lesson's code alone opens nothing, with any name.
            stranger = Device.new(table)
            status, page = await stranger.post(
                "/join", code=table.lesson.code, name="Ada", lang="en"
            )
            assert status == 400 and message_of(page) == t("lesson.error.card", "en")
            assert not table.lesson.seats
            # Each card opens its own pupil's seat, named as the roster names the pupil.
            ada, bo = Device.new(table), Device.new(table)
            status, page = await join_by_card(table, cards["Ada"].lower(), ada)
            assert status == 200 and data_state(page) == "waiting"
            status, _ = await join_by_card(table, cards["Bo"], bo)
            assert status == 200
            assert sorted(s.name for s in table.lesson.seats.values()) == ["Ada", "Bo"]
            # Ada's device cannot take Bo's card; a fresh device cannot take a card in use.
            status, page = await join_by_card(table, cards["Bo"], ada)
            assert status == 403 and message_of(page) == t("lesson.error.card_other", "en")
            status, page = await join_by_card(table, cards["Bo"])
            assert status == 409 and message_of(page) == t("lesson.error.card_in_use", "en")
            assert len(table.lesson.seats) == 2
            for device in (teacher, stranger, ada, bo):
                await device.close()
    finally:
        await store.close()


async def test_a_lost_card_replaced_stops_working(tmp_path: Path) -> None:
    """Issue: "a lost card can be replaced (the old one stops working)", in this lesson at once
    and in every later lesson of the class."""
    store = await Storage.open(tmp_path / "lessons.db")
    wall = Wall()
    try:
        async with class_lesson(store, wall) as served:
            table = served.table
            teacher = await teacher_of(table)
            old = cards_of(await add_pupils(teacher, *PUPILS))["Cy"]
            cy = next(p for p in await store.pupils(served.lesson.class_id or 0) if p.name == "Cy")
            status, page = await teacher.post("/teacher/class/card", pupil=str(cy.id), lang="en")
            assert status == 200
            new = cards_of(page)["Cy"]
            assert new != old and new in text_of(page)
            status, page = await join_by_card(table, old)
            assert status == 400 and message_of(page) == t("lesson.error.card", "en")
            status, _ = await join_by_card(table, new)
            assert status == 200
            await teacher.close()
        wall.now += 86_400
        async with class_lesson(store, wall) as served:
            status, _ = await join_by_card(served.table, old)
            assert status == 400
            status, _ = await join_by_card(served.table, new)
            assert status == 200
            assert [s.name for s in served.lesson.seats.values()] == ["Cy"]
    finally:
        await store.close()


async def test_the_cards_print_on_one_page_with_their_qr_codes(tmp_path: Path) -> None:
    """Issue: "printable on one A4 page for the class (cut into cards)": every pupil's name,
    code and a QR code that opens the card's own page with the code filled in."""
    store = await Storage.open(tmp_path / "lessons.db")
    try:
        async with class_lesson(store, Wall()) as served:
            table = served.table
            teacher = await teacher_of(table)
            cards = cards_of(await add_pupils(teacher, *PUPILS))
            status, page = await teacher.get("/teacher/class/cards?lang=nb")
            assert status == 200
            assert page.count('<li class="card">') == 3
            assert page.count('<svg role="img"') == 3
            for name, code in cards.items():
                assert name in page and code in page
                assert t("class.cards.qr", "nb", name=name) in page
            # Everything kept of the class, for a parent's request: the roster and the cards.
            status, data = await teacher.get("/teacher/class/export.csv?lang=en")
            assert status == 200
            assert all(name in data and code in data for name, code in cards.items())
            # The card's page: the join form with the code in it; the card joins.
            device = Device.new(table)
            status, page = await device.get(f"/card/{card_code(cards['Ada'])}?lang=en")
            assert status == 200 and f'value="{cards["Ada"]}"' in page
            status, _ = await device.post("/join", code=cards["Ada"], lang="en")
            assert status == 200
            # Only the teacher sees the roster and the cards.
            for path in ("/teacher/class", "/teacher/class/cards", "/teacher/class/export.csv"):
                status, _ = await device.get(path)
                assert status == 403
            for device_ in (teacher, device):
                await device_.close()
    finally:
        await store.close()


async def test_a_name_the_roster_refuses_is_said_and_nothing_is_added(tmp_path: Path) -> None:
    """Names on the roster are checked as a lesson checks a nickname (no look-alikes, no
    invisible characters, none of the game's own names)."""
    store = await Storage.open(tmp_path / "lessons.db")
    try:
        async with class_lesson(store, Wall()) as served:
            teacher = await teacher_of(served.table)
            await add_pupils(teacher, "Ada")
            status, page = await teacher.post("/teacher/class/add", names="Lærer", lang="en")
            assert status == 400
            assert message_of(page) == t("lesson.error.name_reserved", "en", name="Lærer")
            assert [p.name for p in await store.pupils(served.lesson.class_id or 0)] == ["Ada"]
            await teacher.close()
    finally:
        await store.close()


async def test_the_teacher_names_the_class_on_the_teachers_page(tmp_path: Path) -> None:
    """Issue: the teacher creates a class "`mattekrig class --class 7B`, or on the teacher's
    page": before anyone joined, the lesson becomes one of the class; after pupils joined with
    nicknames, it cannot (they are no pupils of the roster)."""
    store = await Storage.open(tmp_path / "lessons.db")
    try:
        async with class_lesson(store, Wall(), name=None) as served:
            table = served.table
            teacher = await teacher_of(table)
            status, page = await teacher.get("/teacher?lang=en")
            assert t("class.teacher.open", "en") in text_of(page)
            status, page = await teacher.get("/teacher/progress?lang=en")
            assert status == 404 and t("class.error.none", "en") in text_of(page)
            status, page = await teacher.get("/teacher/class?lang=en")
            assert status == 200 and t("class.open.button", "en") in text_of(page)
            status, page = await teacher.post("/teacher/class/open", name="7B", lang="en")
            assert status == 200 and served.lesson.class_id is not None
            cards = cards_of(await add_pupils(teacher, "Ada"))
            status, _ = await join_by_card(table, cards["Ada"])
            assert status == 200
            assert [c.name for c in await store.classes()] == ["7B"]
            await teacher.close()
        async with class_lesson(store, Wall(), name=None) as served:
            teacher = await teacher_of(served.table)
            pupil = Device.new(served.table)
            status, _ = await pupil.post("/join", code=served.lesson.code, name="Kim", lang="en")
            assert status == 200
            status, page = await teacher.post("/teacher/class/open", name="7B", lang="en")
            assert status == 409 and served.lesson.class_id is None
            for device in (teacher, pupil):
                await device.close()
    finally:
        await store.close()
