"""A class lesson through HTTP and its live connection, each pupil a device of its own (its own
cookies): joining by code, seats the server keeps from the cookie, pairing, the teacher's
controls, the secrecy of answers and bets on the raw messages, and the lesson's summary."""

from __future__ import annotations

import csv
import io
import random
import re

import pytest

from classroom.i18n import t
from engine.intervallkrig import BET
from engine.regnekrig import ANSWER
from table.games import COMPUTER_SIDE
from table.lesson import MAX_SEATS, Seat
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
from tests.table.support import Table, message_of, serve, text_of

pytestmark = pytest.mark.usefixtures("quiet_log")


async def settings(table: Table, boss: Device, **form: str) -> None:
    status, page = await boss.post("/teacher/settings", lang="en", **form)
    assert status == 200, message_of(page)


async def test_the_teachers_page_shows_the_code_the_url_and_its_qr_code(lesson: Table) -> None:
    boss = await teacher(lesson)
    status, page = await boss.get("/teacher?lang=nb")
    assert status == 200 and state_of(page) == "teacher"
    assert f'data-join-code="{lesson.lesson.code}"' in page
    url = re.search(r'data-join-url="([^"]+)"', page)
    assert url is not None and url.group(1) == lesson.origin + "/"
    assert re.search(r'<svg role="img" aria-label="QR[^"]*"', page)
    await boss.close()
    # Without the teacher's cookie the page is refused, and so is a wrong key.
    stranger = Device.new(lesson)
    for path in ("/teacher", "/teacher?key=guess", "/teacher/summary"):
        status, page = await stranger.get(path)
        assert status == 403 and message_of(page) == t("lesson.error.not_teacher", "en")
    status, _ = await stranger.post("/teacher/end", lang="en")
    assert status == 403 and not lesson.lesson.ended
    await stranger.close()


@pytest.mark.parametrize(
    ("code", "name", "key", "status"),
    [("000000", "Ada", "lesson.error.code", 400), (None, "", "lesson.error.name", 400),
     (None, "A" * 33, "lesson.error.name", 400), (None, "   ", "lesson.error.name", 400),
     (None, "Ada\x07\x00", "lesson.error.name", 400),
     (None, "\u202eadA", "lesson.error.name", 400)],
)  # fmt: skip
async def test_a_join_that_cannot_be_taken_says_why(
    lesson: Table, code: str | None, name: str, key: str, status: int
) -> None:
    """A name is 1–32 characters, checked alike on the page (its input says so) and here."""
    device = Device.new(lesson)
    given = lesson.lesson.code if code is None else code
    got, page = await device.post("/join", code=given, name=name, lang="sv")
    assert got == status and state_of(page) == "join"
    assert message_of(page) == t(key, "sv", count=32)
    assert 'name="name"' in page and 'maxlength="32"' in page and 'name="code"' in page
    assert not lesson.lesson.seats and "mk_device" not in device.cookies
    await device.close()


async def test_a_pupil_keeps_the_same_seat_and_nobody_else_can_take_it(lesson: Table) -> None:
    ada, seat = await join(lesson, "Ada")
    assert ada.cookies["mk_device"]
    status, page = await ada.get("/table")
    assert state_of(page) == "waiting" and "Ada" in text_of(page)
    # Joining again (a refresh of the join form, a second press) gives back the same seat.
    status, page = await ada.post("/join", code=lesson.lesson.code, name="Other", lang="en")
    assert status == 200 and len(lesson.lesson.seats) == 1
    # The same name from another device is refused; nobody takes over a seat by its name.
    thief = Device.new(lesson)
    status, page = await thief.post("/join", code=lesson.lesson.code, name="ada", lang="en")
    assert status == 400 and message_of(page) == t("lesson.error.name_taken", "en", name="ada")
    # A device that came back (the cookie, a new connection) is the same seat.
    back = Device.new(lesson)
    back.session.cookie_jar.update_cookies(ada.cookies, lesson.client.make_url("/"))
    status, page = await back.get("/table")
    assert (
        state_of(page) == "waiting"
        and lesson.lesson.seat_of(lesson.lesson.device(back.cookies["mk_device"])) == seat
    )
    for device in (ada, thief, back):
        await device.close()


