"""The teacher's projector view through HTTP: one table's last round put on the projector
with its best move (names hidden unless the teacher shows them, and the round kept while
the class talks it over), the class goal, and a seat the teacher removes."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from classroom.i18n import t
from classroom.summary import ClassSummary, PupilLine, csv_bytes
from table.board import card_html
from tests.table.lessons import (
    Device,
    best_text,
    join,
    received,
    settle,
    side_of,
    state_of,
    teacher,
)
from tests.table.support import Table, message_of, text_of

pytestmark = pytest.mark.usefixtures("quiet_log")


def part_messages(page: str) -> str:
    found = re.search(r'<div id="messages">(.*?)</div><section', page, re.S)
    assert found is not None
    return found.group(1)


def part(page: str, name: str) -> str:
    found = re.search(rf'<section id="{name}"[^>]*>(.*?)</section>', page, re.S)
    assert found is not None, name
    return found.group(1)


async def pupils(lesson: Table, boss: Device, *names: str) -> list[Device]:
    status, _ = await boss.post("/teacher/settings", game="regnekrig", level="1",
                                answer_seconds="0", lang="en")  # fmt: skip
    assert status == 200
    devices = [(await join(lesson, name))[0] for name in names]
    await boss.post("/teacher/pair", how="random", lang="en")
    return devices


async def one_round(lesson: Table, devices: list[Device], wrong: str | None = None) -> None:
    """Every pupil answers the round (the one named `wrong` types 99)."""
    for name, device in zip(("Ada", "Bo", "Cy", "Di"), devices, strict=False):
        seat = next(s for s in lesson.lesson.seats.values() if s.name == name)
        game = lesson.lesson.game_of(seat)
        assert game is not None
        text = "99" if name == wrong else best_text(game, side_of(game, seat))
        status, page = await device.post("/table/act", window=str(game.state.window),
                                         choice="answer", answer=text, lang="en")  # fmt: skip
        assert status == 200, message_of(page)


async def test_a_round_on_the_projector_has_its_best_move_and_hides_the_names(
    lesson: Table,
) -> None:
    """The teacher puts one table's last round on the projector to discuss it: the round
    told in full with the best move the pupil missed; the names are hidden unless the
    teacher shows them (they were on the projector before the teacher could hide them), and
    the round stays while the class talks it over (it moved on with the game)."""
    boss = await teacher(lesson)
    devices = await pupils(lesson, boss, "Ada", "Bo")
    (game,) = lesson.lesson.live_games()
    ada = next(s for s in lesson.lesson.seats.values() if s.name == "Ada")
    side = side_of(game, ada)
    best = best_text(game, side)
    cards = [c for s in (0, 1) for c in game.state.up[s]]  # as the pupils' tables drew them
    await one_round(lesson, devices, wrong="Ada")
    status, page = await boss.post("/teacher/show", table=game.id, lang="en")
    assert status == 200
    # The same card elements as on the pupils' tables, each with its spoken name and suit.
    drawn = part(page, "shown")
    assert all(card_html(c, "en") in drawn and c.suit is not None for c in cards), drawn
    assert "[ " not in drawn  # no card is told as text beside them
    shown = text_of(drawn)
    assert t("board.round", "en", round=1).replace("**", "") in shown
    assert best.replace("-", "−") in shown, (best, shown)
    assert "Ada" not in shown and "Bo" not in shown
    assert t("lesson.side_letter", "en", letter="AB"[side]) in shown
    assert page.index('id="shown"') < page.index('id="tables"')  # at the top of the page
    await one_round(lesson, devices)  # the game moves on: the round on the projector stays
    status, page = await boss.post("/teacher/show", hide="false", lang="en")
    shown = text_of(part(page, "shown"))
    assert t("board.round", "en", round=1).replace("**", "") in shown and "Ada" in shown
    assert t("board.round", "en", round=2).replace("**", "") not in shown
    status, page = await boss.post("/teacher/show", table="", lang="en")
    assert part(page, "shown") == ""
    status, page = await boss.post("/teacher/show", table="nothing", lang="en")
    assert status == 404 and message_of(page) == t("table.error.no_game", "en")
    for device in (*devices, boss):
        await device.close()


async def test_the_class_goal_counts_what_the_class_finds_together(lesson: Table) -> None:
    """A class goal counts best moves and exact hits found by everyone together, on the
    projector as a number and a bar, never who found them; a goal that is no number is
    refused in words and changes nothing."""
    boss = await teacher(lesson)
    devices = await pupils(lesson, boss, "Ada", "Bo", "Cy", "Di")
    status, page = await boss.post("/teacher/goal", goal="5", lang="nb")
    assert status == 200 and lesson.lesson.goal == 5
    await one_round(lesson, devices, wrong="Di")
    records = lesson.lesson.records()
    found = sum(r.best for r in records) + sum(r.exact for r in records)
    assert found >= 3
    status, page = await boss.get("/teacher?lang=nb")
    goal = part(page, "goal")
    assert t("lesson.goal.of", "nb", done=found, goal=5) in text_of(goal)
    assert f'<progress max="5" value="{min(found, 5)}"' in goal
    assert not any(name in goal for name in ("Ada", "Bo", "Cy", "Di"))
    # The projector never ranks pupils: the seats stay in the order they joined (Di erred).
    seats = re.findall(r'<li data-seat="[^"]+".*?<span class="name">([^<]+)<', part(page, "seats"))
    assert seats == ["Ada", "Bo", "Cy", "Di"]
    for bad in ("-1", "lots", "10000", ""):
        status, page = await boss.post("/teacher/goal", goal=bad, lang="sv")
        assert status == 400 and message_of(page) == t("lesson.error.goal", "sv")
        assert lesson.lesson.goal == 5
    for device in (*devices, boss):
        await device.close()


def said(word: str, text: str) -> bool:
    """The word is in the text as a word of its own (Di is not in "Din tur")."""
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


async def _answer(lesson: Table, device: Device, name: str, text: str | None = None) -> None:
    seat = next(s for s in lesson.lesson.seats.values() if s.name == name)
    game = lesson.lesson.game_of(seat)
    assert game is not None
    typed = text if text is not None else best_text(game, side_of(game, seat))
    status, page = await device.post("/table/act", window=str(game.state.window),
                                     choice="answer", answer=typed, lang="en")  # fmt: skip
    assert status == 200, message_of(page)


@pytest.mark.parametrize("lang", ["nb", "nn", "sv", "en"])
async def test_the_class_goal_reaches_every_pupil_and_names_nobody(
    lesson: Table, lang: str
) -> None:
    """The class goal is on every pupil's device too, live: a round revealed at one table
    moves it on every other pupil's device at once, as the goal's part alone (the same for
    everyone: no name, no seat, no table, no answer, no rank: "The projector never ranks
    pupils"), and nothing at all reaches another table before that round's reveal (RULES
    §2.2: the answers are revealed together)."""
    boss = await teacher(lesson)
    names = ("Ada", "Bo", "Cy", "Di")
    devices = dict(zip(names, await pupils(lesson, boss, *names), strict=True))
    status, _ = await boss.post("/teacher/goal", goal="3", lang=lang)
    assert status == 200
    for device in devices.values():
        await device.listen(lang=lang)
    seat_name = {s.id: s.name for s in lesson.lesson.seats.values()}
    first, second = ([seat_name[s] for s in g.all_seats] for g in lesson.lesson.live_games())
    everyone = list(devices.values())
    await settle(everyone)
    start = {n: len(d.raw) for n, d in devices.items()}
    await _answer(lesson, devices[first[0]], first[0], "99")  # a slip, not yet revealed
    await settle(everyone)
    assert all(len(devices[n].raw) == start[n] for n in second)
    await _answer(lesson, devices[first[1]], first[1])
    for n in second:
        await received(devices[n], start[n] + 1)
    await settle(everyone)
    best, exact = lesson.lesson.found()
    told = [t("lesson.goal.about", lang), t("lesson.goal.progress", lang, best=best, exact=exact),
            t("lesson.goal.of", lang, done=best + exact, goal=3)]  # fmt: skip
    moved = [json.loads(raw) for n in second for raw in devices[n].raw[start[n] :]]
    assert len(moved) == 2 and moved[0] == moved[1]
    assert list(moved[0]) == ["parts"] and list(moved[0]["parts"]) == ["goal"]
    goal = moved[0]["parts"]["goal"]
    assert all(line in text_of(goal) for line in told), (told, text_of(goal))
    secret = [*names, *lesson.lesson.seats, *(g.id for g in lesson.lesson.live_games()), "99"]
    assert not [word for word in secret if said(word, goal)]
    # The other table's devices never hear the names or the answers of this one.
    for n in second:
        assert not [o for raw in devices[n].raw for o in (*first, "99") if said(o, raw)]
    # Its own devices have the goal on their page, as everyone's (a polite live region).
    for n in first:
        page = devices[n].received[-1]["html"]
        assert (
            f'<section id="goal" class="part part-goal" aria-live="polite">{goal}</section>' in page
        )
    start = {n: len(d.raw) for n, d in devices.items()}
    for n in second:
        await _answer(lesson, devices[n], n)
    for n in first:
        await received(devices[n], start[n] + 1)
    await settle(everyone)
    assert sum(lesson.lesson.found()) >= 3
    last = json.loads(devices[first[0]].raw[-1])["parts"]["goal"]
    assert t("lesson.goal.reached", lang) in text_of(last)
    for device in (*everyone, boss):
        await device.close()


async def test_a_removed_seat_is_told_and_its_work_stays_in_the_summary(lesson: Table) -> None:
    """The teacher removes a seat (a pupil who left, a rude name): that device is told so on
    its own page, at once, and may join again with another name; what the seat played stays
    in the lesson's summary, marked as removed (it vanished while the class totals kept it)."""
    boss = await teacher(lesson)
    ada, bo = await pupils(lesson, boss, "Ada", "Bo")
    await one_round(lesson, [ada, bo], wrong="Bo")
    bo_seat = next(s for s in lesson.lesson.seats.values() if s.name == "Bo")
    game = lesson.lesson.game_of(bo_seat)
    assert game is not None and not game.over
    # A press on the projector is easily a slip: the teacher is asked first, and may say no.
    ask = t("lesson.teacher.remove_ask", "en", name="Bo")
    status, page = await boss.post("/teacher/remove", seat=bo_seat.id, lang="en")
    assert status == 200 and ask in text_of(part_messages(page))
    assert bo_seat.id in lesson.lesson.seats and not game.over
    status, page = await boss.post("/teacher/remove", seat=bo_seat.id, confirm="no", lang="en")
    assert ask not in text_of(page) and bo_seat.id in lesson.lesson.seats and not game.over
    await boss.post("/teacher/remove", seat=bo_seat.id, lang="en")
    await bo.listen()
    start = len(bo.raw)
    status, page = await boss.post("/teacher/remove", seat=bo_seat.id, confirm="yes", lang="en")
    assert ask not in text_of(page) and game.over
    await received(bo, start + 1)
    assert bo.received[-1]["state"] == "join"
    assert t("lesson.removed", "en") in text_of(bo.received[-1]["html"])
    status, page = await bo.get("/table?lang=nn")
    assert state_of(page) == "join" and message_of(page) == t("lesson.removed", "nn")
    status, page = await bo.post("/join", code=lesson.lesson.code, name="Bob", lang="en")
    assert state_of(page) == "waiting"
    status, page = await bo.get("/?lang=en")  # joined again: no longer told
    assert t("lesson.removed", "en") not in page
    status, page = await boss.get("/teacher/summary?lang=en")
    assert status == 200
    words = text_of(page)
    removed = t("lesson.summary.removed", "en", name="Bo")
    assert removed in words and "Bob" in words
    kind = next(r.mistake for r in lesson.lesson.records() if r.seat == bo_seat.id)
    assert kind is not None and t(f"mistake.{kind}", "en") in words
    async with boss.session.get("/teacher/summary.csv?lang=sv") as response:
        rows = list(csv.reader(io.StringIO((await response.read()).decode("utf-8-sig")),
                               delimiter=";"))  # fmt: skip
    names = [r[0] for r in rows[1:]]
    assert names == ["Ada", t("lesson.summary.removed", "sv", name="Bo"), "Bob"]
    assert rows[2][3] == "1"  # Bo's one answer
    for device in (ada, bo, boss):
        await device.close()


@pytest.mark.parametrize(
    ("lang", "sep", "share"),
    [("nb", ";", "0,67"), ("nn", ";", "0,67"), ("sv", ";", "0,67"), ("en", ",", "0.67")],
)
def test_the_csv_opens_in_a_spreadsheet_in_each_language(lang: str, sep: str, share: str) -> None:
    """The summary's CSV as Excel or LibreOffice in the teacher's language opens it by a
    double click: in Norwegian and Swedish a semicolon between fields and a decimal comma,
    in every language a byte-order mark; a name typed as a formula stays text."""
    pupil = PupilLine("s1", "=1+1", games=1, rounds=3, answers=3, best=2, exact=1,
                      mistakes=(("sign_slip", 1),))  # fmt: skip
    body = csv_bytes(ClassSummary((pupil,), (), (), 2, 1), lang)
    assert body.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=sep))
    assert rows[1][:7] == ["'=1+1", "1", "3", "3", "2", share, "1"]
    assert rows[1][7] == f"{t('mistake.sign_slip', lang)} (1)"
