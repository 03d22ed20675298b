"""Each pupil's real mistake, named in the lesson's summary (the browser half of the
end-to-end test whose Discord half is `tests/bot/test_four_mistakes_e2e.py`): in one class
lesson the teacher pairs the class at level 4, where Alice slips signs; then, with new
partners, at level 6, where Bob writes −k² for (−k)² and Carol forgets the order of
operations (`2*3^2=36`); then at level 3, where Dave never simplifies a fraction (`12/8`).
Everyone else answers with the best answer. The summary page and its CSV name each pupil's
own kind in words, in English and in bokmål; Dave's fractions are a practice note, never a
mistake.

RULES §2.6: "**Not simplified**. A fraction of two whole numbers that is not in lowest
terms, typed as the answer (alone, or after the last `=`: `6:4=12/8`, `6:(-3)=-6/3`, `3/6`),
is refused as `not_simplified`: nothing is counted, the pupil may type again, and the
message asks for the fraction simplified." "**Practice notes.** `not_exact` and
`not_simplified` are never mistakes, but they are recorded per pupil and shown to the
teacher." "The mistake a wrong answer shows …, first match wins: 1. `sign_slip` — the typed
number is the negative of a value the side's cards give at this level …; 2. levels 6–7:
`square_sign` — the typed number is what the pupil's expression gives with −k² read as
(−k)² … (`-3^2+2=11`); 3. levels 5–7: `order_of_operations` — the typed number is what the
pupil's expression gives worked from left to right, or with the square taken of more than
its number (`2*3^2=36`, `2+3^2=25`)." "**One wrong answer, one mistake.** Every count (the
summary, statistics, the report, the CSVs) counts a wrong answer once, under one kind."
"Every screen, summary, statistic and report names a mistake by this kind, in the reader's
language …, never by its code."
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from fractions import Fraction

import pytest

from classroom.i18n import Lang, t
from classroom.summary import COLUMNS
from engine.errors import ExpressionError
from engine.judge import judge
from engine.regnekrig import ANSWER, TARGET
from engine.solver import best, number_answer
from table.games import TableGame
from table.lesson import Seat
from table.summary import summarise
from tests.table.lessons import Device, best_text, join, side_of, teacher
from tests.table.support import Table, text_of

pytestmark = pytest.mark.usefixtures("quiet_log")

ROUNDS = 4  # rounds each pupil answers in each pairing
PUPILS = ("Alice", "Bob", "Carol", "Dave")
KINDS = {"Alice": "sign_slip", "Bob": "square_sign", "Carol": "order_of_operations"}


def term(value: int) -> str:
    return f"({value})" if value < 0 else str(value)


def reason_of(text: str, pair: tuple[int, int], level: int) -> str | None:
    try:
        return judge(text, pair, level).reason
    except ExpressionError:
        return None


def sign_slip(pair: tuple[int, int], level: int) -> str | None:
    """The best value with its sign flipped (`3+(-5)=2`), when the engine reads it so."""
    play = best(*pair, level)
    if play.value is None or play.value == 0:
        return None
    text = f"{play.text} = {number_answer(-play.value)}"
    return text if reason_of(text, pair, level) == "sign_slip" else None


def square_sign(pair: tuple[int, int], level: int) -> str | None:
    """−k² written for the card's square, with the value of (−k)² (`-3^2+2=11`)."""
    for k, c in (pair, pair[::-1]):
        if k == 0:
            continue
        text = f"-{abs(k)}^2+{term(c)}={k * k + c}"
        if reason_of(text, pair, level) == "square_sign":
            return text
    return None


def left_to_right(pair: tuple[int, int], level: int) -> str | None:
    """The square taken of all before it (`2*3^2=36`)."""
    for x, y in (pair, pair[::-1]):
        for op, value in (("*", x * y), ("+", x + y), ("-", x - y)):
            text = f"{term(x)}{op}{term(y)}^2={value * value}"
            if reason_of(text, pair, level) == "order_of_operations":
                return text
    return None


def unsimplified(pair: tuple[int, int], level: int) -> str:
    """The best value as a fraction not in lowest terms (`12/8` for 6 ÷ 4), never the cards'
    own division (that one is the expression without its result)."""
    play = best(*pair, level)
    assert play.value is not None
    value = Fraction(play.value)
    cards = {abs(pair[0]), abs(pair[1])}
    for times in (2, 3, 5, 7):
        top, bottom = times * value.numerator, times * value.denominator
        if {abs(top), bottom} != cards:
            return f"{top}/{bottom}"
    raise AssertionError(f"no unsimplified fraction for {pair}")


Mistake = Callable[[tuple[int, int], int], "str | None"]
# The successive pairings: each at its level, with who makes their mistake there.
PAIRINGS: tuple[tuple[int, dict[str, Mistake]], ...] = (
    (4, {"Alice": sign_slip}),
    (6, {"Bob": square_sign, "Carol": left_to_right}),
    (3, {}),  # Dave's fractions, refused and typed again
)


def cards_of(game: TableGame, side: int) -> tuple[int, int]:
    first, second = (c.value for c in game.state.up[side])
    return first, second