async def test_seats_are_limited_and_nobody_is_pushed_out(lesson: Table) -> None:
    for n in range(MAX_SEATS):
        lesson.lesson.join(None, lesson.lesson.code, f"P{n}")
    late = Device.new(lesson)
    status, page = await late.post("/join", code=lesson.lesson.code, name="Late", lang="en")
    assert status == 429 and message_of(page) == t("lesson.error.full", "en", count=MAX_SEATS)
    assert len(lesson.lesson.seats) == MAX_SEATS
    await late.close()


async def test_pairing_at_random_puts_an_odd_pupil_against_the_computer(lesson: Table) -> None:
    boss = await teacher(lesson)
    pupils = [await join(lesson, name) for name in ("Ada", "Bo", "Cy")]
    status, page = await boss.post("/teacher/pair", how="random", lang="en")
    assert status == 200 and state_of(page) == "teacher"
    games = lesson.lesson.live_games()
    assert len(games) == 2
    solo = next(g for g in games if g.computer is not None)
    assert solo.seats[COMPUTER_SIDE] == () and solo.best_rate is not None  # adaptive
    for device, seat in pupils:
        status, page = await device.get("/table")
        assert state_of(page) in ("playing", "war")
        assert seat.name in text_of(page)
    status, page = await boss.get("/teacher")
    tables = re.findall(r'<article class="table-card" data-table="([\w-]+)" data-state="(\w+)" '
                        r'data-players="([^"]+)"', page)  # fmt: skip
    assert {g for g, _, _ in tables} == {g.id for g in games}
    for device, _ in pupils:
        await device.close()
    await boss.close()


async def test_teams_play_two_against_two(lesson: Table) -> None:
    """RULES §1.2: a team is one side with one pile; its two players both act for it."""
    boss = await teacher(lesson)
    await settings(lesson, boss, game="regnekrig", level="1", teams="on", answer_seconds="0")
    pupils = [await join(lesson, name) for name in ("Ada", "Bo", "Cy", "Di")]
    await boss.post("/teacher/pair", how="results", lang="en")
    (game,) = lesson.lesson.live_games()
    assert game.state.config.sides == 2 and [len(s) for s in game.seats] == [2, 2]
    first, second = game.seats[0]
    devices = {seat.id: device for device, seat in pupils}
    window = str(game.state.window)
    text = best_text(game, 0)
    status, _ = await devices[first].post("/table/act", window=window, choice="answer", answer=text)
    assert status == 200
    status, page = await devices[second].post("/table/act", window=window, choice="answer",
                                             answer="1")  # fmt: skip
    assert status == 409
    assert message_of(page) == t("table.error.already_answered", "en")
    for device, _ in pupils:
        await device.close()
    await boss.close()


async def test_a_device_without_the_seat_cannot_act_for_anyone(lesson: Table) -> None:
    boss = await teacher(lesson)
    ada, _ = await join(lesson, "Ada")
    bo, _ = await join(lesson, "Bo")
    await boss.post("/teacher/pair", how="random", lang="en")
    (game,) = lesson.lesson.live_games()
    state = game.state
    stranger = Device.new(lesson)
    for side in ("0", "1"):
        status, page = await stranger.post("/table/act", window=str(state.window), side=side,
                                           choice="answer", answer="3")  # fmt: skip
        assert status == 403 and message_of(page) == t("lesson.error.no_seat", "en")
    status, _ = await stranger.get("/table/replay.json")
    assert status == 403
    # A cross-site POST from a pupil's own browser is refused too.
    ada.session.headers["Origin"] = "http://evil.example"
    status, _ = await ada.post("/table/act", window=str(state.window), choice="answer", answer="3")
    assert status == 403
    assert game.state is state
    for device in (ada, bo, stranger, boss):
        await device.close()


