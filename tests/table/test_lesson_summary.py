"""A summary a teacher can file: the date and time span; one part per game and level played (a
pupil who played level 1 and level 7 has a row in each); for each pupil rounds, best-move
rate, exact hits, mistakes by kind, practice notes (rounded, not simplified) and one line of
what to practise next; the same in the CSV."""

from __future__ import annotations

import csv
import io
from datetime import date
from fractions import Fraction

import pytest

from classroom.i18n import t
from classroom.settings import settings_from_options
from classroom.summary import COLUMNS, Played, Pupil, next_text, notes_text, part_title
from classroom.summary import summarise as summarise_class
from engine.regnekrig import ANSWER
from table.games import Games
from table.press import Refused, press
from table.summary import summarise
from tests.table.lessons import best_text, join, side_of, teacher
from tests.table.support import Table, text_of

pytestmark = pytest.mark.usefixtures("quiet_log")


async def test_a_part_per_game_and_level_with_the_date_and_the_same_in_the_csv(
    lesson: Table,
) -> None:
    boss = await teacher(lesson)
    status, _ = await boss.post("/teacher/settings", game="regnekrig", level="1",
                                answer_seconds="0", lang="en")  # fmt: skip
    assert status == 200
    (ada, ada_seat), (bo, bo_seat) = await join(lesson, "Ada"), await join(lesson, "Bo")
    await boss.post("/teacher/pair", how="random", lang="en")
    (first,) = lesson.lesson.live_games()
    for device, seat, wrong in ((ada, ada_seat, True), (bo, bo_seat, False)):
        text = "99" if wrong else best_text(first, side_of(first, seat))
        await device.post("/table/act", window=str(first.state.window), choice="answer",
                          answer=text, lang="en")  # fmt: skip
    status, _ = await boss.post("/teacher/settings", game="regnekrig", level="7",
                                answer_seconds="0", lang="en")  # fmt: skip
    await boss.post("/teacher/new-partners", lang="en")
    while not first.over:  # the round in play is finished (RULES §1.5)
        for device, seat in ((ada, ada_seat), (bo, bo_seat)):
            side = side_of(first, seat)
            if first.state.phase is ANSWER and side in first.state.pending:
                best = best_text(first, side)
                await device.post("/table/act", window=str(first.state.window),
                                  choice="answer", answer=best, lang="en")  # fmt: skip
    later = [g for g in lesson.lesson.live_games() if g is not first]
    assert later and all(g.state.config.level == 7 for g in later)

    summary = summarise(lesson.lesson)
    parts = {key: [p.name for p in pupils] for key, pupils in summary.parts()}
    assert parts == {("regnekrig", 1): ["Ada", "Bo"], ("regnekrig", 7): ["Ada", "Bo"]}
    (ada_1,) = [p for p in summary.pupils if p.name == "Ada" and p.level == 1]
    assert ada_1.mistakes and ada_1.answers >= 1 and ada_1.rate is not None
    assert summary.start_ms is not None and summary.end_ms is not None

    status, page = await boss.get("/teacher/summary?lang=nb")
    words = text_of(page)
    assert status == 200 and date.today().isoformat() in words
    for level in (1, 7):
        assert part_title("regnekrig", level, "nb") in words
    assert next_text(ada_1.next, "nb") in words

    async with boss.session.get("/teacher/summary.csv?lang=sv") as response:
        rows = list(csv.reader(io.StringIO((await response.read()).decode("utf-8-sig")),
                               delimiter=";"))  # fmt: skip
    header, *lines = rows
    assert header == [t(f"lesson.summary.column.{c}", "sv") for c in COLUMNS]
    at = {c: i for i, c in enumerate(COLUMNS)}
    found = sorted((r[at["name"]], r[at["level"]]) for r in lines)
    assert found == [("Ada", "1"), ("Ada", "7"), ("Bo", "1"), ("Bo", "7")]
    assert all(r[at["game"]] == t("game.regnekrig.name", "sv") for r in lines)
    assert all(date.today().isoformat() in r[at["when"]] for r in lines)
    (ada_row,) = [r for r in lines if r[at["name"]] == "Ada" and r[at["level"]] == "1"]
    assert ada_row[at["next"]] == next_text(ada_1.next, "sv") != ""
    for device in (ada, bo, boss):
        await device.close()


def _thirds(value: Fraction | None) -> bool:
    return value is not None and value.denominator % 3 == 0


def test_a_rounded_answer_is_a_practice_note_never_a_mistake() -> None:
    """RULES §2.6 "Practice notes": `not_exact` is never a mistake, but it is recorded per
    pupil and shown to the teacher. A quotient in thirds typed rounded to two places, then as
    a fraction not in lowest terms, is refused each time (the pupil may type again); the
    summary's row says "rounded (1), not simplified (1)" and counts no mistake."""
    settings = settings_from_options(game="regnekrig", level=3, answer_seconds=0)
    games = Games(lambda: 0.0, iter(range(1, 200)).__next__)
    for _ in range(150):
        game = games.start(settings, ("Ada", "Bo"), (("a",), ("b",)))
        a, b = (c.value for c in game.state.up[0])
        quotients = [Fraction(x, y) for x, y in ((a, b), (b, a)) if y]
        quotient = next((q for q in quotients if _thirds(q)), None)
        if quotient is not None:
            break
    else:
        raise AssertionError("no deal gave a quotient in thirds")
    typed = f"{float(quotient):.2f}"
    with pytest.raises(Refused) as refused:
        press(game, (0,), {0: "a"}, {"window": str(game.state.window), "choice": "answer",
                                     "answer": typed}, 0.0)  # fmt: skip
    assert refused.value.key.endswith("not_exact")
    unsimplified = f"{4 * quotient.numerator}/{4 * quotient.denominator}"  # no card is 12
    with pytest.raises(Refused) as refused:
        press(game, (0,), {0: "a"}, {"window": str(game.state.window), "choice": "answer",
                                     "answer": unsimplified}, 0.0)  # fmt: skip
    assert refused.value.key.endswith("not_simplified")
    assert game.tally.notes["a"] == {"not_exact": 1, "not_simplified": 1}
    assert game.records == []  # neither is an answer, nor a mistake
    played = Played("regnekrig", 3, game.seats, game.tally)
    ada, _ = summarise_class([played], [Pupil("a", "Ada"), Pupil("b", "Bo")]).pupils
    assert ada.notes == (("not_exact", 1), ("not_simplified", 1)) and ada.mistakes == ()
    rounded, unsimplified = (
        t(f"lesson.summary.note.{k}", "nb") for k in ("not_exact", "not_simplified")
    )
    assert notes_text(ada.notes, "nb") == f"{rounded} (1), {unsimplified} (1)"
