"""Each pupil's real mistake, named on Discord (the issue's end-to-end test; RULES §2.6 second
edition): in one class session Alice slips signs at level 4, Bob writes −k² for (−k)² at
level 6, Carol forgets the order of operations at level 6 (`2*3^2=36`), and Dave never
simplifies a fraction at level 3 (`12/8`).

Each private reply names the pupil's own mistake with their calculation, the right one and
why; the session's summary and the teacher's report name each pupil's kind in words, each
wrong answer once. Dave's unsimplified fractions are refused and typed again (practice, never
a mistake): nothing of them is counted as a mistake, and the summary and the report name them
as practice notes ("practice notes (`not_exact`, `not_simplified`) recorded per pupil, never
counted as mistakes"), counted apart from the game's moves."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

import pytest

from classroom.i18n import Lang, t
from engine.errors import ExpressionError
from engine.judge import judge
from engine.regnekrig import ANSWER, TARGET
from engine.solver import best, number_answer
from tests.bot.e2e import (
    Table,
    assert_all_answered,
    best_answer,
    cards,
    message_text,
    private_reply,
    seed_deals,
    speak,
    strong_vs_weak,
)

ROUNDS = 5  # rounds each pupil answers with their own mistake
# What each pupil's private reply says, whatever the cards (RULES §2.6 "Feedback explains").
WORDS = {
    "alice": {"en": "Look at the sign:", "nb": "Se på fortegnet:"},
    "bob": {"en": "to square \u2212", "nb": "for å kvadrere \u2212"},
    "carol": {"en": "the square comes first", "nb": "kvadratet regnes først"},
    "dave": {"en": "Simplify the fraction:", "nb": "Forkort brøken:"},
}


def term(value: int) -> str:
    return f"({value})" if value < 0 else str(value)


def reason_of(text: str, pair: tuple[int, int], level: int) -> str | None:
    try:
        return judge(text, pair, level).reason
    except ExpressionError:
        return None


def sign_slip(pair: tuple[int, int]) -> str:
    """The best subtraction with its result's sign flipped, or a negative card read as
    positive; a correct 0 when no sign can slip (3 and 3)."""
    play = best(*pair, 4)
    assert play.value is not None
    if play.value != 0:
        return f"{play.text} = {number_answer(-play.value)}"
    return number_answer(Fraction(-(abs(pair[0]) + abs(pair[1])))) if min(pair) < 0 else "0"


def square_sign(pair: tuple[int, int]) -> str | None:
    """−k² written for the card's square, with the value of (−k)² (`-3^2+2=11`)."""
    for k, c in (pair, pair[::-1]):
        if k == 0:
            continue
        size = abs(k)
        text = f"-{size}^2+{term(c)}={size * size + c}"
        if reason_of(text, pair, 6) == "square_sign":
            return text
    return None


def left_to_right(pair: tuple[int, int]) -> str | None:
    """The square taken of all before it (`2*3^2=36`)."""
    for x, y in (pair, pair[::-1]):
        for op, value in (("*", x * y), ("+", x + y), ("-", x - y)):
            text = f"{term(x)}{op}{term(y)}^2={value * value}"
            if reason_of(text, pair, 6) == "order_of_operations":
                return text
    return None


def unsimplified(pair: tuple[int, int], level: int) -> str:
    """The best quotient with top and bottom doubled (`12/8` for 6 ÷ 4)."""
    play = best(*pair, level)
    assert play.value is not None
    value = play.value
    return f"{2 * value.numerator}/{2 * value.denominator}"


async def reach_answer(table: Table, gid: int, user: str) -> tuple[int, int]:
    """Play on (naming targets) until the pupil's side is asked to answer; its cards."""
    for _ in range(20):
        state = table.state(gid)
        if state.phase is ANSWER and 0 in state.pending:
            return cards(state, 0)
        if state.phase is TARGET and 0 in state.pending:
            await table.target(user, gid, 3)
        else:
            await table.settle()
    raise AssertionError(f"{user}'s game never asked for an answer")


def csv_rows(data: bytes, lang: Lang) -> list[list[str]]:
    text = data.decode("utf-8").removeprefix("\ufeff")
    return list(csv.reader(io.StringIO(text), delimiter="," if lang == "en" else ";"))