async def _one_round(lesson: Table, choice: str, ada_answer: str = "", game_key: str = "regnekrig"
                     ) -> list[str]:  # fmt: skip
    """Ada decides first; what Bo's device receives until the round is revealed."""
    boss = await teacher(lesson)
    await settings(lesson, boss, game=game_key, level="1", answer_seconds="0")
    ada, ada_seat = await join(lesson, "Ada")
    bo, _ = await join(lesson, "Bo")
    await boss.post("/teacher/pair", how="random", lang="en")
    (game,) = lesson.lesson.live_games()
    await bo.listen()
    await ada.listen()
    start = len(bo.raw)
    side = side_of(game, ada_seat)
    status, _ = await ada.post("/table/act", window=str(game.state.window), choice=choice,
                               answer=ada_answer)  # fmt: skip
    assert status == 200
    # The press's answer comes after the server has sent every device its one new page; Bo
    # receives it (and anything more would show up within the settling time).
    await received(bo, start + 1)
    await settle([ada, bo])
    before_reveal = bo.raw[start:]
    assert game.state.phase in (ANSWER, BET) and side not in game.state.pending
    for device in (ada, bo, boss):
        await device.close()
    return before_reveal


async def test_an_answer_is_sent_to_nobody_else_before_the_reveal() -> None:
    """RULES §2.2: the answers are revealed together. Bo's device receives exactly the same
    raw messages whether Ada's answer is right or a sign slip, until Bo has answered too."""
    seen: list[list[str]] = []
    for typed in ("2", "-99"):
        async for served in serve(seeds=[7], kind="class"):
            served.lesson.rng = random.Random(3)
            seen.append(await _one_round(served, "answer", typed))
    assert seen[0] and seen[0] == seen[1]
    assert all("-99" not in raw and "−99" not in raw for raw in seen[1])


async def test_a_bet_is_sent_to_nobody_else_before_the_reveal() -> None:
    """RULES §3.3: the bets are decided in secret. Bo's device receives exactly the same raw
    messages whether Ada bets on the left card, the right card or not at all."""
    seen: list[list[str]] = []
    for choice in ("bet:0", "bet:1", "pass"):
        async for served in serve(seeds=[7], kind="class"):
            served.lesson.rng = random.Random(3)
            seen.append(await _one_round(served, choice, game_key="satsing"))
    assert seen[0] and seen[0] == seen[1] == seen[2]


async def test_the_summary_names_the_mistakes_typed_and_the_csv_opens_in_a_spreadsheet(
    lesson: Table,
) -> None:
    """RULES §2.6: the lesson summary names each pupil's mistakes by kind; the CSV has
    semicolons, decimal commas and a BOM in nb, commas and points in en."""
    boss = await teacher(lesson)
    await settings(lesson, boss, game="regnekrig", level="1", answer_seconds="0")
    ada, ada_seat = await join(lesson, "Ada")
    bo, bo_seat = await join(lesson, "Bo")
    await boss.post("/teacher/pair", how="random", lang="en")
    (game,) = lesson.lesson.live_games()
    cards = {s: tuple(c.value for c in game.state.up[s]) for s in (0, 1)}
    a, b = cards[side_of(game, ada_seat)]
    slip = str(-(a + b)) if a + b != 0 else str(a - b + 1)
    window = str(game.state.window)
    await ada.post("/table/act", window=window, choice="answer", answer=slip)
    await bo.post("/table/act", window=window, choice="answer",
                  answer=best_text(game, side_of(game, bo_seat)))  # fmt: skip
    kinds = {r.seat: r.mistake for r in game.records}
    assert kinds[bo_seat.id] is None and kinds[ada_seat.id] is not None
    await boss.post("/teacher/end", lang="en")
    status, page = await boss.get("/teacher/summary?lang=nb")
    assert status == 200 and state_of(page) == "summary"
    words = text_of(page)
    assert t(f"mistake.{kinds[ada_seat.id]}", "nb") + " (1)" in words
    async with boss.session.get("/teacher/summary.csv?lang=nb") as response:
        body = await response.read()
    assert body.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][0] == t("lesson.summary.column.name", "nb")
    assert [r[0] for r in rows[1:]] == ["Ada", "Bo"]  # in the order they joined, not ranked
    assert rows[2][5] == "1,00" and rows[1][5] == "0,00"
    async with boss.session.get("/teacher/summary.csv?lang=en") as response:
        english = (await response.read()).decode("utf-8")
    assert english.startswith("\ufeff") and ",1.00," in english  # a BOM in every language
    for device in (ada, bo, boss):
        await device.close()


