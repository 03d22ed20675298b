"""A class that remembers, end to end (the issue's "Done when"): three lessons of one class a
week apart, every pupil joining by their own card over HTTP and answering through their own
device. A pupil whose sign slips fall shows a falling rate with a down arrow on the teacher's
progress page and in the CSV; a pupil who never simplifies shows the practice note; the heat
map counts the pupils; classmates' cards and a replaced card are refused; the pupil sees only
their own progress; forget-pupil and delete-class leave no trace (a database scan)."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from classroom.i18n import t
from engine.game import choices
from engine.judge import judge
from engine.regnekrig import ANSWER, Answer
from storage.sqlite import Storage
from table.games import TableGame
from tests.bot.db_scan import scan
from tests.table.classes import (
    WEEK,
    ClassLesson,
    Wall,
    add_pupils,
    cards_of,
    class_lesson,
    faces,
    join_by_card,
    seat_named,
    side_of,
    slip_text,
    teacher_of,
)
from tests.table.lessons import Device, best_text
from tests.table.support import message_of, text_of

ROSTER = ("Adalinde", "Borghild", "Cyrus", "Dina")
ROUNDS = 8
ADA_SLIPS = (6, 3, 1)  # of Adalinde's 8 answers in lessons 1, 2 and 3: sign slips (RULES §2.6)


async def _post_answer(device: Device, game: TableGame, text: str) -> tuple[int, str]:
    return await device.post("/table/act", window=str(game.state.window), choice="answer",
                             answer=text, lang="en")  # fmt: skip


def _unsimplified(game: TableGame, side: int) -> str:
    """The best value as a fraction not simplified ("6/2"): a practice note (RULES §2.6)."""
    value = judge(best_text(game, side), faces(game, side), game.state.config.level).value
    assert value is not None
    return f"{value.numerator * 2}/{value.denominator * 2}"


async def _play(served: ClassLesson, devices: dict[str, Device], lesson_no: int) -> None:
    """Every pupil answers `ROUNDS` rounds: Adalinde with her lesson's sign slips first,
    Cyrus typing each value unsimplified first, the others the best move."""
    lesson = served.lesson
    answered = dict.fromkeys(ROSTER, 0)
    for _ in range(400):
        if all(n >= ROUNDS for n in answered.values()):
            return
        for game in lesson.live_games():
            if game.over:
                continue
            state = game.state
            by_side = {side_of(game, seat_named(lesson, n)): n for n in ROSTER
                       if seat_named(lesson, n).id in game.all_seats}  # fmt: skip
            if state.phase is ANSWER:
                for side in list(state.pending):
                    name = by_side[side]
                    device = devices[name]
                    if name == "Cyrus":
                        status, page = await _post_answer(device, game, _unsimplified(game, side))
                        assert status == 400, page
                    slip = name == "Adalinde" and answered[name] < ADA_SLIPS[lesson_no]
                    text = slip_text(game, side) if slip else best_text(game, side)
                    status, page = await _post_answer(device, game, text)
                    assert status == 200, message_of(page)
                    answered[name] += 1
            else:
                offered = [c for c in choices(state) if not isinstance(c.action, Answer)]
                assert offered, state.phase
                device = devices[by_side[offered[0].side]]
                status, page = await device.post("/table/act", window=str(state.window),
                                                 choice="flip", lang="en")  # fmt: skip
                assert status == 200, message_of(page)
    raise AssertionError(f"the rounds were never played: {answered}")


async def _lesson(
    served: ClassLesson, cards: dict[str, str], lesson_no: int
) -> tuple[Device, dict[str, Device]]:
    table = served.table
    teacher = await teacher_of(table)
    devices = {}
    for name in ROSTER:
        devices[name] = Device.new(table)
        status, page = await join_by_card(table, cards[name], devices[name])
        assert status == 200, message_of(page)
    status, _ = await teacher.post("/teacher/pair", how="random", lang="en")
    assert status == 200
    await _play(served, devices, lesson_no)
    return teacher, devices


def _row_of(page: str, name: str) -> str:
    found = re.search(rf'<tr><th scope="row">{name}</th>.*?</tr>', page)
    assert found is not None, name
    return found.group(0)


def _cells(row: str) -> list[str]:
    return re.findall(r"<td[^>]*>(.*?)</td>", row)


async def test_three_lessons_of_a_class_show_each_pupils_progress(tmp_path: Path) -> None:
    db = tmp_path / "lessons.db"
    store = await Storage.open(db)
    wall = Wall()
    try:
        # Lesson 1: the teacher lists the class; the cards let the pupils in.
        async with class_lesson(store, wall) as served:
            teacher = await teacher_of(served.table)
            cards = cards_of(await add_pupils(teacher, *ROSTER))
            await teacher.close()
            teacher, devices = await _lesson(served, cards, 0)
            await teacher.post("/teacher/end", lang="en")
            for device in (teacher, *devices.values()):
                await device.close()
        # Lesson 2, a week later: two pupils try a classmate's card (refused); Dina's card is
        # lost and replaced.
        wall.now += WEEK
        async with class_lesson(store, wall) as served:
            teacher, devices = await _lesson(served, cards, 1)
            for thief, victim in (("Borghild", "Adalinde"), ("Dina", "Cyrus")):
                status, page = await join_by_card(served.table, cards[victim], devices[thief])
                assert status == 403
                assert message_of(page) == t("lesson.error.card_other", "en")
            stranger = Device.new(served.table)
            status, _ = await join_by_card(served.table, cards["Adalinde"], stranger)
            assert status == 409  # the card is in the lesson already
            dina = next(p for p in await store.pupils(served.lesson.class_id or 0)
                        if p.name == "Dina")  # fmt: skip
            status, page = await teacher.post("/teacher/class/card", pupil=str(dina.id),
                                              lang="en")  # fmt: skip
            old_dina, cards["Dina"] = cards["Dina"], cards_of(page)["Dina"]
            await teacher.post("/teacher/end", lang="en")
            for device in (teacher, stranger, *devices.values()):
                await device.close()
        # Lesson 3, a week later: the old card opens nothing; the new one lets Dina in.
        wall.now += WEEK
        async with class_lesson(store, wall) as served:
            status, page = await join_by_card(served.table, old_dina)
            assert status == 400 and message_of(page) == t("lesson.error.card", "en")
            teacher, devices = await _lesson(served, cards, 2)
            await _check_the_teachers_pages(teacher)
            await _check_the_pupils_own_pages(devices)
            await _check_forgetting(teacher, store, db, cards)
            for device in (teacher, *devices.values()):
                await device.close()
    finally:
        await store.close()


async def _check_the_teachers_pages(teacher: Device) -> None:
    status, page = await teacher.get("/teacher/progress?lang=en")
    assert status == 200
    slip, note = t("mistake.sign_slip", "en"), t("mistake.not_simplified", "en")
    # The pupils' table: Adalinde's sign slips fell (3 of 8 → 1 of 8): a down arrow.
    head = re.search(r"<thead><tr>(.*?)</tr></thead>", page.split('id="pupils-h"')[1])
    assert head is not None
    columns = [text_of(c) for c in re.findall(r"<th[^>]*>(.*?)</th>", head.group(1))]
    ada = _cells(_row_of(page, "Adalinde"))
    at = columns.index(slip) - 1  # the row's first cell is a <th>
    assert text_of(ada[at]).startswith(t("class.progress.rate", "en", count=1, total=ROUNDS,
                                         percent="12 %"))  # fmt: skip
    assert 'data-arrow="down"' in ada[at]
    assert t("class.progress.arrow.down", "en", before="38 %") in text_of(ada[at])
    # Cyrus never simplifies: the practice note, every answer of his.
    cy = _cells(_row_of(page, "Cyrus"))
    assert text_of(cy[columns.index(note) - 1]).startswith(
        t("class.progress.rate", "en", count=ROUNDS, total=ROUNDS, percent="100 %")
    )
    # The heat map: one pupil with sign slips and one with the note in each lesson; no name
    # until the teacher opens a cell.
    heat = page.split('id="heat-h"')[1].split('id="pupils-h"')[0]
    for kind in (slip, note):  # 1 pupil in each of the 3 lessons, nobody else
        assert heat.count(f'aria-label="1 pupil: {kind}, ') == 3
        assert heat.count(f": {kind}, ") == 3
    assert "Adalinde" not in heat and "Cyrus" not in heat
    lesson_key = re.search(r"kind=sign_slip&amp;lesson=(\d+)", heat)
    assert lesson_key is not None
    status, opened = await teacher.get(
        f"/teacher/progress?lang=en&kind=sign_slip&lesson={lesson_key.group(1)}"
    )
    cell = opened.split('id="cell-h"')[1].split("</section>")[0]
    assert "Adalinde" in cell and "Cyrus" not in cell
    # The CSV says the same.
    status, data = await teacher.get("/teacher/progress.csv?lang=en")
    assert status == 200
    rows = list(csv.reader(io.StringIO(data.lstrip("\ufeff"))))
    ada_slips = [r for r in rows if r[0] == "Adalinde" and r[1] == "By lesson" and r[3] == slip]
    assert [(r[4], r[5], r[6], r[7]) for r in ada_slips] == [
        ("6", "8", "75", ""), ("3", "8", "38", "down"), ("1", "8", "12", "down"),
    ]  # fmt: skip
    cy_notes = [r for r in rows if r[0] == "Cyrus" and r[1] == "By lesson" and r[3] == note]
    assert [r[4] for r in cy_notes] == ["8", "8", "8"]
    # The progress note of a pupil, to print.
    ada_id = re.search(r'/teacher/progress/pupil/(\d+)\?lang=en">[^<]*Adalinde', page)
    assert ada_id is not None
    status, note_page = await teacher.get(f"/teacher/progress/pupil/{ada_id.group(1)}?lang=en")
    assert status == 200 and '<svg class="chart" role="img"' in note_page
    assert "Cyrus" not in note_page


async def _check_the_pupils_own_pages(devices: dict[str, Device]) -> None:
    """Issue: "sign slips: 6 of 20 last week → 2 of 20 today": the pupil's own, in plain
    words, never anyone else's, never a rank."""
    status, page = await devices["Adalinde"].get("/mine?lang=en")
    assert status == 200
    line = t("class.mine.line", "en", kind=t("mistake.sign_slip", "en"), before=3,
             before_total=ROUNDS, now=1, now_total=ROUNDS)  # fmt: skip
    assert line in text_of(page)
    assert not any(name in page for name in ROSTER if name != "Adalinde")
    status, page = await devices["Borghild"].get("/mine?lang=en")
    assert "Adalinde" not in page and t("mistake.sign_slip", "en") not in page
    stranger = Device.new(devices["Adalinde"].table)  # no seat: the join page
    status, page = await stranger.get("/mine?lang=en")
    assert status == 200 and t("class.mine.title", "en") not in text_of(page)
    await stranger.close()


async def _check_forgetting(
    teacher: Device, store: Storage, db: Path, cards: dict[str, str]
) -> None:
    """Issue: forget-pupil and delete-class leave no trace (a database scan)."""
    klass = (await store.classes())[0]
    ada = next(p for p in await store.pupils(klass.id) if p.name == "Adalinde")
    status, _ = await teacher.post("/teacher/class/forget", pupil=str(ada.id), lang="en")
    assert status == 200 and scan(db, "Adalinde")  # asked first: nothing forgotten yet
    status, page = await teacher.post("/teacher/class/forget", pupil=str(ada.id), confirm="yes",
                                      lang="en")  # fmt: skip
    assert status == 200 and message_of(page) == t("class.roster.forgotten", "en")
    assert scan(db, "Adalinde", cards["Adalinde"].replace("-", "")) == []
    assert scan(db, "Borghild")
    status, _ = await teacher.post("/teacher/class/delete", confirm="yes", lang="en")
    assert status == 200
    assert scan(db, *ROSTER, *(c.replace("-", "") for c in cards.values())) == []