async def press(
    game: TableGame, device: Device, seat: Seat, wrong: dict[str, Mistake],
    made: dict[str, int], notes: dict[str, int],
) -> int:  # fmt: skip
    """The seat's press in `game`, if it is asked for one: a target, or an answer (its
    mistake when `wrong` has one for it and the cards allow it; Dave's unsimplified fraction
    first when `notes` counts his). 1 when it answered."""
    side = side_of(game, seat)
    state = game.state
    if game.over or side not in state.pending:
        return 0
    name, window = seat.name, str(state.window)
    if state.phase is TARGET:
        status, _ = await device.post("/table/act", window=window, choice="target:3",
                                      lang="en")  # fmt: skip
        assert status == 200
        return 0
    assert state.phase is ANSWER
    level = state.config.level
    pair = cards_of(game, side)
    if name == "Dave" and "Dave" in notes and level == 3:
        noted = dict(game.tally.notes.get(seat.id, {}))
        status, _ = await device.post("/table/act", window=window, choice="answer",
                                      answer=unsimplified(pair, level), lang="en")  # fmt: skip
        # Refused (type again): nothing counted, but the practice note kept.
        assert status == 400 and game.state.window == state.window
        assert game.tally.notes[seat.id].get("not_simplified", 0) == (
            noted.get("not_simplified", 0) + 1
        )
        notes[name] += 1
    text = wrong[name](pair, level) if name in wrong else None
    if text is None:
        text = best_text(game, side)
    else:
        made[name] += 1
    status, _ = await device.post("/table/act", window=window, choice="answer", answer=text,
                                  lang="en")  # fmt: skip
    assert status == 200
    return 1


async def play_pairing(
    lesson: Table, devices: dict[str, Device], seats: dict[str, str], level: int,
    wrong: dict[str, Mistake], made: dict[str, int], notes: dict[str, int],
) -> None:  # fmt: skip
    """Every pupil answers `ROUNDS` rounds: the pupils in `wrong` with their mistake when
    their cards allow it, Dave (at level 3) first with his fraction unsimplified."""
    answered = dict.fromkeys(PUPILS, 0)
    for _ in range(400):
        if all(n >= ROUNDS for n in answered.values()):
            return
        for name in PUPILS:
            seat = lesson.lesson.seats[seats[name]]
            for game in [g for g in lesson.lesson.live_games() if seat.id in sum(g.seats, ())]:
                if game.state.config.level == level:
                    answered[name] += await press(game, devices[name], seat, wrong, made, notes)
                else:  # the last pairing's round in play is finished first (RULES §1.5)
                    await press(game, devices[name], seat, {}, {}, {})
    raise AssertionError(f"the pairing at level {level} never got {ROUNDS} answers: {answered}")


async def test_each_pupils_real_mistake_is_named_in_the_lesson_summary(lesson: Table) -> None:
    boss = await teacher(lesson)
    devices: dict[str, Device] = {}
    seats: dict[str, str] = {}
    for name in PUPILS:
        devices[name], seat = await join(lesson, name)
        seats[name] = seat.id
    made = dict.fromkeys(PUPILS, 0)
    notes = dict.fromkeys(PUPILS, 0)
    form = {"game": "regnekrig", "answer_seconds": "0", "lang": "en"}
    for level, wrong in PAIRINGS:
        # The teacher chooses the level in the pairing form: first a pairing, then new partners.
        if level == PAIRINGS[0][0]:
            status, _ = await boss.post("/teacher/pair", how="random", level=str(level), **form)
        else:
            status, _ = await boss.post("/teacher/new-partners", level=str(level), **form)
        assert status == 200
        assert any(g.state.config.level == level for g in lesson.lesson.live_games())
        await play_pairing(lesson, devices, seats, level, wrong, made, notes)
    assert all(made[name] >= 2 for name in KINDS), made  # each pupil's own mistake, often
    assert notes["Dave"] == ROUNDS

    # Each pupil's own kind, each wrong answer once; Dave's fractions a note, no mistake.
    summary = summarise(lesson.lesson)
    for name in PUPILS:
        lines = [p for p in summary.pupils if p.name == name]
        mistakes = [m for p in lines for m in p.mistakes]
        assert mistakes == ([(KINDS[name], made[name])] if name in KINDS else []), (name, lines)
        found = {kind: n for p in lines for kind, n in p.notes}
        assert found == ({"not_simplified": ROUNDS} if name == "Dave" else {}), (name, lines)

    at = {c: i for i, c in enumerate(COLUMNS)}
    langs: tuple[Lang, ...] = ("en", "nb")
    for lang in langs:
        status, page = await boss.get(f"/teacher/summary?lang={lang}")
        assert status == 200
        words = text_of(page)
        for kind in KINDS.values():
            assert t(f"mistake.{kind}", lang) in words, (kind, lang)
        note = t("lesson.summary.note.not_simplified", lang)
        assert f"{note} ({ROUNDS})" in words, (lang, words)
        assert t("mistake.not_simplified", lang) not in words  # a practice note, no mistake

        async with boss.session.get(f"/teacher/summary.csv?lang={lang}") as response:
            assert response.status == 200
            body = (await response.read()).decode("utf-8-sig")
        # The spreadsheet's own separator: ";" where the decimal mark is a comma (nb).
        split = ";" if t("notation.decimal_mark", lang) == "," else ","
        header, *rows = list(csv.reader(io.StringIO(body), delimiter=split))
        assert header == [t(f"lesson.summary.column.{c}", lang) for c in COLUMNS]
        for name in PUPILS:
            mine = [r for r in rows if r[at["name"]] == name]
            assert mine, (name, rows)
            said = " ".join(r[at["mistakes"]] for r in mine)
            noted = " ".join(r[at["notes"]] for r in mine)
            if name in KINDS:
                own = t(f"mistake.{KINDS[name]}", lang)
                assert f"{own} ({made[name]})" in said, (name, said)
                others = [k for k in KINDS.values() if k != KINDS[name]]
                assert not any(t(f"mistake.{k}", lang) in said for k in others), said
            else:
                assert said.strip() == "" and f"{note} ({ROUNDS})" in noted, (said, noted)
            assert t("mistake.not_simplified", lang) not in said
    for device in (*devices.values(), boss):
        await device.close()