async def test_pause_end_remove_and_new_partners(lesson: Table) -> None:
    """The teacher pauses every table (presses wait, the clocks stop), removes a seat (its
    side gives up, RULES §1.5), starts new partners, and ends the lesson (every game ends as
    when time runs out)."""
    boss = await teacher(lesson)
    await settings(lesson, boss, game="intervallkrig", minutes="10")
    pupils = {name: await join(lesson, name) for name in ("Ada", "Bo", "Cy", "Di")}
    await boss.post("/teacher/pair", how="random", lang="en")
    games = lesson.lesson.live_games()
    assert len(games) == 2
    await boss.post("/teacher/pause", lang="en")
    ada, ada_seat = pupils["Ada"]
    game = lesson.lesson.game_of(ada_seat)
    assert game is not None
    deadline = game.deadline
    assert deadline is not None  # the round's answer time runs
    lesson.clock.now += 30
    status, page = await ada.post("/table/act", window=str(game.state.window), choice="flip")
    assert status == 409 and t("lesson.paused", "en") in text_of(page)
    await boss.post("/teacher/resume", lang="en")
    assert game.deadline == deadline + 30  # the paused time is given back
    # Remove Bo: Bo's side gives up; Bo's device must join again.
    bo, bo_seat = pupils["Bo"]
    bo_game = lesson.lesson.game_of(bo_seat)
    assert bo_game is not None
    await boss.post("/teacher/remove", seat=bo_seat.id, confirm="yes", lang="en")
    assert bo_game.over and bo_game.state.outcome is not None
    assert bo_game.state.outcome.reason.value == "forfeit"
    status, page = await bo.get("/table")
    assert state_of(page) == "join"
    # New partners: the running game ends as when time runs out; once every game is over,
    # everyone waiting meets someone new (Ada played Bo, Cy played Di).
    before = {g.id for g in games}
    met = {s.id: set(s.met) for s in lesson.lesson.seats.values()}
    await boss.post("/teacher/new-partners", lang="en")
    assert all(g.over for g in games)
    fresh = [g for g in lesson.lesson.live_games() if g.id not in before]
    assert fresh
    for g in fresh:
        people = [s for held in g.seats for s in held]
        assert not any(b in met[a] for a in people for b in people if a != b)
    await boss.post("/teacher/end", lang="en")
    assert lesson.lesson.ended
    assert all(g.state.time_up or g.over for g in lesson.lesson.live_games())
    for device, _ in pupils.values():
        await device.close()
    await boss.close()


async def test_challenges_need_an_accept(lesson: Table) -> None:
    """Nobody is drawn into a game without accepting."""
    boss = await teacher(lesson)
    ada, _ = await join(lesson, "Ada")
    bo, bo_seat = await join(lesson, "Bo")
    ada_seat = next(s for s in lesson.lesson.seats.values() if s.name == "Ada")
    status, _ = await ada.post("/challenge", seat=bo_seat.id, lang="en")
    assert status == 403  # challenges are closed until the teacher opens them
    await boss.post("/teacher/challenges", lang="en")
    status, _ = await ada.post("/challenge", seat=bo_seat.id, lang="en")
    assert status == 200 and not lesson.lesson.live_games()
    status, page = await bo.get("/table")
    assert t("lesson.challenged_by", "en", name="Ada") in text_of(page)
    await bo.post("/challenge/answer", seat=ada_seat.id, answer="accept", lang="en")
    (game,) = lesson.lesson.live_games()
    assert set(game.all_seats) == {ada_seat.id, bo_seat.id}
    for device in (ada, bo, boss):
        await device.close()