@pytest.mark.parametrize("lang", ["en", "nb"])
async def test_each_pupils_real_mistake_is_named(
    table: Table, lang: Lang, no_errors: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    await speak(table, lang)
    table.fake.world.add_user("dave", locale="no" if lang == "nb" else "en-US")
    seed_deals(monkeypatch, 4)
    opened = await table.driver.slash("teacher", "mattekrig admin session", minutes=1)
    assert opened.answered and not opened.rejected
    await table.settle()
    pupils = {"alice": 4, "bob": 6, "carol": 6, "dave": 3}
    games = {}
    for user, level in pupils.items():
        channel = table.fake.world.add_channel(f"table-{user}")
        games[user], _ = await table.start_computer(
            user, game="regnekrig", level=level, channel=channel
        )

    expected = {"alice": "sign_slip", "bob": "square_sign", "carol": "order_of_operations"}
    replies: dict[str, list[str]] = {user: [] for user in pupils}
    made = dict.fromkeys(pupils, 0)
    for _ in range(ROUNDS):
        for user, level in pupils.items():
            gid = games[user]
            if table.state(gid).is_over:
                continue
            pair = await reach_answer(table, gid, user)
            if user == "alice":
                text: str | None = sign_slip(pair)
            elif user == "bob":
                text = square_sign(pair)
            elif user == "carol":
                text = left_to_right(pair)
            else:
                logged = await table.events(gid)
                _, sent = await table.answer(user, gid, unsimplified(pair, level))
                assert sent is not None
                # Refused, so no action: the move log (every replay's source) is as it was.
                assert await table.events(gid) == logged
                replies[user].append(await private_reply(table.fake, sent))
                text = None
            mistaken = text is not None and text != "0"
            if text is None or not mistaken:
                text = best_answer(table.state(gid), 0)
            _, sent = await table.answer(user, gid, text)
            assert sent is not None
            if mistaken:
                made[user] += 1
                replies[user].append(await private_reply(table.fake, sent))

    # The private replies: the pupil's calculation, the right one and why (§2.6).
    for user in ("alice", "bob", "carol", "dave"):
        assert replies[user] and all(WORDS[user][lang] in r for r in replies[user]), replies[user]
    assert len(replies["dave"]) == ROUNDS
    assert all(made[user] >= 2 for user in expected), made

    clock = table.clock
    clock.advance(60)
    await table.bot.scheduler.run_due()
    await table.settle()
    for gid in games.values():  # the session's end ends every game of it (time up)
        await table.play(gid, strong_vs_weak(weak_side=-1))
    await table.bot.results.drain()
    await table.bot.scheduler.run_due()
    await table.settle()

    title = t("session.summary.title", lang)
    (summary,) = [
        m
        for m in table.fake.world.messages.values()
        if not m.ephemeral and m.embeds and m.embeds[0].get("title") == title
    ]
    shown = message_text(summary)
    for kind in expected.values():
        assert t(f"mistake.{kind}", lang) in shown, (kind, shown)
    assert t("mistake.not_simplified", lang) not in shown  # a practice note, no mistake
    # Dave's practice notes, in the lesson summary's words, apart from the mistakes.
    assert t("session.summary.notes", lang) in shown
    note = t("lesson.summary.note.not_simplified", lang)
    assert t("session.summary.mistake", lang, kind=note, count=ROUNDS, pupils=1) in shown, shown
    mine = await table.bot.sessions.my_last(table.fake.guild.id, table.user("dave").id)
    assert mine is not None  # Dave's own line, shown only to him
    assert dict(mine[1].notes) == {"not_simplified": ROUNDS} and mine[1].mistakes == ()

    report = await table.driver.slash("teacher", "mattekrig admin report")
    await table.settle()
    assert report.original is not None
    shown = message_text(report.original)
    for kind in expected.values():
        assert t(f"mistake.{kind}", lang) in shown, (kind, shown)
    assert t("path.aims", lang) in shown  # the curriculum aim of each level in the report
    assert t("summary.notes", lang, notes=f"{note} ({ROUNDS})") in shown, shown
    assert t("mistake.not_simplified", lang) not in shown
    # Both report files name the notes in a column of their own, as the lesson's CSV does:
    # Dave's line only, never among the mistakes.
    column = t("report.csv.notes", lang)
    for file in report.original.attachments[:2]:
        header, *rows = csv_rows(file.data, lang)
        noted = {row[0].casefold(): row[header.index(column)] for row in rows}
        assert {name: cell for name, cell in noted.items() if cell} == {
            "dave": f"{note} ({ROUNDS})"
        }, (file.filename, noted)
        assert t("mistake.not_simplified", lang) not in file.data.decode("utf-8")

    stats = await table.driver.slash("dave", "mattekrig stats")  # Dave's own, for him only
    await table.settle()
    assert stats.original is not None
    shown = message_text(stats.original)
    assert t("summary.notes", lang, notes=f"{note} ({ROUNDS})") in shown, shown
    assert_all_answered(table.fake)