async def level_1_pair(
    lesson: Table, answer_seconds: str
) -> tuple[Device, tuple[Device, Seat], tuple[Device, Seat]]:
    """The teacher's device, and Ada's and Bo's with their seats, paired in a Regnekrig game at
    level 1."""
    boss = await teacher(lesson)
    await settings(lesson, boss, game="regnekrig", level="1", answer_seconds=answer_seconds)
    ada = await join(lesson, "Ada")
    bo = await join(lesson, "Bo")
    await boss.post("/teacher/pair", how="random", lang="en")
    return boss, ada, bo


async def test_the_answer_time_runs_out_and_can_be_extended(lesson: Table) -> None:
    """RULES §2.2: no answer in time counts as no value; WCAG 2.2.1: a pupil can ask for
    more time, and the teacher can turn the timer off (0)."""
    boss, (ada, ada_seat), (bo, bo_seat) = await level_1_pair(lesson, answer_seconds="20")
    (game,) = lesson.lesson.live_games()
    side = side_of(game, ada_seat)
    at = game.answer_deadlines[side]
    status, _ = await ada.post("/table/more-time", lang="en")
    assert status == 200 and game.answer_deadlines[side] == at + 20
    lesson.clock.now += 25
    lesson.lesson.tick()
    other = side_of(game, bo_seat)
    assert other not in game.state.pending or game.state.phase is not ANSWER
    assert any(r.seat == bo_seat.id and r.mistake == "timeout" for r in game.records)
    for device in (ada, bo, boss):
        await device.close()


@pytest.mark.parametrize("lang", ["nb", "nn", "sv", "en"])
async def test_the_join_page_and_the_summary_speak_every_language(lesson: Table, lang: str) -> None:
    """Norwegian schools need bokmål and nynorsk alike: every page of the lesson in the four
    languages, and the CSV in each language's spreadsheet form."""
    device = Device.new(lesson)
    status, page = await device.get(f"/?lang={lang}")
    assert status == 200 and f'<html lang="{lang}">' in page
    assert t("lesson.join.intro", lang) in text_of(page)
    boss = await teacher(lesson)
    status, page = await boss.get(f"/teacher?lang={lang}")
    assert t("lesson.teacher.pair_random", lang) in text_of(page)
    async with boss.session.get(f"/teacher/summary.csv?lang={lang}") as response:
        body = await response.read()
    assert body.startswith("\ufeff".encode())  # in every language, as the reports
    head = body.decode("utf-8-sig").splitlines()[0]
    assert head.split("," if lang == "en" else ";")[0] == t("lesson.summary.column.name", lang)
    for one in (device, boss):
        await one.close()


async def test_a_division_at_level_1_is_told_with_the_pupils_own_calculation(
    lesson: Table,
) -> None:
    """RULES §2.6 "Illegal before missing": "When that expression is also illegal (…, an
    operation the level does not allow), the message says why it is illegal, not 'type the
    result'". On a pupil's own device in a nynorsk lesson, Ada's division at level 1 is named
    as she typed it, as Norwegian schools write it: refused without its result (typed
    again), and with one it counts as no value and says why."""
    boss, (ada, ada_seat), (bo, _) = await level_1_pair(lesson, answer_seconds="0")
    (game,) = lesson.lesson.live_games()
    side = side_of(game, ada_seat)
    a, b = (card.value for card in game.state.up[side])
    calc = (f"{a} : {b}" if b >= 0 else f"{a} : ({b})").replace("-", "\u2212")  # true minus
    why = f"Du skreiv {calc}, men teiknet : høyrer ikkje med på nivå 1."
    window = str(game.state.window)
    status, page = await ada.post("/table/act", window=window, choice="answer",
                                  answer=f"({a}):({b})", lang="nn")  # fmt: skip
    assert status == 400 and message_of(page) == f"{why} {t('answer.not_counted', 'nn')}"
    status, page = await ada.post("/table/act", window=window, choice="answer",
                                  answer=f"({a}):({b})=1", lang="nn")  # fmt: skip
    assert status == 200 and side not in game.state.pending
    assert f"{why} {t('answer.counts_as_no_value', 'nn')}" in text_of(page)
    for device in (ada, bo, boss):
        await device.close()
